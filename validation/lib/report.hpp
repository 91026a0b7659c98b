// The comparison of simulated against measured figures: the table, the
// summary statistics, and the report directory (summary.json, results.csv,
// correlation.svg).
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "validation/lib/error_stats.hpp"
#include "validation/lib/measurement.hpp"
#include "validation/lib/runner.hpp"

namespace agx::validation {

struct ValidationRow {
    Measurement measured;
    SimulatedFigure simulated;
    bool ran = false;         // simulated: `simulated` holds its figure or its error
    bool included = false;    // counts in the statistics
    std::string unsupported;  // why the model cannot simulate it ("unsupported: ..."), if so
    std::string fitted;  // the config key set from this figure, if one was (a calibration input)
    std::string note;    // why not, when not
    double error_percent = 0.0;
};

struct ValidationReport {
    std::string config;
    std::vector<ValidationRow> rows;
    ErrorStats overall;
    std::map<std::string, ErrorStats> by_kind;
    // The same without the rows a config value was fitted to: what the model
    // predicts rather than reproduces.
    ErrorStats predicted;
    std::map<std::string, ErrorStats> predicted_by_kind;
    std::size_t fitted = 0;  // rows in the statistics that a config value was set from
    // Per measurement table (the id's first part: "quad_instructions"), per kind.
    std::map<std::string, std::map<std::string, ErrorStats>> by_table;
    // The same per table and kind, predictions only (no entry for a table
    // and kind whose every row was fitted to).
    std::map<std::string, std::map<std::string, ErrorStats>> predicted_by_table;
    std::size_t not_exact = 0;     // bounds and approximations: listed, left out
    std::size_t not_measured = 0;  // empty cells: listed, left out
    std::size_t calibration = 0;   // control-group rows: inputs of the method, left out
    std::size_t failed = 0;        // simulations that did not complete
    std::size_t unsupported = 0;   // rows the model cannot simulate: listed, left out
    // The rows in the statistics with the largest |error|, largest first
    // (indices into `rows`; at most kWorstRows): where a reader looks first.
    std::vector<std::size_t> worst;
};

inline constexpr std::size_t kWorstRows = 10;

// The measurement ids a config's values were fitted to, from the
// "[fitted to: ID, ID]" notes in their sources: id -> the config key.
std::map<std::string, std::string> fitted_figures(
    const std::map<std::string, std::string>& sources);

// Fills in inclusion, errors and statistics.
void summarise(ValidationReport& report);
void print_table(std::ostream& out, const ValidationReport& report);
void print_summary(std::ostream& out, const ValidationReport& report);
// Writes DIR/summary.json, DIR/results.csv and DIR/correlation.svg.
void write_report(const std::string& dir, const ValidationReport& report);

}  // namespace agx::validation
