// Opening a bundled kernel (traces/kernels/) and reading its buffers, for
// the tests that run kernels and compare their buffers with a C++
// reference.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "sim/kernel/device_memory.hpp"
#include "sim/kernel/kernel_workload.hpp"
#include "sim/kernel/opencl_compile.hpp"

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

// The data of a .npy file (`--dump NAME=FILE.npy`), read by the project's
// own reader, as elements of T; its dtype must be `type`.
template <class T>
std::vector<T> npy_values(const std::string& path, kernel::ElementType type) {
    const kernel::NpyData d = kernel::read_npy(path);
    REQUIRE(d.type == type);
    REQUIRE(d.bytes.size() % sizeof(T) == 0);
    std::vector<T> out(d.bytes.size() / sizeof(T));
    std::memcpy(out.data(), d.bytes.data(), d.bytes.size());
    return out;
}

// For the tests of kernels in OpenCL C: without Mesa's AGX compiler the test
// exits 77, which CTest counts as skipped, and says why.
inline void need_compiler() {
    if (!kernel::find_compiler_dir().empty()) return;
    std::cout << "agxsim-skip: Mesa's AGX compiler is not built here (bash "
                 "scripts/setup-agx-compiler.sh builds it)\n";
    std::exit(77);
}

}  // namespace agx::test
