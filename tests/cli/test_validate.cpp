// The accuracy guard: `agxsim validate` on the shipped measurements, with
// the report files checked and the error statistics held to their levels.
//
// The thresholds are regression guards at the accuracy the model reaches
// (docs/validation.md gives the figures and the targets); a change
// that makes the model worse against the hardware fails here.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/results_csv.hpp"

namespace fs = std::filesystem;

namespace {

int run(const std::string& args, const fs::path& log) {
    const std::string cmd = agx_test::agxsim_exe() + " " + args + " >" + log.string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A directory of this test process's own, removed with the others it made
// when the process exits.
fs::path report_dir(const std::string& name) {
    struct Made {
        std::vector<fs::path> dirs;
        ~Made() {
            std::error_code ec;
            for (const fs::path& d : dirs) fs::remove_all(d, ec);
        }
    };
    static Made made;
    fs::path d =
        fs::temp_directory_path() / ("agxsim-validate-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    made.dirs.push_back(d);
    return d;
}

std::string shipped(const char* table) {
    return std::string(AGX_SOURCE_DIR) + "/validation/data/" + table + ".json";
}

// The instruction tables (the quad-group tables have a guard of their own).
std::string all_shipped() {
    std::string s;
    for (const char* t :
         {"float_instructions", "int_instructions", "simd_instructions", "float_sequences",
          "int_sequences", "simd_sequences", "mixed_int_float", "ilp_occupancy", "control_group"})
        s += " " + shipped(t);
    return s;
}

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A shipped measurement file cut down to its first record.
nlohmann::json first_record_of(const char* table) {
    std::ifstream in(shipped(table));
    auto j = nlohmann::json::parse(in);
    auto& records = j.at("records");
    records.erase(records.begin() + 1, records.end());
    return j;
}

// Benchmark `id` of measurement file `m`, written out by `trace gen` and run
// from the file, and run by `suite run`: the two runs' statistics.
std::pair<nlohmann::json, nlohmann::json> trace_and_suite_stats(const std::string& id,
                                                                const std::string& m,
                                                                const fs::path& dir) {
    REQUIRE(run("trace gen " + id + " -m " + m + " -o " + (dir / "gen.trace").string(),
                dir / "gen.txt") == 0);
    REQUIRE(run("run " + (dir / "gen.trace").string() + " --config m1-max --stats " +
                    (dir / "a.json").string(),
                dir / "run.txt") == 0);
    REQUIRE(run("suite run " + id + " -m " + m + " --stats " + (dir / "b.json").string(),
                dir / "suite.txt") == 0);
    std::ifstream a(dir / "a.json"), b(dir / "b.json");
    return {nlohmann::json::parse(a), nlohmann::json::parse(b)};
}

nlohmann::json summary_of(const fs::path& dir) {
    std::ifstream in(dir / "summary.json");
    REQUIRE(in);
    return nlohmann::json::parse(in);
}

// The rows of a table of docs/validation.md between its markers.
std::vector<std::string> doc_rows(const std::string& marker) {
    return agx_test::marked_table_rows(
        "docs/validation.md", "<!-- " + marker + ": checked by tests/cli/test_validate.cpp -->",
        "<!-- end of " + marker + " -->");
}

// A kind's row as docs/validation.md gives it, from a report's summary.json.
std::vector<std::string> summary_rows(const nlohmann::json& s) {
    auto pct = [](const nlohmann::json& j, const char* k) {
        char b[32];
        std::snprintf(b, sizeof b, "%.2f%%", j.at(k).get<double>());
        return std::string(b);
    };
    std::vector<std::string> rows;
    for (const auto& [kind, st] : s.at("predictions_only").items()) {
        if (!st.is_object()) continue;
        const auto& all = s.at(kind);
        char r[16];
        std::snprintf(r, sizeof r, "%.3f", all.at("pearson_r").get<double>());
        rows.push_back("| " + kind + " | " + std::to_string(all.at("count").get<int>()) + " | " +
                       pct(all, "mape_percent") + " | " + pct(all, "p90_percent") + " | " +
                       pct(all, "max_percent") + " | " + r + " | " +
                       std::to_string(st.at("count").get<int>()) + " | " + pct(st, "mape_percent") +
                       " | " + pct(st, "p90_percent") + " |");
    }
    return rows;
}

// docs/validation.md's table of what each fitted value predicts: its rows
// for `run` are those `results` gives, every pattern matches a row, and every
// value the report names as fitted has a row.
void check_fitted_predictions(const std::string& run,
                              const std::map<std::string, agx_test::Row>& results,
                              std::size_t rows) {
    const auto fitted = agx_test::fitted_prediction_rows(run, results);
    CHECK(fitted.written.size() == rows);
    CHECK(fitted.unmatched.empty());
    CHECK(fitted.uncovered.empty());
    INFO("docs/validation.md's fitted predictions need:\n"
         << agx_test::joined_lines(fitted.computed));
    CHECK(fitted.written == fitted.computed);
}

// docs/validation.md's table of the rows more than 20% off, from a report's
// results.csv: every row in the statistics beyond 20%, largest first, as
// "| `id` | measured | simulated | error |" (the doc's "why" column follows).
std::vector<std::string> far_off_rows(const std::map<std::string, agx_test::Row>& results) {
    std::vector<std::pair<double, std::string>> far;
    for (const auto& [id, r] : results)
        if (r.at("included") == "yes" && std::fabs(std::stod(r.at("error_percent"))) > 20.0)
            far.emplace_back(std::fabs(std::stod(r.at("error_percent"))), id);
    std::sort(far.begin(), far.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<std::string> rows;
    for (const auto& [e, id] : far) {
        const auto& r = results.at(id);
        char b[160];
        std::snprintf(b, sizeof b, " | %.2f | %.2f | %.1f%% |", std::stod(r.at("measured")),
                      std::stod(r.at("simulated")), std::stod(r.at("error_percent")));
        rows.push_back("| `" + id + "`" + b);
    }
    return rows;
}

}  // namespace

TEST_CASE("validate m1-max on the shipped data: report files and accuracy guard") {
    const fs::path dir = report_dir("m1max");
    // --strict: every shipped row must be one the model simulates.
    REQUIRE(run("validate --config m1-max --strict --summary-only --measurements" + all_shipped() +
                    agx_test::shared_validate_cache() + " --report " + dir.string(),
                dir / "log.txt") == 0);
    CHECK(fs::exists(dir / "results.csv"));
    CHECK(fs::exists(dir / "correlation.svg"));
    const auto s = summary_of(dir);
    INFO(s.dump(2));
    for (const char* key : {"count", "mape_percent", "p90_percent", "max_percent", "pearson_r"})
        CHECK(s.contains(key));
    CHECK(s.at("count").get<int>() >= 300);
    CHECK(s.at("excluded").at("failed") == 0);
    // The targets where the model meets them, regression guards at
    // its accuracy plus a small margin where it does not yet.
    CHECK(s.at("throughput").at("mape_percent").get<double>() <= 2.0);     // target; 1.63%
    CHECK(s.at("throughput").at("p90_percent").get<double>() <= 5.0);      // target; 3.81%
    CHECK(s.at("throughput").at("max_percent").get<double>() <= 15.0);     // target; 14.63%
    CHECK(s.at("throughput").at("pearson_r").get<double>() >= 0.995);      // target; 0.9986
    CHECK(s.at("latency").at("mape_percent").get<double>() <= 7.5);        // target 6; 7.15%
    CHECK(s.at("latency").at("p90_percent").get<double>() <= 12.0);        // target; 11.93%
    CHECK(s.at("ilp_occupancy").at("mape_percent").get<double>() <= 7.5);  // target 6; 7.00%
    // What the model predicts, not only what it was fitted to: within 1.5x.
    CHECK(s.at("fitted_rows").get<int>() >= 100);
    for (const char* kind : {"throughput", "latency", "ilp_occupancy"})
        CHECK(s.at("predictions_only").at(kind).at("mape_percent").get<double>() <=
              1.5 * s.at(kind).at("mape_percent").get<double>());
    const auto rows = summary_rows(s);
    INFO("docs/validation.md's instruction tables need:\n" << agx_test::joined_lines(rows));
    CHECK(doc_rows("instruction tables") == rows);
}

TEST_CASE("validate m1-max on the quad-group tables: accuracy guard") {
    const fs::path dir = report_dir("quad");
    REQUIRE(run("validate --config m1-max --strict --summary-only --measurements " +
                    shipped("quad_instructions") + " " + shipped("quad_sequences") +
                    agx_test::shared_validate_cache() + " --report " + dir.string(),
                dir / "log.txt") == 0);
    const auto s = summary_of(dir);
    INFO(s.dump(2));
    CHECK(s.at("count").get<int>() == 48);
    // The throughput target, and a regression guard on latency (the target
    // is 12%; docs/validation.md: the integer products and the compare
    // ballots are not explained).
    CHECK(s.at("throughput").at("mape_percent").get<double>() <= 8.0);  // target; 3.64%
    CHECK(s.at("latency").at("mape_percent").get<double>() <= 16.5);    // target 12; 15.52%
    const auto& t = s.at("tables").at("quad_instructions");
    CHECK(t.at("latency").at("mape_percent").get<double>() <= 6.5);  // 5.60%
    const auto rows = summary_rows(s);
    INFO("docs/validation.md's quad tables need:\n" << agx_test::joined_lines(rows));
    CHECK(doc_rows("quad tables") == rows);
}

// Every shipped file at once, as the targets' command writes it
// (validation/data/*.json): what the model predicts stays within 1.5x of
// what it reaches on all rows, for each kind.
TEST_CASE("validate m1-max on every shipped file: predictions within 1.5x of all rows") {
    const fs::path dir = report_dir("every");
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(fs::path(AGX_SOURCE_DIR) / "validation" / "data"))
        if (e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 12);
    std::string args;
    for (const auto& f : files) args += " " + f;
    REQUIRE(run("validate --config m1-max --strict --summary-only --measurements" + args +
                    agx_test::shared_validate_cache() + " --report " + dir.string(),
                dir / "log.txt") == 0);
    const auto s = summary_of(dir);
    INFO(s.dump(2));
    CHECK(s.at("excluded").at("failed") == 0);
    // 2.37% against 1.92%, 12.87% against 8.70%, 5.98% against 7.00%.
    for (const char* kind : {"throughput", "latency", "ilp_occupancy"})
        CHECK(s.at("predictions_only").at(kind).at("mape_percent").get<double>() <=
              1.5 * s.at(kind).at("mape_percent").get<double>());
    // Per table, predictions only: each table and kind's count is that of
    // its rows in results.csv that are in the statistics and not fitted.
    const auto results = agx_test::read_results(dir / "results.csv");
    std::map<std::pair<std::string, std::string>, int> predicted;
    for (const auto& [id, r] : results)
        if (r.at("included") == "yes" && r.at("note").find("fitted:") == std::string::npos)
            ++predicted[{id.substr(0, id.find('/')), r.at("kind")}];
    std::map<std::pair<std::string, std::string>, int> reported;
    for (const auto& [table, kinds] : s.at("tables").items())
        for (const auto& [kind, st] : kinds.items())
            if (st.contains("predictions_only"))
                reported[{table, kind}] = st.at("predictions_only").at("count").get<int>();
    CHECK(reported == predicted);
    // quad_sequences' latency rows are all predictions: the same figures.
    CHECK(s.at("tables").at("quad_sequences").at("latency").at("predictions_only") == [&] {
        auto all = s.at("tables").at("quad_sequences").at("latency");
        all.erase("predictions_only");
        return all;
    }());
    check_fitted_predictions("m1-max", results, 9);

    // The ten worst rows the summary names are the largest |error| of the
    // rows in the statistics, largest first.
    const auto& worst = s.at("worst");
    REQUIRE(worst.size() == 10);
    double floor = 1e9;
    for (const auto& w : worst) {
        const double e = std::fabs(w.at("error_percent").get<double>());
        CHECK(e <= floor);
        floor = e;
        CHECK(results.at(w.at("id").get<std::string>()).at("included") == "yes");
    }
    std::set<std::string> named;
    for (const auto& w : worst) named.insert(w.at("id").get<std::string>());
    for (const auto& [id, r] : results)
        if (r.at("included") == "yes" && !named.count(id))
            CHECK(std::fabs(std::stod(r.at("error_percent"))) <= floor + 1e-3);
    // docs/validation.md lists every row more than 20% off, with why: the
    // table's figures are this report's, and each "why" is a paragraph of
    // the section (a bold label).
    const auto computed = far_off_rows(results);
    std::vector<std::string> written, whys;
    for (const auto& line : doc_rows("rows more than 20% off")) {
        const auto last = line.rfind(" | ", line.size() - 3);
        REQUIRE(last != std::string::npos);
        written.push_back(line.substr(0, last + 2));
        whys.push_back(line.substr(last + 3, line.size() - last - 5));
    }
    INFO("docs/validation.md's rows more than 20% off need:\n" << agx_test::joined_lines(computed));
    CHECK(written == computed);
    const std::string doc = agx_test::slurp(fs::path(AGX_SOURCE_DIR) / "docs/validation.md");
    for (const auto& why : whys) {
        INFO("why: '" << why << "'");
        CHECK(!why.empty());
        CHECK(doc.find("**" + why + "**") != std::string::npos);
    }
}

TEST_CASE("validate a14: every A14 throughput figure within 5%") {
    const fs::path dir = report_dir("a14");
    REQUIRE(run("validate --config a14 --measurements" + all_shipped() +
                    agx_test::shared_validate_cache() + " --report " + dir.string(),
                dir / "log.txt") == 0);
    const auto results = agx_test::read_results(dir / "results.csv");
    int rows = 0;
    for (const auto& [id, r] : results) {
        if (r.at("included") != "yes") continue;
        INFO(id);
        CHECK(std::abs(std::stod(r.at("error_percent"))) <= 5.0);
        ++rows;
    }
    CHECK(rows >= 20);
    check_fitted_predictions("a14", results, 1);
}

TEST_CASE("validate reads the reference CSV files as they are") {
    const fs::path csv = fs::path(AGX_SOURCE_DIR) / "validation" / "data" / "metal-benchmarks" /
                         "float_instructions.csv";
    REQUIRE(fs::exists(csv));
    const fs::path dir = report_dir("csv");
    REQUIRE(run("validate --config m1-max --summary-only --measurements " + csv.string() +
                    " --report " + dir.string(),
                dir / "log.txt") == 0);
    const auto s = summary_of(dir);
    CHECK(s.at("count").get<int>() >= 40);
    // The same figures as the shipped JSON conversion of that table.
    const fs::path dir2 = report_dir("json");
    REQUIRE(run("validate --config m1-max --summary-only --measurements " +
                    shipped("float_instructions") + " --report " + dir2.string(),
                dir2 / "log.txt") == 0);
    CHECK(summary_of(dir2).at("mape_percent").get<double>() ==
          Approx(s.at("mape_percent").get<double>()));
}

// The shipped measurement files are `data import` of the shipped reference
// CSVs, byte for byte, so a change to the importer (or a CSV) that would
// change them fails until they are regenerated (docs/validation.md, "Data
// and method"). A sequence's latency takes the latency's optimal count, the
// first of a range, as its unroll.
TEST_CASE("data import of the reference CSVs gives the shipped measurement files") {
    const fs::path ref = fs::path(AGX_SOURCE_DIR) / "validation" / "data" / "metal-benchmarks";
    std::string csvs;
    for (const fs::path& d : {ref, ref / "quad", ref / "mixes"})
        for (const auto& e : fs::directory_iterator(d))
            if (e.path().extension() == ".csv") csvs += " " + e.path().string();
    const fs::path dir = report_dir("import");
    REQUIRE(run("data import" + csvs + " -o " + dir.string(), dir / "log.txt") == 0);
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().extension() != ".json") continue;
        ++files;
        INFO(e.path().filename().string());
        CHECK(agx_test::slurp(e.path()) == agx_test::slurp(fs::path(AGX_SOURCE_DIR) / "validation" /
                                                           "data" / e.path().filename()));
    }
    CHECK(files == 13);
    std::ifstream in(dir / "simd_sequences.json");
    const auto j = nlohmann::json::parse(in);
    std::map<std::string, unsigned> unroll;
    for (const auto& r : j.at("records"))
        unroll[r.at("id").get<std::string>()] = r.at("benchmark").at("unroll").get<unsigned>();
    CHECK(unroll.at("simd_sequences/PRODUCT<I16>/latency/m1-max") == 24);            // "≤24-240"
    CHECK(unroll.at("simd_sequences/SHUFFLE_RANDOM_SAME32/latency/m1-max") == 120);  // "120-480"
}

