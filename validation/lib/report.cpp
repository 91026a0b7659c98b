#include "validation/lib/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "sim/common/errors.hpp"
#include "sim/common/output_file.hpp"
#include "validation/lib/correlation_plot.hpp"
#include "validation/lib/staircase_plot.hpp"

namespace agx::validation {

namespace {

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string csv_quote(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

void line(std::ostream& out, const char* label, const ErrorStats& s, int width = 14) {
    out << "  " << std::left << std::setw(width) << label << std::right << " count " << std::setw(4)
        << s.count << "  MAPE " << std::setw(6) << fixed(s.mape_percent, 2) << "%  P90 "
        << std::setw(6) << fixed(s.p90_percent, 2) << "%  max " << std::setw(7)
        << fixed(s.max_percent, 2) << "%  Pearson r " << fixed(s.pearson_r, 4) << "\n";
}

}  // namespace

std::map<std::string, std::string> fitted_figures(
    const std::map<std::string, std::string>& sources) {
    static const std::string kOpen = "[fitted to: ";
    std::map<std::string, std::string> ids;
    for (const auto& [key, source] : sources) {
        for (auto at = source.find(kOpen); at != std::string::npos;
             at = source.find(kOpen, at + 1)) {
            const auto end = source.find(']', at);
            if (end == std::string::npos) break;
            std::string list = source.substr(at + kOpen.size(), end - at - kOpen.size());
            for (std::size_t from = 0; from <= list.size();) {
                const auto comma = std::min(list.find(", ", from), list.size());
                const std::string id = list.substr(from, comma - from);
                if (!id.empty()) ids.emplace(id, key);
                from = comma + 2;
            }
        }
    }
    return ids;
}

void summarise(ValidationReport& report) {
    // Simulated and measured values of one group of rows.
    using Values = std::pair<std::vector<double>, std::vector<double>>;
    Values all, predicted;
    std::map<std::string, Values> kinds, pkinds;
    std::map<std::string, std::map<std::string, Values>> tables, ptables;
    report.not_exact = report.not_measured = report.calibration = report.failed = 0;
    report.unsupported = report.fitted = 0;
    for (ValidationRow& row : report.rows) {
        const Measurement& m = row.measured;
        row.included = false;
        if (!row.unsupported.empty()) {
            row.note = row.unsupported;
            ++report.unsupported;
        } else if (row.ran && !row.simulated.error.empty()) {
            // Unmeasured memory points run too: a failure there is a failure.
            row.note = "simulation failed: " + row.simulated.error;
            ++report.failed;
        } else if (!m.value) {
            row.note = "not measured";
            ++report.not_measured;
        } else if (!m.qualifier.empty()) {
            row.note = "bound or approximation (" + m.raw + ")";
            ++report.not_exact;
        } else if (m.kind == FigureKind::Control) {
            row.note = "calibration input (the kernel's fixed cost)";
            ++report.calibration;
        } else {
            row.included = true;
        }
        if (m.value && row.ran && row.simulated.error.empty())
            row.error_percent = percent_error(row.simulated.value, *m.value);
        if (!row.included) continue;
        const std::string kind = figure_kind_name(m.kind);
        const std::string table = m.id.substr(0, m.id.find('/'));
        auto add = [&](Values& v) {
            v.first.push_back(row.simulated.value);
            v.second.push_back(*m.value);
        };
        add(all);
        add(kinds[kind]);
        add(tables[table][kind]);
        if (!row.fitted.empty()) {
            row.note = "calibration input (fitted: " + row.fitted + ")";
            ++report.fitted;
            continue;
        }
        add(predicted);
        add(pkinds[kind]);
        add(ptables[table][kind]);
    }
    auto stats = [](const Values& v) { return error_stats(v.first, v.second); };
    auto stats_by = [&](const std::map<std::string, Values>& groups) {
        std::map<std::string, ErrorStats> out;
        for (const auto& [name, v] : groups) out[name] = stats(v);
        return out;
    };
    report.overall = stats(all);
    report.by_kind = stats_by(kinds);
    report.predicted = stats(predicted);
    report.predicted_by_kind = stats_by(pkinds);
    report.by_table.clear();
    for (const auto& [table, ks] : tables) report.by_table[table] = stats_by(ks);
    report.predicted_by_table.clear();
    for (const auto& [table, ks] : ptables) report.predicted_by_table[table] = stats_by(ks);

    report.worst.clear();
    for (std::size_t i = 0; i < report.rows.size(); ++i)
        if (report.rows[i].included) report.worst.push_back(i);
    // Ties keep the files' order, so the list is the same from run to run.
    std::stable_sort(report.worst.begin(), report.worst.end(), [&](std::size_t a, std::size_t b) {
        return std::fabs(report.rows[a].error_percent) > std::fabs(report.rows[b].error_percent);
    });
    if (report.worst.size() > kWorstRows) report.worst.resize(kWorstRows);
}

void print_table(std::ostream& out, const ValidationReport& report) {
    out << std::left << std::setw(64) << "benchmark" << std::right << std::setw(10) << "measured"
        << std::setw(11) << "simulated" << std::setw(9) << "error %"
        << "  unit\n";
    for (const ValidationRow& row : report.rows) {
        const Measurement& m = row.measured;
        // Measured and simulated in the record's unit (cycles, GB/s, percent);
        // a bound or approximation keeps its qualifier.
        out << std::left << std::setw(64) << m.id << std::right << std::setw(10)
            << (m.value ? m.qualifier + fixed(*m.value, 2) : std::string("-")) << std::setw(11)
            << (!row.ran                      ? std::string("-")
                : row.simulated.error.empty() ? fixed(row.simulated.value, 2)
                                              : std::string("failed"))
            << std::setw(9)
            << (m.value && row.ran && row.simulated.error.empty() ? fixed(row.error_percent, 1)
                                                                  : std::string("-"));
        out << "  " << m.unit;
        if (!row.note.empty()) out << "  (" << row.note << ")";
        out << "\n";
    }
}

void print_summary(std::ostream& out, const ValidationReport& report) {
    out << "agxsim validate: config " << report.config << ", " << report.rows.size() << " figures, "
        << report.overall.count << " in the statistics (" << report.not_exact
        << " bounds or approximations, " << report.not_measured << " not measured, "
        << report.calibration << " control-group inputs of the method, " << report.failed
        << " failed, " << report.unsupported << " unsupported)\n";
    line(out, "all", report.overall);
    for (const auto& [kind, s] : report.by_kind) line(out, kind.c_str(), s);
    out << "  predictions only (without the " << report.fitted
        << " rows a config value was fitted to):\n";
    line(out, "  all", report.predicted);
    for (const auto& [kind, s] : report.predicted_by_kind) line(out, ("  " + kind).c_str(), s);
    if (report.by_table.size() > 1) {
        out << "  per table:\n";
        for (const auto& [table, ks] : report.by_table)
            for (const auto& [kind, s] : ks) line(out, ("  " + table + "/" + kind).c_str(), s, 38);
        out << "  per table, predictions only:\n";
        for (const auto& [table, ks] : report.predicted_by_table)
            for (const auto& [kind, s] : ks) line(out, ("  " + table + "/" + kind).c_str(), s, 38);
    }
    if (!report.worst.empty()) {
        out << "  worst " << report.worst.size() << " rows:\n";
        for (std::size_t i : report.worst) {
            const ValidationRow& row = report.rows[i];
            out << "    " << std::left << std::setw(62) << row.measured.id << std::right
                << " measured " << std::setw(9) << fixed(*row.measured.value, 2) << "  simulated "
                << std::setw(9) << fixed(row.simulated.value, 2) << "  error " << std::setw(7)
                << fixed(row.error_percent, 1) << "%"
                << (row.fitted.empty() ? "" : "  (fitted: " + row.fitted + ")") << "\n";
        }
    }
    for (const ValidationRow& row : report.rows)
        if (!row.unsupported.empty())
            out << "  " << row.measured.id << ": " << row.unsupported << "\n";
}

void write_report(const std::string& dir, const ValidationReport& report) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw InputError(dir, "cannot create report directory: " + ec.message());

