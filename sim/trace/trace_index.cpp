#include "sim/trace/trace_index.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/trace/instruction_check.hpp"
#include "sim/trace/kernel_name.hpp"
#include "sim/trace/memory_fault.hpp"
#include "sim/trace/trace_parse.hpp"

namespace agx::trace_detail {

namespace {

constexpr std::size_t kIndexBuffer = 64 * 1024;  // one sequential pass: a larger buffer pays

// Calls f(key, value) for each `key=N` word of a `what` line (launch,
// buffer), values at most `max`.
template <class F>
void for_each_number(std::string_view rest, const LineContext& at, const char* what,
                     std::uint64_t max, F f) {
    while (!rest.empty()) {
        auto word = next_word(rest);
        auto eq = word.find('=');
        if (eq == std::string_view::npos)
            fail(at, std::string(what) + ": expected key=value, got '" + std::string(word) + "'");
        auto key = word.substr(0, eq);
        auto value = word.substr(eq + 1);
        std::uint64_t v = 0;
        if (!parse_uint(value, v, max))
            fail(at, std::string(what) + ": bad value '" + std::string(value) + "' for " +
                         std::string(key) + "=");
        f(key, v);
    }
}

// `threadgroups=4 registers=32 ...` -> checks and fills the launch.
Launch parse_launch(std::string_view rest, const LineContext& at) {
    Launch l;
    bool tpt = false, tgs = false, regs = false;
    for_each_number(rest, at, "launch", UINT32_MAX, [&](std::string_view key, std::uint64_t v) {
        auto n = static_cast<std::uint32_t>(v);
        if (key == "threads_per_threadgroup") {
            if (n < 1 || n > 1024) fail(at, "launch: threads_per_threadgroup must be 1..1024");
            l.threads_per_threadgroup = n, tpt = true;
        } else if (key == "threadgroups") {
            if (n < 1) fail(at, "launch: threadgroups must be at least 1");
            l.threadgroups = n, tgs = true;
        } else if (key == "registers") {
            // 128 registers of 2 halves (applegpu's docs); the core rounds up to its granularity.
            if (n < 1 || n > 256) fail(at, "launch: registers must be 1..256 half-registers");
            l.registers_halves = n, regs = true;
        } else if (key == "threadgroup_memory") {
            l.threadgroup_memory_bytes = n;
        } else if (key == "overhead") {
            l.overhead_cycles = n;
        } else if (key == "code_in_l2") {
            l.code_in_l2_bytes = n;
        } else {
            fail(at, "launch: unknown key '" + std::string(key) + "'");
        }
    });
    if (!tpt) fail(at, "launch needs threads_per_threadgroup=");
    if (!tgs) fail(at, "launch needs threadgroups=");
    if (!regs) fail(at, "launch needs registers= (16-bit half-registers per thread)");
    std::uint64_t total = std::uint64_t{l.threadgroups} * l.simds_per_threadgroup();
    if (total > UINT32_MAX) fail(at, "launch: more than 2^32 simds");
    return l;
}

// `N` or `A..B`.
void parse_range(std::string_view text, const LineContext& at, std::uint32_t total,
                 SectionIndex& s) {
    auto dots = text.find("..");
    std::uint64_t a = 0, b = 0;
    bool ok = dots == std::string_view::npos ? parse_uint(text, a, UINT32_MAX) && (b = a, true)
                                             : parse_uint(text.substr(0, dots), a, UINT32_MAX) &&
                                                   parse_uint(text.substr(dots + 2), b, UINT32_MAX);
    if (!ok || text.empty())
        fail(at, "bad simd range '" + std::string(text) + "' (expected N or A..B)");
    if (a > b) fail(at, "bad simd range '" + std::string(text) + "': first above last");
    if (b >= total)
        fail(at, "simd " + std::to_string(b) + " out of range: the launch has " +
                     std::to_string(total) + " simds (0.." + std::to_string(total - 1) + ")");
    s.first_simd = static_cast<std::uint32_t>(a);
    s.last_simd = static_cast<std::uint32_t>(b);
}

std::string hex(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// `base=0x100000 size=65536` -> a buffer.
BufferRange parse_buffer(std::string_view rest, const LineContext& at) {
    BufferRange b;
    b.line = at.line;
    bool have_base = false, have_size = false;
    for_each_number(rest, at, "buffer", UINT64_MAX, [&](std::string_view key, std::uint64_t v) {
        if (key == "base") {
            b.base = v, have_base = true;
        } else if (key == "size") {
            if (v == 0) fail(at, "buffer: size must be at least 1");
            b.size = v, have_size = true;
        } else {
            fail(at, "buffer: unknown key '" + std::string(key) + "' (expected base= and size=)");
        }
    });
    if (!have_base || !have_size) fail(at, "buffer needs base= and size=");
    if (b.base + b.size < b.base) fail(at, "buffer: base + size overflows 64 bits");
    return b;
}

// The lane addresses of a memory instruction: aligned to the access, inside
// a declared buffer (device memory, when any are declared) or inside the
// launch's threadgroup memory.
void check_addresses(const Instruction& in, const TraceIndex& index, const LineContext& at) {
    const auto& info = isa::Catalogue::instance().info(in.opcode);
    if (info.memory == isa::MemorySpace::None) return;
    const unsigned size = std::max<unsigned>(1, in.mem.bytes_per_lane);
    const unsigned align = natural_alignment(size);
    const bool device = info.memory == isa::MemorySpace::Device;
    const std::uint64_t tg_bytes = index.launch.threadgroup_memory_bytes;
    for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(in.active_mask >> lane & 1u)) continue;
        const std::uint64_t a = in.mem.address(lane);
        const std::string what = "lane " + std::to_string(lane) + " address " + hex(a);
        if (a % align != 0)
            fail(at, what + " is not aligned to its " + std::to_string(size) + "-byte access");
        if (device && !index.buffers.empty()) {
            bool inside = false;
            for (const BufferRange& b : index.buffers)
                if (a >= b.base && within(a - b.base, size, b.size)) inside = true;
            if (!inside)
                fail(at, what + " (" + std::to_string(size) +
                             " bytes) is outside every declared buffer");
        }
        if (!device && !within(a, size, tg_bytes))
            fail(at, what + " (" + std::to_string(size) +
                         " bytes) is outside the launch's threadgroup_memory=" +
                         std::to_string(tg_bytes));
    }
}

class Indexer {
  public:
    explicit Indexer(const std::shared_ptr<const TraceFile>& file)
        : reader_(file, kIndexBuffer), path_(file->path()) {}

