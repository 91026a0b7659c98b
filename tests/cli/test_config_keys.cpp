// Every numeric config key does what it says: set to a second valid value,
// it moves some statistic of a workload that exercises it. A key that cannot
// is listed in kInert with the reason, and a listed key that does move
// fails too, so the list cannot go stale. (core.wait_slots once changed
// nothing at any value; the key went.)
//
// The workloads: the example traces and a few kernels for the machine's
// keys, and for each timing class a trace of its own instruction, one
// dependent chain per simd beside independent work, so that its latency,
// its issue interval and its dispatch cycles all show.
#include <catch2/catch.hpp>

#include "tests/cli/cli_run.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/catalogue.hpp"

using namespace agx_test;
using nlohmann::json;

namespace {

// Keys no workload can move, and why. Each is still set and run: a listed
// key that moves a statistic fails the test.
const std::map<std::string, std::string> kInert = {
    {"core.deadlock_cycles",
     "a detector's threshold: it changes nothing until a run stops making progress for that "
     "long, and then the run fails (tests/cli/test_bad_inputs.cpp, 'a run stopped by an error')"},
    {"core.register_file.max_halves_per_thread",
     "the occupancy table's last step must be at it, so no other value is valid while the "
     "table stays; it bounds the registers a launch may declare"},
    {"core.icache.set_hash_bits",
     "the bits above the index that a hash folds in: the icache's set_index is low_bits on m1, "
     "which folds none"},
    {"memory.l2.line_bytes",
     "at least the core caches' lines and at most the SLC's, all 128 B on m1: no other value "
     "is valid while they stay"},
};

const std::string kConfig = "m1";

struct Workload {
    std::string label;
    std::string args;  // the command (`run` or `suite run`), the workload and its own options
};

// A trace of one simd kind of work with the launch `launch` and the body
// `body` repeated `times` times by every simd.
fs::path small_trace(const std::string& name, const std::string& launch, unsigned simds,
                     const std::string& body, unsigned times) {
    return write_file(name + ".trace", "agxsim-trace 1\nkernel name=" + name + "\nlaunch " +
                                           launch + "\nsimd 0.." + std::to_string(simds - 1) +
                                           "\n  repeat " + std::to_string(times) + "\n" + body +
                                           "  end\nend\n");
}

std::vector<Workload> machine_workloads() {
    const std::string kernels = std::string(AGX_SOURCE_DIR) + "/traces/kernels/";
    std::vector<Workload> w;
    for (const char* e :
         {"load_wait_use", "threadgroup_reduce", "imad_fadd_mix", "fadd16_ilp4", "ffma_chain"})
        w.push_back({e, "run " + example(std::string(e) + ".trace")});
    // Residency set by the register file: 172 half-registers round to 176
    // (allocation granule 8) and fit 18 simds, or 19 at a granule of 4.
    w.push_back({"register_bound",
                 "run " + small_trace("register_bound",
                                      "threads_per_threadgroup=32 threadgroups=64 registers=172",
                                      64, "    fmadd32 r0, r1, r2, r3\n    fadd32 r4, r0, r5\n", 32)
                              .string()});
    // 16 loads in flight on one wait slot before the wait: past the 8 a
    // slot holds.
    std::string loads;
    for (unsigned k = 0; k < 16; ++k)
        loads += "    device_load r" + std::to_string(2 * k) +
                 ", u0_u1 slot=0 size=32 addr=" + std::to_string(0x100000 + 4096 * k) + "+4*lane\n";
    w.push_back({"many_loads",
                 "run " + small_trace("many_loads",
                                      "threads_per_threadgroup=32 threadgroups=1 registers=64", 1,
                                      loads + "    wait 0\n", 4)
                              .string()});
    // Threadgroups of 1024 threads: the core's limit.
    w.push_back({"large_threadgroup",
                 "run " + small_trace("large_threadgroup",
                                      "threads_per_threadgroup=1024 threadgroups=2 registers=16",
                                      64, "    fadd32 r0, r1, r2\n", 8)
                              .string()});
    // Back-to-back stores and atomics of both memories, and a threadgroup
    // atomic's result used at once.
    std::string memory_ops =
        "    threadgroup_atomic r6, r5, 0, r3 addr=0+4*lane\n"
        "    fadd32 r7, r6, r6\n";
    for (unsigned k = 1; k <= 3; ++k)
        memory_ops += "    threadgroup_store r4, r5 addr=" + std::to_string(128 * k) + "+4*lane\n";
    for (unsigned k = 0; k < 3; ++k)
        memory_ops +=
            "    device_store r0, u0_u1 slot=1 addr=" + std::to_string(0x100000 + 4096 * k) +
            "+4*lane\n";
    for (unsigned k = 3; k < 5; ++k)
        memory_ops += "    atomic r" + std::to_string(5 + k) +
                      ", r6, u2_u3 slot=0 addr=" + std::to_string(0x100000 + 4096 * k) +
                      "+4*lane\n";
    w.push_back({"memory_ops",
                 "run " + small_trace("memory_ops",
                                      "threads_per_threadgroup=128 threadgroups=1 registers=32 "
                                      "threadgroup_memory=1024",
                                      4, memory_ops + "    wait 0\n    wait 1\n", 8)
                              .string()});
    // Code larger than the instruction cache, fetched again every pass.
    w.push_back({"code_size", "suite run -m " + std::string(AGX_SOURCE_DIR) +
                                  "/validation/data/memory_m1.json memory/code_size/16KiB/m1"});
    // All cores: the shared L2, SLC and DRAM see every core's traffic.
    w.push_back({"saxpy", "run " + kernels + "saxpy.agxk --cores all --set launch.n=16384"});
    w.push_back(
        {"sgemm_tiled", "run " + kernels + "sgemm_tiled.agxk --cores all --set launch.n=64"});
    w.push_back({"histogram256", "run " + kernels + "histogram256.agxk --set launch.n=8192"});
    // 12 MB, more than the SLC holds.
    w.push_back({"stream_triad",
                 "run " + kernels + "stream_triad.agxk --cores all --set launch.n=1048576"});
    return w;
}

struct KeyRun {
    int code = -1;
    json stats;
    std::string err;
};

// `agxsim run` of a workload on m1 with `set` (may be empty); its statistics
// without the host's own figures (seconds, rates), which differ run to run.
KeyRun run_keyed(const Workload& w, const std::string& set) {
    static int n = 0;
    const fs::path stats = scratch() / ("stats" + std::to_string(++n) + ".json");
    const fs::path err = scratch() / "keys_stderr.txt";
    const std::string cmd = agx_test::agxsim_exe() + " " + w.args + " --config " + kConfig +
                            (set.empty() ? "" : " --set '" + set + "'") + " --stats " +
                            stats.string() + " >/dev/null 2>" + err.string();
    const int status = std::system(cmd.c_str());
    KeyRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = slurp(err);
    if (r.code == 0) {
        r.stats = json::parse(slurp(stats));
        fs::remove(stats);
        // The host's figures and the config as given are not the model's statistics.
        std::function<void(json&)> strip = [&](json& j) {
            if (!j.is_object()) return;
            for (auto it = j.begin(); it != j.end();) {
                const std::string& k = it.key();
                if (k.find("host") != std::string::npos || k.find("seconds") != std::string::npos ||
                    k.find("per_second") != std::string::npos || k == "config") {
                    it = j.erase(it);
                } else {
                    strip(*it);
                    ++it;
                }
            }
        };
        strip(r.stats);
    }
    return r;
}

// Values to try instead of `v`, as the key's type has them: twice, half, and
// for integers eight times it.
std::vector<std::string> other_values(const json& v) {
    std::vector<std::string> out;
    if (v.is_number_integer() || v.is_number_unsigned()) {
        const auto x = v.get<std::uint64_t>();
        out.push_back(std::to_string(x == 0 ? 1 : x * 2));
        if (x / 2 >= 1) out.push_back(std::to_string(x / 2));
        // A rate another unit's own rate hides at twice the value shows at 8x.
        if (x != 0) out.push_back(std::to_string(x * 8));
        // A count of address bits shows only at the workloads' small
        // addresses: none at all.
        if (x > 1) out.push_back("0");
    } else {
        const double x = v.get<double>();
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", x * 2);
        out.push_back(buf);
        std::snprintf(buf, sizeof buf, "%.17g", x / 2);
        out.push_back(buf);
    }
    return out;
}

void numeric_leaves(const json& j, const std::string& at, std::map<std::string, json>& out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            numeric_leaves(it.value(), at.empty() ? it.key() : at + "." + it.key(), out);
    } else if (j.is_number()) {
        out[at] = j;
    }
}

