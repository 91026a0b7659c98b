// `agxsim isa list`: the instruction catalogue, and the Metal operations that
// expand to several instructions.
#include <cstdio>
#include <iostream>

#include "isa/catalogue.hpp"
#include "sim/cli/commands.hpp"

namespace agx::cli {

void add_isa_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand("isa", "Inspect the instruction catalogue");
    cmd->require_subcommand(1);
    CLI::App* list =
        cmd->add_subcommand("list", "List every machine instruction and Metal expansion");
    list->callback([&action] {
        action = [] {
            const auto& cat = isa::Catalogue::instance();
            std::printf("%-22s %-12s %-18s %5s  %s\n", "mnemonic", "unit", "timing class", "bytes",
                        "summary");
            for (const auto& e : cat.entries())
                std::printf("%-22.*s %-12s %-18.*s %5u  %.*s\n",
                            static_cast<int>(e.mnemonic.size()), e.mnemonic.data(),
                            isa::unit_name(e.unit), static_cast<int>(e.timing_class.size()),
                            e.timing_class.data(), e.encoded_bytes,
                            static_cast<int>(e.summary.size()), e.summary.data());
            std::printf("\n%-22s %s\n", "Metal operation", "machine instructions");
            for (const auto& x : isa::expansions()) {
                std::printf("%-22.*s", static_cast<int>(x.metal_name.size()), x.metal_name.data());
                for (std::size_t i = 0; i < x.steps.size(); ++i)
                    std::printf("%s%.*s", i ? " + " : " ",
                                static_cast<int>(x.steps[i].mnemonic.size()),
                                x.steps[i].mnemonic.data());
                std::printf("\n");
            }
            return kExitOk;
        };
    });
}

}  // namespace agx::cli