TEST_CASE("validate rejects a malformed measurement file with one line and exit 2") {
    const fs::path dir = report_dir("bad");
    std::ofstream(dir / "bad.json")
        << "{\"format\": \"agxsim-measurements\", \"version\": 1, \"records\": [{\"id\": 3}]}";
    const int code = run("validate --config m1-max --measurements " + (dir / "bad.json").string(),
                         dir / "log.txt");
    CHECK(code == 2);
    const std::string log = read_text(dir / "log.txt");
    INFO(log);
    CHECK(log.find("bad.json") != std::string::npos);
    CHECK(log.find("records[0]") != std::string::npos);
}

TEST_CASE("trace gen writes the trace the suite simulates: same cycles either way") {
    const fs::path dir = report_dir("gen");
    const auto [ja, jb] =
        trace_and_suite_stats("FFMA32/latency", shipped("float_instructions"), dir);
    CHECK(ja.at("cycles") == jb.at("cycles"));
    CHECK(ja.at("simd_instructions") == jb.at("simd_instructions"));
}

TEST_CASE("trace gen carries a multi-wave launch: an ILP row runs alike from the file") {
    const fs::path dir = report_dir("waves");
    const auto [ja, jb] =
        trace_and_suite_stats("FMUL/ilp4/simds8/16bit", shipped("ilp_occupancy"), dir);
    // The launch line: 4 resident threadgroups of 2 simds, 100 waves of them.
    CHECK(read_text(dir / "gen.trace").find("threads_per_threadgroup=64 threadgroups=400") !=
          std::string::npos);
    CHECK(ja.at("cycles") == jb.at("cycles"));
}

