// What the two config targets check once a config is accepted: `agxsim
// config show` prints it, and what it prints loads back into the same
// config (sim/config/config_loader.hpp promises both).
#pragma once

#include <string>

#include "sim/config/config_loader.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace agx_fuzz {

// The shipped configs (configs/*.json), copied into the scratch directory,
// so that an input there can extend them by name ("extends": "m1.json").
inline void copy_shipped_configs() {
    static const bool done = [] {
        for (const auto& e : fs::directory_iterator(fs::path(AGX_SOURCE_DIR) / "configs"))
            if (e.path().extension() == ".json")
                fs::copy_file(e.path(), scratch() / e.path().filename(),
                              fs::copy_options::overwrite_existing);
        return true;
    }();
    (void)done;
}

inline void check_accepted_config(const agx::MachineConfig& cfg) {
    nlohmann::json shown, bare, again;
    must_work("config show", [&] {
        shown = agx::config_to_json(cfg, true);
        bare = agx::config_to_json(cfg, false);
        (void)shown.dump(2);
    });
    const std::string path = write_file("shown.json", bare.dump(2));
    must_work("loading what config show printed",
              [&] { again = agx::config_to_json(agx::load_config(path), false); });
    if (again != bare) finding("config show's output loads into a different config");
}

}  // namespace agx_fuzz
