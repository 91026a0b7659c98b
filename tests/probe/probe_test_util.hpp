// Helpers shared by the probe's tests: benchmark definitions written out in
// full (so the golden files do not move when validation/suite/method.json
// does), files and processes.
#pragma once

#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "validation/lib/benchmark.hpp"

namespace probe_test {

using agx::validation::BenchmarkDefinition;
using agx::validation::OperandShape;

inline BenchmarkDefinition definition(const std::string& name, const std::string& op,
                                      std::uint32_t ilp, std::uint32_t simds, std::uint32_t bits,
                                      std::uint32_t repetitions, BenchmarkDefinition::Method method,
                                      OperandShape shape = OperandShape::Distinct,
                                      std::uint32_t unroll = 0) {
    BenchmarkDefinition d;
    d.name = name;
    d.body = {{op, 1}};
    d.ilp = ilp;
    d.simds_per_core = simds;
    d.register_bits = bits;
    d.repetitions = repetitions;
    d.method = method;
    d.operand_shape = shape;
    d.unroll = unroll;
    return d;
}

// The reference tables' throughput and latency points (validation/suite/method.json).
inline BenchmarkDefinition throughput(const std::string& op, std::uint32_t bits = 32) {
    return definition(op + "/throughput", op, 4, 88, bits, 120,
                      BenchmarkDefinition::Method::Steady);
}
inline BenchmarkDefinition latency(const std::string& op, std::uint32_t bits = 32,
                                   std::uint32_t unroll = 0) {
    auto d = definition(op + "/latency", op, 1, 4, bits, 1440, BenchmarkDefinition::Method::Total,
                        OperandShape::Distinct, unroll);
    d.overhead_cycles = bits == 16 ? 1684.8 : 2448.0;
    return d;
}

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// One directory per test process, removed when the process exits.
inline std::filesystem::path scratch() {
    struct Scratch {
        std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("agxsim-probe-tests-" + std::to_string(::getpid()));
        Scratch() { std::filesystem::create_directories(dir); }
        ~Scratch() {
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        }
    };
    static const Scratch s;
    return s.dir;
}

struct Result {
    int code = -1;
    std::string out, err;
};

// Runs a shell command line, capturing stdout and stderr.
inline Result shell(const std::string& command) {
    static int n = 0;
    const auto out = scratch() / ("out" + std::to_string(n) + ".txt");
    const auto err = scratch() / ("err" + std::to_string(n++) + ".txt");
    const int status = std::system((command + " >" + out.string() + " 2>" + err.string()).c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

inline std::string quoted(const std::string& s) {
    return "'" + s + "'";
}

}  // namespace probe_test
