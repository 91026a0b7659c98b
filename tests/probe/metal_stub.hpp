// Just enough of the Metal Shading Language, as C++17 declarations, for the
// probe's generated kernels to be checked with `g++ -fsyntax-only` on Linux:
// the types (half as a distinct 16-bit type, the vote and matrix types), the
// functions the op table uses, and the address-space keywords as nothing.
// Bodies are placeholders: only the syntax and the types are checked.
//
// Deliberately strict where MSL is: as_type needs equal sizes, a half is made
// from a float explicitly, and fast::/precise:: functions take float only.
//
// The keyword `threadgroup` is defined away, which would also empty the
// attribute [[threadgroup(0)]]: the test renames that attribute before
// compiling (attributes the compiler does not know are ignored).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#define kernel
#define device
#define constant
#define threadgroup
#define thread

namespace metal {

using uchar = std::uint8_t;
using ushort = std::uint16_t;
using uint = std::uint32_t;
using ulong = std::uint64_t;

struct half {
    std::uint16_t bits = 0;
    half() = default;
    template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
    constexpr explicit half(T) {}
    constexpr operator float() const { return 0.0f; }
};
static_assert(sizeof(half) == 2, "MSL's half is 16 bits");
inline half operator-(half) {
    return {};
}
inline half operator+(half, half) {
    return {};
}
inline half operator-(half, half) {
    return {};
}
inline half operator*(half, half) {
    return {};
}
inline half operator/(half, half) {
    return {};
}
inline bool operator<(half, half) {
    return false;
}
inline bool operator>(half, half) {
    return false;
}

template <typename T, int N>
struct vec;
template <typename T>
struct vec<T, 2> {
    T x, y;
    T& operator[](int i) { return i ? y : x; }
};
using float2 = vec<float, 2>;

template <typename To, typename From>
To as_type(From from) {
    static_assert(sizeof(To) == sizeof(From), "as_type needs types of equal size");
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
}

// --- math: generic over half and float (and integers where MSL has them) ----
template <typename T>
T fma(T a, T, T) {
    return a;
}
template <typename T>
T rint(T a) {
    return a;
}
template <typename T>
T trunc(T a) {
    return a;
}
template <typename T>
T floor(T a) {
    return a;
}
template <typename T>
T ceil(T a) {
    return a;
}
template <typename T>
T round(T a) {
    return a;
}
template <typename T>
T rsqrt(T a) {
    return a;
}
template <typename T>
T sqrt(T a) {
    return a;
}
template <typename T>
T exp2(T a) {
    return a;
}
template <typename T>
T log2(T a) {
    return a;
}
template <typename T>
T sin(T a) {
    return a;
}
template <typename T>
T sinpi(T a) {
    return a;
}
template <typename T>
T fmax(T a, T) {
    return a;
}
template <typename T>
T fmin(T a, T) {
    return a;
}
template <typename T>
T max(T a, T) {
    return a;
}
template <typename T>
T min(T a, T) {
    return a;
}
template <typename T>
T median3(T a, T, T) {
    return a;
}

#define AGX_STUB_FLOAT_ONLY               \
    inline float rsqrt(float a) {         \
        return a;                         \
    }                                     \
    inline float sqrt(float a) {          \
        return a;                         \
    }                                     \
    inline float exp(float a) {           \
        return a;                         \
    }                                     \
    inline float exp2(float a) {          \
        return a;                         \
    }                                     \
    inline float exp10(float a) {         \
        return a;                         \
    }                                     \
    inline float log(float a) {           \
        return a;                         \
    }                                     \
    inline float log2(float a) {          \
        return a;                         \
    }                                     \
    inline float log10(float a) {         \
        return a;                         \
    }                                     \
    inline float sin(float a) {           \
        return a;                         \
    }                                     \
    inline float cos(float a) {           \
        return a;                         \
    }                                     \
    inline float sinpi(float a) {         \
        return a;                         \
    }                                     \
    inline float fract(float a) {         \
        return a;                         \
    }                                     \
    inline float divide(float a, float) { \
        return a;                         \
    }
namespace fast {
AGX_STUB_FLOAT_ONLY
}
namespace precise {
AGX_STUB_FLOAT_ONLY
}
#undef AGX_STUB_FLOAT_ONLY

// --- integer functions --------------------------------------------------------
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T popcount(T a) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T clz(T a) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T reverse_bits(T a) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T extract_bits(T a, uint, uint) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T insert_bits(T a, T, uint, uint) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T mulhi(T a, T) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T madhi(T a, T, T) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T addsat(T a, T) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T rhadd(T a, T) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T absdiff(T a, T) {
    return a;
}
template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
T rotate(T a, T) {
    return a;
}

// --- SIMD-group and quad-group functions ---------------------------------------
struct simd_vote {
    using vote_t = ulong;
    explicit constexpr operator vote_t() const { return 0; }
};
struct quad_vote {
    using vote_t = ushort;
    explicit constexpr operator vote_t() const { return 0; }
};
inline simd_vote simd_ballot(bool) {
    return {};
}
inline quad_vote quad_ballot(bool) {
    return {};
}

#define AGX_STUB_GROUP(scope)                    \
    template <typename T>                        \
    T scope##_sum(T a) {                         \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_product(T a) {                     \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_xor(T a) {                         \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_prefix_exclusive_sum(T a) {        \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_prefix_inclusive_sum(T a) {        \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_prefix_exclusive_product(T a) {    \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_prefix_inclusive_product(T a) {    \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_broadcast(T a, ushort) {           \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_shuffle(T a, ushort) {             \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_shuffle_down(T a, ushort) {        \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_shuffle_up(T a, ushort) {          \
        return a;                                \
    }                                            \
    template <typename T>                        \
    T scope##_shuffle_rotate_down(T a, ushort) { \
        return a;                                \
    }
AGX_STUB_GROUP(simd)
AGX_STUB_GROUP(quad)
#undef AGX_STUB_GROUP

// --- simdgroup matrices ---------------------------------------------------------
template <typename T, int Rows, int Cols>
struct simdgroup_matrix {
    vec<T, 2> elements{};
    vec<T, 2>& thread_elements() { return elements; }
};
using simdgroup_half8x8 = simdgroup_matrix<half, 8, 8>;
using simdgroup_float8x8 = simdgroup_matrix<float, 8, 8>;
template <typename T, int Rows, int Cols>
simdgroup_matrix<T, Rows, Cols> make_filled_simdgroup_matrix(T) {
    return {};
}
template <typename T, int R, int C>
void simdgroup_multiply_accumulate(simdgroup_matrix<T, R, C>&, const simdgroup_matrix<T, R, C>&,
                                   const simdgroup_matrix<T, R, C>&,
                                   const simdgroup_matrix<T, R, C>&) {}

}  // namespace metal
