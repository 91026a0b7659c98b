#include "validation/lib/suite_workload.hpp"

#include <algorithm>
#include <map>

#include "sim/common/errors.hpp"
#include "sim/timing/occupancy.hpp"
#include "validation/lib/vec4_groups.hpp"

namespace agx::validation {

// Hands out register halves, aligned to the value's width.
class RegisterAllocator {
  public:
    std::uint16_t take(std::uint8_t halves) {
        const std::uint16_t align = halves >= 4 ? 4 : halves;
        next_ = static_cast<std::uint16_t>((next_ + align - 1) / align * align);
        const std::uint16_t first = next_;
        next_ = static_cast<std::uint16_t>(next_ + halves);
        return first;
    }
    std::uint16_t used() const { return next_; }

  private:
    std::uint16_t next_ = 0;
};

namespace {

Operand reg(std::uint16_t first_half, std::uint8_t halves) {
    Operand o;
    o.kind = OperandKind::Reg;
    o.halves = halves;
    o.first_half = first_half;
    return o;
}

Operand immediate() {
    Operand o;
    o.kind = OperandKind::Imm;
    o.imm = 1;
    return o;
}

std::uint8_t width_of(const isa::OperandSpec& spec, std::uint32_t register_bits) {
    return spec.width_halves ? spec.width_halves : static_cast<std::uint8_t>(register_bits / 16);
}

// One machine instruction of the body, with the sub-chain it belongs to.
struct Step {
    isa::Opcode opcode;
    std::uint32_t subchain;  // a new one starts at every step independent of the one before
};

class RepeatStream : public InstructionStream {
  public:
    RepeatStream(const std::vector<Instruction>& rep, std::uint32_t reps, std::uint32_t unroll,
                 std::uint32_t rep_bytes)
        : rep_(rep), left_(rep.empty() ? 0 : reps), unroll_(unroll), rep_bytes_(rep_bytes) {
        if (left_) load();
    }
    const Instruction* peek() override { return left_ ? &current_ : nullptr; }
    void advance() override {
        if (++pos_ == rep_.size()) {
            pos_ = 0;
            --left_;
            // The loop branches back after `unroll` repetitions.
            pc_base_ = ++done_ % unroll_ == 0 ? 0 : pc_base_ + rep_bytes_;
        }
        if (left_) load();
    }

