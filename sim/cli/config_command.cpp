// `agxsim config show NAME`: the resolved machine description as JSON;
// `agxsim config storage NAME`: the storage its structures imply;
// `agxsim config diff A B`: every value that differs, with both sources.
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cli/commands.hpp"
#include "sim/common/format.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/storage.hpp"

namespace agx::cli {

namespace {
struct ConfigArgs {
    std::string name = "m1";
    std::vector<std::string> overrides;
    bool no_sources = false;
};

struct DiffArgs {
    std::string a, b;
    std::vector<std::string> overrides_a, overrides_b;
};

// The values of a config as `config show` prints them, by dotted key: each
// leaf {"value", "source"}.
void flatten(const nlohmann::json& j, const std::string& prefix,
             std::map<std::string, nlohmann::json>& out) {
    if (j.is_object() && j.contains("value")) {
        out[prefix] = j;
        return;
    }
    if (!j.is_object()) {
        out[prefix] = {{"value", j}};
        return;
    }
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out);
}

std::string value_text(const nlohmann::json& leaf) {
    if (!leaf.contains("value")) return "(none)";
    const nlohmann::json& v = leaf.at("value");
    return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string source_text(const nlohmann::json& leaf) {
    return leaf.contains("source") ? leaf.at("source").get<std::string>() : "";
}

int diff(const DiffArgs& args) {
    const MachineConfig a = load_config(args.a, args.overrides_a);
    const MachineConfig b = load_config(args.b, args.overrides_b);
    std::map<std::string, nlohmann::json> va, vb;
    flatten(config_to_json(a, true), "", va);
    flatten(config_to_json(b, true), "", vb);
    std::set<std::string> keys;
    for (const auto& kv : va) keys.insert(kv.first);
    for (const auto& kv : vb) keys.insert(kv.first);
    // Sources are labelled by config name, or A and B when both have one name.
    const bool same_name = a.name == b.name;
    const std::string label_a = same_name ? a.name + " (A)" : a.name;
    const std::string label_b = same_name ? b.name + " (B)" : b.name;
    std::size_t differ = 0;
    static const nlohmann::json kAbsent = nlohmann::json::object();
    for (const std::string& key : keys) {
        const auto ia = va.find(key), ib = vb.find(key);
        const nlohmann::json& la = ia == va.end() ? kAbsent : ia->second;
        const nlohmann::json& lb = ib == vb.end() ? kAbsent : ib->second;
        if (la.value("value", nlohmann::json()) == lb.value("value", nlohmann::json())) continue;
        ++differ;
        std::cout << key << ": " << value_text(la) << " -> " << value_text(lb) << "\n";
        if (!source_text(la).empty())
            std::cout << "    " << label_a << ": " << source_text(la) << "\n";
        if (!source_text(lb).empty())
            std::cout << "    " << label_b << ": " << source_text(lb) << "\n";
    }
    std::cout << differ << " of " << keys.size() << " values differ between " << label_a << " and "
              << label_b << "\n";
    return kExitOk;
}
}  // namespace

void add_config_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand("config", "Inspect machine configurations");
    cmd->require_subcommand(1);
    auto args = std::make_shared<ConfigArgs>();
    CLI::App* show =
        cmd->add_subcommand("show", "Print a resolved config (after extends and --set) as JSON");
    show->add_option("config", args->name,
                     "A name in configs/ (m1, m1-max, m2, a14) or a JSON path")
        ->capture_default_str();
    show->add_option("--set", args->overrides,
                     "Override a config value: path.to.key=value (repeatable)");
    show->add_flag("--no-sources", args->no_sources,
                   "Print plain values, without where each comes from");
    show->callback([args, &action] {
        action = [args] {
            const MachineConfig cfg = load_config(args->name, args->overrides);
            std::cout << std::setw(2) << config_to_json(cfg, !args->no_sources) << "\n";
            return kExitOk;
        };
    });

    auto d = std::make_shared<DiffArgs>();
    CLI::App* dcmd = cmd->add_subcommand(
        "diff", "Print every value that differs between two configs, with both sources");
    dcmd->add_option("a", d->a, "The first config: a name in configs/ or a JSON path")->required();
    dcmd->add_option("b", d->b, "The second config: a name in configs/ or a JSON path")->required();
    dcmd->add_option("--set-a", d->overrides_a,
                     "Override a value of the first config (repeatable)");
    dcmd->add_option("--set-b", d->overrides_b,
                     "Override a value of the second config (repeatable)");
    dcmd->callback([d, &action] { action = [d] { return diff(*d); }; });

    CLI::App* storage = cmd->add_subcommand(
        "storage",
        "Print the bytes each structure of a config implies, per scheduler, core and chip");
    storage
        ->add_option("config", args->name,
                     "A name in configs/ (m1, m1-max, m2, a14) or a JSON path")
        ->capture_default_str();
    storage->add_option("--set", args->overrides,
                        "Override a config value: path.to.key=value (repeatable)");
    storage->callback([args, &action] {
        action = [args] {
            const MachineConfig cfg = load_config(args->name, args->overrides);
            auto kb = [](std::uint64_t bytes) {
                return bytes ? format_number("%.1f KB", bytes / 1024.0) : std::string("-");
            };
            std::cout << cfg.name << " (" << cfg.cores << " cores)\n";
            std::cout << std::left << std::setw(20) << "structure" << std::right << std::setw(14)
                      << "per scheduler" << std::setw(12) << "per core" << std::setw(12)
                      << "per chip"
                      << "  from\n";
            for (const StructureStorage& s : structure_storage(cfg))
                std::cout << std::left << std::setw(20) << s.structure << std::right
                          << std::setw(14) << kb(s.per_scheduler) << std::setw(12) << kb(s.per_core)
                          << std::setw(12) << kb(s.per_chip) << "  " << s.derivation << "\n";
            return kExitOk;
        };
    });
}

}  // namespace agx::cli
