// `agxsim config show NAME`: the resolved machine description as JSON;
// `agxsim config storage NAME`: the storage its structures imply.
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

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