TEST_CASE("validate rejects resident threadgroups that do not divide the simds") {
    const fs::path dir = report_dir("groups");
    auto j = first_record_of("ilp_occupancy");
    j["records"][0]["benchmark"]["resident_threadgroups"] = 3;  // of 4 simds per core
    std::ofstream(dir / "groups.json") << j.dump(1);
    const int code = run("validate --config m1-max --measurements " +
                             (dir / "groups.json").string() + " --report " + (dir / "out").string(),
                         dir / "log.txt");
    CHECK(code == 2);
    const std::string log = read_text(dir / "log.txt");
    INFO(log);
    CHECK(log.find("groups.json") != std::string::npos);
    CHECK(log.find("resident_threadgroups") != std::string::npos);
    CHECK(!fs::exists(dir / "out" / "summary.json"));
}

namespace {
// The shipped FMUL ILP 1 row at 4 simds per core, 144 repetitions, with
// `change` applied to its definition; returns validate's figure (or -1).
double ilp_row_figure(const std::string& name, const nlohmann::json& change) {
    const fs::path dir = report_dir(name);
    auto j = first_record_of("ilp_occupancy");
    auto& benchmark = j["records"][0]["benchmark"];
    benchmark["repetitions"] = 144;
    benchmark.erase("resident_threadgroups");
    benchmark.erase("waves");
    benchmark.update(change);
    std::ofstream(dir / "row.json") << j.dump(1);
    if (run("validate --config m1-max --measurements " + (dir / "row.json").string() +
                " --report " + (dir / "out").string(),
            dir / "log.txt") != 0)
        return -1;
    std::ifstream csv(dir / "out" / "results.csv");
    std::string header, line;
    std::getline(csv, header);
    std::getline(csv, line);
    // id,kind,chip,benchmark,measured,qualifier,simulated,...
    std::stringstream cells(line);
    std::string cell;
    for (int i = 0; i < 7; ++i) std::getline(cells, cell, ',');
    return std::stod(cell);
}
}  // namespace

