#include "sim/trace/functional_run.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <memory>
#include <vector>

#include "isa/catalogue.hpp"
#include "sim/common/divisor.hpp"

namespace agx {

namespace {

// Instructions a simd runs before the next takes its turn: long enough that
// switching costs little, short enough that a spinning simd soon yields.
constexpr unsigned kTurn = 64;

struct Simd {
    std::unique_ptr<InstructionStream> stream;
    bool at_barrier = false;
};

struct Group {
    std::uint32_t id = 0;
    std::vector<Simd> simds;
};

// The bytes an instruction's active lanes touch, each byte once: the
// load/store unit's count, which merges lanes that share bytes of a line.
std::uint64_t touched_bytes(const Instruction& in) {
    const std::uint64_t size = std::max<std::uint32_t>(1, in.mem.bytes_per_lane);
    std::array<std::uint64_t, 32> start{};
    unsigned n = 0;
    bool ascending = true;  // coalesced lanes are: no sort
    for (unsigned lane = 0; lane < 32; ++lane)
        if (in.active_mask >> lane & 1u) {
            start[n] = in.mem.address(lane);
            ascending &= n == 0 || start[n] >= start[n - 1];
            ++n;
        }
    if (!ascending) std::sort(start.begin(), start.begin() + n);
    std::uint64_t bytes = 0, covered_to = 0;
    for (unsigned i = 0; i < n; ++i) {
        const std::uint64_t from = i > 0 ? std::max(start[i], covered_to) : start[i];
        const std::uint64_t to = start[i] + size;
        if (to > from) bytes += to - from;
        covered_to = i > 0 ? std::max(covered_to, to) : to;
    }
    return bytes;
}

// Each line the active lanes touch, once per instruction, in lane order.
void touch_lines(const Instruction& in, bool write, const Divisor& line_bytes,
                 const LineToucher& touch) {
    const std::uint64_t size = std::max<std::uint32_t>(1, in.mem.bytes_per_lane);
    std::uint64_t last = ~0ull;
    for (unsigned lane = 0; lane < 32; ++lane) {
        if (!(in.active_mask >> lane & 1u)) continue;
        const std::uint64_t a = in.mem.address(lane);
        const std::uint64_t final_line = line_bytes.divide(a + size - 1);
        for (std::uint64_t line = line_bytes.divide(a); line <= final_line; ++line) {
            if (line == last) continue;
            last = line;
            touch(line * line_bytes.value(), write);
        }
    }
}

void count(FunctionalTally& tally, const Instruction& in, const isa::InstructionInfo& info,
           const LineToucher& touch, const Divisor& line_bytes) {
    ++tally.simd_instructions;
    if (info.flops_per_lane) {
        const std::uint64_t n = std::uint64_t{info.flops_per_lane} *
                                static_cast<unsigned>(__builtin_popcount(in.active_mask));
        tally.flops += n;
        if (info.flops_fp16) tally.fp16_flops += n;
    }
    if (info.memory != isa::MemorySpace::Device) return;
    tally.device_bytes += touched_bytes(in);
    if (touch) touch_lines(in, info.is_store || info.is_atomic, line_bytes, touch);
}

}  // namespace

std::uint64_t run_functional(Workload& workload, std::uint32_t window) {
    return run_functional(workload, 0, workload.launch().threadgroups, window).simd_instructions;
}

FunctionalTally run_functional(Workload& workload, std::uint32_t first, std::uint32_t last,
                               std::uint32_t window, const LineToucher& touch,
                               std::uint32_t line_bytes) {
    const Divisor line(std::max(1u, line_bytes));
    const isa::Catalogue& isa = isa::Catalogue::instance();
    const Launch& launch = workload.launch();
    const std::uint32_t simds_per_group = launch.simds_per_threadgroup();
    window = std::max(1u, window);
    last = std::min(last, launch.threadgroups);
    FunctionalTally tally;
    std::deque<Group> groups;
    std::uint32_t next = first;

    auto open_more = [&] {
        while (groups.size() < window && next < last) {
            Group g;
            g.id = next++;
            g.simds.resize(simds_per_group);
            for (std::uint32_t s = 0; s < simds_per_group; ++s)
                g.simds[s].stream = workload.open(g.id, s);
            groups.push_back(std::move(g));
        }
    };

    open_more();
    while (!groups.empty()) {
        for (auto it = groups.begin(); it != groups.end();) {
            Group& g = *it;
            std::uint32_t live = 0, waiting = 0;
            for (Simd& s : g.simds) {
                if (!s.stream) continue;
                for (unsigned n = 0; n < kTurn && !s.at_barrier; ++n) {
                    const Instruction* in = s.stream->peek();
                    if (!in) {
                        s.stream.reset();  // ended: a barrier no longer waits for it
                        break;
                    }
                    const isa::InstructionInfo& info = isa.info(in->opcode);
                    const bool barrier = info.is_barrier;
                    count(tally, *in, info, touch, line);
                    s.stream->advance();
                    if (barrier) s.at_barrier = true;
                }
                if (s.stream) {
                    ++live;
                    waiting += s.at_barrier ? 1 : 0;
                }
            }
            if (live > 0 && waiting == live) {  // every live simd arrived: release them
                for (Simd& s : g.simds) s.at_barrier = false;
            }
            if (live == 0)
                it = groups.erase(it);
            else
                ++it;
        }
        open_more();
    }
    return tally;
}

}  // namespace agx
