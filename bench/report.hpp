// The benchmark's results, as a table for people or JSON for tools.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace agx::bench {

struct SimulationRow {
    std::string name, what;
    std::uint64_t simd_instructions = 0;
    std::uint64_t cycles = 0;
    unsigned cores = 1;       // cores simulated
    double host_seconds = 0;  // the simulation's wall time, elaboration included
    double cpu_seconds = 0;   // the whole child process's user + system time
    long peak_rss_kb = 0;     // of the whole child process
    std::string error;        // set if the child failed

    double instructions_per_second() const {
        return host_seconds > 0 ? simd_instructions / host_seconds : 0;
    }
    double cycles_per_second() const { return host_seconds > 0 ? cycles / host_seconds : 0; }
    // Cycles times the cores simulated, per host second: the cost of a
    // simulated core-cycle, comparable between one core and a chip.
    double core_cycles_per_second() const { return cores * cycles_per_second(); }
    double ns_per_instruction() const {
        return simd_instructions ? 1e9 * host_seconds / simd_instructions : 0;
    }
};

struct DecodeRow {
    std::string kind, what;
    std::uint64_t instructions = 0;
    std::uint64_t file_bytes = 0;
    double open_seconds = 0, decode_seconds = 0;  // wall time
    double decode_cpu_seconds = 0;
    long peak_rss_kb = 0;
    std::string error;

    double instructions_per_second() const {
        return decode_seconds > 0 ? instructions / decode_seconds : 0;
    }
    double instructions_per_cpu_second() const {
        return decode_cpu_seconds > 0 ? instructions / decode_cpu_seconds : 0;
    }
};

struct Report {
    std::string config, mode;
    unsigned runs = 1;  // the fastest of this many runs of each measurement
    std::vector<SimulationRow> workloads, scaling;
    std::vector<DecodeRow> decode;
};

void print_table(std::ostream& out, const Report& r);
nlohmann::json to_json(const Report& r);

}  // namespace agx::bench