    TraceIndex run() {
        std::string_view raw;
        while (reader_.next(raw)) {
            LineContext at{path_, reader_.line_number()};
            auto text = strip_comment(raw);
            if (text.empty()) continue;
            if (!have_version_)
                version(text, at);
            else if (in_section_)
                section_line(text, at);
            else
                top_line(text, at);
        }
        finish();
        return std::move(index_);
    }

  private:
    void version(std::string_view text, const LineContext& at) {
        auto rest = text;
        auto magic = next_word(rest);
        auto number = next_word(rest);
        std::uint64_t v = 0;
        if (magic != "agxsim-trace" || !parse_uint(number, v) || !rest.empty())
            fail(at, "not an agxsim trace: the first line must be 'agxsim-trace " +
                         std::to_string(kTraceVersion) + "', got '" + std::string(text) + "'");
        if (v != kTraceVersion)
            fail(at, "version " + std::to_string(v) + " not supported (this agxsim reads version " +
                         std::to_string(kTraceVersion) + ")");
        have_version_ = true;
    }

    void top_line(std::string_view text, const LineContext& at) {
        auto rest = text;
        auto word = next_word(rest);
        if (word == "launch") {
            if (launch_line_)
                fail(at,
                     "second 'launch' line (first at line " + std::to_string(launch_line_) + ")");
            if (!index_.sections.empty())
                fail(at, "'launch' must come before the first 'simd' section");
            index_.launch = parse_launch(rest, at);
            launch_line_ = at.line;
        } else if (word == "buffer") {
            if (!index_.sections.empty())
                fail(at, "'buffer' must come before the first 'simd' section");
            index_.buffers.push_back(parse_buffer(rest, at));
        } else if (word == "kernel") {
            if (rest.substr(0, 5) != "name=" || rest.size() == 5 ||
                rest.find_first_of(" \t") != std::string_view::npos)
                fail(at, "expected 'kernel name=NAME'");
            if (const auto problem = kernel_name_problem(rest.substr(5))) fail(at, *problem);
            index_.kernel_name = std::string(rest.substr(5));
        } else if (word == "simd") {
            if (!launch_line_) fail(at, "'simd' section before the 'launch' line");
            SectionIndex s;
            std::uint64_t total =
                std::uint64_t{index_.launch.threadgroups} * index_.launch.simds_per_threadgroup();
            parse_range(rest, at, static_cast<std::uint32_t>(total), s);
            s.header_line = at.line;
            s.body_offset = reader_.tell();
            s.body_line = at.line + 1;
            index_.sections.push_back(s);
            section_name_ = std::string(text);
            in_section_ = true;
        } else if (word == "end") {
            fail(at, "'end' outside any section");
        } else if (word == "repeat") {
            fail(at, "'repeat' outside any section");
        } else {
            fail(at, "expected 'launch', 'kernel', 'buffer' or 'simd', got '" + std::string(word) +
                         "'");
        }
    }

