// `--set KEY=VALUE` on a shipped config: each line of the input is one
// override, applied in order to m1 (at most 8). The config loads or is
// refused with InputError; an accepted config prints and loads back the
// same.
#include "sim/config/config_read.hpp"
#include "sim/config/json_source.hpp"
#include "tests/fuzz/config_checks.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    namespace cd = agx::config_detail;
    // What load_config("m1", overrides) does, with m1 read once.
    static const cd::ConfigDocument base = cd::read_document(agx::resolve_config_path("m1"));
    std::vector<std::string> overrides;
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (std::size_t at = 0; at <= text.size() && overrides.size() < 8;) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        overrides.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    agx::MachineConfig cfg;
    if (!accepted("--set", [&] {
            cd::ConfigDocument doc = base;
            for (const std::string& o : overrides) cd::apply_override(doc, o);
            cfg = cd::read_config(doc);
        }))
        return 0;
    check_accepted_config(cfg);
    return 0;
}
