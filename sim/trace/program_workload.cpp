#include "sim/trace/program_workload.hpp"

#include <stdexcept>
#include <string>

namespace agx {

Operand reg32(unsigned r, CacheHint hint) {
    Operand o;
    o.kind = OperandKind::Reg;
    o.hint = hint;
    o.halves = 2;
    o.first_half = static_cast<std::uint16_t>(r * 2);
    return o;
}

Operand reg16(unsigned half, CacheHint hint) {
    Operand o;
    o.kind = OperandKind::Reg;
    o.hint = hint;
    o.halves = 1;
    o.first_half = static_cast<std::uint16_t>(half);
    return o;
}

Operand imm(std::uint32_t bits) {
    Operand o;
    o.kind = OperandKind::Imm;
    o.imm = bits;
    return o;
}

Instruction make_instruction(const char* mnemonic, std::initializer_list<Operand> operands,
                             std::uint32_t pc) {
    const auto& cat = isa::Catalogue::instance();
    const auto op = cat.find(mnemonic);
    if (!op) throw std::invalid_argument(std::string("unknown mnemonic ") + mnemonic);
    const isa::InstructionInfo& info = cat.info(*op);
    Instruction in;
    in.opcode = *op;
    in.pc = pc;
    std::size_t i = 0;
    for (const Operand& o : operands) {
        const bool is_dst =
            i < info.operands.size() && info.operands[i].role == isa::OperandRole::Dst;
        if (is_dst && in.num_dst < in.dst.size())
            in.dst[in.num_dst++] = o;
        else if (!is_dst && in.num_src < in.src.size())
            in.src[in.num_src++] = o;
        ++i;
    }
    return in;
}

}  // namespace agx
