// A config document (configs/README.md): the input is a config file in a
// directory beside copies of the shipped configs, so that it can extend
// them ("extends": "m1.json"). It loads or is refused with InputError; an
// accepted config prints and loads back the same.
#include "tests/fuzz/config_checks.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    copy_shipped_configs();
    const std::string path = write_file("input.json", data, size);
    agx::MachineConfig cfg;
    if (!accepted("load_config", [&] { cfg = agx::load_config(path); })) return 0;
    check_accepted_config(cfg);
    return 0;
}
