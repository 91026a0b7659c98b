#include "sim/trace/binary_trace_checksum.hpp"

#include <array>
#include <cstring>

namespace agx::binary_trace {

namespace {

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

// tables[k][b] is the CRC of byte b followed by k zero bytes.
Tables make_tables() {
    Tables t{};
    for (std::uint32_t b = 0; b < 256; ++b) {
        std::uint32_t c = b;
        for (int i = 0; i < 8; ++i) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        t[0][b] = c;
    }
    for (std::size_t k = 1; k < 8; ++k)
        for (std::uint32_t b = 0; b < 256; ++b)
            t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
    return t;
}

}  // namespace

std::uint32_t crc32(const void* bytes, std::size_t size, std::uint32_t crc) {
    static const Tables t = make_tables();
    const auto* p = static_cast<const unsigned char*>(bytes);
    crc = ~crc;
    for (; size >= 8; size -= 8, p += 8) {
        std::uint32_t lo, hi;
        std::memcpy(&lo, p, 4);
        std::memcpy(&hi, p + 4, 4);
        lo ^= crc;
        crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
              t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
    }
    for (; size > 0; --size, ++p) crc = (crc >> 8) ^ t[0][(crc ^ *p) & 0xff];
    return ~crc;
}

}  // namespace agx::binary_trace
