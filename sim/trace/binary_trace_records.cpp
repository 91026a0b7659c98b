#include "sim/trace/binary_trace_records.hpp"

#include <stdexcept>
#include <type_traits>

namespace agx::binary_trace {

namespace {

// Uniforms u0..u255 are 512 halves.
constexpr unsigned kUniformHalves = 512;
constexpr unsigned kMaxHalves = 8;  // memory data: 4 32-bit registers
constexpr unsigned kWaitSlots = 2;
constexpr unsigned kMaxBytesPerLane = 16;

unsigned char* put_varint(unsigned char* p, std::uint64_t v) {
    for (; v >= 0x80; v >>= 7) *p++ = static_cast<unsigned char>(v | 0x80);
    *p++ = static_cast<unsigned char>(v);
    return p;
}

template <typename U>
U zigzag(U v) {
    using S = std::make_signed_t<U>;
    return static_cast<U>((v << 1) ^ static_cast<U>(static_cast<S>(v) >> (8 * sizeof(U) - 1)));
}

unsigned char* encode_operand(const Operand& o, unsigned char* p) {
    if (o.halves > 15) throw std::invalid_argument("binary trace: operand wider than 15 halves");
    p[0] = static_cast<unsigned char>(static_cast<unsigned>(o.kind) |
                                      static_cast<unsigned>(o.hint) << 2 |
                                      static_cast<unsigned>(o.halves) << 4);
    p = put_varint(p + 1, o.first_half);
    if (o.kind != OperandKind::Imm) return p;
    return put_varint(p, zigzag(o.imm));
}

bool has_memory(const MemoryAccess& m) {
    return m.explicit_lanes || m.bytes_per_lane || m.base || m.stride;
}

// The quick test, run for every operand of every record when a trace is
// opened; describe_operand() says what is wrong only when it fails.
bool operand_ok(const Operand& o, std::uint32_t registers_halves) {
    if (static_cast<unsigned>(o.hint) > static_cast<unsigned>(CacheHint::Discard)) return false;
    // Kind 0 (none) marks an unused operand; every operand a record counts is used.
    if (o.kind == OperandKind::None) return false;
    if (o.kind == OperandKind::Imm) return true;
    const unsigned end = o.first_half + o.halves;
    return o.halves != 0 && o.halves <= kMaxHalves &&
           end <= (o.kind == OperandKind::Reg ? registers_halves : kUniformHalves);
}

std::string describe_operand(const Operand& o, const char* role, unsigned i,
                             std::uint32_t registers_halves) {
    auto who = [&] { return std::string(role) + " " + std::to_string(i + 1); };
    if (static_cast<unsigned>(o.hint) > static_cast<unsigned>(CacheHint::Discard))
        return who() + ": bad cache hint " + std::to_string(static_cast<unsigned>(o.hint));
    if (o.kind == OperandKind::None) return who() + ": operand of kind 0 (none)";
    if (o.kind == OperandKind::Imm) return {};
    if (o.halves == 0 || o.halves > kMaxHalves)
        return who() + ": bad width of " + std::to_string(o.halves) + " halves";
    const unsigned end = o.first_half + o.halves;
    if (o.kind == OperandKind::Reg && end > registers_halves)
        return who() + ": register halves " + std::to_string(o.first_half) + ".." +
               std::to_string(end - 1) + " out of range: launch declares " +
               std::to_string(registers_halves) + " half-registers";
    if (o.kind == OperandKind::Uniform && end > kUniformHalves)
        return who() + ": uniform halves " + std::to_string(o.first_half) + ".." +
               std::to_string(end - 1) + " do not exist (u0..u255)";
    return {};
}

}  // namespace

std::size_t encode_instruction(const Instruction& in, std::uint16_t mnemonic_id, Deltas& deltas,
                               unsigned char* out) {
    if (in.num_dst > in.dst.size() || in.num_src > in.src.size())
        throw std::invalid_argument("binary trace: instruction with too many operands");
    std::uint8_t tag = kInstructionRecord;
    if (in.active_mask != kFullMask) tag |= kHasMask;
    if (in.wait_slot != kNoSlot) tag |= kHasSlot;
    if (has_memory(in.mem)) tag |= kHasMemory;
    if (in.mem.explicit_lanes) tag |= kHasLanes;
    if (in.source_line != 0) tag |= kHasLine;

    unsigned char* p = out;
    p[0] = tag;
    p[1] = static_cast<unsigned char>(in.num_dst | in.num_src << 4);
    p = put_varint(p + 2, mnemonic_id);
    p = put_varint(p, zigzag<std::uint32_t>(in.pc - deltas.pc));
    deltas.pc = in.pc;
    if (tag & kHasLine) p = put_varint(p, zigzag<std::uint32_t>(in.source_line - deltas.line));
    deltas.line = in.source_line;
    for (unsigned i = 0; i < in.num_dst; ++i) p = encode_operand(in.dst[i], p);
    for (unsigned i = 0; i < in.num_src; ++i) p = encode_operand(in.src[i], p);
    if (tag & kHasMask) {
        store<std::uint32_t>(p, in.active_mask);
        p += 4;
    }
    if (tag & kHasSlot) *p++ = in.wait_slot;
    if (tag & kHasMemory) {
        *p++ = in.mem.bytes_per_lane;
        if (tag & kHasLanes) {
            std::memcpy(p, in.mem.lane.data(), sizeof in.mem.lane);
            p += sizeof in.mem.lane;
        } else {
            p = put_varint(p, zigzag<std::uint64_t>(in.mem.base - deltas.base));
            p = put_varint(p, zigzag(static_cast<std::uint64_t>(in.mem.stride)));
            deltas.base = in.mem.base;
        }
    }
    return static_cast<std::size_t>(p - out);
}

const unsigned char* check_instruction_record(const unsigned char* p, const unsigned char* end,
                                              const isa::Opcode* opcodes, std::size_t mnemonics,
                                              std::uint32_t registers_halves, Deltas& deltas,
                                              Instruction& scratch, std::string& problem) {
    // The chunk's zero padding lets the record be decoded before its end is
    // known: decoding never reads more than kMaxInstructionRecord bytes.
    const std::uint8_t tag = p[0];
    if (tag & kReservedFlag) {
        problem = "instruction record with unknown flags";
        return nullptr;
    }
    if ((tag & kHasLanes) && !(tag & kHasMemory)) {
        problem = "instruction record with lane addresses but no memory access";
        return nullptr;
    }
    if ((p[1] & 0x0fu) > scratch.dst.size() || (p[1] >> 4) > scratch.src.size()) {
        problem = "instruction record with " + std::to_string(p[1] & 0x0fu) + " destinations and " +
                  std::to_string(p[1] >> 4) + " sources (at most 2 and 4)";
        return nullptr;
    }
    bool bad = false;
    std::uint16_t id = 0;
    get_varint(p + 2, id, bad);
    if (bad) {
        problem = "instruction record with a mnemonic id of more than 16 bits";
        return nullptr;
    }
    if (id >= mnemonics) {
        problem = "mnemonic id " + std::to_string(id) + " not in the index's " +
                  std::to_string(mnemonics) + " mnemonics";
        return nullptr;
    }
    const unsigned char* next = decode_instruction(
        p, opcodes, static_cast<std::uint16_t>(mnemonics - 1), deltas, scratch, bad);
    if (next > end) {
        problem = "instruction record cut by the end of its chunk";
        return nullptr;
    }
    if (bad) {
        problem = "instruction record with a varint too long for its field";
        return nullptr;
    }
    const Instruction& in = scratch;
    for (unsigned i = 0; i < in.num_dst && problem.empty(); ++i)
        if (!operand_ok(in.dst[i], registers_halves))
            problem = describe_operand(in.dst[i], "destination", i, registers_halves);
    for (unsigned i = 0; i < in.num_src && problem.empty(); ++i)
        if (!operand_ok(in.src[i], registers_halves))
            problem = describe_operand(in.src[i], "source", i, registers_halves);
    if (problem.empty() && (tag & kHasSlot) && in.wait_slot >= kWaitSlots)
        problem = "wait slot " + std::to_string(in.wait_slot) + " out of range (0 or 1)";
    if (problem.empty() && in.mem.bytes_per_lane > kMaxBytesPerLane)
        problem = std::to_string(in.mem.bytes_per_lane) + " bytes per lane (at most 16)";
    if (!problem.empty()) {
        problem = std::string(isa::Catalogue::instance().info(in.opcode).mnemonic) + " " + problem;
        return nullptr;
    }
    return next;
}

}  // namespace agx::binary_trace
