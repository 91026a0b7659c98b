#include "isa/semantics.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace agx::isa::sem {

namespace {

constexpr std::uint32_t kNaN32 = 0x7fc00000u;
constexpr std::uint16_t kNaN16 = 0x7e00u;
constexpr double kPi = 3.14159265358979323846;

bool is_nan32(std::uint32_t a) {
    return (a & 0x7fffffffu) > 0x7f800000u;
}
bool is_nan16(std::uint16_t a) {
    return (a & 0x7fffu) > 0x7c00u;
}

// binary32 denormals flush to a zero of the same sign.
std::uint32_t flush32(std::uint32_t a) {
    return (a & 0x7f800000u) == 0 ? (a & 0x80000000u) : a;
}
float in32(std::uint32_t a) {
    return f32(flush32(a));
}
std::uint32_t out32(float r) {
    const std::uint32_t b = bits(r);
    return is_nan32(b) ? kNaN32 : flush32(b);
}
// A double rounded once to binary32 (the cast rounds to nearest even), then
// flushed.
std::uint32_t out32(double r) {
    return out32(static_cast<float>(r));
}

// Any real (held exactly in a long double) rounded once to binary16,
// nearest even, with gradual underflow and overflow to infinity.
std::uint16_t round_to_f16(long double x) {
    if (std::isnan(x)) return kNaN16;
    const std::uint16_t sign = std::signbit(x) ? 0x8000u : 0;
    long double m = std::fabs(x);
    if (std::isinf(m)) return sign | 0x7c00u;
    if (m == 0) return sign;
    int e = 0;
    std::frexp(m, &e);  // m = f * 2^e, f in [0.5, 1)
    // The unbiased exponent of the leading bit is e - 1; below -14 the value
    // is a denormal whose quantum is 2^-24.
    const int lead = e - 1;
    const int quantum_exp = (lead < -14 ? -14 : lead) - 10;
    const long double scaled = std::nearbyint(std::ldexp(m, -quantum_exp));  // ties to even
    // scaled counts quanta: an integer up to 2^11 (a carry into the next binade).
    std::uint64_t q = static_cast<std::uint64_t>(scaled);
    int qexp = quantum_exp;
    if (q >= 2048) {  // carried out of the 11-bit significand
        q >>= 1;
        ++qexp;
    }
    if (q < 1024) return sign | static_cast<std::uint16_t>(q);  // denormal (qexp == -24)
    const int biased = qexp + 10 + 15;
    if (biased >= 31) return sign | 0x7c00u;
    return sign | static_cast<std::uint16_t>((biased << 10) | (q & 0x3ffu));
}

long double in16(std::uint16_t a) {
    return f16_to_f32(a);
}

}  // namespace

// ---- conversions --------------------------------------------------------
float f16_to_f32(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1fu;
    const std::uint32_t man = h & 0x3ffu;
    if (exp == 0x1f) return f32(sign | 0x7f800000u | (man << 13) | (man ? 0x400000u : 0));
    if (exp == 0) {
        const float mag = std::ldexp(static_cast<float>(man), -24);
        return sign ? -mag : mag;
    }
    return f32(sign | ((exp + 112) << 23) | (man << 13));
}

std::uint16_t f32_to_f16(float f) {
    return round_to_f16(f);
}

// ---- float arithmetic ---------------------------------------------------
// binary16 sums and products of binary16 values are exact in a long double
// (64-bit significand on x86; at worst double, where the fused form can
// round twice only when c is below 2^-52 of a*b), so one rounding to
// binary16 gives the correctly rounded result.
std::uint16_t fadd16(std::uint16_t a, std::uint16_t b) {
    return round_to_f16(in16(a) + in16(b));
}
std::uint16_t fmul16(std::uint16_t a, std::uint16_t b) {
    return round_to_f16(in16(a) * in16(b));
}
std::uint16_t fmadd16(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
    return round_to_f16(in16(a) * in16(b) + in16(c));
}

namespace {
// minNum / maxNum on values already flushed; `less` orders -0 below +0.
template <typename Bits, typename IsNaN, typename Value>
Bits min_max(Bits a, Bits b, bool want_max, Bits nan, IsNaN is_nan, Value value) {
    const bool na = is_nan(a), nb = is_nan(b);
    if (na && nb) return nan;
    if (na) return b;
    if (nb) return a;
    const auto va = value(a), vb = value(b);
    bool a_less;
    if (va == vb)
        a_less = std::signbit(va) && !std::signbit(vb);  // -0 below +0
    else
        a_less = va < vb;
    return (a_less != want_max) ? a : b;
}
}  // namespace

