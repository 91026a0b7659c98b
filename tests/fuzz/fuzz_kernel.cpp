// The kernel format (traces/KERNEL.md): the input is a kernel file. Its
// lines "#set KEY=VALUE" (comments to the kernel) are also given as
// `--set launch.KEY=VALUE`. The kernel loads or is refused with
// InputError; an accepted kernel runs a few of its simds, a bounded number
// of instructions, where running may stop only with InputError (a bad
// address, a loop past --max-instructions).
#include "sim/kernel/kernel_program.hpp"
#include "sim/kernel/kernel_workload.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

// Instructions run at most, over all simds: few enough that a kernel
// touching a new page with every lane stays far below the RSS limit.
constexpr std::uint64_t kMaxInstructions = 3000;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    const std::string path = write_file("input.agxk", data, size);
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> sets;
    for (std::size_t at = 0; at < text.size() && sets.size() < 4;) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        if (text.compare(at, 5, "#set ") == 0) sets.push_back(text.substr(at + 5, end - at - 5));
        at = end + 1;
    }

    bool is_kernel = false;
    if (!accepted("is_kernel_file", [&] { is_kernel = agx::kernel::is_kernel_file(path); }))
        return 0;
    agx::kernel::LoadedKernel kernel;
    if (!accepted("load_kernel", [&] { kernel = agx::kernel::load_kernel(path, "", sets); }))
        return 0;
    if (!is_kernel) finding("load_kernel accepted a file is_kernel_file() says is not a kernel");

    std::unique_ptr<agx::kernel::KernelWorkload> w;
    if (!accepted("KernelWorkload", [&] {
            w = std::make_unique<agx::kernel::KernelWorkload>(std::move(kernel), kMaxInstructions);
        }))
        return 0;
    std::uint64_t sum = 0;
    accepted("running the kernel", [&] {
        walk_streams(*w, kMaxInstructions,
                     [&](std::uint32_t, std::uint32_t, std::size_t, const agx::Instruction& in) {
                         sum += touch(in);
                     });
    });
    if (sum == 42) std::fputc('\n', stderr);  // keeps the walk from being optimised away
    return 0;
}
