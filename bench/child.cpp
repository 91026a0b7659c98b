#include "child.hpp"

#include <time.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "sim/trace/binary_trace.hpp"
#include "sim/trace/trace_writer.hpp"
#include "workloads.hpp"

namespace agx::bench {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double cpu_seconds() {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

void print(const nlohmann::json& j) {
    std::printf("%s\n", j.dump().c_str());
    std::fflush(stdout);
}

}  // namespace

int simulate_child(const std::string& name, std::uint64_t instructions, unsigned cores,
                   const std::string& config, const std::string& trace_dir) {
    const MachineConfig cfg = load_config(config);
    std::unique_ptr<Workload> workload;
    if (trace_dir.empty()) {
        workload = make_workload(name, instructions, cores);
    } else {
        const std::string path = trace_dir + "/" + name + ".agxb";
        {
            std::ofstream out(path, std::ios::binary);
            if (!write_program_trace(name, instructions, cores, *make_binary_trace_writer(out))) {
                std::fprintf(stderr, "agxsim_bench: %s cannot be written as a trace\n",
                             name.c_str());
                return 1;
            }
        }
        workload = open_binary_trace(path);
    }
    RunOptions options;
    options.cores = cores;
    const RunResult r = simulate(cfg, *workload, options);
    print({{"simd_instructions", r.simd_instructions},
           {"cycles", r.cycles},
           {"host_seconds", r.host_seconds}});
    return 0;
}

int decode_child(const std::string& kind, std::uint64_t instructions,
                 const std::string& trace_dir) {
    const std::string path = trace_dir + "/decode_" + kind + ".agxb";
    {
        std::ofstream out(path, std::ios::binary);
        auto writer = make_binary_trace_writer(out);
        if (kind == "repeat") {
            write_program_trace("ffma_ilp4", instructions, 1, *writer);
        } else if (kind == "flat") {
            auto w = make_workload("stream_load", instructions, 1);
            write_workload(*w, "stream_load", *writer);
        } else {
            std::fprintf(stderr, "agxsim_bench: no decode kind '%s'\n", kind.c_str());
            return 1;
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto w = open_binary_trace(path);
    const double open_seconds = seconds_since(t0);

    // All simds resident at once, one instruction each in turn: how the
    // schedulers pull from the streams, and the hardest case for the shared
    // chunk cache.
    const auto t1 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    const std::uint32_t per_group = w->launch().simds_per_threadgroup();
    std::vector<std::unique_ptr<InstructionStream>> streams;
    for (std::uint32_t g = 0; g < w->launch().threadgroups * per_group; ++g)
        streams.push_back(w->open(g / per_group, g % per_group));
    std::uint64_t n = 0, checksum = 0;
    for (bool any = true; any;) {
        any = false;
        for (auto& s : streams) {
            if (const Instruction* in = s->peek()) {
                checksum += in->pc;  // use what was decoded
                s->advance();
                ++n;
                any = true;
            }
        }
    }
    const double decode_seconds = seconds_since(t1);
    const double decode_cpu_seconds = cpu_seconds() - cpu0;
    print({{"instructions", n},
           {"open_seconds", open_seconds},
           {"decode_seconds", decode_seconds},
           {"decode_cpu_seconds", decode_cpu_seconds},
           {"file_bytes", std::filesystem::file_size(path)},
           {"checksum", checksum}});
    return 0;
}

}  // namespace agx::bench
