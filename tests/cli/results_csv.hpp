// Reading a `validate --report` directory's results.csv, and the table of
// docs/validation.md that gives, for each fitted config value, the error of
// the rows it predicts: recomputed here from a report, so the table cannot
// go stale.
#pragma once

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_run.hpp"

namespace agx_test {

// One row of results.csv: its fields by column name.
using Row = std::map<std::string, std::string>;

inline std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

// The rows of results.csv by id.
inline std::map<std::string, Row> read_results(const fs::path& csv) {
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = split_csv(line);
    std::map<std::string, Row> rows;
    while (std::getline(in, line)) {
        const std::vector<std::string> f = split_csv(line);
        Row r;
        for (std::size_t i = 0; i < header.size() && i < f.size(); ++i) r[header[i]] = f[i];
        rows[r["id"]] = r;
    }
    return rows;
}

// The rows of docs/validation.md's "fitted predictions" table whose run
// (second cell) is `run`, as written, and as `results` gives them. A row's
// third cell lists fnmatch patterns (in backquotes) over the report's ids;
// the rows it counts are those in the statistics that match one and are not
// a calibration input. Its last four cells are their count, MAPE, P90
// (nearest rank) and maximum, as `validate` computes them. `unmatched` lists
// the patterns that match no id of the report (a typo would count nothing),
// `uncovered` the config values the report names as fitted that no row's
// first cell names.
struct FittedPredictionRows {
    std::vector<std::string> written, computed, unmatched, uncovered;
};

// The config values a results.csv note names: "calibration input (fitted:
// a.b, c.d)" -> a.b, c.d.
inline std::vector<std::string> fitted_keys(const std::string& note) {
    std::vector<std::string> keys;
    const std::string tag = "fitted: ";
    const auto at = note.find(tag);
    if (at == std::string::npos) return keys;
    std::stringstream in(note.substr(at + tag.size(), note.find(')', at) - at - tag.size()));
    for (std::string k; std::getline(in, k, ',');) {
        const auto a = k.find_first_not_of(' ');
        if (a != std::string::npos) keys.push_back(k.substr(a));
    }
    return keys;
}

// How a table row names a fitted value, ending a code span: a timing class's
// field by its own name (one row covers every class), any other value in
// full.
inline std::string named_as(const std::string& key) {
    const std::string timing = "core.timing.";
    return key.rfind(timing, 0) == 0 ? key.substr(key.rfind('.') + 1) : key;
}

inline FittedPredictionRows fitted_prediction_rows(const std::string& run,
                                                   const std::map<std::string, Row>& results) {
    FittedPredictionRows out;
    std::string named;  // the first cells of this run's rows
    for (const std::string& line :
         marked_table_rows("docs/validation.md",
                           "<!-- fitted predictions: checked by tests/cli/test_validate.cpp and "
                           "tests/cli/test_memory_validate.cpp -->",
                           "<!-- end of fitted predictions -->")) {
        const std::vector<std::string> cells = table_cells(line);
        if (cells.size() < 7 || cells[1] != "`" + run + "`") continue;
        std::vector<std::string> patterns;
        for (std::size_t a = cells[2].find('`'); a != std::string::npos;) {
            const std::size_t b = cells[2].find('`', a + 1);
            if (b == std::string::npos) break;
            patterns.push_back(cells[2].substr(a + 1, b - a - 1));
            a = cells[2].find('`', b + 1);
        }
        named += cells[0] + "\n";
        for (const auto& p : patterns)
            if (std::none_of(results.begin(), results.end(), [&](const auto& r) {
                    return ::fnmatch(p.c_str(), r.first.c_str(), 0) == 0;
                }))
                out.unmatched.push_back(p);
        if (patterns.empty()) out.unmatched.push_back("(no pattern) " + cells[0]);
        std::vector<double> errors;
        for (const auto& entry : results) {
            // A named reference: C++17 lambdas cannot capture structured bindings.
            const std::string& id = entry.first;
            const Row& r = entry.second;
            if (r.at("included") != "yes" || r.at("note").find("fitted:") != std::string::npos)
                continue;
            if (std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) {
                    return ::fnmatch(p.c_str(), id.c_str(), 0) == 0;
                }))
                errors.push_back(std::fabs(std::stod(r.at("error_percent"))));
        }
        // As validation/lib/error_stats.cpp computes them (this executable
        // does not link the validation layer, which brings SystemC's sc_main).
        std::sort(errors.begin(), errors.end());
        auto pct = [](double v) {
            char b[32];
            std::snprintf(b, sizeof b, "%.2f%%", v);
            return std::string(b);
        };
        std::string figures = "| " + std::to_string(errors.size()) + " | ";
        if (errors.empty()) {
            figures += "– | – | – |";
        } else {
            double sum = 0;
            for (double e : errors) sum += e;
            const auto rank = static_cast<std::size_t>(std::ceil(0.9 * errors.size()));
            figures += pct(sum / errors.size()) + " | " +
                       pct(errors[std::max<std::size_t>(rank, 1) - 1]) + " | " +
                       pct(errors.back()) + " |";
        }
        out.written.push_back(line);
        out.computed.push_back("| " + cells[0] + " | " + cells[1] + " | " + cells[2] + " " +
                               figures);
    }
    std::set<std::string> keys;
    for (const auto& [id, r] : results)
        for (const auto& k : fitted_keys(r.at("note"))) keys.insert(k);
    for (const auto& k : keys)
        if (named.find(named_as(k) + "`") == std::string::npos) out.uncovered.push_back(k);
    return out;
}

}  // namespace agx_test
