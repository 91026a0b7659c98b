// Every choice a config makes by name, as an enum, with the one table of
// names that reads it from a config, writes it back (`config show`) and lists
// the valid names in an error. The code that acts on a choice switches on the
// enum; no other layer compares a policy's name.
//
// Adding a policy: a value in its enum, a row in its table, and the case in
// the code that acts on it (the compiler's -Wswitch points there).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agx {

// Which way a cache or the register cache evicts. Each way keeps one stamp.
enum class Replacement : std::uint8_t {
    Lru,     // stamp on every use; evict the oldest stamp
    Fifo,    // stamp on fill only; evict the oldest fill
    Random,  // evict a pseudo-random way (fixed seed: runs repeat bit for bit)
};

// Which ready simd a scheduler picks (sim/timing/issue_policy.hpp).
enum class SchedulerPolicy : std::uint8_t {
    Greedy,        // stay on the simd that issued while it is ready
    ComplexFirst,  // greedy, but a ready integer/complex instruction goes first
    RoundRobin,    // start each scan after the simd that issued last
};

// Which scheduler each simd of a new threadgroup runs on.
enum class SimdPlacement : std::uint8_t {
    Rotate,  // the k-th threadgroup's simd i on scheduler (k + i) mod schedulers
    Fill,    // the lowest free slot; slot s on scheduler s mod schedulers
};

// Whether a scheduler's register cache is one cache or a partition per simd.
enum class RegisterCacheSharing : std::uint8_t {
    Scheduler,  // one cache shared by the scheduler's simds
    Simd,       // `entries` per simd
};

// What a 16-bit register takes in the register cache.
enum class HalfRegisters : std::uint8_t {
    OwnEntry,    // an entry of its own
    ShareEntry,  // both halves of a 32-bit register share its entry
};

// Which consumers get a result forwarded (sim/timing/forwarding.hpp).
enum class ForwardingPolicy : std::uint8_t {
    Always,    // every consumer
    SameSimd,  // only instructions issued from the same simd with no other simd's in between
};

// What the L1 data cache does with a store.
enum class WritePolicy : std::uint8_t {
    WriteThrough,  // to the L2, no allocation
    WriteBack,     // allocate; dirty lines are written back on eviction
};

// How an address picks its cache set or DRAM channel and bank
// (sim/timing/index_hash.hpp).
enum class AddressHash : std::uint8_t {
    LowBits,  // the index is the address bits just above the line (or row)
    Xor,      // those bits XOR-folded with `hash_bits` bits above them
    Ipoly,    // those bits and `hash_bits` above, as a polynomial over GF(2),
              // modulo an irreducible one of the index's degree (Rau, ISCA 1991)
};

// The names of a choice, in the order the error message lists them.
template <class E>
struct PolicyNames;

template <>
struct PolicyNames<Replacement> {
    static constexpr std::pair<Replacement, std::string_view> table[] = {
        {Replacement::Lru, "lru"},
        {Replacement::Fifo, "fifo"},
        {Replacement::Random, "random"},
    };
};
template <>
struct PolicyNames<SchedulerPolicy> {
    static constexpr std::pair<SchedulerPolicy, std::string_view> table[] = {
        {SchedulerPolicy::Greedy, "greedy"},
        {SchedulerPolicy::ComplexFirst, "complex_first"},
        {SchedulerPolicy::RoundRobin, "round_robin"},
    };
};
template <>
struct PolicyNames<SimdPlacement> {
    static constexpr std::pair<SimdPlacement, std::string_view> table[] = {
        {SimdPlacement::Rotate, "rotate"},
        {SimdPlacement::Fill, "fill"},
    };
};
template <>
struct PolicyNames<RegisterCacheSharing> {
    static constexpr std::pair<RegisterCacheSharing, std::string_view> table[] = {
        {RegisterCacheSharing::Scheduler, "scheduler"},
        {RegisterCacheSharing::Simd, "simd"},
    };
};
template <>
struct PolicyNames<HalfRegisters> {
    static constexpr std::pair<HalfRegisters, std::string_view> table[] = {
        {HalfRegisters::OwnEntry, "own_entry"},
        {HalfRegisters::ShareEntry, "share_entry"},
    };
};
template <>
struct PolicyNames<ForwardingPolicy> {
    static constexpr std::pair<ForwardingPolicy, std::string_view> table[] = {
        {ForwardingPolicy::Always, "always"},
        {ForwardingPolicy::SameSimd, "same_simd"},
    };
};
template <>
struct PolicyNames<WritePolicy> {
    static constexpr std::pair<WritePolicy, std::string_view> table[] = {
        {WritePolicy::WriteThrough, "write_through"},
        {WritePolicy::WriteBack, "write_back"},
    };
};

template <>
struct PolicyNames<AddressHash> {
    static constexpr std::pair<AddressHash, std::string_view> table[] = {
        {AddressHash::LowBits, "low_bits"},
        {AddressHash::Xor, "xor"},
        {AddressHash::Ipoly, "ipoly"},
    };
};

// Whether E is a choice with a name table (the config reader's overloads).
template <class E, class = void>
struct is_policy : std::false_type {};
template <class E>
struct is_policy<E, std::void_t<decltype(PolicyNames<E>::table)>> : std::true_type {};

template <class E>
constexpr std::string_view policy_name(E value) {
    for (const auto& [v, name] : PolicyNames<E>::table)
        if (v == value) return name;
    return "?";  // unreachable while every enumerator has a row
}

template <class E>
std::optional<E> policy_from_name(std::string_view name) {
    for (const auto& [v, n] : PolicyNames<E>::table)
        if (n == name) return v;
    return std::nullopt;
}

// "lru, fifo, random": the valid names, for an error message.
template <class E>
std::string policy_name_list() {
    std::string list;
    for (const auto& [v, name] : PolicyNames<E>::table) {
        if (!list.empty()) list += ", ";
        list += name;
    }
    return list;
}

}  // namespace agx
