// How an address picks one of 2^width places (a cache set, a DRAM channel or
// bank): its `width` low bits; those XOR-folded with the `hash_bits` bits
// above them, `width` at a time (xor); or the address, to `hash_bits` above
// the index, as a polynomial over GF(2) modulo an irreducible one of degree
// `width` (ipoly, Rau, ISCA 1991). Both hashes spread power-of-two strides,
// which step only the bits above the index, over every place, as GPU caches
// and memory controllers hash for (configs/README.md, "Address mapping").
//
// The mapping is a bijection between (index, bits above) and the address:
// the bits above stay the tag (or the row), and the index is the low bits
// XOR a function of them, so the low bits come back from the index.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/policies.hpp"

namespace agx {

inline bool is_pow2(std::uint64_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}
// The smallest s with 2^s >= v.
inline unsigned log2_of(std::uint64_t v) {
    unsigned s = 0;
    while ((1ull << s) < v) ++s;
    return s;
}

class IndexHash {
  public:
    IndexHash() = default;
    // `width`: log2 of the place count (at most 32); `hash_bits`: how many
    // bits above the index the hash takes (none with AddressHash::LowBits).
    IndexHash(AddressHash kind, unsigned width, unsigned hash_bits)
        : width_(width),
          mask_(width ? (1ull << width) - 1 : 0),
          fold_mask_(kind != AddressHash::LowBits && width
                         ? (hash_bits >= 64 ? ~0ull : (1ull << hash_bits) - 1)
                         : 0),
          poly_(kind == AddressHash::Ipoly ? irreducible(width) : 0) {
        // Both hashes are linear over GF(2): the fold of the bits above is
        // the XOR of each byte's fold, tabulated once (every cache lookup and
        // DRAM access takes one, and IPOLY bit by bit costs ~50 steps).
        const unsigned bytes = fold_mask_ ? (64 - __builtin_clzll(fold_mask_) + 7) / 8 : 0;
        byte_fold_.resize(std::size_t{bytes} * 256);
        for (unsigned k = 0; k < bytes; ++k)
            for (std::uint64_t v = 0; v < 256; ++v)
                byte_fold_[k * 256 + v] =
                    static_cast<std::uint32_t>(fold_bitwise((v << (8 * k)) & fold_mask_));
    }

    // The place of `value` (index bits and what lies above them).
    std::uint64_t index(std::uint64_t value) const {
        return (value & mask_) ^ fold(value >> width_);
    }
    // The bits above the index: the tag, or the row.
    std::uint64_t upper(std::uint64_t value) const { return value >> width_; }
    // The value whose place is `index` and whose bits above are `upper`.
    std::uint64_t value(std::uint64_t index, std::uint64_t upper) const {
        return (upper << width_) | (index ^ fold(upper));
    }

  private:
    // What the bits above add to the index: their XOR fold, or (ipoly) the
    // remainder of upper * x^width modulo the polynomial; both are linear over
    // GF(2), so index ^ fold(upper) inverts.
    std::uint64_t fold(std::uint64_t upper) const {
        std::uint64_t rest = upper & fold_mask_, h = 0;
        for (const std::uint32_t* t = byte_fold_.data(); rest; rest >>= 8, t += 256)
            h ^= t[rest & 0xFF];
        return h;
    }
    // The fold computed from its definition, for the table.
    std::uint64_t fold_bitwise(std::uint64_t rest) const {
        std::uint64_t h = 0;
        if (poly_) {
            // Horner's rule from the top bit: h = (h * x + bit) mod poly, then
            // times x^width for the index bits below.
            for (int b = 63 - __builtin_clzll(rest | 1); rest && b >= 0; --b) {
                h = (h << 1) | ((rest >> b) & 1);
                if (h >> width_) h ^= poly_;
            }
            for (unsigned i = 0; i < width_; ++i) {
                h <<= 1;
                if (h >> width_) h ^= poly_;
            }
            return h;
        }
        while (rest) {
            h ^= rest & mask_;
            rest >>= width_;
        }
        return h;
    }
    // An irreducible polynomial of degree `width` over GF(2), x^width
    // included: the primitive polynomials of maximal-length LFSR tables
    // (tests/unit/test_address_mapping.cpp checks each). Configs keep ipoly
    // to 24 index bits (sim/config/config_validate.cpp).
    static std::uint64_t irreducible(unsigned width) {
        static constexpr std::uint64_t table[] = {
            0x0,     0x3,     0x7,      0xB,      0x13,     0x25,     0x43,     0x83,    0x11D,
            0x211,   0x409,   0x805,    0x1053,   0x201B,   0x4443,   0x8003,   0x1100B, 0x20009,
            0x40081, 0x80027, 0x100009, 0x200005, 0x400003, 0x800021, 0x100001B};
        return width < sizeof table / sizeof table[0] ? table[width] : 0;
    }

    unsigned width_ = 0;
    std::uint64_t mask_ = 0;
    std::uint64_t fold_mask_ = 0;  // the bits above that fold in (0: plain low bits)
    std::uint64_t poly_ = 0;       // ipoly's modulus (0: the XOR fold)
    // fold() of each byte of the bits above at each byte position: 256
    // entries per byte that fold_mask_ reaches (indexes fit 32 bits).
    std::vector<std::uint32_t> byte_fold_;
};

}  // namespace agx
