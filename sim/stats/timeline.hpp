// A timeline of a run in Chrome's trace-event format (JSON), which
// Perfetto's UI (ui.perfetto.dev) and chrome://tracing open: a process per
// core, a track per scheduler whose slices are runs of instructions one simd
// issued back to back (named by the simd and the first instruction), and
// counter tracks per core: resident simds, simds in the active pools, IPC,
// and each stall cause's share of the scheduler-cycles, sampled every
// `counter_interval` cycles. Timestamps are cycles (one trace microsecond
// per cycle).
//
// It streams: events are written as they happen, so memory does not grow
// with the run; `max_events` caps the file (the run goes on, the timeline
// stops, and says where), and a window [from, to) keeps only that range.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/timing/engine_observer.hpp"
#include "sim/timing/memory_observer.hpp"

namespace agx {

struct TimelineOptions {
    Cycle from = 0, to = kNever;  // the window: events in [from, to)
    std::uint64_t max_events = 500'000;
    Cycle counter_interval = 256;
};

class Timeline : public EngineObserver, public MemoryObserver {
  public:
    Timeline(std::ostream& out, const TimelineOptions& options, unsigned schedulers_per_core);

    void stepped(const CoreSample& s) override;
    void issued(const IssueRecord& r) override;
    void waited(unsigned, const InstructionKey&, std::size_t, Cycle, Cycle) override {}
    // An async slice per request on the "memory requests" process, one
    // track per level.
    void memory_request(const char* level, std::uint64_t address, bool write, Cycle start,
                        Cycle end, bool hit) override;

    // Closes the open slices and the JSON document.
    void finish(Cycle end);

    std::uint64_t events() const { return events_; }
    bool capped() const { return capped_; }
    Cycle capped_at() const { return capped_at_; }

  private:
    struct Run {
        bool open = false;
        std::uint32_t simd = 0, count = 0, first_pc = 0;
        isa::Opcode first_opcode = 0;
        Cycle start = 0, last = 0;
    };
    struct CoreCounters {
        bool named = false;
        Cycle last_sample = 0;
        std::vector<SchedulerCounters> at_last;  // the schedulers' counters then
    };
    bool in_window(Cycle c) const { return c >= options_.from && c < options_.to; }
    void close(unsigned core, unsigned scheduler, Run& run);
    void name_core(unsigned core);
    // Starts an event, or refuses once the cap is reached (recording where).
    bool begin_event(Cycle at);
    void counter(unsigned core, const char* name, Cycle at, const std::string& args);

    std::ostream& out_;
    TimelineOptions options_;
    unsigned schedulers_;
    std::vector<Run> runs_;  // by core x schedulers + scheduler
    std::vector<CoreCounters> cores_;
    std::uint64_t events_ = 0;
    std::uint64_t next_request_id_ = 1;
    bool capped_ = false;
    Cycle capped_at_ = 0;
};

}  // namespace agx
