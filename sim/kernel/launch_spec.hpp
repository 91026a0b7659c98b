// The launch of a kernel (traces/KERNEL.md, "Launch directives"): the grid,
// the threadgroup, registers, threadgroup memory, named parameters, device
// buffers and what each uniform register holds. Directives are read as
// text, overridden by `--set launch.KEY=VALUE`, then resolved into plain
// values; integer values are small expressions over parameters and the
// grid's and threadgroup's sizes, so a buffer follows `--set launch.grid=`.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/kernel/device_memory.hpp"

namespace agx::kernel {

// One directive as written: its keyword, key=value pairs (in order) and
// where it stands, for messages.
struct Directive {
    std::string keyword;  // "launch", "param", "buffer", "uniform", "kernel"
    std::string subject;  // the word after the keyword for buffer/uniform ("x", "u0_u1")
    std::vector<std::pair<std::string, std::string>> values;
    std::string where;  // "<path>:<line>"
};

struct LaunchText {
    std::vector<Directive> directives;
};

// What a uniform register holds at launch.
struct UniformInit {
    std::uint16_t first_half = 0;  // u0 = 0, u0h = 1, u1 = 2
    std::uint8_t halves = 2;       // 1, 2 or 4
    std::uint64_t bits = 0;
};

struct ResolvedLaunch {
    std::array<std::uint32_t, 3> grid{1, 1, 1};         // threads
    std::array<std::uint32_t, 3> threadgroup{1, 1, 1};  // threads
    std::uint32_t registers_halves = 0;
    std::uint32_t threadgroup_memory = 0;
    std::uint32_t stack_bytes = 0;  // per thread, for stack_load / stack_store
    std::vector<BufferSpec> buffers;
    // Uniforms that hold a buffer's address: (uniform, buffer index, byte offset).
    struct BufferBinding {
        UniformInit uniform;
        std::size_t buffer;
        std::uint64_t offset;
    };
    std::vector<BufferBinding> bindings;
    std::vector<UniformInit> constants;

    std::array<std::uint32_t, 3> threadgroups() const {
        std::array<std::uint32_t, 3> n{};
        for (int d = 0; d < 3; ++d) n[d] = (grid[d] + threadgroup[d] - 1) / threadgroup[d];
        return n;
    }
    std::uint32_t threads_per_threadgroup() const {
        return threadgroup[0] * threadgroup[1] * threadgroup[2];
    }
    std::uint64_t threadgroup_count() const {
        auto n = threadgroups();
        return std::uint64_t{n[0]} * n[1] * n[2];
    }
};

// "u4", "u4l", "u4h", "u0_u1": a uniform register or a 64-bit pair, as its
// first 16-bit half and width (bits left 0). Throws InputError naming
// `where` for anything else.
UniformInit parse_uniform(const std::string& text, const std::string& where);

// `overrides`: "KEY=VALUE" from `--set launch.KEY=VALUE` (KEY a launch key
// or a declared parameter). Throws InputError naming the directive's
// file and line, or the override, and the reason.
ResolvedLaunch resolve_launch(const LaunchText& text, const std::vector<std::string>& overrides);

}  // namespace agx::kernel
