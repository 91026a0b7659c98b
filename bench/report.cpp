#include "report.hpp"

#include <cstdio>

#include "sim/common/format.hpp"

namespace agx::bench {

namespace {

std::string mib(long kb) {
    return format_number("%.1f", kb / 1024.0);
}

void simulation_header(std::ostream& out, const char* first) {
    char line[256];
    std::snprintf(line, sizeof line, "%-20s %10s %10s %7s %6s %13s %10s %9s %8s %13s\n", first,
                  "SIMD-instr", "cycles", "host s", "cpu s", "SIMD-instr/s", "cycles/s", "ns/instr",
                  "peak MiB", "core-cycles/s");
    out << line;
}

void simulation_row(std::ostream& out, const SimulationRow& r) {
    char line[256];
    if (!r.error.empty())
        std::snprintf(line, sizeof line, "%-20s failed: %s\n", r.name.c_str(), r.error.c_str());
    else
        std::snprintf(line, sizeof line, "%-20s %10s %10s %7.2f %6.2f %13s %10s %9.1f %8s %13s\n",
                      r.name.c_str(), si(static_cast<double>(r.simd_instructions)).c_str(),
                      si(static_cast<double>(r.cycles)).c_str(), r.host_seconds, r.cpu_seconds,
                      si(r.instructions_per_second()).c_str(), si(r.cycles_per_second()).c_str(),
                      r.ns_per_instruction(), mib(r.peak_rss_kb).c_str(),
                      si(r.core_cycles_per_second()).c_str());
    out << line;
}

void decode_header(std::ostream& out) {
    char line[256];
    std::snprintf(line, sizeof line, "%-20s %10s %10s %7s %8s %6s %13s %11s %8s\n",
                  "binary trace decode", "instr", "file", "open s", "decode s", "cpu s", "instr/s",
                  "instr/cpu-s", "peak MiB");
    out << line;
}

void decode_row(std::ostream& out, const DecodeRow& d) {
    char line[256];
    if (!d.error.empty())
        std::snprintf(line, sizeof line, "%-20s failed: %s\n", d.kind.c_str(), d.error.c_str());
    else
        std::snprintf(line, sizeof line, "%-20s %10s %9sB %7.3f %8.3f %6.3f %13s %11s %8s\n",
                      d.kind.c_str(), si(static_cast<double>(d.instructions)).c_str(),
                      si(static_cast<double>(d.file_bytes)).c_str(), d.open_seconds,
                      d.decode_seconds, d.decode_cpu_seconds,
                      si(d.instructions_per_second()).c_str(),
                      si(d.instructions_per_cpu_second()).c_str(), mib(d.peak_rss_kb).c_str());
    out << line;
}

nlohmann::json row_json(const SimulationRow& r) {
    nlohmann::json j = {{"name", r.name}, {"what", r.what}};
    if (!r.error.empty()) {
        j["error"] = r.error;
        return j;
    }
    j["simd_instructions"] = r.simd_instructions;
    j["cycles"] = r.cycles;
    j["host_seconds"] = r.host_seconds;
    j["cpu_seconds"] = r.cpu_seconds;
    j["simd_instructions_per_second"] = r.instructions_per_second();
    j["cycles_per_second"] = r.cycles_per_second();
    j["cores"] = r.cores;
    j["core_cycles_per_second"] = r.core_cycles_per_second();
    j["ns_per_simd_instruction"] = r.ns_per_instruction();
    j["peak_rss_kib"] = r.peak_rss_kb;
    return j;
}

nlohmann::json row_json(const DecodeRow& d) {
    nlohmann::json j = {{"kind", d.kind}, {"what", d.what}};
    if (!d.error.empty()) {
        j["error"] = d.error;
        return j;
    }
    j["instructions"] = d.instructions;
    j["file_bytes"] = d.file_bytes;
    j["open_seconds"] = d.open_seconds;
    j["decode_seconds"] = d.decode_seconds;
    j["decode_cpu_seconds"] = d.decode_cpu_seconds;
    j["instructions_per_second"] = d.instructions_per_second();
    j["instructions_per_cpu_second"] = d.instructions_per_cpu_second();
    j["peak_rss_kib"] = d.peak_rss_kb;
    return j;
}

}  // namespace

void print_table(std::ostream& out, const Report& r) {
    out << "agxsim_bench: " << r.config << ", " << r.mode << " run, fastest of " << r.runs
        << (r.runs == 1 ? " run" : " runs") << " of each row, every run a process of its own\n\n";
    simulation_header(out, "workload");
    for (const auto& row : r.workloads) simulation_row(out, row);
    if (!r.scaling.empty()) {
        out << "\n";
        simulation_header(out, "scaling");
        for (const auto& row : r.scaling) simulation_row(out, row);
    }
    if (!r.decode.empty()) {
        out << "\n";
        decode_header(out);
        for (const auto& d : r.decode) decode_row(out, d);
    }

    out << "\n";
    for (const auto& row : r.workloads) out << "  " << row.name << ": " << row.what << "\n";
    if (!r.scaling.empty()) out << "  scaling: " << r.scaling.front().what << "\n";
    for (const auto& d : r.decode) out << "  decode " << d.kind << ": " << d.what << "\n";
    out << "  host s: the simulation's wall time (elaboration included), as `agxsim run` reports "
           "it;\n"
           "  cpu s: the process's CPU time (well below host s means the machine was busy);\n"
           "  peak MiB: the process's ru_maxrss\n";
}

nlohmann::json to_json(const Report& r) {
    nlohmann::json j = {{"config", r.config}, {"mode", r.mode}, {"runs", r.runs}};
    j["workloads"] = nlohmann::json::array();
    for (const auto& row : r.workloads) j["workloads"].push_back(row_json(row));
    j["scaling"] = nlohmann::json::array();
    for (const auto& row : r.scaling) j["scaling"].push_back(row_json(row));
    j["decode"] = nlohmann::json::array();
    for (const auto& d : r.decode) j["decode"].push_back(row_json(d));
    return j;
}

}  // namespace agx::bench
