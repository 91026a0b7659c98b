#include "validation/lib/runner.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

#include "sim/common/child_process.hpp"
#include "sim/model/simulation.hpp"
#include "validation/lib/memory_workload.hpp"
#include "validation/lib/suite_workload.hpp"

namespace agx::validation {

namespace {

struct Job {
    std::size_t def;
    std::uint32_t repetitions;
};

struct Outcome {
    Cycle cycles = 0;
    std::uint64_t instructions = 0;
    unsigned simds = 0;
    std::string error;
};

// The child: simulate; "cycles instructions simds" or "! message".
std::string run_child(const MachineConfig& cfg, const BenchmarkDefinition& def,
                      std::uint32_t reps) {
    std::string out;
    try {
        if (def.memory) {
            MemoryWorkload w(def, cfg, reps);
            RunOptions options;
            options.cores = w.cores();
            const RunResult r = simulate(cfg, w, options);
            out = std::to_string(r.cycles) + " " + std::to_string(r.simd_instructions) + " " +
                  std::to_string(w.simds_per_core());
        } else {
            SuiteWorkload w(def, cfg.core, reps);
            const RunResult r = simulate(cfg, w, {});
            out = std::to_string(r.cycles) + " " + std::to_string(r.simd_instructions) + " " +
                  std::to_string(w.simds_per_core());
        }
    } catch (const std::exception& e) {
        out = std::string("! ") + e.what();
    }
    for (char& ch : out)
        if (ch == '\n') ch = ' ';
    return out;
}

Outcome parse(const std::string& text) {
    Outcome o;
    if (text.rfind("! ", 0) == 0) {
        o.error = text.substr(2);
    } else if (std::sscanf(text.c_str(), "%llu %llu %u",
                           reinterpret_cast<unsigned long long*>(&o.cycles),
                           reinterpret_cast<unsigned long long*>(&o.instructions), &o.simds) != 3) {
        o.error = "simulation process ended without a result";
    }
    return o;
}

}  // namespace

double figure_from_cycles(const BenchmarkDefinition& def, unsigned schedulers, Cycle cycles,
                          std::uint32_t repetitions, unsigned simds) {
    return static_cast<double>(cycles) * schedulers /
           (static_cast<double>(repetitions) * def.bodies_per_repetition() * simds * def.waves);
}

std::vector<SimulatedFigure> simulate_benchmarks(
    const MachineConfig& cfg, const std::vector<BenchmarkDefinition>& defs, unsigned parallel,
    const std::function<void(bool ok, std::size_t simulations)>& on_done,
    const SimulationCache* cache) {
    std::vector<Job> jobs;
    for (std::size_t i = 0; i < defs.size(); ++i) {
        jobs.push_back({i, defs[i].repetitions});
        if (defs[i].method == BenchmarkDefinition::Method::Steady)
            jobs.push_back({i, 2 * defs[i].repetitions});
    }
    std::vector<Outcome> outcomes(jobs.size());
    std::vector<std::string> keys(cache ? jobs.size() : 0);
    const std::uint64_t config_digest = cache ? cache->config_digest(cfg) : 0;

    struct Running {
        std::size_t job;
        ChildProcess child;
    };
    std::map<int, Running> running;
    std::size_t next = 0;
    parallel = std::max(1u, parallel);
    while (next < jobs.size() || !running.empty()) {
        while (next < jobs.size() && running.size() < parallel) {
            const Job& job = jobs[next];
            if (cache) {
                keys[next] = cache->key(config_digest, defs[job.def], job.repetitions);
                if (const auto stored = cache->find(keys[next])) {
                    outcomes[next] = parse(*stored);
                    if (outcomes[next].error.empty()) {
                        if (on_done) on_done(true, jobs.size());
                        ++next;
                        continue;
                    }
                    outcomes[next] = Outcome{};  // unreadable: simulate it again
                }
            }
            ChildProcess child =
                ChildProcess::fork([&] { return run_child(cfg, defs[job.def], job.repetitions); });
            const int pid = child.pid();
            running.emplace(pid, Running{next++, std::move(child)});
        }
        if (running.empty()) continue;  // the rest were all in the cache
        ChildExit ended;
        const int pid = wait_any(ended);
        if (pid < 0) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
        const auto it = running.find(pid);
        if (it == running.end()) continue;
        const std::string text = it->second.child.read_output();
        outcomes[it->second.job] = parse(text);
        if (ended.exit_code() != 0) outcomes[it->second.job].error = "simulation process crashed";
        if (cache && outcomes[it->second.job].error.empty())
            cache->store(keys[it->second.job], text);
        if (on_done) on_done(outcomes[it->second.job].error.empty(), jobs.size());
        running.erase(it);
    }

    std::vector<SimulatedFigure> figures(defs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        const Outcome& o = outcomes[j];
        SimulatedFigure& f = figures[jobs[j].def];
        const BenchmarkDefinition& def = defs[jobs[j].def];
        if (!f.error.empty()) continue;
        if (!o.error.empty()) {
            f.error = o.error;
            continue;
        }
        const auto figure = [&](Cycle cycles) {
            return def.memory ? memory_figure(def, cfg, cycles, def.repetitions, o.simds)
                              : figure_from_cycles(def, cfg.core.schedulers, cycles,
                                                   def.repetitions, o.simds);
        };
        if (def.method == BenchmarkDefinition::Method::Total) {
            f.cycles = o.cycles;
            f.simd_instructions = o.instructions;
            f.value = figure(o.cycles);
        } else if (jobs[j].repetitions == def.repetitions) {
            f.cycles = o.cycles;  // the N run; the 2N run follows in the job list
        } else {
            const Cycle base = f.cycles;
            f.cycles = o.cycles;
            f.simd_instructions = o.instructions;
            f.value = figure(o.cycles > base ? o.cycles - base : 0);
        }
    }
    return figures;
}

}  // namespace agx::validation
