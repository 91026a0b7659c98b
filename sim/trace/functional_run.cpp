#include "sim/trace/functional_run.hpp"

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

#include "isa/catalogue.hpp"

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

}  // namespace

std::uint64_t run_functional(Workload& workload, std::uint32_t window) {
    const isa::Catalogue& isa = isa::Catalogue::instance();
    const Launch& launch = workload.launch();
    const std::uint32_t simds_per_group = launch.simds_per_threadgroup();
    window = std::max(1u, window);
    std::uint64_t executed = 0;
    std::deque<Group> groups;
    std::uint32_t next = 0;

    auto open_more = [&] {
        while (groups.size() < window && next < launch.threadgroups) {
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
                    const bool barrier = isa.info(in->opcode).is_barrier;
                    s.stream->advance();
                    ++executed;
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
    return executed;
}

}  // namespace agx
