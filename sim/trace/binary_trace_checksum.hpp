// CRC-32 (the ISO-HDLC / zlib polynomial) of the binary trace's chunks and
// index. The zstd filter writes frames without a content checksum, and zstd
// alone does not notice every flipped bit, so each chunk carries its own.
#pragma once

#include <cstddef>
#include <cstdint>

namespace agx::binary_trace {

// The CRC-32 of `bytes` continued from `crc` (0 to start): the value zlib's
// crc32() gives. Slicing by 8 bytes, several times faster than a byte-wise
// table, because streams check every chunk they decode.
std::uint32_t crc32(const void* bytes, std::size_t size, std::uint32_t crc = 0);

}  // namespace agx::binary_trace