  private:
    // The next instruction, without its lane addresses while neither it nor
    // the one before holds per-lane addresses (copy_without_lanes). The
    // kernel is unrolled: each repetition of a loop iteration has code of its
    // own, so the instruction cache sees the kernel's real size.
    void load() {
        const Instruction& next = rep_[pos_];
        if (next.mem.explicit_lanes || current_.mem.explicit_lanes)
            current_ = next;
        else
            copy_without_lanes(current_, next);
        current_.pc += pc_base_;
    }
    const std::vector<Instruction>& rep_;
    std::size_t pos_ = 0;
    std::uint32_t left_;
    std::uint32_t unroll_;
    std::uint32_t done_ = 0;
    std::uint32_t rep_bytes_;
    std::uint32_t pc_base_ = 0;
    Instruction current_;
};

}  // namespace

SuiteWorkload::SuiteWorkload(const BenchmarkDefinition& def, const CoreConfig& core,
                             std::uint32_t repetitions)
    : name_(def.name),
      repetitions_(repetitions),
      unroll_(def.unroll ? std::min(def.unroll, repetitions) : repetitions) {
    RegisterAllocator alloc;
    if (def.operand_shape == OperandShape::Vec4Groups)
        build_vec4_groups(def, alloc);
    else
        build_chains(def, alloc);
    place(def, core, alloc);
}

void SuiteWorkload::build_vec4_groups(const BenchmarkDefinition& def, RegisterAllocator& alloc) {
    const auto& cat = isa::Catalogue::instance();
    if (def.body.size() != 1)
        throw InputError(def.name, "the vec4_groups shape takes a body of one operation");
    const auto expansion = expand_operation(def.body[0].op, def.register_bits, def.name);
    if (expansion.size() != 1)
        throw InputError(def.name, "the vec4_groups shape takes a single-instruction operation");
    const auto op = cat.find(expansion[0].mnemonic);
    if (!op)
        throw InputError(def.name, "unknown instruction " + std::string(expansion[0].mnemonic));
    const auto& info = cat.info(*op);
    const std::uint8_t w = static_cast<std::uint8_t>(def.register_bits / 16);
    std::vector<std::uint16_t> reg_of(24);
    for (auto& r : reg_of) r = alloc.take(w);
    std::uint32_t pc = 0;
    const auto group = vec4_group(def.ilp);
    // The third source of a three-source operation (FFMA): the value written
    // just before `other` was, the kernel's FMA01 pattern (fma(own, prev1,
    // prev2) in its dependent chain), the group repeating.
    auto written_before = [&](std::size_t i, int reg) {
        const std::size_t n = group.size();
        for (std::size_t back = 1; back <= n; ++back) {
            const std::size_t j = (i + n - back) % n;
            if (group[j].first == reg) return group[(j + n - 1) % n].first;
        }
        return reg;
    };
    for (std::size_t i = 0; i < group.size(); ++i) {
        const auto [own, other] = group[i];
        Instruction in;
        in.opcode = *op;
        in.pc = pc;
        pc += info.encoded_bytes;
        in.dst[in.num_dst++] = reg(reg_of[own], w);
        in.src[in.num_src++] = reg(reg_of[own], w);
        in.src[in.num_src++] = reg(reg_of[other], w);
        std::size_t sources = 0;
        for (const auto& spec : info.operands)
            sources += spec.role == isa::OperandRole::Src && !spec.optional;
        if (sources >= 3) in.src[in.num_src++] = reg(reg_of[written_before(i, other)], w);
        rep_.push_back(in);
    }
    rep_bytes_ = pc;
    // A repetition of the definition is one scalar operation; ours is a group.
    const auto per = static_cast<std::uint32_t>(rep_.size());
    repetitions_ = (repetitions_ + per - 1) / per;
    unroll_ = std::max<std::uint32_t>(1, (unroll_ + per - 1) / per);
}

void SuiteWorkload::build_chains(const BenchmarkDefinition& def, RegisterAllocator& alloc) {
    const auto& cat = isa::Catalogue::instance();

    // The body's machine instructions and their sub-chains.
    std::vector<Step> steps;
    std::uint32_t subchains = 0;
    for (const auto& item : def.body) {
        const auto expansion = expand_operation(item.op, def.register_bits, def.name);
        for (std::uint32_t n = 0; n < item.count; ++n)
            for (const auto& e : expansion) {
                const auto op = cat.find(e.mnemonic);
                if (!op)
                    throw InputError(
                        def.name, "expansion names unknown instruction " + std::string(e.mnemonic));
                if (cat.info(*op).memory != isa::MemorySpace::None ||
                    cat.info(*op).unit == isa::Unit::Control)
                    throw InputError(
                        def.name,
                        "memory and control instructions are not supported in ALU benchmarks");
                if (!e.depends_on_previous || steps.empty()) ++subchains;
                steps.push_back({*op, subchains - 1});
            }
    }

    // Each sub-chain's live value is as wide as the widest operand it meets.
    std::vector<std::uint8_t> live_width(subchains, 1);
    std::map<std::pair<std::size_t, std::uint8_t>, int>
        other_sources;  // (position, width) -> needed
    for (const Step& s : steps) {
        const auto& info = cat.info(s.opcode);
        bool first_src = true;
        std::size_t position = 0;
        for (const auto& spec : info.operands) {
            if (spec.optional) continue;
            const std::uint8_t w = width_of(spec, def.register_bits);
            if (spec.role == isa::OperandRole::Dst || (first_src && spec.allow_register)) {
                live_width[s.subchain] = std::max(live_width[s.subchain], w);
                if (spec.role == isa::OperandRole::Src) first_src = false;
            } else if (spec.allow_register) {
                other_sources[{position++, w}] = 1;
            }
        }
    }

    // Registers: live values per chain, then the other sources (constants
    // shared by the chains).
    std::vector<std::vector<std::uint16_t>> live(def.ilp, std::vector<std::uint16_t>(subchains));
    for (std::uint32_t c = 0; c < def.ilp; ++c)
        for (std::uint32_t k = 0; k < subchains; ++k) live[c][k] = alloc.take(live_width[k]);
    std::vector<std::map<std::pair<std::size_t, std::uint8_t>, std::uint16_t>> other(1);
    if (def.operand_shape != OperandShape::SelfReuse)
        for (auto& set : other)
            for (const auto& [key, unused] : other_sources) set[key] = alloc.take(key.second);

    // One repetition, as a list scheduler would order it: every (chain,
    // sub-chain) pair is an independent stream of steps, and the streams take
    // turns, so independent work interleaves (the pipes overlap) and
    // dependent steps stand as far apart as the parallelism allows.
    std::vector<std::vector<std::size_t>> stream_steps(subchains);
    for (std::size_t i = 0; i < steps.size(); ++i) stream_steps[steps[i].subchain].push_back(i);
    std::size_t longest = 0;
    for (const auto& st : stream_steps) longest = std::max(longest, st.size());
    std::uint32_t pc = 0;
    for (std::size_t round = 0; round < longest; ++round)
        for (std::uint32_t c = 0; c < def.ilp; ++c)
            for (std::uint32_t k = 0; k < subchains; ++k) {
                if (round >= stream_steps[k].size()) continue;
                const Step& s = steps[stream_steps[k][round]];
                const auto& info = cat.info(s.opcode);
                Instruction in;
                in.opcode = s.opcode;
                in.pc = pc;
                pc += info.encoded_bytes;
                const std::uint16_t mine = live[c][s.subchain];
                bool first_src = true;
                std::size_t position = 0;
                const auto& set = other[0];
                for (const auto& spec : info.operands) {
                    if (spec.optional) continue;
                    const std::uint8_t w = width_of(spec, def.register_bits);
                    if (spec.role == isa::OperandRole::Dst) {
                        if (in.num_dst < in.dst.size()) in.dst[in.num_dst++] = reg(mine, w);
                        continue;
                    }
                    if (in.num_src >= in.src.size()) continue;
                    if (!spec.allow_register) {
                        in.src[in.num_src++] = immediate();
                    } else if (first_src) {
                        in.src[in.num_src++] = reg(mine, w);
                        first_src = false;
                    } else if (def.operand_shape == OperandShape::SelfReuse) {
                        // x * x + 1: the live value again, and an immediate last.
                        const bool last = &spec == &info.operands.back() && spec.allow_immediate;
                        in.src[in.num_src++] = last ? immediate() : reg(mine, w);
                        ++position;
                    } else {
                        in.src[in.num_src++] = reg(set.at({position++, w}), w);
                    }
                }
                rep_.push_back(in);
            }
    rep_bytes_ = pc;
}

void SuiteWorkload::place(const BenchmarkDefinition& def, const CoreConfig& core,
                          const RegisterAllocator& alloc) {
    // The launch: simds_per_core resident simds on one core, in threadgroups
    // of at most 32 simds (1024 threads). A throughput (steady) benchmark runs
    // at whatever occupancy its registers allow, up to the definition's, as
    // the hardware does; any other must get the occupancy it names.
    launch_.registers_halves = allocated_halves(core, alloc.used());
    const std::uint32_t fits =
        std::min(core.max_resident_simds, simds_by_registers(core, launch_.registers_halves));
    simds_ = def.simds_per_core;
    if (fits < simds_) {
        // The hardware holds fewer simds than launched: the figure is the
        // rate at the occupancy the registers allow, as on the GPU.
        if (fits < std::min(core.schedulers, def.simds_per_core))
            throw InputError(def.name,
                             "the kernel needs " + std::to_string(launch_.registers_halves) +
                                 " half-registers per thread: not one simd per scheduler fits");
        simds_ = std::max(core.schedulers, fits / core.schedulers * core.schedulers);
    }
    std::uint32_t group_simds = 1;
    for (std::uint32_t g = std::min<std::uint32_t>(simds_, 32); g >= 1; --g)
        if (simds_ % g == 0) {
            group_simds = g;
            break;
        }
    std::uint32_t groups = simds_ / group_simds;
    if (def.resident_threadgroups) {  // the measuring kernel's own split
        groups = def.resident_threadgroups;
        if (simds_ % groups != 0 || simds_ / groups > 32)
            throw InputError(def.name, std::to_string(simds_) + " resident simds cannot form " +
                                           std::to_string(groups) + " threadgroups of at most 32");
        group_simds = simds_ / groups;
    }
    // Later waves wait for room: threadgroup memory holds exactly `groups`
    // resident (as metal-benchmarks' later kernels and the probe do).
    if (def.resident_threadgroups || def.waves > 1)
        launch_.threadgroup_memory_bytes = core.threadgroup_memory_bytes / groups;
    launch_.threads_per_threadgroup = group_simds * core.simd_width;
    launch_.threadgroups = groups * def.waves;
    launch_.overhead_cycles = static_cast<std::uint32_t>(def.overhead_cycles + 0.5);
    // The measured kernels ran ~250 waves: all but the first found their code
    // in the L2, so the simulated waves do too.
    launch_.code_in_l2_bytes = rep_bytes_ * unroll_;
}

std::unique_ptr<InstructionStream> SuiteWorkload::open(std::uint32_t, std::uint32_t) {
    return std::make_unique<RepeatStream>(rep_, repetitions_, unroll_, rep_bytes_);
}

}  // namespace agx::validation
