#include "validation/lib/memory_workload.hpp"

#include <algorithm>

#include "sim/common/errors.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/trace/program_workload.hpp"

namespace agx::validation {

namespace {

Operand reg(unsigned first_half, unsigned halves) {
    Operand o;
    o.kind = OperandKind::Reg;
    o.halves = static_cast<std::uint8_t>(halves);
    o.first_half = static_cast<std::uint16_t>(first_half);
    return o;
}

std::uint32_t lane_mask(unsigned lanes) {
    return lanes >= 32 ? kFullMask : (1u << lanes) - 1;
}

// The pointer chase: every step one load whose address is the previous load's
// result (the load reads the register it writes), then, for device memory,
// the wait its asynchronous result needs. Each active lane follows the cycle
// from its own starting point.
class ChaseStream : public InstructionStream {
  public:
    ChaseStream(const CyclicPermutation& perm, const MemoryBenchmark& m, bool device,
                std::uint32_t steps)
        : perm_(perm), stride_(m.stride_bytes), device_(device), left_(steps) {
        const unsigned bytes = m.access_bits / 8;
        const unsigned halves = std::max(1u, bytes / 2);
        const Operand data = reg(0, halves);
        load_ = make_instruction(device ? "device_load" : "threadgroup_load", {data, data});
        load_.active_mask = lane_mask(m.lanes);
        load_.mem.bytes_per_lane = static_cast<std::uint8_t>(bytes);
        load_.mem.explicit_lanes = true;
        if (device) {
            load_.wait_slot = 0;
            wait_ = make_instruction("wait", {imm(0)});
            wait_.wait_slot = 0;
            wait_.pc = isa::Catalogue::instance().info(load_.opcode).encoded_bytes;
        }
        lanes_ = m.lanes;
        for (unsigned l = 0; l < lanes_; ++l)
            counter_[l] = perm_.settle(perm_.period() / lanes_ * l);
        fill();
    }
    const Instruction* peek() override {
        if (left_ == 0) return nullptr;
        return waiting_ ? &wait_ : &load_;
    }
    void advance() override {
        if (device_ && !waiting_) {
            waiting_ = true;
            return;
        }
        waiting_ = false;
        for (unsigned l = 0; l < lanes_; ++l) counter_[l] = perm_.next(counter_[l]);
        if (--left_) fill();
    }

  private:
    void fill() {
        const std::uint64_t base = device_ ? kDataBaseAddress : 0;
        for (unsigned l = 0; l < lanes_; ++l)
            load_.mem.lane[l] = base + perm_.element(counter_[l]) * stride_;
    }
    const CyclicPermutation& perm_;
    std::uint64_t stride_;
    bool device_;
    std::uint32_t left_;
    unsigned lanes_ = 1;
    bool waiting_ = false;
    std::array<std::uint64_t, 32> counter_{};
    Instruction load_, wait_;
};

// A streaming sweep: coalesced loads of `access_bits` per lane, 8 in flight on
// each wait slot: eight loads on one slot, then a wait for the other slot's
// eight, alternately, each load into registers of its own (a load may not
// overwrite one still in flight). The GPU's simds share each pass over the
// footprint by interleaving: simd g of T reads chunks g, g + T, g + 2T, ...
// (a chunk is one load's 32 lanes), so every core keeps the same slice pass
// after pass, and a chunk comes back only after the whole footprint has.
class SweepStream : public InstructionStream {
  public:
    static constexpr unsigned kGroup = 8;

    SweepStream(std::uint64_t simd, std::uint64_t simds_total, std::uint64_t footprint,
                const MemoryBenchmark& m, std::uint32_t passes)
        : first_(simd), step_(simds_total), bytes_(m.access_bits / 8) {
        // Chunk c is simd c mod simds_total's; when the simds do not divide
        // the chunks, the first ones take one more.
        const std::uint64_t chunks = footprint / (32ull * bytes_);
        per_pass_ = chunks > simd ? (chunks - simd + simds_total - 1) / simds_total : 0;
        loads_left_ = per_pass_ * passes;
        load_ = make_instruction("device_load", {reg(0, std::max(1u, bytes_ / 2))});
        load_.mem.bytes_per_lane = static_cast<std::uint8_t>(bytes_);
        load_.mem.stride = bytes_;
        wait_ = make_instruction("wait", {imm(0)});
        load_bytes_ = isa::Catalogue::instance().info(load_.opcode).encoded_bytes;
        wait_bytes_ = isa::Catalogue::instance().info(wait_.opcode).encoded_bytes;
        build();
    }
    const Instruction* peek() override { return done_ ? nullptr : &current_; }
    void advance() override {
        if (current_.opcode == load_.opcode) {
            --loads_left_;
            ++index_;
            if (++in_group_ == kGroup ||
                loads_left_ == 0) {  // the group is out: wait for the other slot's
                in_group_ = 0;
                waiting_ = true;
            }
        } else if (loads_left_ == 0) {
            if (++final_waits_ == 2) done_ = true;
        } else {
            waiting_ = false;
            slot_ ^= 1;
        }
        build();
    }