TEST_CASE("waves run one after another, whatever the threadgroup split") {
    const double one = ilp_row_figure("w1", nlohmann::json::object());
    REQUIRE(one > 0);
    // Five waves of the same launch: about the same cycles per operation, not
    // five waves at once at five times the occupancy.
    CHECK(ilp_row_figure("w5", {{"waves", 5}}) == Approx(one).epsilon(0.05));
    CHECK(ilp_row_figure("w5g1", {{"waves", 5}, {"resident_threadgroups", 1}}) ==
          Approx(one).epsilon(0.05));
    CHECK(ilp_row_figure("w5g4", {{"waves", 5}, {"resident_threadgroups", 4}}) ==
          Approx(one).epsilon(0.05));
}

TEST_CASE("validate refuses waves on a memory benchmark") {
    const fs::path dir = report_dir("memwaves");
    auto j = first_record_of("memory_m1");
    j["records"][0]["benchmark"]["waves"] = 10;
    std::ofstream(dir / "mem.json") << j.dump(1);
    const int code =
        run("validate --config m1 --measurements " + (dir / "mem.json").string(), dir / "log.txt");
    CHECK(code == 2);
    const std::string log = read_text(dir / "log.txt");
    INFO(log);
    CHECK(log.find("waves") != std::string::npos);
    CHECK(log.find("memory benchmark") != std::string::npos);
}

