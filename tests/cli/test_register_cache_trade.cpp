// docs/validation.md's register-cache trade: what the register cache's size
// (its entries per simd and the active simds that hold them) costs in storage
// and gives in accuracy. Every row is simulated again here, so a change to
// the model that moves a figure fails until the table is updated.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_run.hpp"
#include "tests/cli/results_csv.hpp"

using namespace agx_test;

namespace {

const char* kMarker = "register cache trade";

// The rows of the table between its markers (header and rule left out).
std::vector<std::string> trade_rows() {
    return marked_table_rows(
        "docs/validation.md",
        std::string("<!-- ") + kMarker + ": checked by tests/cli/test_register_cache_trade.cpp -->",
        std::string("<!-- end of ") + kMarker + " -->");
}

std::string pct(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f%%", v);
    return b;
}

std::string signed_pct(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%+.1f%%", v);
    return b;
}

// The register cache's bytes per core, as `config storage` prints them.
std::string per_core(const std::string& sets) {
    const Result r = agxsim("config storage m1-max" + sets);
    REQUIRE(r.code == 0);
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("register cache", 0) == 0) {
            std::istringstream cells(line.substr(std::string("register cache").size()));
            std::string per_sched, unit1, core, unit2;
            cells >> per_sched >> unit1 >> core >> unit2;
            return core + " " + unit2;
        }
    FAIL("config storage printed no register cache line:\n" << r.out);
    return "";
}

// The error of one figure of a report's results.csv.
double error_of(const fs::path& csv, const std::string& id) {
    std::ifstream in(csv);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(id + ",", 0) == 0) {
            std::vector<std::string> cells;
            std::istringstream row(line);
            for (std::string c; std::getline(row, c, ',');) cells.push_back(c);
            REQUIRE(cells.size() >= 8);
            return std::stod(cells[7]);  // error_percent
        }
    FAIL("no figure " << id << " in " << csv);
    return 0;
}

// One row of the table: the config values, the storage they imply, the ILP
// table's statistics and the three figures that bound the size from below.
std::string simulate_row(unsigned entries, unsigned active) {
    const std::string sets = " --set core.register_cache.entries=" + std::to_string(entries) +
                             " --set core.active_simds=" + std::to_string(active);
    const fs::path data = fs::path(AGX_SOURCE_DIR) / "validation" / "data";
    const fs::path ilp =
        scratch() / ("ilp-" + std::to_string(entries) + "-" + std::to_string(active));
    const fs::path med =
        scratch() / ("med-" + std::to_string(entries) + "-" + std::to_string(active));
    const Result a = agxsim("validate --config m1-max --summary-only -m " +
                            (data / "ilp_occupancy.json").string() + sets +
                            shared_validate_cache() + " --report " + ilp.string());
    REQUIRE(a.code == 0);
    // Only the rows of the table's three figures.
    const Result b = agxsim("validate --config m1-max --summary-only -m " +
                            (data / "float_sequences.json").string() + " --only FMEDIAN" + sets +
                            shared_validate_cache() + " --report " + med.string());
    REQUIRE(b.code == 0);
    const fs::path absdiff = med.string() + "-absdiff";
    const Result c =
        agxsim("validate --config m1-max --summary-only -m " +
               (data / "int_sequences.json").string() + " --only ABSDIFF32/throughput" + sets +
               shared_validate_cache() + " --report " + absdiff.string());
    REQUIRE(c.code == 0);
    std::ifstream in(ilp / "summary.json");
    const auto s = nlohmann::json::parse(in).at("ilp_occupancy");
    const fs::path csv = med / "results.csv";
    return "| " + std::to_string(entries) + " | " + std::to_string(active) + " | " +
           per_core(sets) + " | " + pct(s.at("mape_percent").get<double>()) + " | " +
           pct(s.at("p90_percent").get<double>()) + " | " +
           signed_pct(error_of(csv, "float_sequences/FMEDIAN32/throughput/m1-max")) + " | " +
           signed_pct(error_of(csv, "float_sequences/FMEDIAN16/throughput/m1-max")) + " | " +
           signed_pct(
               error_of(absdiff / "results.csv", "int_sequences/ABSDIFF32/throughput/m1-max")) +
           " |";
}

}  // namespace