  private:
    void build() {
        if (done_) return;
        if (waiting_ || loads_left_ == 0) {
            current_ = wait_;
            // At the end, both slots drain in turn.
            const unsigned slot = loads_left_ == 0 ? (slot_ ^ 1 ^ final_waits_) : slot_ ^ 1;
            current_.src[0].imm = slot;
            current_.wait_slot = static_cast<std::uint8_t>(slot);
            current_.pc = pc_of(true);
            return;
        }
        current_ = load_;
        const unsigned halves = std::max(1u, bytes_ / 2);
        current_.dst[0] = reg((slot_ * kGroup + in_group_) * halves, halves);
        current_.wait_slot = static_cast<std::uint8_t>(slot_);
        current_.mem.base =
            kDataBaseAddress + (first_ + (index_ % per_pass_) * step_) * 32ull * bytes_;
        current_.pc = pc_of(false);
    }
    // The loop body: 8 loads and a wait per slot.
    std::uint32_t pc_of(bool wait) const {
        const std::uint32_t group = slot_ * (kGroup * load_bytes_ + wait_bytes_);
        return group + (wait ? kGroup * load_bytes_ : in_group_ * load_bytes_);
    }
    std::uint64_t first_, step_;
    unsigned bytes_;
    std::uint64_t per_pass_ = 1, loads_left_ = 0, index_ = 0;
    unsigned slot_ = 0, in_group_ = 0, final_waits_ = 0;
    bool waiting_ = false, done_ = false;
    std::uint32_t load_bytes_ = 8, wait_bytes_ = 2;
    Instruction load_, wait_, current_;
};

// A stream of `count` instructions, counted from `first`: the instruction
// of index i is built in place by build(i), so nothing is stored.
class IndexedStream : public InstructionStream {
  public:
    const Instruction* peek() override { return left_ ? &current_ : nullptr; }
    void advance() override {
        if (--left_) build(++index_);
    }

  protected:
    // Call at the end of the derived constructor (build is virtual).
    void start(std::uint64_t count, std::uint64_t first) {
        left_ = count;
        index_ = first;
        if (left_) build(index_);
    }
    virtual void build(std::uint64_t index) = 0;
    Instruction current_;

  private:
    std::uint64_t left_ = 0, index_ = 0;
};

// Threadgroup memory swept by one simd: load i reads lane l at
// (i x 32 x size + l x stride) mod footprint, into one of 16 registers in turn.
class ThreadgroupSweepStream : public IndexedStream {
  public:
    static constexpr unsigned kRegisters = 16;

    ThreadgroupSweepStream(const MemoryBenchmark& m, std::uint32_t passes)
        : footprint_(m.footprint_bytes), stride_(m.stride_bytes), bytes_(m.access_bits / 8) {
        per_pass_ = std::max<std::uint64_t>(1, footprint_ / (32ull * bytes_));
        current_ = make_instruction("threadgroup_load", {reg(0, std::max(1u, bytes_ / 2))});
        current_.mem.bytes_per_lane = static_cast<std::uint8_t>(bytes_);
        current_.mem.explicit_lanes = true;
        start(per_pass_ * passes, 0);
    }

  private:
    void build(std::uint64_t index) override {
        const unsigned halves = std::max(1u, bytes_ / 2);
        current_.dst[0] = reg(static_cast<unsigned>(index % kRegisters) * halves, halves);
        const std::uint64_t first = (index % per_pass_) * 32ull * bytes_;
        for (unsigned l = 0; l < 32; ++l) current_.mem.lane[l] = (first + l * stride_) % footprint_;
        current_.pc = static_cast<std::uint32_t>(index % kRegisters) * 8;
    }
    std::uint64_t footprint_, stride_;
    unsigned bytes_;
    std::uint64_t per_pass_;
};

// The code-size loop: `per_pass` FFMA32s in `ilp` chains (x = x * y + z, y
// and z shared), each at its own pc, run `passes` times, entered at `start`:
// the measured kernel ran many waves of threadgroups, so its resident simds
// were spread over its code, not in step.
class CodeStream : public IndexedStream {
  public:
    CodeStream(std::uint64_t per_pass, unsigned ilp, std::uint32_t passes, std::uint64_t first)
        : per_pass_(per_pass), ilp_(ilp) {
        current_ = make_instruction("fmadd32", {reg32(0), reg32(0), reg32(ilp), reg32(ilp + 1)});
        bytes_ = isa::Catalogue::instance().info(current_.opcode).encoded_bytes;
        start(per_pass * passes, first / ilp * ilp);
    }