std::uint32_t fmin32(std::uint32_t a, std::uint32_t b) {
    return min_max<std::uint32_t>(flush32(a), flush32(b), false, kNaN32, is_nan32, f32);
}
std::uint32_t fmax32(std::uint32_t a, std::uint32_t b) {
    return min_max<std::uint32_t>(flush32(a), flush32(b), true, kNaN32, is_nan32, f32);
}
std::uint16_t fmin16(std::uint16_t a, std::uint16_t b) {
    return min_max<std::uint16_t>(a, b, false, kNaN16, is_nan16, f16_to_f32);
}
std::uint16_t fmax16(std::uint16_t a, std::uint16_t b) {
    return min_max<std::uint16_t>(a, b, true, kNaN16, is_nan16, f16_to_f32);
}

std::uint32_t rint32(std::uint32_t a) {
    return out32(std::nearbyint(in32(a)));
}
std::uint32_t trunc32(std::uint32_t a) {
    return out32(std::trunc(in32(a)));
}
std::uint32_t floor32(std::uint32_t a) {
    return out32(std::floor(in32(a)));
}
std::uint32_t ceil32(std::uint32_t a) {
    return out32(std::ceil(in32(a)));
}

std::optional<ConvertMode> parse_convert_mode(std::string_view name) {
    if (name == "u32_to_f") return ConvertMode::U32ToF;
    if (name == "s32_to_f") return ConvertMode::S32ToF;
    if (name == "f_to_u32") return ConvertMode::FToU32;
    if (name == "f_to_s32") return ConvertMode::FToS32;
    return std::nullopt;
}

std::uint32_t convert32(ConvertMode mode, std::uint32_t a) {
    switch (mode) {
        case ConvertMode::U32ToF:
            return out32(static_cast<float>(a));
        case ConvertMode::S32ToF:
            return out32(static_cast<float>(static_cast<std::int32_t>(a)));
        case ConvertMode::FToU32: {
            const double v = std::trunc(static_cast<double>(in32(a)));
            if (std::isnan(v) || v <= 0) return 0;
            if (v >= 4294967295.0) return 0xffffffffu;
            return static_cast<std::uint32_t>(v);
        }
        case ConvertMode::FToS32: {
            const double v = std::trunc(static_cast<double>(in32(a)));
            if (std::isnan(v)) return 0;
            if (v <= -2147483648.0) return 0x80000000u;
            if (v >= 2147483647.0) return 0x7fffffffu;
            return static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
        }
    }
    return 0;
}

// ---- transcendental -----------------------------------------------------
namespace {
double rcp_d(double x) {
    return 1.0 / x;
}
double rsqrt_d(double x) {
    return x < 0 ? std::numeric_limits<double>::quiet_NaN() : 1.0 / std::sqrt(x);
}
}  // namespace

std::uint32_t rcp32(std::uint32_t a) {
    return out32(rcp_d(in32(a)));
}
std::uint32_t rsqrt32(std::uint32_t a) {
    return out32(rsqrt_d(in32(a)));
}
std::uint32_t exp2_32(std::uint32_t a) {
    return out32(std::exp2(static_cast<double>(in32(a))));
}
std::uint32_t log2_32(std::uint32_t a) {
    return out32(std::log2(static_cast<double>(in32(a))));
}
std::uint16_t rcp16(std::uint16_t a) {
    return round_to_f16(rcp_d(f16_to_f32(a)));
}
std::uint16_t rsqrt16(std::uint16_t a) {
    return round_to_f16(rsqrt_d(f16_to_f32(a)));
}
std::uint16_t exp2_16(std::uint16_t a) {
    return round_to_f16(std::exp2(static_cast<double>(f16_to_f32(a))));
}
std::uint16_t log2_16(std::uint16_t a) {
    return round_to_f16(std::log2(static_cast<double>(f16_to_f32(a))));
}

std::uint32_t sin_pt_1(std::uint32_t a) {
    double x = in32(a);
    if (!std::isfinite(x)) return kNaN32;
    x = std::fmod(x, 4.0);
    if (x < 0) x += 4.0;
    double y;
    if (x < 1)
        y = x;
    else if (x < 3)
        y = 2 - x;
    else
        y = x - 4;
    return out32(y);
}