    nlohmann::json summary = to_json(report.overall);
    summary["config"] = report.config;
    summary["figures"] = report.rows.size();
    summary["excluded"] = {{"bounds_or_approximate", report.not_exact},
                           {"not_measured", report.not_measured},
                           {"calibration_inputs", report.calibration},
                           {"failed", report.failed},
                           {"unsupported", report.unsupported}};
    for (const auto& [kind, s] : report.by_kind) summary[kind] = to_json(s);
    summary["fitted_rows"] = report.fitted;
    summary["predictions_only"] = to_json(report.predicted);
    for (const auto& [kind, s] : report.predicted_by_kind)
        summary["predictions_only"][kind] = to_json(s);
    for (const auto& [table, ks] : report.by_table)
        for (const auto& [kind, s] : ks) summary["tables"][table][kind] = to_json(s);
    for (const auto& [table, ks] : report.predicted_by_table)
        for (const auto& [kind, s] : ks)
            summary["tables"][table][kind]["predictions_only"] = to_json(s);
    summary["worst"] = nlohmann::json::array();
    for (std::size_t i : report.worst) {
        const ValidationRow& row = report.rows[i];
        nlohmann::json w = {{"id", row.measured.id},
                            {"measured", *row.measured.value},
                            {"simulated", row.simulated.value},
                            {"error_percent", row.error_percent}};
        if (!row.fitted.empty()) w["fitted"] = row.fitted;
        summary["worst"].push_back(std::move(w));
    }
    std::vector<std::pair<std::string, std::string>> files;  // (name, text)
    std::ostringstream summary_text;
    summary_text << std::setw(2) << summary << "\n";
    files.emplace_back("summary.json", summary_text.str());