TEST_CASE(
    "validate lists a row it cannot simulate and runs the others, --strict refuses the file") {
    const fs::path dir = report_dir("unsupported");
    // The tables' "any of these, measured alike" notation reads as the first
    // alternative at the width written last: FADD16.
    std::ofstream(dir / "mixed_int_float.csv") << "sequence,throughput_cycles\n"
                                                  "IMUL32 + IADD32,4.00\n"
                                                  "FROB32 + IADD32,3.00\n"
                                                  "IMUL32 + 4 FADD/FFMA/IADD16,5.00\n";
    const std::string csv = (dir / "mixed_int_float.csv").string();
    REQUIRE(run("validate --config m1-max --measurements " + csv + " --report " +
                    (dir / "out").string(),
                dir / "log.txt") == 0);
    const std::string log = read_text(dir / "log.txt");
    INFO(log);
    CHECK(
        log.find("mixed_int_float/FROB32 + IADD32/throughput/m1-max: unsupported: no expansion for "
                 "'FROB32 + IADD32'") != std::string::npos);
    const auto s = summary_of(dir / "out");
    CHECK(s.at("count") == 2);
    CHECK(s.at("excluded").at("unsupported") == 1);
    const std::string results = read_text(dir / "out" / "results.csv");
    CHECK(results.find("unsupported: no expansion for 'FROB32 + IADD32'") != std::string::npos);
    // The alternatives row ran as IMUL32 + 4 FADD16, like its spelt-out twin.
    std::ofstream(dir / "twin.csv") << "sequence,throughput_cycles\nIMUL32 + 4 FADD16,5.00\n";
    REQUIRE(run("validate --config m1-max --measurements " + (dir / "twin.csv").string() +
                    " --report " + (dir / "twin").string(),
                dir / "twin.txt") == 0);
    const std::string twin = read_text(dir / "twin" / "results.csv");
    auto simulated = [](const std::string& csv_text, const std::string& op) {
        const auto at = csv_text.find(op + "/throughput");
        REQUIRE(at != std::string::npos);
        std::string line = csv_text.substr(at, csv_text.find('\n', at) - at);
        std::vector<std::string> fields;
        std::stringstream ss(line);
        for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
        return fields.at(fields.size() - 4);
    };
    CHECK(simulated(results, "IMUL32 + 4 FADD/FFMA/IADD16") ==
          simulated(twin, "IMUL32 + 4 FADD16"));

    const int code =
        run("validate --config m1-max --strict --measurements " + csv, dir / "strict.txt");
    CHECK(code == 2);
    const std::string strict = read_text(dir / "strict.txt");
    CHECK(strict.find("mixed_int_float.csv: mixed_int_float/FROB32 + IADD32/throughput/m1-max: no "
                      "expansion") != std::string::npos);
    CHECK(std::count(strict.begin(), strict.end(), '\n') == 1);
}

