// AGX machine code, as Mesa's compiler writes it: the input is a kernel's
// binary (its main code). It decodes and imports, or is refused with
// InputError (an unknown encoding names its offset and bytes); what imports
// is a kernel file that loads.
#include <string>

#include "sim/kernel/compiled_kernel_text.hpp"
#include "sim/kernel/kernel_program.hpp"
#include "sim/kernel/opencl_compile.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    if (size > 1 << 16) return 0;
    agx::kernel::CompiledKernel k;
    k.name = "input";
    k.source = "input.bin";
    k.binary.assign(data, data + size);
    k.main_size = static_cast<std::uint32_t>(size);
    k.registers_halves = 8;
    k.workgroup[0] = 32;
    k.workgroup[1] = k.workgroup[2] = 1;
    std::string text;
    if (!accepted("compiled_kernel_text",
                  [&] { text = agx::kernel::compiled_kernel_text(k, "Mesa"); }))
        return 0;
    const std::string kernel = write_file("decoded.agxk", text);
    const std::string launch = write_file("decoded.launch", "launch grid=32\n");
    must_work("loading the decoded kernel", [&] { agx::kernel::load_kernel(kernel, launch, {}); });
    return 0;
}
