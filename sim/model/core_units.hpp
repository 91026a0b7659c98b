// The core's execution units as one table, by isa::Unit: the module that
// holds each unit's per-scheduler issue pipe and what kind of block it is.
// Adding a unit is an entry in the instruction catalogue (isa::Unit and the
// instructions that use it), a row here, and its timing class in the configs.
#pragma once

#include <array>
#include <vector>

#include "isa/catalogue.hpp"

namespace agx {

struct CoreUnit {
    enum class Kind {
        Pipeline,     // a pipe and nothing else (a PipelineBlock)
        LoadStore,    // the load/store unit's block, which also holds the unit
        Threadgroup,  // the threadgroup memory's block, which also holds the banks
    };
    isa::Unit unit;
    const char* block;  // the module's name: the stats JSON's key under the core
    Kind kind;
};

// In isa::Unit order, one row per unit.
inline constexpr std::array<CoreUnit, isa::kUnitCount> kCoreUnits = {{
    {isa::Unit::Fp32Int, "fp32_int_pipe", CoreUnit::Kind::Pipeline},
    // The integer/complex pipe issues to the core's shared SFU (SfuBlock).
    {isa::Unit::IntComplex, "int_complex_pipe", CoreUnit::Kind::Pipeline},
    {isa::Unit::Shuffle, "shuffle_unit", CoreUnit::Kind::Pipeline},
    {isa::Unit::LoadStore, "load_store_unit", CoreUnit::Kind::LoadStore},
    {isa::Unit::Threadgroup, "threadgroup_memory", CoreUnit::Kind::Threadgroup},
    {isa::Unit::Control, "control", CoreUnit::Kind::Pipeline},
}};

constexpr bool core_units_in_unit_order() {
    for (std::size_t i = 0; i < kCoreUnits.size(); ++i)
        if (isa::unit_index(kCoreUnits[i].unit) != i) return false;
    return true;
}
static_assert(core_units_in_unit_order(), "kCoreUnits must list the units in isa::Unit order");

inline const CoreUnit& core_unit(isa::Unit unit) {
    return kCoreUnits[isa::unit_index(unit)];
}

// The rows whose block is a plain pipeline, in table order.
inline const std::vector<const CoreUnit*>& plain_units() {
    static const std::vector<const CoreUnit*> rows = [] {
        std::vector<const CoreUnit*> r;
        for (const CoreUnit& u : kCoreUnits)
            if (u.kind == CoreUnit::Kind::Pipeline) r.push_back(&u);
        return r;
    }();
    return rows;
}

}  // namespace agx