TEST_CASE("docs/validation.md: the register-cache trade is what the model gives") {
    const auto rows = trade_rows();
    REQUIRE(rows.size() >= 3);
    std::ifstream cfg(fs::path(AGX_SOURCE_DIR) / "configs" / "m1.json");
    const auto core = nlohmann::json::parse(cfg).at("core");
    const std::string shipped =
        "| " + std::to_string(core.at("register_cache").at("entries").at("value").get<int>()) +
        " | " + std::to_string(core.at("active_simds").at("value").get<int>()) + " |";
    // The shipped row last: by then the accuracy guards, which CTest starts
    // beside this test (tests/test_schedule.cmake), have put its simulations
    // in the shared validate cache.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].rfind(shipped, 0) != 0) order.push_back(i);
    // The shipped values are one of the rows.
    CHECK(order.size() == rows.size() - 1);
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].rfind(shipped, 0) == 0) order.push_back(i);
    std::vector<std::string> simulated(rows.size());
    for (const std::size_t i : order) {
        const auto cells = table_cells(rows[i]);
        REQUIRE(cells.size() == 8);
        simulated[i] = simulate_row(static_cast<unsigned>(std::stoul(cells[0])),
                                    static_cast<unsigned>(std::stoul(cells[1])));
    }
    std::string want;
    for (const auto& row : simulated) want += row + "\n";
    INFO("docs/validation.md's register-cache trade needs:\n" << want);
    CHECK(simulated == rows);
}

namespace {

// One figure of one measurement row as `validate` gives it with `sets`:
// "simulated (error)". The row's file is validation/data/<table>.json, its
// table the id's first part.
std::string figure_with(const std::string& id, const std::string& sets, std::string* measured) {
    const fs::path data = fs::path(AGX_SOURCE_DIR) / "validation" / "data";
    const fs::path dir = scratch() / "neighbour";
    const Result r =
        agxsim("validate --config m1-max --summary-only -m " +
               (data / (id.substr(0, id.find('/')) + ".json")).string() + sets + " --only '" + id +
               "'" + shared_validate_cache() + " --report " + dir.string());
    REQUIRE(r.code == 0);
    const auto results = read_results(dir / "results.csv");
    const auto row = results.find(id);
    if (row == results.end()) FAIL("no figure " << id << " in " << dir / "results.csv");
    char b[64];
    std::snprintf(b, sizeof b, "%.2f", std::stod(row->second.at("measured")));
    if (measured) *measured = b;
    std::snprintf(b, sizeof b, "%.2f (%+.1f%%)", std::stod(row->second.at("simulated")),
                  std::stod(row->second.at("error_percent")));
    return b;
}

}  // namespace

// The table that backs the register-cache and issue parameters' sources:
// what a neighbouring value of each does to the rows the value was chosen
// by. Each row is simulated twice here, as shipped and with the value.
TEST_CASE("docs/validation.md: the register-cache trade's neighbouring values are the model's") {
    const auto rows = marked_table_rows(
        "docs/validation.md",
        "<!-- neighbouring values: checked by tests/cli/test_register_cache_trade.cpp -->",
        "<!-- end of neighbouring values -->");
    REQUIRE(rows.size() >= 5);
    const Result shown = agxsim("config show m1-max");
    REQUIRE(shown.code == 0);
    const auto config = nlohmann::json::parse(shown.out);
    std::vector<std::string> simulated;
    std::string want;
    for (const auto& row : rows) {
        const auto cells = table_cells(row);
        REQUIRE(cells.size() == 5);
        REQUIRE(cells[0].size() > 2);
        REQUIRE(cells[1].size() > 2);
        const std::string value = cells[0].substr(1, cells[0].size() - 2);  // `key=value`
        const std::string id = cells[1].substr(1, cells[1].size() - 2);
        std::string measured;
        // A neighbouring value, not the shipped one.
        const auto eq = value.find('=');
        REQUIRE(eq != std::string::npos);
        nlohmann::json at = config;
        std::istringstream path(value.substr(0, eq));
        for (std::string key; std::getline(path, key, '.');) at = at.at(key);
        const auto& v = at.at("value");
        INFO(value);
        CHECK(value.substr(eq + 1) != (v.is_string() ? v.get<std::string>() : v.dump()));
        const std::string shipped = figure_with(id, "", &measured);
        const std::string with = figure_with(id, " --set " + value, nullptr);
        simulated.push_back("| " + cells[0] + " | " + cells[1] + " | " + measured + " | " +
                            shipped + " | " + with + " |");
        want += simulated.back() + "\n";
    }
    INFO("docs/validation.md's neighbouring values need:\n" << want);
    CHECK(simulated == rows);
}
