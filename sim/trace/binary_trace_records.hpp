// Encoding and decoding of the binary trace's instruction records
// (binary_trace_format.hpp has the layout).
//
// decode_instruction() is the streams' hot path. It does not check what it
// decodes: every record was checked once when the trace was opened
// (check_instruction_record). It is memory-safe on any bytes all the same
// (it reads at most kMaxInstructionRecord bytes, which a chunk's zero
// padding covers, and clamps counts and ids to their tables), so a file
// changed behind the reader's back cannot make it write out of bounds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/catalogue.hpp"
#include "sim/trace/binary_trace_format.hpp"
#include "sim/trace/instruction.hpp"

namespace agx::binary_trace {

// Writes the record of `in` at `out` (room for kMaxInstructionRecord bytes),
// naming its mnemonic by the file's `mnemonic_id`; returns its size. Throws
// std::invalid_argument for what the format cannot hold (an operand wider
// than 15 halves, more operands than an Instruction has).
std::size_t encode_instruction(const Instruction& in, std::uint16_t mnemonic_id,
                               unsigned char* out);

inline const unsigned char* decode_operand(const unsigned char* p, Operand& o) {
    const std::uint8_t d = p[0];
    o.kind = static_cast<OperandKind>(d & 3u);
    o.hint = static_cast<CacheHint>((d >> 2) & 3u);
    o.halves = static_cast<std::uint8_t>(d >> 4);
    o.first_half = load<std::uint16_t>(p + 1);
    if (o.kind == OperandKind::Imm) {
        o.imm = load<std::uint32_t>(p + 3);
        return p + 7;
    }
    o.imm = 0;
    return p + 3;
}

// Decodes the instruction record at `p` into `in`, mapping the file's
// mnemonic ids to opcodes through `opcodes` (ids 0..last_id); returns the
// byte after it.
// Every field of `in` is written, so it may be reused from record to record;
// `in` must keep the invariants that lanes are zero unless mem.explicit_lanes
// and operand slots past num_dst/num_src are empty (a default Instruction
// does, and so does every instruction this function wrote).
inline const unsigned char* decode_instruction(const unsigned char* p, const isa::Opcode* opcodes,
                                               std::uint16_t last_id, Instruction& in) {
    const std::uint8_t tag = p[0];
    const unsigned num_dst = std::min<unsigned>(p[1] & 0x0fu, in.dst.size());
    const unsigned num_src = std::min<unsigned>(p[1] >> 4, in.src.size());
    in.opcode = opcodes[std::min(load<std::uint16_t>(p + 2), last_id)];
    in.pc = load<std::uint32_t>(p + 4);
    p += 8;
    in.source_line = 0;
    if (tag & kHasLine) {
        in.source_line = load<std::uint32_t>(p);
        p += 4;
    }
    // Unused operand slots stay empty: only those the previous record of
    // this `in` used need clearing.
    for (unsigned i = num_dst; i < in.num_dst; ++i) in.dst[i] = Operand{};
    for (unsigned i = num_src; i < in.num_src; ++i) in.src[i] = Operand{};
    in.num_dst = static_cast<std::uint8_t>(num_dst);
    in.num_src = static_cast<std::uint8_t>(num_src);
    for (unsigned i = 0; i < num_dst; ++i) p = decode_operand(p, in.dst[i]);
    for (unsigned i = 0; i < num_src; ++i) p = decode_operand(p, in.src[i]);
    in.active_mask = kFullMask;
    if (tag & kHasMask) {
        in.active_mask = load<std::uint32_t>(p);
        p += 4;
    }
    in.wait_slot = kNoSlot;
    if (tag & kHasSlot) in.wait_slot = *p++;
    MemoryAccess& m = in.mem;
    if (tag & kHasMemory) {
        m.bytes_per_lane = p[0];
        m.base = 0;
        m.stride = 0;
        if (tag & kHasLanes) {
            m.explicit_lanes = true;
            std::memcpy(m.lane.data(), p + 1, sizeof m.lane);
            p += 1 + sizeof m.lane;
        } else {
            if (m.explicit_lanes) m.lane.fill(0);
            m.explicit_lanes = false;
            m.base = load<std::uint64_t>(p + 1);
            m.stride = load<std::int64_t>(p + 9);
            p += 17;
        }
    } else if (m.explicit_lanes || m.bytes_per_lane || m.base || m.stride) {
        if (m.explicit_lanes) m.lane.fill(0);  // else the lanes are zero already
        m.explicit_lanes = false;
        m.bytes_per_lane = 0;
        m.base = 0;
        m.stride = 0;
    }
    return p;
}

// Checks the instruction record at `p`, whose chunk ends at `end` (and is
// padded): its flags, counts and mnemonic id, that it ends within the chunk,
// and that its fields are in range (operand kinds, hints and widths,
// registers within the launch's `registers_halves`, the wait slot, bytes per
// lane). On success returns the byte after it and leaves the decoded
// instruction in `scratch`; on failure returns nullptr and says why in
// `problem`.
const unsigned char* check_instruction_record(const unsigned char* p, const unsigned char* end,
                                              const isa::Opcode* opcodes, std::size_t mnemonics,
                                              std::uint32_t registers_halves, Instruction& scratch,
                                              std::string& problem);

}  // namespace agx::binary_trace
