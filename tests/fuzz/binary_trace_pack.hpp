// The binary trace target's unpacked form: a binary trace with its chunks
// decoded and nothing a mutation must keep consistent (frame offsets and
// sizes, checksums, the footer), so that mutations reach the records and
// the index instead of stopping at the first checksum.
//
//   u8      any byte but 0x89 (unpack writes 'U')
//   u32     L, the index's size
//   L       the index (traces/FORMAT.md); its chunk table's offset, frame
//           bytes, decoded bytes and CRC fields are filled in when packing
//   then    each chunk's decoded records: u32 size and the bytes, in the
//           chunk table's order
//
// pack_binary_trace() writes the file: the header, each chunk as a zstd
// frame, the index with its chunk table filled in, and the footer.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sim/trace/binary_trace_checksum.hpp"
#include "sim/trace/binary_trace_format.hpp"
#include "sim/trace/binary_trace_zstd.hpp"

namespace agx_fuzz {

namespace bt = agx::binary_trace;

// Chunks packed at most: a file of more is no more interesting.
inline constexpr std::size_t kMaxPackedChunks = 256;

inline void append_u32(std::string& s, std::uint32_t v) {
    s.append(reinterpret_cast<const char*>(&v), sizeof v);
}
inline void append_u64(std::string& s, std::uint64_t v) {
    s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// The file `out` from the unpacked form at `data`; false if `data` is too
// short to hold an index size.
inline bool pack_binary_trace(const std::uint8_t* data, std::size_t size, std::string& out) {
    if (size < 5) return false;
    std::size_t index_size = bt::load<std::uint32_t>(data + 1);
    std::size_t at = 5;
    if (index_size > size - at) index_size = size - at;
    std::string index(reinterpret_cast<const char*>(data + at), index_size);
    at += index_size;

    std::vector<std::pair<const std::uint8_t*, std::size_t>> payloads;
    while (at + 4 <= size && payloads.size() < kMaxPackedChunks) {
        std::size_t n = bt::load<std::uint32_t>(data + at);
        at += 4;
        if (n > size - at) n = size - at;
        payloads.push_back({data + at, n});
        at += n;
    }

    // The chunk table is the index's tail, when the count it gives fits.
    std::size_t table = index.size(), entries = 0;
    if (index.size() >= bt::kIndexFixedBytes) {
        const auto count = bt::load<std::uint64_t>(
            reinterpret_cast<const unsigned char*>(index.data()) + bt::kLaunchBytes + 16);
        if (count <= (index.size() - bt::kIndexFixedBytes) / bt::kChunkEntryBytes) {
            entries = static_cast<std::size_t>(count);
            table = index.size() - entries * bt::kChunkEntryBytes;
        }
    }

    out.clear();
    out.append(reinterpret_cast<const char*>(bt::kMagic), sizeof bt::kMagic);
    append_u32(out, bt::kVersion);
    append_u32(out, 0);
    bt::FrameCompressor compressor;
    for (std::size_t i = 0; i < entries && i < payloads.size(); ++i) {
        const std::uint64_t offset = out.size();
        compressor.compress(payloads[i].first, payloads[i].second, out);
        auto* e = reinterpret_cast<unsigned char*>(index.data()) + table + i * bt::kChunkEntryBytes;
        bt::store<std::uint64_t>(e, offset);
        bt::store<std::uint32_t>(e + 8, static_cast<std::uint32_t>(out.size() - offset));
        bt::store<std::uint32_t>(e + 12, static_cast<std::uint32_t>(payloads[i].second));
        bt::store<std::uint32_t>(e + 16, bt::crc32(payloads[i].first, payloads[i].second));
    }
    const std::uint64_t index_offset = out.size();
    out += index;
    append_u64(out, index_offset);
    append_u64(out, index.size());
    append_u32(out, bt::crc32(index.data(), index.size()));
    append_u32(out, bt::kVersion);
    out.append(reinterpret_cast<const char*>(bt::kEndMagic), sizeof bt::kEndMagic);
    return true;
}

// The unpacked form of the binary trace `file`; false if its footer, index
// or chunk table do not hold together or a chunk does not decode.
inline bool unpack_binary_trace(const std::string& file, std::string& out) {
    const auto* p = reinterpret_cast<const unsigned char*>(file.data());
    const std::size_t size = file.size();
    if (size < bt::kHeaderBytes + bt::kFooterBytes) return false;
    const unsigned char* footer = p + size - bt::kFooterBytes;
    const auto index_offset = bt::load<std::uint64_t>(footer);
    const auto index_size = bt::load<std::uint64_t>(footer + 8);
    if (index_offset > size - bt::kFooterBytes ||
        index_size != size - bt::kFooterBytes - index_offset || index_size < bt::kIndexFixedBytes)
        return false;
    const unsigned char* index = p + index_offset;
    const auto chunks = bt::load<std::uint64_t>(index + bt::kLaunchBytes + 16);
    if (chunks > (index_size - bt::kIndexFixedBytes) / bt::kChunkEntryBytes) return false;
    const unsigned char* table = index + index_size - chunks * bt::kChunkEntryBytes;

    out.assign(1, 'U');
    append_u32(out, static_cast<std::uint32_t>(index_size));
    out.append(reinterpret_cast<const char*>(index), index_size);
    bt::FrameDecompressor decompressor;
    for (std::uint64_t i = 0; i < chunks; ++i) {
        const unsigned char* e = table + i * bt::kChunkEntryBytes;
        const auto offset = bt::load<std::uint64_t>(e);
        const auto frame = bt::load<std::uint32_t>(e + 8);
        const auto decoded = bt::load<std::uint32_t>(e + 12);
        if (offset > index_offset || frame > index_offset - offset) return false;
        std::vector<unsigned char> bytes(decoded);
        if (!decompressor.decompress(p + offset, frame, bytes.data(), decoded).empty())
            return false;
        append_u32(out, decoded);
        out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    return true;
}

}  // namespace agx_fuzz