    std::ostringstream csv;
    csv << "id,kind,chip,benchmark,measured,qualifier,simulated,error_percent,included,note,unit\n";
    for (const ValidationRow& row : report.rows) {
        const Measurement& m = row.measured;
        csv << csv_quote(m.id) << "," << figure_kind_name(m.kind) << "," << m.chip << ","
            << csv_quote(m.benchmark.body_label()) << "," << (m.value ? fixed(*m.value, 4) : "")
            << "," << csv_quote(m.qualifier) << ","
            << (row.ran && row.simulated.error.empty() ? fixed(row.simulated.value, 4) : "") << ","
            << (m.value && row.ran && row.simulated.error.empty() ? fixed(row.error_percent, 3)
                                                                  : "")
            << "," << (row.included ? "yes" : "no") << "," << csv_quote(row.note) << ","
            << csv_quote(m.unit) << "\n";
    }
    files.emplace_back("results.csv", csv.str());

    std::vector<PlotPoint> points;
    for (const ValidationRow& row : report.rows)
        if (row.included)
            points.push_back(
                {*row.measured.value, row.simulated.value, figure_kind_name(row.measured.kind)});
    std::ostringstream svg;
    write_correlation_svg(svg, points,
                          "agxsim " + report.config + ": simulated vs measured (cycles)");
    files.emplace_back("correlation.svg", svg.str());
    // Memory rows: latency (the staircase), bandwidth and code size against footprint.
    for (auto& plot : memory_plots(report)) files.push_back(std::move(plot));

    // Every file is written whole under a temporary name before any is
    // renamed into place: a write that fails (a full disk) leaves the
    // directory as it was, not a new summary beside an old results.csv; and
    // runs writing the same directory never mix one file.
    std::vector<std::unique_ptr<OutputFile>> outputs;
    for (const auto& [name, text] : files) {
        outputs.push_back(std::make_unique<OutputFile>(dir + "/" + name));
        outputs.back()->stream() << text;
        outputs.back()->stream().flush();
    }
    for (auto& out : outputs) out->commit();
}

}  // namespace agx::validation
