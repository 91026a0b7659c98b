// `agxsim data import`: turn reference CSVs into the project's measurement
// format, the files shipped in validation/data/.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "validation/lib/reference_csv.hpp"

namespace agx::cli {

namespace {
struct ImportArgs {
    std::vector<std::string> csvs;
    std::string out_dir = ".";
};
}  // namespace

void add_data_command(CLI::App& app, Action& action) {
    CLI::App* cmd = app.add_subcommand("data", "Measurement files");
    cmd->require_subcommand(1);
    auto args = std::make_shared<ImportArgs>();
    CLI::App* imp =
        cmd->add_subcommand("import", "Convert metal-benchmarks CSV tables into measurement files");
    imp->add_option("csv", args->csvs, "Reference CSV files")->required()->check(CLI::ExistingFile);
    imp->add_option("-o,--out-dir", args->out_dir, "Directory for the .json files")
        ->capture_default_str();
    imp->callback([args, &action] {
        action = [args] {
            for (const auto& csv : args->csvs) declare_input(csv);
            // Every table read and checked before any file is written: a bad
            // one leaves no output behind.
            std::vector<validation::MeasurementFile> files;
            for (const auto& csv : args->csvs) {
                files.push_back(validation::import_reference_csv(csv));
                if (files.back().records.empty())
                    throw InputError(csv, "holds no measurement rows");
            }
            for (std::size_t i = 0; i < args->csvs.size(); ++i) {
                const std::string& csv = args->csvs[i];
                const auto& file = files[i];
                std::string base = csv.substr(csv.find_last_of('/') + 1);
                base = base.substr(0, base.find_last_of('.'));
                OutputFile out(args->out_dir + "/" + base + ".json");
                validation::write_measurements(file, out.stream());
                out.commit();
                std::cout << csv << " -> " << args->out_dir << "/" << base << ".json ("
                          << file.records.size() << " records)\n";
            }
            return kExitOk;
        };
    });
}

}  // namespace agx::cli
