#include "sim/stats/timeline.hpp"

#include <algorithm>
#include <cstdio>

#include "isa/catalogue.hpp"

namespace agx {

Timeline::Timeline(std::ostream& out, const TimelineOptions& options, unsigned schedulers_per_core)
    : out_(out), options_(options), schedulers_(schedulers_per_core) {
    out_ << "{\"traceEvents\": [\n";
    // Metadata first, so that every later event follows a comma.
    out_
        << R"({"name": "process_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "memory requests"}})";
}

bool Timeline::begin_event(Cycle at) {
    if (capped_) return false;
    if (events_ >= options_.max_events) {
        capped_ = true;
        capped_at_ = at;
        return false;
    }
    ++events_;
    out_ << ",\n";
    return true;
}

void Timeline::name_core(unsigned core) {
    if (cores_.size() <= core) cores_.resize(core + 1);
    CoreCounters& c = cores_[core];
    if (c.named) return;
    c.named = true;
    const unsigned pid = core + 1;
    out_ << ",\n{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": " << pid
         << ", \"tid\": 0, \"args\": {\"name\": \"core " << core << "\"}}";
    for (unsigned s = 0; s < schedulers_; ++s)
        out_ << ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": " << pid
             << ", \"tid\": " << s + 1 << ", \"args\": {\"name\": \"scheduler " << s << "\"}}";
}

void Timeline::close(unsigned core, unsigned scheduler, Run& run) {
    if (!run.open) return;
    run.open = false;
    if (!begin_event(run.start)) return;
    const auto& cat = isa::Catalogue::instance();
    const std::string first(cat.info(run.first_opcode).mnemonic);
    char name[96];
    if (run.count == 1)
        std::snprintf(name, sizeof name, "%s (simd %u)", first.c_str(), run.simd);
    else
        std::snprintf(name, sizeof name, "simd %u: %u instructions", run.simd, run.count);
    out_ << "{\"name\": \"" << name
         << "\", \"cat\": \"issue\", \"ph\": \"X\", \"ts\": " << run.start
         << ", \"dur\": " << run.last + 1 - run.start << ", \"pid\": " << core + 1
         << ", \"tid\": " << scheduler + 1 << ", \"args\": {\"simd\": " << run.simd
         << ", \"instructions\": " << run.count << ", \"first\": \"" << first
         << "\", \"first_pc\": " << run.first_pc << "}}";
}

void Timeline::issued(const IssueRecord& r) {
    if (!in_window(r.cycle)) return;
    name_core(r.core);
    const std::size_t index = static_cast<std::size_t>(r.core) * schedulers_ + r.scheduler;
    if (runs_.size() <= index) runs_.resize(index + 1);
    Run& run = runs_[index];
    // A run goes on while the same simd issues on consecutive cycles.
    if (run.open && run.simd == r.simd && r.cycle == run.last + 1) {
        run.last = r.cycle;
        ++run.count;
        return;
    }
    close(r.core, r.scheduler, run);
    run = {true, r.simd, 1, r.instruction->pc, r.instruction->opcode, r.cycle, r.cycle};
}

void Timeline::memory_request(const char* level, std::uint64_t address, bool write, Cycle start,
                              Cycle end, bool hit) {
    if (!in_window(start)) return;
    std::string name = level;
    if (name.rfind("gpu.", 0) == 0) name = name.substr(4);
    if (name.find("core_") == 0) name += " miss";
    const std::uint64_t id = next_request_id_++;
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(address));
    // A pair of events: both or neither.
    if (capped_) return;
    if (events_ + 2 > options_.max_events) {
        capped_ = true;
        capped_at_ = start;
        return;
    }
    begin_event(start);
    out_ << "{\"name\": \"" << name << "\", \"cat\": \"memory\", \"ph\": \"b\", \"id\": " << id
         << ", \"ts\": " << start << ", \"pid\": 0, \"tid\": 0, \"args\": {\"address\": \"" << addr
         << "\", \"write\": " << (write ? "true" : "false")
         << ", \"hit\": " << (hit ? "true" : "false") << "}}";
    begin_event(end);
    out_ << "{\"name\": \"" << name << "\", \"cat\": \"memory\", \"ph\": \"e\", \"id\": " << id
         << ", \"ts\": " << std::max(end, start) << ", \"pid\": 0, \"tid\": 0}";
}

void Timeline::counter(unsigned core, const char* name, Cycle at, const std::string& args) {
    if (!begin_event(at)) return;
    out_ << "{\"name\": \"" << name << "\", \"ph\": \"C\", \"ts\": " << at
         << ", \"pid\": " << core + 1 << ", \"args\": {" << args << "}}";
}

void Timeline::stepped(const CoreSample& s) {
    name_core(s.core);
    CoreCounters& c = cores_[s.core];
    if (c.at_last.empty()) c.at_last.resize(s.schedulers->size());
    if (s.cycle < c.last_sample + options_.counter_interval && s.cycle != 0) return;
    const Cycle span = s.cycle - c.last_sample;
    if (span > 0 && in_window(c.last_sample)) {
        // Shares over the scheduler-cycles since the last sample, drawn from
        // the start of that span.
        std::array<std::uint64_t, kStallCauseCount> stalls{};
        std::uint64_t issued = 0;
        for (std::size_t sc = 0; sc < s.schedulers->size(); ++sc) {
            const SchedulerCounters& now = (*s.schedulers)[sc];
            issued += now.issued - c.at_last[sc].issued;
            for (std::size_t k = 0; k < kStallCauseCount; ++k)
                stalls[k] += now.stalls[k] - c.at_last[sc].stalls[k];
        }
        const double total = static_cast<double>(span) * static_cast<double>(s.schedulers->size());
        char buf[64];
        std::snprintf(buf, sizeof buf, "\"ipc\": %.3f",
                      static_cast<double>(issued) / static_cast<double>(span));
        counter(s.core, "IPC", c.last_sample, buf);
        std::string shares;
        for (std::size_t k = 0; k < kStallCauseCount; ++k) {
            std::snprintf(buf, sizeof buf, "%s\"%s\": %.3f", k ? ", " : "",
                          stall_cause_name(static_cast<StallCause>(k)),
                          static_cast<double>(stalls[k]) / total);
            shares += buf;
        }
        counter(s.core, "stall share", c.last_sample, shares);
    }
    if (in_window(s.cycle)) {
        counter(s.core, "resident simds", s.cycle,
                "\"simds\": " + std::to_string(s.resident_simds));
        counter(s.core, "active pool", s.cycle, "\"simds\": " + std::to_string(s.active_pool));
    }
    c.last_sample = s.cycle;
    c.at_last = *s.schedulers;
}

void Timeline::finish(Cycle end) {
    for (std::size_t i = 0; i < runs_.size(); ++i)
        close(static_cast<unsigned>(i / schedulers_), static_cast<unsigned>(i % schedulers_),
              runs_[i]);
    out_ << "\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"time_unit\": \"1 us = 1 core "
            "cycle\", "
            "\"end_cycle\": "
         << end << ", \"events\": " << events_ << ", \"capped\": " << (capped_ ? "true" : "false")
         << ", \"capped_at_cycle\": " << capped_at_ << "}}\n";
}

}  // namespace agx
