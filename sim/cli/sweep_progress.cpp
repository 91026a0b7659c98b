#include "sim/cli/sweep_progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <utility>

namespace agx::cli {

namespace {

std::string duration(double seconds) {
    char buf[32];
    const long s = static_cast<long>(seconds + 0.5);
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%lds", s);
    return buf;
}

}  // namespace

SweepProgress::SweepProgress(std::size_t total, std::size_t done, std::size_t failed, bool enabled,
                             std::string command, std::string items)
    : total_(total),
      done_(done),
      failed_(failed),
      done_at_start_(done),
      enabled_(enabled),
      tty_(::isatty(STDERR_FILENO) != 0),
      command_(std::move(command)),
      items_(std::move(items)),
      start_(Clock::now()),
      last_line_(start_) {
    draw(true);
}

void SweepProgress::point_done(bool ok, const std::string& error) {
    ++done_;
    if (!ok) {
        ++failed_;
        if (tty_ && drawn_) std::cerr << "\r\033[K";
        std::cerr << "agxsim: " << error << "\n";
        drawn_ = false;
    }
    draw(false);
}

void SweepProgress::draw(bool force) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (!tty_ && !force && now - last_line_ < std::chrono::minutes(1) && done_ < total_) return;
    last_line_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const std::size_t ran = done_ - done_at_start_;
    std::string left = "-";
    if (ran > 0) left = duration(elapsed / ran * (total_ - done_));
    constexpr int kWidth = 30;
    const int filled = total_ ? static_cast<int>(kWidth * done_ / total_) : kWidth;
    std::string bar(filled, '#');
    bar += std::string(kWidth - filled, '.');
    char line[200];
    std::snprintf(line, sizeof line, "[%s] %zu/%zu %s, %zu failed, %s left", bar.c_str(), done_,
                  total_, items_.c_str(), failed_, left.c_str());
    if (tty_)
        std::cerr << "\r\033[K" << line << std::flush;
    else
        std::cerr << "agxsim: " << command_ << " " << line << "\n";
    drawn_ = true;
    drawn_done_ = done_;
}

void SweepProgress::finish() {
    if (!enabled_) return;
    if (done_ != drawn_done_ || !drawn_) draw(true);
    if (tty_) std::cerr << "\n";
}

}  // namespace agx::cli