TEST_CASE("every figure a config value was fitted to is a shipped measurement") {
    // "[fitted to: ID, ...]" in a value's source names the rows it was set
    // from; validate keeps them out of the predictions-only statistics, so a
    // misspelt id would silently count a fitted row as a prediction.
    std::set<std::string> ids;
    for (const auto& f : fs::directory_iterator(fs::path(AGX_SOURCE_DIR) / "validation" / "data"))
        if (f.path().extension() == ".json") {
            std::ifstream in(f.path());
            const auto j = nlohmann::json::parse(in);
            if (j.contains("records"))
                for (const auto& r : j.at("records")) ids.insert(r.at("id").get<std::string>());
        }
    std::size_t named = 0;
    for (const auto& f : fs::directory_iterator(fs::path(AGX_SOURCE_DIR) / "configs")) {
        if (f.path().extension() != ".json") continue;
        const std::string text = read_text(f.path());
        const std::string open = "[fitted to: ";
        for (auto at = text.find(open); at != std::string::npos; at = text.find(open, at + 1)) {
            const auto end = text.find(']', at);
            REQUIRE(end != std::string::npos);
            std::stringstream list(text.substr(at + open.size(), end - at - open.size()));
            for (std::string id; std::getline(list, id, ',');) {
                if (!id.empty() && id.front() == ' ') id.erase(0, 1);
                INFO(f.path().filename().string() << ": " << id);
                CHECK(ids.count(id) == 1);
                ++named;
            }
        }
    }
    CHECK(named >= 100);
}

TEST_CASE("validate shows its simulations' progress on a terminal, and only there") {
    // A large file is minutes of simulation; validate once said nothing until
    // the end. `script` gives the command a terminal.
    const fs::path dir = report_dir("progress");
    const std::string command = agx_test::agxsim_exe() +
                                " validate --config m1 --summary-only -m " +
                                shipped("control_group");
    const fs::path tty_log = dir / "tty.txt", log = dir / "log.txt";
    REQUIRE(std::system(
                ("script -qec '" + command + "' " + tty_log.string() + " >/dev/null").c_str()) ==
            0);
    const std::string on_tty = read_text(tty_log);
    CHECK(on_tty.find(" simulations, 0 failed") != std::string::npos);
    REQUIRE(run(std::string("validate --config m1 --summary-only -m ") + shipped("control_group"),
                log) == 0);
    CHECK(read_text(log).find("simulations") == std::string::npos);
}
