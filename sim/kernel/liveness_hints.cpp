#include "sim/kernel/liveness_hints.hpp"

#include <bitset>
#include <vector>

#include "sim/common/errors.hpp"

namespace agx::kernel {

namespace {

using Halves = std::bitset<256>;

// The register halves an operand names (none for uniforms and immediates).
Halves halves_of(const Operand& o) {
    Halves h;
    if (o.kind != OperandKind::Reg) return h;
    for (unsigned i = 0; i < o.halves && o.first_half + i < 256; ++i) h.set(o.first_half + i);
    return h;
}

// The instructions control may reach after `i`.
std::vector<std::size_t> successors(const KernelProgram& p, std::size_t i,
                                    const std::vector<std::size_t>& return_points) {
    const KernelInstruction& k = p.code[i];
    std::vector<std::size_t> next;
    auto fall = [&] {
        if (i + 1 < p.code.size()) next.push_back(i + 1);
    };
    switch (k.sem) {
        case Sem::Stop:
            break;
        case Sem::JmpExecAny:
        case Sem::JmpExecNone:
            next.push_back(k.target);
            fall();
            break;
        case Sem::Call:
            if (k.in.src[0].kind == OperandKind::Reg) {  // a computed target: anywhere
                for (std::size_t j = 0; j < p.code.size(); ++j) next.push_back(j);
            } else {
                next.push_back(k.target);
            }
            break;
        case Sem::Ret:
            next = return_points;
            break;
        default:
            fall();
    }
    return next;
}

}  // namespace

RegisterHints parse_register_hints(const std::string& text, const std::string& where) {
    if (text == "as-written") return RegisterHints::AsWritten;
    if (text == "liveness") return RegisterHints::Liveness;
    throw InputError(where, "unknown register hints '" + text + "' (as-written, liveness)");
}

unsigned infer_discard_hints(KernelProgram& p) {
    const std::size_t n = p.code.size();
    std::vector<std::size_t> return_points;
    for (std::size_t i = 0; i < n; ++i)
        if (p.code[i].sem == Sem::Call && i + 1 < n) return_points.push_back(i + 1);
    std::vector<std::vector<std::size_t>> next(n);
    std::vector<Halves> reads(n), writes(n);
    for (std::size_t i = 0; i < n; ++i) {
        next[i] = successors(p, i, return_points);
        const Instruction& in = p.code[i].in;
        for (unsigned s = 0; s < in.num_src; ++s) reads[i] |= halves_of(in.src[s]);
        for (unsigned d = 0; d < in.num_dst; ++d) writes[i] |= halves_of(in.dst[d]);
        // Implicit operands: the stack instructions read and write r0l, call
        // writes the link register r1, ret reads it.
        if (is_stack_op(p.code[i].sem) || p.code[i].sem == Sem::PopExec) reads[i].set(0);
        if (p.code[i].sem == Sem::Call) writes[i] |= Halves(0xc);
    }
    // Live after each instruction, to a fixed point (backwards).
    std::vector<Halves> live_out(n), live_in(n);
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = n; i-- > 0;) {
            Halves out;
            for (std::size_t s : next[i]) out |= live_in[s];
            const Halves in = reads[i] | (out & ~writes[i]);
            if (out != live_out[i] || in != live_in[i]) {
                live_out[i] = out;
                live_in[i] = in;
                changed = true;
            }
        }
    }
    unsigned marked = 0;
    for (std::size_t i = 0; i < n; ++i) {
        Instruction& in = p.code[i].in;
        for (unsigned d = 0; d < in.num_dst; ++d) in.dst[d].hint = CacheHint::None;
        // The last source to read a register is the one that discards it
        // (an earlier one would leave the later a miss).
        Halves later;
        for (unsigned s = in.num_src; s-- > 0;) {
            Operand& o = in.src[s];
            o.hint = CacheHint::None;
            const Halves h = halves_of(o);
            const bool read_again = (h & later).any();
            later |= h;
            if (h.none() || h.test(0) || read_again) continue;
            // The value read is dead when no later read sees it: the register
            // is dead after the instruction, or the instruction rewrites it.
            if ((h & live_out[i] & ~writes[i]).none()) {
                o.hint = CacheHint::Discard;
                ++marked;
            }
        }
    }
    return marked;
}

}  // namespace agx::kernel
