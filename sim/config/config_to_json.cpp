// config_to_json: the resolved config back in the config-file format, so
// what `agxsim config show` prints can be saved and loaded as a config.
#include <nlohmann/json.hpp>

#include "sim/config/config_loader.hpp"
#include "sim/config/config_schema.hpp"

namespace agx {

namespace {

nlohmann::json to_json_value(std::uint32_t v) {
    return v;
}
nlohmann::json to_json_value(double v) {
    return v;
}
nlohmann::json to_json_value(const std::string& v) {
    return v;
}
template <class E, std::enable_if_t<is_policy<E>::value, int> = 0>
nlohmann::json to_json_value(E value) {
    return std::string(policy_name(value));
}
nlohmann::json to_json_value(const std::vector<OccupancyStep>& steps) {
    nlohmann::json out = nlohmann::json::array();
    for (const OccupancyStep& s : steps)
        out.push_back({{"halves", s.halves}, {"threads", s.threads}});
    return out;
}

}  // namespace

nlohmann::json config_to_json(const MachineConfig& config, bool with_sources) {
    nlohmann::json out = nlohmann::json::object();
    config_detail::visit_fields(config, [&](const std::string& path, const auto& member) {
        std::string pointer = "/";
        for (char c : path) pointer += c == '.' ? '/' : c;
        nlohmann::json value = to_json_value(member);
        const auto src = config.sources.find(path);
        if (with_sources && src != config.sources.end() && !src->second.empty())
            value = nlohmann::json{{"value", std::move(value)}, {"source", src->second}};
        out[nlohmann::json::json_pointer(pointer)] = std::move(value);
    });
    return out;
}

}  // namespace agx