  private:
    void build(std::uint64_t index) override {
        const std::uint64_t k = index % per_pass_;
        const unsigned chain = static_cast<unsigned>(k % ilp_);
        current_.dst[0] = reg32(chain);
        current_.src[0] = reg32(chain);
        current_.pc = static_cast<std::uint32_t>(k * bytes_);
    }
    std::uint64_t per_pass_;
    unsigned ilp_;
    std::uint32_t bytes_ = 6;
};

}  // namespace

MemoryWorkload::MemoryWorkload(const BenchmarkDefinition& def, const MachineConfig& cfg,
                               std::uint32_t repetitions)
    : def_(def),
      mem_(*def_.memory),
      repetitions_(repetitions),
      cores_(memory_cores(*def.memory, cfg)),
      simds_(1) {
    const MemoryBenchmark& m = mem_;
    auto round = [&cfg](std::uint32_t halves) { return allocated_halves(cfg.core, halves); };
    const unsigned halves_per_access = std::max(1u, m.access_bits / 16);
    launch_.threadgroups = 1;
    switch (m.kind) {
        case MemoryKind::PointerChase:
        case MemoryKind::ThreadgroupChase:
            // One simd: the latency of one chain of dependent loads.
            cores_ = 1;
            launch_.threads_per_threadgroup = 32;
            launch_.registers_halves = round(halves_per_access);
            if (m.kind == MemoryKind::ThreadgroupChase) {
                if (m.footprint_bytes > cfg.core.threadgroup_memory_bytes)
                    throw InputError(def.name,
                                     "footprint_bytes above the core's threadgroup memory");
                launch_.threadgroup_memory_bytes = static_cast<std::uint32_t>(m.footprint_bytes);
            }
            permutation_ =
                std::make_unique<CyclicPermutation>(m.footprint_bytes / m.stride_bytes, m.seed);
            break;
        case MemoryKind::Stream: {
            simds_ = def.simds_per_core;
            const std::uint64_t chunk = 32ull * (m.access_bits / 8);
            // Whole chunks (one load of every lane), spread over the simds of
            // every core the run has, evenly or within one chunk: a chip whose
            // core count does not divide the footprint runs it too, and one
            // with more simds than chunks leaves the last ones without work.
            if (m.footprint_bytes % chunk != 0)
                throw InputError(def.name,
                                 "footprint_bytes must be a multiple of 32 lanes x access size (" +
                                     std::to_string(chunk) + " B)");
            launch_.registers_halves = round(2 * SweepStream::kGroup * halves_per_access);
            break;
        }
        case MemoryKind::ThreadgroupStream:
            simds_ = def.simds_per_core;
            if (m.footprint_bytes > cfg.core.threadgroup_memory_bytes)
                throw InputError(def.name, "footprint_bytes above the core's threadgroup memory");
            launch_.threadgroup_memory_bytes = static_cast<std::uint32_t>(m.footprint_bytes);
            launch_.registers_halves =
                round(ThreadgroupSweepStream::kRegisters * halves_per_access);
            break;
        case MemoryKind::CodeSize:
            simds_ = def.simds_per_core;
            launch_.registers_halves = round(2 * (def.ilp + 2));
            // The measured kernel ran many waves: its code is in the L2.
            launch_.code_in_l2_bytes = static_cast<std::uint32_t>(m.footprint_bytes);
            break;
    }
    if (m.kind != MemoryKind::PointerChase && m.kind != MemoryKind::ThreadgroupChase) {
        // One threadgroup per core when it fits (up to 32 simds), else
        // threadgroups of the largest size that divides the simds.
        unsigned group = 1;
        for (unsigned g = std::min(simds_, 32u); g >= 1; --g)
            if (simds_ % g == 0) {
                group = g;
                break;
            }
        launch_.threads_per_threadgroup = group * 32;
        launch_.threadgroups = simds_ / group * cores_;
    }
}

std::unique_ptr<InstructionStream> MemoryWorkload::open(std::uint32_t threadgroup,
                                                        std::uint32_t simd_in_group) {
    const MemoryBenchmark& m = mem_;
    switch (m.kind) {
        case MemoryKind::PointerChase:
        case MemoryKind::ThreadgroupChase:
            return std::make_unique<ChaseStream>(*permutation_, m,
                                                 m.kind == MemoryKind::PointerChase, repetitions_);
        case MemoryKind::Stream: {
            const std::uint64_t simd =
                static_cast<std::uint64_t>(threadgroup) * launch_.simds_per_threadgroup() +
                simd_in_group;
            return std::make_unique<SweepStream>(simd, static_cast<std::uint64_t>(simds_) * cores_,
                                                 m.footprint_bytes, m, repetitions_);
        }
        case MemoryKind::ThreadgroupStream:
            return std::make_unique<ThreadgroupSweepStream>(m, repetitions_);
        case MemoryKind::CodeSize: {
            // Simd g starts at the fraction {g x golden ratio} of the code: a
            // low-discrepancy spread, whatever simds share a core.
            const std::uint64_t g =
                static_cast<std::uint64_t>(threadgroup) * launch_.simds_per_threadgroup() +
                simd_in_group;
            const double phase = static_cast<double>(g) * 0.6180339887498949;
            const std::uint64_t per_pass = code_size_instructions(m);
            const auto start =
                static_cast<std::uint64_t>((phase - static_cast<std::uint64_t>(phase)) * per_pass);
            return std::make_unique<CodeStream>(per_pass, std::max(1u, def_.ilp), repetitions_,
                                                start);
        }
    }
    return nullptr;
}

}  // namespace agx::validation
