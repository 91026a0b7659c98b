// A config as JSON before it is typed: files read, "extends" followed and
// merged, --set overrides applied, and for every key the place that set it,
// so an error names the file (or the --set) the user must fix. Internal to
// sim/config.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace agx::config_detail {

struct ConfigDocument {
    nlohmann::json tree = nlohmann::json::object();  // merged, without "extends"
    std::map<std::string, std::string> origin;       // key path -> file or "--set <expr>"
    std::string file;                                // the file loaded (end of the chain)
    std::vector<std::string> order;                  // every origin, base file first, --sets last

    // Where a problem at `key` is reported: whoever set the key or, failing
    // that, the nearest group above it; else the loaded file.
    std::string where(const std::string& key) const;

    // Of several keys that together break a rule, the one set last (by the
    // most derived file or a --set): that is where the user changed something.
    std::string latest(const std::string& key, const std::vector<std::string>& others) const;
};

// A leaf written {"value": X, "source": "..."}; any other object is a group.
bool is_leaf_object(const nlohmann::json& j);

// Reads `path` and, recursively, the files it extends (relative to its own
// directory); a child's keys override its base's, group by group.
ConfigDocument read_document(const std::string& path);

// Applies one "key.path=value" override. The key must name a single setting.
void apply_override(ConfigDocument& doc, const std::string& expr);

}  // namespace agx::config_detail