std::uint32_t sin_pt_2(std::uint32_t a) {
    const double y = in32(a);
    if (std::isnan(y)) return kNaN32;
    if (y == 0) return out32(kPi / 2);
    return out32(std::sin(y * kPi / 2) / y);
}

// ---- comparisons --------------------------------------------------------
std::optional<FloatCond> parse_float_cond(std::string_view n) {
    if (n == "eq") return FloatCond::Eq;
    if (n == "ne") return FloatCond::Ne;
    if (n == "lt") return FloatCond::Lt;
    if (n == "le") return FloatCond::Le;
    if (n == "gt") return FloatCond::Gt;
    if (n == "ge") return FloatCond::Ge;
    if (n == "ltn") return FloatCond::LtN;
    if (n == "gtn") return FloatCond::GtN;
    return std::nullopt;
}

std::optional<IntCond> parse_int_cond(std::string_view n) {
    if (n == "eq" || n == "seq" || n == "ueq") return IntCond::Eq;
    if (n == "ne") return IntCond::Ne;
    if (n == "ult") return IntCond::ULt;
    if (n == "ule") return IntCond::ULe;
    if (n == "ugt") return IntCond::UGt;
    if (n == "uge") return IntCond::UGe;
    if (n == "slt") return IntCond::SLt;
    if (n == "sle") return IntCond::SLe;
    if (n == "sgt") return IntCond::SGt;
    if (n == "sge") return IntCond::SGe;
    return std::nullopt;
}

namespace {
bool fcompare(FloatCond c, double a, double b) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    switch (c) {
        case FloatCond::Eq:
            return a == b;
        case FloatCond::Ne:
            return a != b;  // true when either is NaN
        case FloatCond::Lt:
            return a < b;
        case FloatCond::Le:
            return a <= b;
        case FloatCond::Gt:
            return a > b;
        case FloatCond::Ge:
            return a >= b;
        case FloatCond::LtN:
            return (!na && nb) || a < b;
        case FloatCond::GtN:
            return (!na && nb) || a > b;
    }
    return false;
}
}  // namespace

bool fcompare32(FloatCond c, std::uint32_t a, std::uint32_t b) {
    return fcompare(c, in32(a), in32(b));
}
bool fcompare16(FloatCond c, std::uint16_t a, std::uint16_t b) {
    return fcompare(c, f16_to_f32(a), f16_to_f32(b));
}

namespace {
bool icompare_as(IntCond c, std::uint32_t a, std::uint32_t b, unsigned width) {
    std::uint32_t ua = a, ub = b;
    std::int32_t sa = static_cast<std::int32_t>(a), sb = static_cast<std::int32_t>(b);
    if (width == 16) {
        ua &= 0xffffu;
        ub &= 0xffffu;
        sa = static_cast<std::int16_t>(ua);
        sb = static_cast<std::int16_t>(ub);
    }
    switch (c) {
        case IntCond::Eq:
            return ua == ub;
        case IntCond::Ne:
            return ua != ub;
        case IntCond::ULt:
            return ua < ub;
        case IntCond::ULe:
            return ua <= ub;
        case IntCond::UGt:
            return ua > ub;
        case IntCond::UGe:
            return ua >= ub;
        case IntCond::SLt:
            return sa < sb;
        case IntCond::SLe:
            return sa <= sb;
        case IntCond::SGt:
            return sa > sb;
        case IntCond::SGe:
            return sa >= sb;
    }
    return false;
}

// The lane loop of a comparison whose condition C is a constant, so that
// the compiler drops the switch from the loop: one instantiation per
// condition, each the per-lane definition.
template <class Cond, Cond C, class F>
std::uint32_t holding_lanes(F holds) {
    std::uint32_t r = 0;
    for (unsigned l = 0; l < 32; ++l) r |= std::uint32_t{holds(C, l)} << l;
    return r;
}
}  // namespace

bool icompare(IntCond c, std::uint32_t a, std::uint32_t b, unsigned width) {
    return icompare_as(c, a, b, width);
}