// Whether `key` moves some statistic of one of `workloads`: the value that
// did, or "" (and every value tried, with why it was not a move, in `why`).
std::string first_move(const std::string& key, const json& value,
                       const std::vector<Workload>& workloads, std::map<std::string, json>& base,
                       std::string& why) {
    // Workload by workload, every value the key takes: most keys move the
    // first workload that exercises them, under one value or another.
    std::vector<std::string> values = other_values(value);
    for (const Workload& w : workloads) {
        if (!base.count(w.label)) {
            const KeyRun b = run_keyed(w, "");
            INFO(w.label << ": " << b.err);
            REQUIRE(b.code == 0);
            base[w.label] = b.stats;
        }
        for (auto v = values.begin(); v != values.end();) {
            const KeyRun r = run_keyed(w, key + "=" + *v);
            const std::string error = r.err.substr(0, r.err.find('\n'));
            if (r.code == 2 && error.find("--set " + key + "=") != std::string::npos) {
                // Not a valid value of the key: not tried again.
                why += " " + *v + ": refused (" + error + ");";
                v = values.erase(v);
                continue;
            }
            // A limit that now refuses a workload the machine ran: it moved.
            if (r.code == 2) return *v + " refuses " + w.label + " (" + error + ")";
            if (r.code != 0)
                why += " " + *v + " on " + w.label + ": exit " + std::to_string(r.code) + " (" +
                       error + ");";
            else if (r.stats != base[w.label])
                return *v + " on " + w.label;
            ++v;
        }
    }
    for (const std::string& v : values) why += " " + v + ": no statistic moved;";
    return {};
}

