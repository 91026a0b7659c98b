// A long command's progress on stderr (a sweep's points, validate's
// simulations): a bar redrawn in place on a terminal, a line a minute
// otherwise (a batch log), and each failure's error as it happens.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace agx::cli {

class SweepProgress {
  public:
    // `total` items, of which `done` (with `failed`) finished before this run;
    // `command` and `items` name them in the lines ("sweep", "points").
    SweepProgress(std::size_t total, std::size_t done, std::size_t failed, bool enabled,
                  std::string command = "sweep", std::string items = "points");
    void point_done(bool ok, const std::string& error);
    void finish();

  private:
    void draw(bool force);

    using Clock = std::chrono::steady_clock;
    std::size_t total_, done_, failed_, done_at_start_, drawn_done_ = SIZE_MAX;
    bool enabled_, tty_, drawn_ = false;
    std::string command_, items_;
    Clock::time_point start_, last_line_;
};

}  // namespace agx::cli
