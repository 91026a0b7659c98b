#include "sim/config/config_schema.hpp"

#include <algorithm>

#include "isa/catalogue.hpp"
#include "sim/common/edit_distance.hpp"

namespace agx::config_detail {

MachineConfig config_skeleton() {
    MachineConfig c;
    for (std::string_view cls : isa::Catalogue::instance().timing_classes())
        c.core.timing[std::string(cls)] = TimingClassConfig{};
    return c;
}

const KeySet& known_keys() {
    static const KeySet keys = [] {
        KeySet k;
        MachineConfig c = config_skeleton();
        visit_fields(c, [&](const std::string& path, auto&) {
            k.leaves.insert(path);
            for (auto dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1))
                k.groups.insert(path.substr(0, dot));
        });
        return k;
    }();
    return keys;
}

namespace {

std::string parent_of(const std::string& path) {
    const auto dot = path.rfind('.');
    return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

}  // namespace

std::string nearest_key(const std::string& path) {
    const std::string parent = parent_of(path);
    const std::string name = path.substr(parent.empty() ? 0 : parent.size() + 1);
    // Close enough to be a typo: a third of the name, at least one edit.
    std::size_t best = std::max<std::size_t>(1, name.size() / 3) + 1;
    std::string found;
    auto consider = [&](const std::string& key) {
        if (parent_of(key) != parent) return;
        const std::string candidate = key.substr(parent.empty() ? 0 : parent.size() + 1);
        const std::size_t d = edit_distance(name, candidate);
        if (d < best) best = d, found = key;
    };
    for (const auto& k : known_keys().leaves) consider(k);
    for (const auto& k : known_keys().groups) consider(k);
    return found;
}

}  // namespace agx::config_detail
