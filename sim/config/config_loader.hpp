// Loading machine configs: JSON files in configs/ (see configs/README.md for
// the format) turned into a validated MachineConfig.
//
// Everything the user can get wrong (a missing file, malformed JSON, a typo in
// a key, a value out of range, a bad --set) is an InputError whose what() is
// one line, "<file>: <key.path>: <reason>", so the CLI can print it as is.
// Nothing gets a silent default: every key must be present in the resolved
// config.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/config/machine_config.hpp"

namespace agx {

// Finds a config by name ("m1" -> <config dir>/m1.json) or by path (anything
// containing '/' or ending in ".json"). The config dir is $AGXSIM_CONFIG_DIR
// if set, else the directory compiled in (the repo's configs/). Throws
// InputError if no such file exists.
std::string resolve_config_path(const std::string& name_or_path);

// Reads the config, follows "extends", applies `overrides` ("path.to.key=value";
// the value is parsed as JSON if it parses, else taken as a string), validates
// and returns the resolved config with the source of every value in `sources`.
MachineConfig load_config(const std::string& name_or_path,
                          const std::vector<std::string>& overrides = {});

// The resolved config as JSON, in the config-file format (`agxsim config
// show`): every value, as {"value": X, "source": "..."} when with_sources,
// else bare. The result loads back into the same config.
nlohmann::json config_to_json(const MachineConfig& config, bool with_sources = true);

// The range and consistency checks load_config applies, for configs built or
// changed in code. Throws InputError("<name>: <key.path>", reason).
void validate_config(const MachineConfig& config);

}  // namespace agx
