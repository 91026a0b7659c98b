// Opening a bundled kernel (traces/kernels/) and reading its buffers, for
// the tests that run kernels and compare their buffers with a C++
// reference.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/kernel/kernel_workload.hpp"

namespace agx::test {

inline std::string kernel_path(const std::string& name) {
    return std::string(AGX_SOURCE_DIR) + "/traces/kernels/" + name;
}

// `launch`: launch overrides as `--set launch.KEY=VALUE` takes them
// ("n=1024", "grid=64").
inline kernel::KernelWorkload open_kernel(const std::string& name,
                                          std::vector<std::string> launch = {}) {
    return kernel::KernelWorkload(kernel::load_kernel(kernel_path(name), "", launch));
}

// The buffer's whole contents as elements of T (before a run: its fill).
template <class T>
std::vector<T> read_buffer(kernel::KernelWorkload& k, const std::string& name) {
    auto& mem = k.memory();
    const auto b = mem.find_buffer(name);
    REQUIRE(b);
    std::vector<T> out(mem.spec(*b).size / sizeof(T));
    mem.read(mem.base(*b), out.data(), static_cast<unsigned>(out.size() * sizeof(T)));
    return out;
}

}  // namespace agx::test
