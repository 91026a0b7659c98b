// What the two trace targets check once a trace is accepted: its streams
// read without an error, it converts to either format (`agxsim trace
// convert`), and each conversion opens again with the same launch and the
// same instructions in the streams the walk visits.
#pragma once

#include <sstream>
#include <string>

#include "sim/trace/open_trace.hpp"
#include "sim/trace/trace_writer.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace agx_fuzz {

// Instructions read from each stream a walk visits: enough to pass through
// a few repeat passes, few enough that a repeat of 2^32 costs nothing.
inline constexpr std::size_t kWalkLimit = 2000;

inline bool same_launch(const agx::Launch& a, const agx::Launch& b) {
    return a.threads_per_threadgroup == b.threads_per_threadgroup &&
           a.threadgroups == b.threadgroups && a.registers_halves == b.registers_halves &&
           a.threadgroup_memory_bytes == b.threadgroup_memory_bytes &&
           a.overhead_cycles == b.overhead_cycles && a.code_in_l2_bytes == b.code_in_l2_bytes;
}

// The instructions of `a`'s and `b`'s walks, pair by pair. Pcs are compared
// when `pcs`: a text trace's pcs survive a conversion to binary, but a
// binary trace's are numbered again by the text rules (traces/FORMAT.md).
inline void compare_walks(agx::Workload& a, agx::Workload& b, bool pcs, const char* what) {
    std::vector<agx::Instruction> first;
    walk_streams(a, kWalkLimit,
                 [&](std::uint32_t, std::uint32_t, std::size_t, const agx::Instruction& in) {
                     first.push_back(in);
                 });
    std::size_t i = 0;
    walk_streams(b, kWalkLimit,
                 [&](std::uint32_t g, std::uint32_t s, std::size_t n, const agx::Instruction& in) {
                     if (i >= first.size())
                         finding(std::string(what) + ": threadgroup " + std::to_string(g) +
                                 " simd " + std::to_string(s) + " has more instructions");
                     agx::Instruction x = first[i++];
                     if (!pcs) x.pc = in.pc;
                     if (!agx::same_instruction(x, in, false))
                         finding(std::string(what) + ": threadgroup " + std::to_string(g) +
                                 " simd " + std::to_string(s) + " instruction " +
                                 std::to_string(n) + " differs");
                 });
    if (i != first.size()) finding(std::string(what) + ": fewer instructions");
}

// `path` was accepted by open_trace(); `original` is what it opened.
inline void check_accepted_trace(const std::string& path, agx::Workload& original,
                                 bool binary_origin) {
    std::uint64_t sum = 0;
    must_work("reading the accepted trace's streams", [&] {
        walk_streams(original, kWalkLimit,
                     [&](std::uint32_t, std::uint32_t, std::size_t, const agx::Instruction& in) {
                         sum += touch(in);
                     });
    });
    for (const bool to_binary : {false, true}) {
        std::ostringstream out;
        must_work(to_binary ? "trace convert --format binary" : "trace convert --format text", [&] {
            auto writer =
                to_binary ? agx::make_binary_trace_writer(out) : agx::make_text_trace_writer(out);
            agx::replay_trace(path, *writer);
        });
        const std::string converted =
            write_file(to_binary ? "converted.agxb" : "converted.trace", out.str());
        const char* what = to_binary ? "the binary conversion" : "the text conversion";
        std::unique_ptr<agx::Workload> a, b;
        must_work(what, [&] {
            a = agx::open_trace(path);
            b = agx::open_trace(converted);
        });
        if (!same_launch(a->launch(), b->launch()))
            finding(std::string(what) + ": the launch differs");
        must_work(what, [&] { compare_walks(*a, *b, !binary_origin || to_binary, what); });
    }
    if (sum == 42) std::fputc('\n', stderr);  // keeps the walk from being optimised away
}

}  // namespace agx_fuzz
