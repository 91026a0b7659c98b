// `agxsim kernel import`: the input is a listing as applegpu's disassembler
// prints it. It imports or is refused with InputError; what imports also
// loads (sim/kernel/applegpu_import.hpp promises it), given a launch that
// declares the registers and binds the uniforms the import reports.
#include <algorithm>

#include "sim/kernel/applegpu_import.hpp"
#include "sim/kernel/kernel_program.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    const std::string listing(reinterpret_cast<const char*>(data), size);
    agx::kernel::ImportedKernel k;
    if (!accepted("import_applegpu_listing", [&] {
            k = agx::kernel::import_applegpu_listing(listing, "input.dis", "input", "");
        }))
        return 0;

    // The launch the user would write for it.
    std::string launch = "launch grid=64 threadgroup=64 registers=" +
                         std::to_string(std::max(k.registers_halves, 1u)) +
                         "\nbuffer b size=65536\n";
    for (const std::string& u : k.uniforms)
        launch +=
            "uniform " + u + (u.find('_') != std::string::npos ? " buffer=b\n" : " value=0\n");
    must_work("importing again with a launch", [&] {
        k = agx::kernel::import_applegpu_listing(listing, "input.dis", "input", launch);
    });
    const std::string path = write_file("imported.agxk", k.text);
    must_work("loading the imported kernel", [&] { agx::kernel::load_kernel(path, "", {}); });
    return 0;
}
