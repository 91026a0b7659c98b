#include "validation/lib/memory_benchmark.hpp"

#include <algorithm>
#include <set>

#include "isa/catalogue.hpp"

#include "sim/common/errors.hpp"
#include "validation/lib/benchmark.hpp"

namespace agx::validation {

namespace {

constexpr MemoryKind kKinds[] = {MemoryKind::PointerChase, MemoryKind::ThreadgroupChase,
                                 MemoryKind::Stream, MemoryKind::ThreadgroupStream,
                                 MemoryKind::CodeSize};

std::uint64_t number(const nlohmann::json& j, const char* key, const std::string& where,
                     std::uint64_t min, std::uint64_t max) {
    const auto& v = j.at(key);
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() < min || v.get<std::uint64_t>() > max)
        throw InputError(where + "." + key, "expected an integer from " + std::to_string(min) +
                                                " to " + std::to_string(max));
    return v.get<std::uint64_t>();
}

bool is_pow2(std::uint64_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

}  // namespace

const char* memory_kind_name(MemoryKind k) {
    switch (k) {
        case MemoryKind::PointerChase:
            return "pointer_chase";
        case MemoryKind::ThreadgroupChase:
            return "threadgroup_chase";
        case MemoryKind::Stream:
            return "stream";
        case MemoryKind::ThreadgroupStream:
            return "threadgroup_stream";
        case MemoryKind::CodeSize:
            return "code_size";
    }
    return "?";
}

const char* memory_figure_unit(MemoryKind k) {
    switch (k) {
        case MemoryKind::PointerChase:
        case MemoryKind::ThreadgroupChase:
            return "cycles";
        case MemoryKind::Stream:
        case MemoryKind::ThreadgroupStream:
            return "GB/s";
        case MemoryKind::CodeSize:
            return "percent";
    }
    return "?";
}

bool MemoryBenchmark::operator==(const MemoryBenchmark& o) const {
    return to_json(*this) == to_json(o);
}

nlohmann::json to_json(const MemoryBenchmark& m) {
    return {{"kind", memory_kind_name(m.kind)},
            {"footprint_bytes", m.footprint_bytes},
            {"stride_bytes", m.stride_bytes},
            {"access_bits", m.access_bits},
            {"lanes", m.lanes},
            {"cores", m.cores},
            {"seed", m.seed}};
}

MemoryBenchmark memory_benchmark_from_json(const nlohmann::json& j, const std::string& where) {
    static const std::set<std::string> known = {
        "kind", "footprint_bytes", "stride_bytes", "access_bits", "lanes", "cores", "seed"};
    if (!j.is_object()) throw InputError(where, "expected an object");
    for (const auto& [k, v] : j.items())
        if (!known.count(k)) throw InputError(where + "." + k, "unknown key");
    for (const char* k : {"kind", "footprint_bytes"})
        if (!j.contains(k)) throw InputError(where + "." + k, "missing");
    MemoryBenchmark m;
    const auto& kind = j.at("kind");
    bool found = false;
    for (MemoryKind k : kKinds)
        if (kind.is_string() && kind.get<std::string>() == memory_kind_name(k))
            m.kind = k, found = true;
    if (!found)
        throw InputError(where + ".kind",
                         "expected pointer_chase, threadgroup_chase, stream, threadgroup_stream "
                         "or code_size");
    m.footprint_bytes = number(j, "footprint_bytes", where, 1, 1ull << 40);
    if (j.contains("stride_bytes"))
        m.stride_bytes = static_cast<std::uint32_t>(number(j, "stride_bytes", where, 1, 1u << 20));
    if (j.contains("access_bits"))
        m.access_bits = static_cast<std::uint32_t>(number(j, "access_bits", where, 8, 128));
    if (m.access_bits % 8 != 0 || !is_pow2(m.access_bits / 8))
        throw InputError(where + ".access_bits", "expected 8, 16, 32, 64 or 128");
    if (j.contains("lanes")) m.lanes = static_cast<std::uint32_t>(number(j, "lanes", where, 1, 32));
    if (j.contains("cores"))
        m.cores = static_cast<std::uint32_t>(number(j, "cores", where, 0, 1024));
    if (j.contains("seed")) m.seed = number(j, "seed", where, 0, UINT64_MAX);

    const bool chase = m.kind == MemoryKind::PointerChase || m.kind == MemoryKind::ThreadgroupChase;
    if (chase && (m.stride_bytes < m.access_bits / 8 || m.stride_bytes % (m.access_bits / 8) != 0))
        throw InputError(where + ".stride_bytes",
                         "must be a multiple of the access size (access_bits / 8)");
    if (chase && m.footprint_bytes < m.stride_bytes)
        throw InputError(where + ".footprint_bytes", "smaller than one element (stride_bytes)");
    if (m.kind == MemoryKind::ThreadgroupStream && m.stride_bytes % (m.access_bits / 8) != 0)
        throw InputError(where + ".stride_bytes",
                         "must be a multiple of the access size (access_bits / 8)");
    return m;
}

std::uint64_t code_size_instructions(const MemoryBenchmark& m) {
    const auto& cat = isa::Catalogue::instance();
    return std::max<std::uint64_t>(
        1, m.footprint_bytes / cat.info(*cat.find("fmadd32")).encoded_bytes);
}

unsigned memory_cores(const MemoryBenchmark& m, const MachineConfig& cfg) {
    return m.cores ? m.cores : cfg.cores;
}

double memory_figure(const BenchmarkDefinition& def, const MachineConfig& cfg, Cycle cycles,
                     std::uint32_t repetitions, unsigned simds) {
    const MemoryBenchmark& m = *def.memory;
    if (cycles == 0 || repetitions == 0) return 0.0;
    const double c = static_cast<double>(cycles);
    switch (m.kind) {
        case MemoryKind::PointerChase:
        case MemoryKind::ThreadgroupChase:
            return c / repetitions;
        case MemoryKind::Stream:
            // Every pass moves the footprint once, GPU-wide.
            return static_cast<double>(m.footprint_bytes) * repetitions / c * cfg.clock_ghz;
        case MemoryKind::ThreadgroupStream:
            // Every simd sweeps its threadgroup's whole footprint per pass.
            return static_cast<double>(m.footprint_bytes) * repetitions * simds *
                   memory_cores(m, cfg) / c * cfg.clock_ghz;
        case MemoryKind::CodeSize: {
            const double issued = static_cast<double>(code_size_instructions(m)) * repetitions *
                                  simds * memory_cores(m, cfg);
            return 100.0 * issued / (c * cfg.core.schedulers * memory_cores(m, cfg));
        }
    }
    return 0.0;
}

}  // namespace agx::validation