std::uint32_t icompare_lanes(IntCond c, const LaneWords& a, const LaneWords& b, unsigned width) {
    auto holds = [&](IntCond k, unsigned l) { return icompare_as(k, a[l], b[l], width); };
    switch (c) {
        case IntCond::Eq:
            return holding_lanes<IntCond, IntCond::Eq>(holds);
        case IntCond::Ne:
            return holding_lanes<IntCond, IntCond::Ne>(holds);
        case IntCond::ULt:
            return holding_lanes<IntCond, IntCond::ULt>(holds);
        case IntCond::ULe:
            return holding_lanes<IntCond, IntCond::ULe>(holds);
        case IntCond::UGt:
            return holding_lanes<IntCond, IntCond::UGt>(holds);
        case IntCond::UGe:
            return holding_lanes<IntCond, IntCond::UGe>(holds);
        case IntCond::SLt:
            return holding_lanes<IntCond, IntCond::SLt>(holds);
        case IntCond::SLe:
            return holding_lanes<IntCond, IntCond::SLe>(holds);
        case IntCond::SGt:
            return holding_lanes<IntCond, IntCond::SGt>(holds);
        case IntCond::SGe:
            return holding_lanes<IntCond, IntCond::SGe>(holds);
    }
    return 0;
}

namespace {
template <class F>
std::uint32_t fcompare_lanes(FloatCond c, F holds) {
    switch (c) {
        case FloatCond::Eq:
            return holding_lanes<FloatCond, FloatCond::Eq>(holds);
        case FloatCond::Ne:
            return holding_lanes<FloatCond, FloatCond::Ne>(holds);
        case FloatCond::Lt:
            return holding_lanes<FloatCond, FloatCond::Lt>(holds);
        case FloatCond::Le:
            return holding_lanes<FloatCond, FloatCond::Le>(holds);
        case FloatCond::Gt:
            return holding_lanes<FloatCond, FloatCond::Gt>(holds);
        case FloatCond::Ge:
            return holding_lanes<FloatCond, FloatCond::Ge>(holds);
        case FloatCond::LtN:
            return holding_lanes<FloatCond, FloatCond::LtN>(holds);
        case FloatCond::GtN:
            return holding_lanes<FloatCond, FloatCond::GtN>(holds);
    }
    return 0;
}
}  // namespace

std::uint32_t fcompare32_lanes(FloatCond c, const LaneWords& a, const LaneWords& b) {
    return fcompare_lanes(
        c, [&](FloatCond k, unsigned l) { return fcompare(k, in32(a[l]), in32(b[l])); });
}
std::uint32_t fcompare16_lanes(FloatCond c, const LaneHalves& a, const LaneHalves& b) {
    return fcompare_lanes(c, [&](FloatCond k, unsigned l) {
        return fcompare(k, f16_to_f32(a[l]), f16_to_f32(b[l]));
    });
}

// ---- integer ------------------------------------------------------------
std::uint32_t iaddsat32(std::uint32_t a, std::uint32_t b, bool is_signed) {
    if (!is_signed) {
        const std::uint64_t s = std::uint64_t{a} + b;
        return s > 0xffffffffu ? 0xffffffffu : static_cast<std::uint32_t>(s);
    }
    const std::int64_t s =
        std::int64_t{static_cast<std::int32_t>(a)} + static_cast<std::int32_t>(b);
    if (s > std::numeric_limits<std::int32_t>::max()) return 0x7fffffffu;
    if (s < std::numeric_limits<std::int32_t>::min()) return 0x80000000u;
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(s));
}

std::uint64_t imul32x64(std::uint32_t a, std::uint32_t b, bool is_signed) {
    if (!is_signed) return std::uint64_t{a} * b;
    return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(a)} *
                                      std::int64_t{static_cast<std::int32_t>(b)});
}

std::uint32_t imulhi32(std::uint32_t a, std::uint32_t b, bool is_signed) {
    return static_cast<std::uint32_t>(imul32x64(a, b, is_signed) >> 32);
}

std::uint32_t bitop(std::uint8_t table, std::uint32_t a, std::uint32_t b) {
    std::uint32_t r = 0;
    if (table & 1u) r |= ~a & ~b;
    if (table & 2u) r |= a & ~b;
    if (table & 4u) r |= ~a & b;
    if (table & 8u) r |= a & b;
    return r;
}

