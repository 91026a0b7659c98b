// agxsim: the command-line tool.
#include <cstdlib>
#include <iostream>

#include <systemc>

#include "sim/cli/commands.hpp"
#include "sim/common/errors.hpp"

int sc_main(int argc, char* argv[]) {
    using namespace agx::cli;
    CLI::App app{"agxsim: a cycle-level simulator of the Apple GPU core (Apple 7 and 8 families)",
                 "agxsim"};
    app.set_version_flag("--version", std::string("agxsim ") + AGXSIM_VERSION);
    app.require_subcommand(1);
    Action action;
    add_run_command(app, action);
    add_config_command(app, action);
    add_isa_command(app, action);
    add_trace_command(app, action);
    add_validate_command(app, action);
    add_data_command(app, action);
    add_suite_command(app, action);
    add_trace_gen_command(app, action);
    add_kernel_command(app, action);
    add_profile_command(app, action);
    add_sweep_command(app, action);
    add_stats_command(app, action);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "agxsim: " << agx::bounded_message(e.what()) << " (see --help)\n";
        return kExitBadInput;
    }
    try {
        return action ? action() : kExitOk;
    } catch (const agx::InputError& e) {
        std::cerr << "agxsim: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "agxsim: internal error: " << agx::bounded_message(e.what()) << "\n";
        return kExitInternal;
    }
}

// agxsim's own main() instead of the kernel's: the kernel prints its banner on
// start-up unless told not to, and stdout belongs to the summary and to
// `config show`'s JSON.
int main(int argc, char* argv[]) {
    ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
