// The binary trace format, version 2 (traces/FORMAT.md, "Binary trace
// format"): the constants and byte layout shared by the writer and the
// reader. All integers are little-endian.
//
//   header   16 bytes: magic, version, flags
//   chunks   zstd frames, back to back; each decodes to at most kChunkBytes
//            of records, never cutting a record, and every section starts a
//            new chunk
//   index    launch, kernel name, mnemonic table, section table, chunk table
//   footer   32 bytes: where the index is, its checksum, the end magic
//
// Compressing chunks as independent frames is what lets a stream start at
// any section, and jump back to a repeat body, without decoding what comes
// before it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace agx::binary_trace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the binary trace codec copies little-endian fields as they are in memory");

inline constexpr std::uint32_t kVersion = 2;

// A first byte that no text trace can start with (0x89, as PNG does), so
// that the format is known from the first byte and a text tool shows it as
// binary.
inline constexpr unsigned char kMagic[8] = {0x89, 'A', 'G', 'X', 'T', 'R', 'C', '\n'};
inline constexpr unsigned char kEndMagic[8] = {'A', 'G', 'X', 'T', 'E', 'N', 'D', '\n'};

inline constexpr std::size_t kHeaderBytes = 16;  // magic, u32 version, u32 flags (0)
inline constexpr std::size_t kFooterBytes = 32;  // u64 index offset, u64 index bytes,
                                                 // u32 index crc32, u32 version, end magic

// Records of a chunk. 32 KiB keeps a decoded chunk small enough that every
// resident simd may hold one, yet large enough that a frame's fixed cost is
// noise next to its instructions.
inline constexpr std::size_t kChunkBytes = 32 * 1024;
// A decoded chunk is followed by this many zero bytes, more than the largest
// record, so the decoder can read a record's fields without bounds checks
// and check where it ended afterwards.
inline constexpr std::size_t kChunkPadding = 512;

// u32 threads per threadgroup, threadgroups, registers (halves), threadgroup
// memory, overhead cycles, code in L2 bytes.
inline constexpr std::size_t kLaunchBytes = 24;
// After the launch: u32 sections, u32 kernel name bytes, u32 mnemonics,
// u32 reserved (0), u64 chunks. Then the name, the mnemonics (u8 length and
// the bytes each), the section table and the chunk table.
inline constexpr std::size_t kIndexFixedBytes = kLaunchBytes + 24;
inline constexpr std::size_t kSectionEntryBytes = 24;  // u32 first, u32 last, u64 first chunk,
                                                       // u64 chunk count
inline constexpr std::size_t kChunkEntryBytes = 24;    // u64 offset, u32 compressed, u32 decoded,
                                                       // u32 crc32 of the decoded bytes, u32 0
inline constexpr std::size_t kMaxRepeatNesting = 32;   // as the text format

// Record tags: the low two bits say what the record is.
enum RecordType : std::uint8_t {
    kInstructionRecord = 0,
    kRepeatRecord = 1,     // followed by u32 count (>= 1)
    kEndRepeatRecord = 2,  // closes the innermost repeat
    kEndSectionRecord = 3  // the last record of a section
};
// An instruction record's tag carries which optional fields follow.
enum InstructionFlag : std::uint8_t {
    kHasMask = 0x04,    // u32 active mask (else all lanes)
    kHasSlot = 0x08,    // u8 wait slot (else none)
    kHasMemory = 0x10,  // u8 bytes per lane, then base and stride or lanes
    kHasLanes = 0x20,   // 32 x u64 lane addresses instead of u64 base, i64 stride
    kHasLine = 0x40,    // u32 source line (else 0)
    kReservedFlag = 0x80,
};

// Instruction record layout (v = LEB128 varint, z = zigzag varint; deltas
// as described at Deltas in binary_trace_records.hpp):
//   u8 tag, u8 counts (num_dst | num_src << 4), v mnemonic id, z pc delta,
//   [z line delta], operands (dst then src), [u32 mask], [u8 slot], [memory]
// Operand: u8 (kind | hint << 2 | halves << 4), v first half, [z imm when
// kind is Imm]. Memory: u8 bytes per lane, then z base delta and z stride,
// or 32 x u64 lanes.
// Small varints and deltas make a record about half its fixed-width size,
// and a loop's records repeat byte for byte, which zstd decodes as long
// matches for almost nothing: zstd's share of reading an instruction is
// ~15 instructions, against ~100 with fixed-width records.
inline constexpr std::size_t kMaxVarint16 = 3;  // bytes of a varint holding 16, 32, 64 bits
inline constexpr std::size_t kMaxVarint32 = 5;
inline constexpr std::size_t kMaxVarint64 = 10;
inline constexpr std::size_t kMaxOperand = 1 + kMaxVarint16 + kMaxVarint32;
inline constexpr std::size_t kMaxInstructionRecord =
    2 + kMaxVarint16 + 2 * kMaxVarint32 + 6 * kMaxOperand + 4 + 1 + 1 + 32 * 8;
static_assert(kMaxInstructionRecord < kChunkPadding);

template <typename T>
inline T load(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename T>
inline void store(unsigned char* p, T v) {
    std::memcpy(p, &v, sizeof v);
}

}  // namespace agx::binary_trace