std::optional<std::uint8_t> parse_bitop(std::string_view n) {
    struct Named {
        std::string_view name;
        std::uint8_t table;
    };
    static constexpr Named kTables[] = {
        {"and", 8},  {"or", 14},   {"xor", 6},   {"nand", 7}, {"nor", 1}, {"xnor", 9}, {"andn", 2},
        {"orn", 11}, {"not_a", 5}, {"not_b", 3}, {"a", 10},   {"b", 12},  {"zero", 0}, {"ones", 15},
    };
    for (const auto& t : kTables)
        if (t.name == n) return t.table;
    return std::nullopt;
}

std::uint32_t bitrev32(std::uint32_t a) {
    std::uint32_t r = 0;
    for (int i = 0; i < 32; ++i) r |= ((a >> i) & 1u) << (31 - i);
    return r;
}
std::uint32_t popcount32(std::uint32_t a) {
    return static_cast<std::uint32_t>(__builtin_popcount(a));
}
std::uint32_t ffs32(std::uint32_t a) {
    return a == 0 ? 0xffffffffu : 31u - static_cast<std::uint32_t>(__builtin_clz(a));
}
std::uint32_t clz32(std::uint32_t a) {
    return a == 0 ? 32u : static_cast<std::uint32_t>(__builtin_clz(a));
}

namespace {
// A bit-field width: the low 7 bits; 0 or above 31 means the whole word.
unsigned field_count(std::uint32_t count) {
    const unsigned c = count & 0x7fu;
    return (c == 0 || c > 31) ? 32u : c;
}
std::uint32_t low_mask(unsigned count) {
    return count >= 32 ? 0xffffffffu : ((1u << count) - 1u);
}
}  // namespace

std::uint32_t bfeil(std::uint32_t value, std::uint32_t offset, std::uint32_t count) {
    const unsigned off = offset & 0x7fu;
    const std::uint32_t shifted = off >= 32 ? 0 : value >> off;
    return shifted & low_mask(field_count(count));
}

std::uint32_t bfi(std::uint32_t base, std::uint32_t insert, std::uint32_t offset,
                  std::uint32_t count) {
    const unsigned off = offset & 0x7fu;
    if (off >= 32) return base;
    const std::uint32_t mask = low_mask(field_count(count)) << off;
    return (base & ~mask) | ((insert << off) & mask);
}

std::uint32_t extr(std::uint32_t lo, std::uint32_t hi, std::uint32_t shift) {
    const unsigned s = shift & 0x7fu;
    if (s >= 64) return 0;
    return static_cast<std::uint32_t>(((std::uint64_t{hi} << 32) | lo) >> s);
}

std::uint32_t intl(std::uint16_t a, std::uint16_t b) {
    std::uint32_t r = 0;
    for (int i = 0; i < 16; ++i) {
        r |= static_cast<std::uint32_t>((a >> i) & 1u) << (2 * i);
        r |= static_cast<std::uint32_t>((b >> i) & 1u) << (2 * i + 1);
    }
    return r;
}

std::uint32_t shl32(std::uint32_t a, std::uint32_t amount) {
    const unsigned s = amount & 0x7fu;
    return s >= 32 ? 0 : a << s;
}
std::uint32_t shr32(std::uint32_t a, std::uint32_t amount) {
    const unsigned s = amount & 0x7fu;
    return s >= 32 ? 0 : a >> s;
}
std::uint32_t asr32(std::uint32_t a, std::uint32_t amount) {
    const unsigned s = amount & 0x7fu;
    const auto v = static_cast<std::int32_t>(a);
    return static_cast<std::uint32_t>(s >= 32 ? (v < 0 ? -1 : 0) : (v >> s));
}
std::uint16_t shl16(std::uint16_t a, std::uint16_t amount) {
    const unsigned s = amount & 0x7fu;
    return s >= 16 ? 0 : static_cast<std::uint16_t>(a << s);
}
std::uint16_t shr16(std::uint16_t a, std::uint16_t amount) {
    const unsigned s = amount & 0x7fu;
    return s >= 16 ? 0 : static_cast<std::uint16_t>(a >> s);
}
std::uint16_t asr16(std::uint16_t a, std::uint16_t amount) {
    const unsigned s = amount & 0x7fu;
    const auto v = static_cast<std::int16_t>(a);
    return static_cast<std::uint16_t>(s >= 16 ? (v < 0 ? -1 : 0) : (v >> s));
}

}  // namespace agx::isa::sem
