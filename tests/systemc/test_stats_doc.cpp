// docs/statistics.md's tables of the stats JSON are the statistics' own
// declarations (sim/model/stats.hpp), rendered: a statistic added, renamed or
// redescribed in the code fails this test until the doc is regenerated.
// Regenerate with AGXSIM_WRITE_DOCS=1 build/tests/agx_sc_tests "docs/statistics.md*".
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/config_loader.hpp"
#include "sim/model/simulation.hpp"
#include "sim/model/stats.hpp"
#include "sim/trace/text_trace.hpp"

using namespace agx;

namespace {
const std::string kBegin =
    "<!-- generated from the statistics' declarations: tests/systemc/test_stats_doc.cpp -->\n";
const std::string kEnd = "<!-- end of generated tables -->\n";
}  // namespace

TEST_CASE("docs/statistics.md lists every statistic as the blocks declare it") {
    const std::string source = AGX_SOURCE_DIR;
    auto workload = open_text_trace(source + "/traces/examples/load_wait_use.trace");
    std::vector<StatDeclaration> declarations;
    RunOptions options;
    options.stat_declarations = &declarations;
    // Sampled, so that the `sampling` group is declared too (a launch this
    // small runs whole in detail: every other figure is the full run's).
    options.sampling = SamplingPlan{};
    const RunResult r = simulate(load_config("m1"), *workload, options);
    REQUIRE(!declarations.empty());

    // Every key in the JSON is declared: a value written without a
    // declaration would go undocumented.
    std::set<std::pair<std::string, std::string>> declared;
    for (const StatDeclaration& d : declarations) declared.insert({d.path, d.name});
    std::vector<std::pair<std::string, const nlohmann::json*>> stack{{"", &r.stats}};
    std::size_t keys = 0;
    while (!stack.empty()) {
        const auto [at, node] = stack.back();
        stack.pop_back();
        for (const auto& item : node->items()) {
            ++keys;
            const std::string where = generic_stat_path(at);
            const bool is_module = at.rfind("gpu", 0) == 0 && item.value().is_object();
            if (!is_module || at.empty()) {
                INFO(where << " " << item.key());
                CHECK(declared.count({where, item.key()}));
            }
            if (item.value().is_object())
                stack.push_back({at.empty() ? item.key() : at + "." + item.key(), &item.value()});
        }
    }
    CHECK(keys > 100);

    const std::string generated = stats_markdown(declarations);
    const std::string path = source + "/docs/statistics.md";
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string doc = buffer.str();
    const auto begin = doc.find(kBegin), end = doc.find(kEnd);
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    const std::string current = doc.substr(begin + kBegin.size(), end - begin - kBegin.size());
    if (current != "\n" + generated && std::getenv("AGXSIM_WRITE_DOCS")) {
        doc.replace(begin + kBegin.size(), end - begin - kBegin.size(), "\n" + generated);
        std::ofstream(path) << doc;
        return;
    }
    INFO("regenerate with AGXSIM_WRITE_DOCS=1; the tables should read:\n" << generated);
    CHECK(current == "\n" + generated);
}

TEST_CASE("stats: instance numbers become N, and a ratio without a whole is 0") {
    CHECK(generic_stat_path("gpu.core_12.scheduler_3.register_cache") ==
          "gpu.core_N.scheduler_N.register_cache");
    CHECK(generic_stat_path("gpu.l2") == "gpu.l2");
    CHECK(generic_stat_path("gpu.core_1x") == "gpu.core_1x");
    CHECK(ratio(3, 4) == 0.75);
    CHECK(ratio(3, 0) == 0.0);
}