void check_keys(const std::map<std::string, json>& keys,
                const std::function<std::vector<Workload>(const std::string&)>& workloads_of) {
    std::map<std::string, json> base;
    for (const auto& [key, value] : keys) {
        std::string why;
        const std::string moved = first_move(key, value, workloads_of(key), base, why);
        const auto inert = kInert.find(key);
        INFO(key << " = " << value.dump() << ":" << why);
        if (inert == kInert.end()) {
            CHECK_FALSE(moved.empty());
        } else {
            INFO("listed as inert (" << inert->second << "), yet " << moved << " moved it");
            CHECK(moved.empty());
        }
    }
}

json m1_config() {
    const Result r = agxsim("config show " + kConfig + " --no-sources");
    REQUIRE(r.code == 0);
    return json::parse(r.out);
}

// `r<first>` as an operand of `halves` halves: r4l, r4, r4_r5.
std::string reg(unsigned first, unsigned halves) {
    const std::string r = "r" + std::to_string(first);
    if (halves == 1) return r + "l";
    if (halves == 4) return r + "_r" + std::to_string(first + 1);
    return r;
}

// The instruction `in` with destination r<dst> and sources from r<src>;
// an immediate where the operand takes only that.
std::string instruction_line(const agx::isa::InstructionInfo& in, unsigned dst, unsigned src) {
    std::string line = std::string(in.mnemonic);
    bool first = true;
    for (const auto& spec : in.operands) {
        if (spec.optional) break;
        std::string text;
        if (spec.role == agx::isa::OperandRole::Dst) {
            text = reg(dst, spec.width_halves);
        } else if (!spec.allow_register) {
            text = "0";
        } else {
            text = reg(src, spec.width_halves);
            src += 2;
        }
        line += (first ? " " : ", ") + text;
        first = false;
    }
    return line;
}

// A trace of `in` alone: per simd, a chain through r0 (each instruction
// reads the last one's result) beside independent instructions into r16
// and up. 4 threadgroups of 8 simds keep every scheduler busy.
std::string class_trace(const agx::isa::InstructionInfo& in) {
    std::string t =
        "agxsim-trace 1\nkernel name=timing_class\n"
        "launch threads_per_threadgroup=256 threadgroups=4 registers=128 "
        "threadgroup_memory=0\nsimd 0..31\n  repeat 16\n";
    t += "    " + instruction_line(in, 0, 0) + "\n";
    for (unsigned k = 0; k < 3; ++k) t += "    " + instruction_line(in, 16 + 4 * k, 32) + "\n";
    t += "  end\nend\n";
    return t;
}

}  // namespace

TEST_CASE("config keys: each numeric key of the machine moves some statistic") {
    std::map<std::string, json> keys;
    numeric_leaves(m1_config(), "", keys);
    for (auto it = keys.begin(); it != keys.end();)
        it = it->first.rfind("core.timing.", 0) == 0 ? keys.erase(it) : std::next(it);
    REQUIRE(keys.size() > 40);
    const auto workloads = machine_workloads();
    check_keys(keys, [&](const std::string&) { return workloads; });
}

TEST_CASE("config keys: each timing class's latency, issue interval and dispatch cycles count") {
    std::map<std::string, json> keys;
    numeric_leaves(m1_config(), "", keys);
    for (auto it = keys.begin(); it != keys.end();)
        it = it->first.rfind("core.timing.", 0) != 0 ? keys.erase(it) : std::next(it);
    REQUIRE(keys.size() >= 3 * agx::isa::Catalogue::instance().timing_classes().size());

    // A trace per class whose instructions can stand alone (no memory, no
    // control flow); the memory and control classes take the machine's
    // workloads, which load, store, wait and meet at barriers.
    using agx::isa::Unit;
    std::map<std::string, Workload> class_workload;
    for (const auto& in : agx::isa::Catalogue::instance().entries()) {
        const std::string cls(in.timing_class);
        if (class_workload.count(cls) || in.memory != agx::isa::MemorySpace::None ||
            in.unit == Unit::Control || in.unit == Unit::LoadStore || in.unit == Unit::Threadgroup)
            continue;
        const fs::path trace = write_file("class_" + cls + ".trace", class_trace(in));
        const Workload w{"class " + cls + " (" + std::string(in.mnemonic) + ")",
                         "run " + trace.string()};
        const KeyRun r = run_keyed(w, "");
        INFO(w.label << ": " << r.err);
        CHECK(r.code == 0);
        class_workload[cls] = w;
    }
    const auto machine = machine_workloads();
    check_keys(keys, [&](const std::string& key) {
        const std::string cls = key.substr(12, key.rfind('.') - 12);
        const auto it = class_workload.find(cls);
        return it == class_workload.end() ? machine : std::vector<Workload>{it->second};
    });
}
