// Encoding and decoding of the binary trace's instruction records
// (binary_trace_format.hpp has the layout).
//
// decode_instruction() is the streams' hot path. It does not check what it
// decodes: every record was checked once when the trace was opened
// (check_instruction_record). It is memory-safe on any bytes all the same
// (it reads at most kMaxInstructionRecord bytes, which a chunk's zero
// padding covers, varints included, and clamps counts and ids to their
// tables), so a file changed behind the reader's back cannot make it write
// out of bounds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "isa/catalogue.hpp"
#include "sim/trace/binary_trace_format.hpp"
#include "sim/trace/instruction.hpp"

namespace agx::binary_trace {

// The values an instruction record's pc, source line and memory base are
// deltas from: those of the previous instruction record (the previous
// base-and-stride access for the base). They start again from zero at each
// place a stream may start or resume reading: a chunk's start, and right
// after a repeat or end-of-repeat record (where a repeat pass jumps back to,
// and where the file goes on after a replayed body), so no jump needs the
// records before it.
struct Deltas {
    std::uint32_t pc = 0;
    std::uint32_t line = 0;  // 0 after a record without a source line
    std::uint64_t base = 0;
};

// Writes the record of `in` at `out` (room for kMaxInstructionRecord bytes),
// naming its mnemonic by the file's `mnemonic_id`, relative to `deltas`,
// which it then moves on to `in`; returns its size. Throws
// std::invalid_argument for what the format cannot hold (an operand wider
// than 15 halves, more operands than an Instruction has).
std::size_t encode_instruction(const Instruction& in, std::uint16_t mnemonic_id, Deltas& deltas,
                               unsigned char* out);

// Where decoding notes malformed varints: a bool for the check at open
// time, Unchecked for streams, which read only checked records and so need
// not spend a cycle on it.
struct Unchecked {
    Unchecked& operator|=(bool) { return *this; }
};

// Unsigned LEB128: 7 bits a byte, low bits first, the high bit set on every
// byte but the last. A varint for T has at most (bits of T + 6) / 7 bytes;
// reading never goes past them. `bad` is set if the varint runs on past
// them or holds more bits than T.
template <typename T, typename Bad>
const unsigned char* get_long_varint(const unsigned char* p, T& v, Bad& bad) {
    constexpr unsigned kBits = 8 * sizeof(T);
    constexpr unsigned kBytes = (kBits + 6) / 7;
    std::uint64_t x = 0;
    for (unsigned i = 0; i < kBytes; ++i) {
        x |= std::uint64_t{p[i] & 0x7fu} << (7 * i);
        if (p[i] < 0x80) {
            if constexpr (kBits < 64)
                bad |= (x >> kBits) != 0;
            else
                bad |= i + 1 == kBytes && p[i] > 1;
            v = static_cast<T>(x);
            return p + i + 1;
        }
    }
    bad |= true;
    v = static_cast<T>(x);
    return p + kBytes;
}

template <typename T, typename Bad>
inline const unsigned char* get_varint(const unsigned char* p, T& v, Bad& bad) {
    if (p[0] < 0x80) {  // most fields are small: one byte
        v = p[0];
        return p + 1;
    }
    if (p[1] < 0x80) {  // 14 bits, which every field holds (a base moving by a line)
        v = static_cast<T>((p[0] & 0x7fu) | unsigned{p[1]} << 7);
        return p + 2;
    }
    return get_long_varint(p, v, bad);
}

// Signed values and deltas as zigzag varints: 0, -1, 1, -2 ... as 0, 1, 2,
// 3 ..., so small negative ones stay short.
template <typename U>
inline U unzigzag(U z) {
    return static_cast<U>((z >> 1) ^ (U{0} - (z & 1u)));
}

template <typename Bad>
inline const unsigned char* decode_operand(const unsigned char* p, Operand& o, Bad& bad) {
    const std::uint8_t d = p[0];
    o.kind = static_cast<OperandKind>(d & 3u);
    o.hint = static_cast<CacheHint>((d >> 2) & 3u);
    o.halves = static_cast<std::uint8_t>(d >> 4);
    p = get_varint(p + 1, o.first_half, bad);
    o.imm = 0;
    if (o.kind == OperandKind::Imm) {
        p = get_varint(p, o.imm, bad);
        o.imm = unzigzag(o.imm);
    }
    return p;
}

// Decodes the instruction record at `p` into `in`, mapping the file's
// mnemonic ids to opcodes through `opcodes` (ids 0..last_id) and moving
// `deltas` on; returns the byte after it. `bad` as for get_varint().
// Every field of `in` is written, so it may be reused from record to record;
// `in` must keep the invariants that lanes are zero unless mem.explicit_lanes
// and operand slots past num_dst/num_src are empty (a default Instruction
// does, and so does every instruction this function wrote).
template <typename Bad>
inline const unsigned char* decode_instruction(const unsigned char* p, const isa::Opcode* opcodes,
                                               std::uint16_t last_id, Deltas& deltas,
                                               Instruction& in, Bad& bad) {
    const std::uint8_t tag = p[0];
    const unsigned num_dst = std::min<unsigned>(p[1] & 0x0fu, in.dst.size());
    const unsigned num_src = std::min<unsigned>(p[1] >> 4, in.src.size());
    std::uint16_t id = 0;
    p = get_varint(p + 2, id, bad);
    in.opcode = opcodes[std::min(id, last_id)];
    std::uint32_t z = 0;
    p = get_varint(p, z, bad);
    in.pc = deltas.pc += unzigzag(z);
    in.source_line = 0;
    if (tag & kHasLine) {
        p = get_varint(p, z, bad);
        in.source_line = deltas.line + unzigzag(z);
    }
    deltas.line = in.source_line;
    // Unused operand slots stay empty: only those the previous record of
    // this `in` used need clearing.
    for (unsigned i = num_dst; i < in.num_dst; ++i) in.dst[i] = Operand{};
    for (unsigned i = num_src; i < in.num_src; ++i) in.src[i] = Operand{};
    in.num_dst = static_cast<std::uint8_t>(num_dst);
    in.num_src = static_cast<std::uint8_t>(num_src);
    for (unsigned i = 0; i < num_dst; ++i) p = decode_operand(p, in.dst[i], bad);
    for (unsigned i = 0; i < num_src; ++i) p = decode_operand(p, in.src[i], bad);
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
            std::uint64_t base = 0, stride = 0;
            p = get_varint(p + 1, base, bad);
            p = get_varint(p, stride, bad);
            m.base = deltas.base += unzigzag(base);
            m.stride = static_cast<std::int64_t>(unzigzag(stride));
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
// lane), varints included. On success returns the byte after it, leaves
// the decoded instruction in `scratch` and moves `deltas` on; on failure
// returns nullptr and says why in `problem`.
const unsigned char* check_instruction_record(const unsigned char* p, const unsigned char* end,
                                              const isa::Opcode* opcodes, std::size_t mnemonics,
                                              std::uint32_t registers_halves, Deltas& deltas,
                                              Instruction& scratch, std::string& problem);

}  // namespace agx::binary_trace
