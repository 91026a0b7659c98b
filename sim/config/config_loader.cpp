// load_config and resolve_config_path: the loader's entry points. The work is
// in json_source (files, extends, --set), config_read (keys and types) and
// config_validate (ranges).
#include "sim/config/config_loader.hpp"

#include <cstdlib>
#include <filesystem>
#include <set>

#include "sim/config/config_error.hpp"
#include "sim/config/config_read.hpp"
#include "sim/config/json_source.hpp"

#ifndef AGXSIM_CONFIG_DIR
#define AGXSIM_CONFIG_DIR "configs"
#endif

namespace agx {

namespace fs = std::filesystem;

namespace {

fs::path config_dir() {
    const char* env = std::getenv("AGXSIM_CONFIG_DIR");
    return (env && *env) ? fs::path(env) : fs::path(AGXSIM_CONFIG_DIR);
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string resolve_config_path(const std::string& name_or_path) {
    std::error_code ec;
    if (name_or_path.find('/') != std::string::npos || ends_with(name_or_path, ".json")) {
        if (!fs::is_regular_file(name_or_path, ec))
            throw config_detail::config_error(name_or_path, "", "no such config file");
        return name_or_path;
    }
    const fs::path dir = config_dir();
    const fs::path file = dir / (name_or_path + ".json");
    if (fs::is_regular_file(file, ec)) return file.string();

    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".json") names.insert(entry.path().stem().string());
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw config_detail::config_error(
        "config '" + name_or_path + "'", "",
        "no such config in " + dir.string() + (list.empty() ? "" : " (available: " + list + ")"));
}

MachineConfig load_config(const std::string& name_or_path,
                          const std::vector<std::string>& overrides) {
    config_detail::ConfigDocument doc =
        config_detail::read_document(resolve_config_path(name_or_path));
    for (const std::string& expr : overrides) config_detail::apply_override(doc, expr);
    return config_detail::read_config(doc);
}

}  // namespace agx
