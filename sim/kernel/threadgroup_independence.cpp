#include "sim/kernel/threadgroup_independence.hpp"

namespace agx::kernel {

namespace {

std::string at_line(const KernelInstruction& k) {
    return "line " + std::to_string(k.in.source_line);
}

}  // namespace

ThreadgroupIndependence find_threadgroup_independence(const KernelProgram& program,
                                                      const Uniforms& uniforms,
                                                      const DeviceMemory& memory) {
    ThreadgroupIndependence r;
    r.buffer_of.assign(program.code.size(), -1);
    // The first load and store of each buffer, for the reason.
    std::vector<const KernelInstruction*> loaded(memory.buffer_count(), nullptr),
        stored(memory.buffer_count(), nullptr);
    auto fail = [&r](std::string reason) {
        r.independent = false;
        r.reason = std::move(reason);
        return r;
    };
    // The uniforms are the launch's and the preamble's for the whole run:
    // load_kernel refuses uniform_store outside the preamble.
    for (std::size_t i = 0; i < program.code.size(); ++i) {
        const KernelInstruction& k = program.code[i];
        if (k.sem == Sem::Atomic) return fail(at_line(k) + " is a device atomic");
        if (k.sem != Sem::DeviceLoad && k.sem != Sem::DeviceStore) continue;
        // Operands: the data first for a store, then the base.
        const bool store = k.sem == Sem::DeviceStore;
        const Operand& base = k.in.src[store ? 1 : 0];
        if (base.kind != OperandKind::Uniform || base.halves != 4)
            return fail(at_line(k) + "'s base is not a uniform pair");
        const unsigned u = base.first_half / 2;
        const std::uint64_t address = uniforms[u] | std::uint64_t{uniforms[u + 1]} << 32;
        const auto buffer = memory.buffer_at(address, 1);
        if (!buffer) return fail(at_line(k) + "'s base is in no buffer");
        r.buffer_of[i] = static_cast<std::int32_t>(*buffer);
        auto& first = store ? stored[*buffer] : loaded[*buffer];
        if (!first) first = &k;
        if (loaded[*buffer] && stored[*buffer])
            return fail("buffer '" + memory.spec(*buffer).name + "' is loaded (" +
                        at_line(*loaded[*buffer]) + ") and stored (" + at_line(*stored[*buffer]) +
                        ")");
    }
    r.independent = true;
    return r;
}

}  // namespace agx::kernel