    void section_line(std::string_view text, const LineContext& at) {
        auto rest = text;
        auto word = next_word(rest);
        if (word == "end") {
            if (!rest.empty()) fail(at, "unexpected '" + std::string(rest) + "' after 'end'");
            if (repeats_.empty())
                in_section_ = false;
            else
                repeats_.pop_back();
        } else if (word == "repeat") {
            std::uint64_t n = 0;
            if (!parse_uint(rest, n, UINT32_MAX) || n < 1)
                fail(at, "bad repeat count '" + std::string(rest) + "' (expected 1 to " +
                             std::to_string(UINT32_MAX) + ")");
            if (repeats_.size() == kMaxRepeatNesting)
                fail(at, "repeat blocks nested deeper than " + std::to_string(kMaxRepeatNesting));
            repeats_.push_back(at.line);
        } else if (word == "simd" || word == "launch" || word == "kernel" || word == "buffer") {
            fail(at, "'" + std::string(word) + "' inside section '" + section_name_ +
                         "' (missing 'end'?)");
        } else {
            // Full check now, so that a bad line fails before any simulation.
            parse_instruction(text, at, index_.launch.registers_halves, scratch_);
            check_addresses(scratch_, index_, at);
        }
    }

    void finish() {
        LineContext at_end{path_, std::max(1u, reader_.line_number())};
        if (!have_version_)
            fail(at_end,
                 "empty trace: expected 'agxsim-trace " + std::to_string(kTraceVersion) + "'");
        if (in_section_ && !repeats_.empty())
            fail(at_end, "truncated: 'repeat' at line " + std::to_string(repeats_.back()) +
                             " in section '" + section_name_ + "' has no 'end'");
        if (in_section_) fail(at_end, "truncated: section '" + section_name_ + "' has no 'end'");
        if (!launch_line_) fail(at_end, "no 'launch' line");
        check_coverage();
    }

    void check_coverage() {
        auto& secs = index_.sections;
        std::sort(secs.begin(), secs.end(), [](const SectionIndex& a, const SectionIndex& b) {
            return a.first_simd < b.first_simd;
        });
        LineContext at_launch{path_, launch_line_};
        std::uint64_t expected = 0;
        for (std::size_t i = 0; i < secs.size(); ++i) {
            const auto& s = secs[i];
            if (s.first_simd > expected)
                fail(at_launch, "simd " + std::to_string(expected) + " has no instruction stream");
            if (s.first_simd < expected) {
                const auto& prev = secs[i - 1];
                LineContext at{path_, std::max(s.header_line, prev.header_line)};
                fail(at, "simd " + std::to_string(s.first_simd) +
                             " has two instruction streams (lines " +
                             std::to_string(std::min(s.header_line, prev.header_line)) + " and " +
                             std::to_string(at.line) + ")");
            }
            expected = std::uint64_t{s.last_simd} + 1;
        }
        std::uint64_t total =
            std::uint64_t{index_.launch.threadgroups} * index_.launch.simds_per_threadgroup();
        if (expected < total)
            fail(at_launch, "simd " + std::to_string(expected) + " has no instruction stream");
    }

    LineReader reader_;
    const std::string& path_;
    TraceIndex index_;
    bool have_version_ = false;
    bool in_section_ = false;
    std::uint32_t launch_line_ = 0;
    std::string section_name_;
    std::vector<std::uint32_t> repeats_;  // lines of the open repeat blocks
    Instruction scratch_;
};

}  // namespace

const SectionIndex* TraceIndex::find(std::uint32_t global_simd) const {
    auto it =
        std::upper_bound(sections.begin(), sections.end(), global_simd,
                         [](std::uint32_t g, const SectionIndex& s) { return g < s.first_simd; });
    if (it == sections.begin()) return nullptr;
    --it;
    return global_simd <= it->last_simd ? &*it : nullptr;
}

TraceIndex index_trace(const std::shared_ptr<const TraceFile>& file) {
    return Indexer(file).run();
}

}  // namespace agx::trace_detail
