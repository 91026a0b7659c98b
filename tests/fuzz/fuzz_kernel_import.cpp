// `agxsim kernel import`: the input is a listing as applegpu's disassembler
// prints it. It imports or is refused with InputError; what imports also
// loads (sim/kernel/applegpu_import.hpp promises it), given a launch that
// declares the registers and binds the uniforms the import reports.
#include <algorithm>
#include <set>

#include "sim/kernel/applegpu_import.hpp"
#include "sim/kernel/kernel_program.hpp"
#include "sim/kernel/launch_spec.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    const std::string listing(reinterpret_cast<const char*>(data), size);
    agx::kernel::ImportedKernel k;
    if (!accepted("import_applegpu_listing", [&] {
            k = agx::kernel::import_applegpu_listing(listing, "input.dis", "input", "");
        }))
        return 0;

    // The launch the user would write for it: pairs hold a buffer's
    // address, other uniforms 0; a uniform the code also reads as part of
    // another (u2 and u2_u3) is set once, by the first.
    std::string launch = "launch grid=64 threadgroup=64 registers=" +
                         std::to_string(std::max(k.registers_halves, 1u)) +
                         "\nbuffer b size=65536\n";
    std::set<unsigned> taken;
    for (const std::string& u : k.uniforms) {
        // Its halves, or (0, 0) for a name the launch cannot bind.
        unsigned first = 0, count = 0;
        try {
            const agx::kernel::UniformInit init = agx::kernel::parse_uniform(u, "");
            first = init.first_half;
            count = init.halves;
        } catch (const agx::InputError&) {
        }
        bool overlaps = false;
        for (unsigned h = first; h < first + count; ++h) overlaps = overlaps || taken.count(h);
        if (count == 0 || overlaps) continue;
        for (unsigned h = first; h < first + count; ++h) taken.insert(h);
        launch += "uniform " + u + (count == 4 ? " buffer=b\n" : " value=0\n");
    }
    must_work("importing again with a launch", [&] {
        k = agx::kernel::import_applegpu_listing(listing, "input.dis", "input", launch);
    });
    const std::string path = write_file("imported.agxk", k.text);
    must_work("loading the imported kernel", [&] { agx::kernel::load_kernel(path, "", {}); });
    return 0;
}
