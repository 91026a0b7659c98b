// The machine-config layer: the shipped configs, the extends/--set mechanics,
// the one-line errors for every kind of bad input, and config_to_json.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "isa/catalogue.hpp"
#include "sim/common/errors.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/policies.hpp"
#include "sim/config/storage.hpp"

namespace fs = std::filesystem;
using agx::load_config;
using nlohmann::json;

namespace {

const char* const kShipped[] = {"a14", "m1", "m1-max", "m2"};

std::string shipped_path(const std::string& name) {
    return std::string(AGX_SOURCE_DIR) + "/configs/" + name + ".json";
}

json read_json(const fs::path& p) {
    std::ifstream in(p);
    return json::parse(in);
}

// A scratch directory holding a copy of m1.json, removed afterwards.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "agx_config_test_XXXXXX").string();
        path = mkdtemp(tmpl.data());
        fs::copy_file(shipped_path("m1"), path / "m1.json");
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name) << text;
        return (path / name).string();
    }
    std::string write_json(const std::string& name, const json& j) const {
        return write(name, j.dump(2));
    }
    // A child of m1.json holding only `body`.
    std::string child(const std::string& name, json body) const {
        body["extends"] = "m1.json";
        return write_json(name, body);
    }
    // A standalone copy of m1.json changed by `edit`.
    std::string edited(const std::string& name, const std::function<void(json&)>& edit) const {
        json j = read_json(path / "m1.json");
        edit(j);
        return write_json(name, j);
    }
};

// The call must throw InputError with a one-line message containing every part.
void expect_error(const std::function<void()>& call, std::initializer_list<std::string> parts) {
    try {
        call();
    } catch (const agx::InputError& e) {
        const std::string msg = e.what();
        INFO("message: " << msg);
        CHECK(msg.find('\n') == std::string::npos);
        for (const std::string& part : parts) CHECK(msg.find(part) != std::string::npos);
        return;
    }
    FAIL("no InputError thrown");
}

// Every leaf of a config's JSON by dotted path (leaf objects collapse to their value).
void flatten(const json& j, const std::string& at, std::map<std::string, json>& out) {
    if (j.is_object() && !j.contains("value")) {
        for (const auto& [k, v] : j.items()) flatten(v, at.empty() ? k : at + "." + k, out);
    } else {
        out[at] = j.is_object() ? j["value"] : j;
    }
}

}  // namespace

TEST_CASE("each shipped config loads with its chip's values", "[config]") {
    for (const char* name : kShipped) {
        INFO(name);
        const agx::MachineConfig c = load_config(name);
        CHECK(c.name == name);
        CHECK(c.core.schedulers == 4);
        CHECK(c.core.simd_width == 32);
        CHECK(c.core.max_resident_simds == 96);
        CHECK(c.core.register_file.size_bytes == 208 * 1024);
        CHECK(c.core.register_file.occupancy.size() == 10);
        CHECK(c.core.l1d.size_bytes == 8192);
        CHECK(c.core.l1d.line_bytes == 128);
        CHECK(c.core.register_cache.sharing == agx::RegisterCacheSharing::Simd);
        CHECK(c.core.register_cache.entries == 22);
        CHECK(c.core.register_cache.file_read_ports == 2);
        CHECK(c.core.register_cache.file_read_latency == 3);
        CHECK(c.core.register_cache.file_read_latency_16bit == 1);
        CHECK(c.core.register_cache.file_third_source_delay == 14);
        CHECK(c.core.register_cache.half_registers == agx::HalfRegisters::OwnEntry);
        CHECK(c.core.active_simds == 3);
        CHECK(c.core.simd_placement == agx::SimdPlacement::Rotate);
        CHECK(c.core.register_cache.forwarding == agx::ForwardingPolicy::SameSimd);
        CHECK(c.core.register_cache.write_latency == 2);
    }
    const agx::MachineConfig max = load_config("m1-max");
    CHECK(max.cores == 32);
    CHECK(max.clock_ghz == Approx(1.296));
    CHECK(max.memory.l2.size_bytes == 512 * 1024);
    CHECK(max.memory.slc.size_bytes == 48u * 1024 * 1024);
    CHECK(max.memory.dram.bus_width_bits == 512);
    CHECK(max.core.timing.at("f32_arith").issue_interval == 1);
    CHECK(max.core.timing.at("f32_arith").latency == 2);
    CHECK(max.core.timing.at("imad32").issue_interval == 4);
    CHECK(max.core.timing.at("recip").issue_interval == 6);
    CHECK(max.core.timing.at("rsqrt").issue_interval == 8);
    CHECK(max.core.timing.at("imul_wide").issue_interval == 8);

    const agx::MachineConfig a14 = load_config("a14");
    CHECK(a14.cores == 4);
    CHECK(a14.core.timing.at("f32_arith").issue_interval == 2);
    CHECK(a14.core.timing.at("f32_arith").latency == 2);  // inherited from m1
    CHECK(a14.core.timing.at("f16_arith").issue_interval == 1);
}

TEST_CASE("shipped configs time exactly the catalogue's classes", "[config]") {
    std::set<std::string> classes;
    for (auto cls : agx::isa::Catalogue::instance().timing_classes())
        classes.insert(std::string(cls));
    for (const char* name : kShipped) {
        INFO(name);
        std::set<std::string> timed;
        for (const auto& [cls, t] : load_config(name).core.timing) timed.insert(cls);
        CHECK(timed == classes);
    }
}

TEST_CASE("m2 extends m1 and differs only where the chips differ", "[config]") {
    CHECK(read_json(shipped_path("m2")).at("extends") == "m1.json");
    std::map<std::string, json> m1, m2;
    flatten(agx::config_to_json(load_config("m1"), false), "", m1);
    flatten(agx::config_to_json(load_config("m2"), false), "", m2);
    REQUIRE(m1.size() == m2.size());
    std::set<std::string> differ;
    for (const auto& [k, v] : m1)
        if (m2.at(k) != v) differ.insert(k);
    CHECK(differ == std::set<std::string>{"name", "family", "clock_ghz", "cores",
                                          "memory.l2.size_bytes", "memory.slc.bytes_per_ns",
                                          "memory.dram.data_rate_mtps",
                                          "memory.dram.banks_per_channel"});  // LPDDR5: 16 banks
    const agx::MachineConfig c = load_config("m2");
    CHECK(c.family == "apple8");
    CHECK(c.cores == 10);
    CHECK(c.sources.at("cores").find("M2") != std::string::npos);
    CHECK(c.sources.at("core.schedulers") == load_config("m1").sources.at("core.schedulers"));
}

TEST_CASE("every leaf of the shipped configs has a source", "[config]") {
    std::function<void(const json&, const std::string&)> walk = [&](const json& j,
                                                                    const std::string& at) {
        for (const auto& [k, v] : j.items()) {
            const std::string path = at.empty() ? k : at + "." + k;
            INFO(path);
            if (path == "extends") continue;
            REQUIRE(v.is_object());  // a bare value has no source
            if (v.contains("value")) {
                REQUIRE(v.contains("source"));
                CHECK(v["source"].is_string());
                CHECK(!v["source"].get<std::string>().empty());
            } else {
                walk(v, path);
            }
        }
    };
    for (const char* name : kShipped) {
        INFO(name);
        walk(read_json(shipped_path(name)), "");
        for (const auto& [key, source] : load_config(name).sources) {
            INFO(key);
            CHECK(source.rfind("no source given", 0) == std::string::npos);
        }
    }
}

TEST_CASE("config names resolve in the config dir, paths as given", "[config]") {
    CHECK(fs::equivalent(agx::resolve_config_path("m1"), shipped_path("m1")));
    CHECK(agx::resolve_config_path(shipped_path("m2")) == shipped_path("m2"));
    expect_error([] { agx::resolve_config_path("m3"); }, {"m3", "no such config", "m1-max"});

    TempDir dir;
    dir.child("mine.json", json::object());
    ::setenv("AGXSIM_CONFIG_DIR", dir.path.c_str(), 1);
    std::string found;
    try {
        found = agx::resolve_config_path("mine");
    } catch (...) {
    }
    ::unsetenv("AGXSIM_CONFIG_DIR");
    CHECK(found == (dir.path / "mine.json").string());
}

TEST_CASE("a bare value loads and is marked as unsourced", "[config]") {
    TempDir dir;
    const std::string file = dir.child("bare.json", {{"cores", 16}});
    const agx::MachineConfig c = load_config(file);
    CHECK(c.cores == 16);
    CHECK(c.sources.at("cores").find("no source given") != std::string::npos);
    CHECK(c.sources.at("cores").find("bare.json") != std::string::npos);
}

TEST_CASE("missing files and malformed JSON are input errors", "[config]") {
    TempDir dir;
    const std::string nope = (dir.path / "nope.json").string();
    expect_error([&] { load_config(nope); }, {"nope.json", "no such config file"});

    const std::string broken = dir.write("broken.json", "{\n  \"name\": {\"value\": \"x\",\n}\n");
    expect_error([&] { load_config(broken); }, {"broken.json", "malformed JSON", "byte", "line 3"});

    const std::string array = dir.write("array.json", "[1, 2]");
    expect_error([&] { load_config(array); }, {"array.json", "top level must be a JSON object"});

    const std::string dup =
        dir.write("dup.json", R"({"extends": "m1.json", "cores": 4, "cores": 8})");
    expect_error([&] { load_config(dup); }, {"dup.json", "cores", "duplicate key"});
}

TEST_CASE("extends: relative files, missing bases and cycles", "[config]") {
    TempDir dir;
    fs::create_directory(dir.path / "sub");
    dir.write("sub/deep.json", R"({"extends": "../m1.json", "cores": 2})");
    CHECK(load_config((dir.path / "sub/deep.json").string()).cores == 2);

    const std::string gone = dir.write("gone.json", R"({"extends": "m9.json"})");
    expect_error([&] { load_config(gone); },
                 {"gone.json", "extends", "no such config file", "m9.json"});

    const std::string bad = dir.write("badext.json", R"({"extends": 5})");
    expect_error([&] { load_config(bad); },
                 {"badext.json", "extends", "expected the name of a config file"});

    const std::string a = dir.write("a.json", R"({"extends": "b.json"})");
    dir.write("b.json", R"({"extends": "a.json"})");
    expect_error([&] { load_config(a); }, {"extends", "cycle", "a.json -> b.json -> a.json"});

    const std::string self = dir.write("self.json", R"({"extends": "self.json"})");
    expect_error([&] { load_config(self); }, {"self.json", "extends", "cycle"});
}

TEST_CASE("unknown keys are errors, with a hint for typos", "[config]") {
    TempDir dir;
    const std::string typo = dir.child("typo.json", {{"core", {{"l1d", {{"size_byte", 8192}}}}}});
    expect_error([&] { load_config(typo); }, {"typo.json", "core.l1d.size_byte", "unknown key",
                                              "did you mean core.l1d.size_bytes?"});

    const std::string top = dir.child("top.json", {{"colour", "red"}});
    expect_error([&] { load_config(top); }, {"top.json", "colour", "unknown key"});

    const std::string cls =
        dir.child("cls.json", {{"core", {{"timing", {{"fdiv32", {{"latency", 3}}}}}}}});
    expect_error([&] { load_config(cls); },
                 {"cls.json", "core.timing.fdiv32", "unknown timing class"});

    const std::string inner =
        dir.child("inner.json", {{"cores", {{"value", 8}, {"sorce", "typo"}}}});
    expect_error([&] { load_config(inner); }, {"inner.json", "cores.sorce", "unknown key"});

    const std::string nosrc = dir.child("nosrc.json", {{"cores", {{"value", 8}, {"source", ""}}}});
    expect_error([&] { load_config(nosrc); }, {"nosrc.json", "cores.source", "non-empty string"});

    const std::string group = dir.child("group.json", {{"core", {{"l1d", 5}}}});
    expect_error([&] { load_config(group); },
                 {"group.json", "core.l1d", "expected a group of settings"});
}

TEST_CASE("missing keys are errors naming the key", "[config]") {
    TempDir dir;
    const std::string leaf =
        dir.edited("leaf.json", [](json& j) { j["core"]["l1d"].erase("mshrs"); });
    expect_error([&] { load_config(leaf); }, {"leaf.json", "core.l1d.mshrs", "missing key"});

    const std::string cls =
        dir.edited("cls.json", [](json& j) { j["core"]["timing"].erase("imad32"); });
    expect_error([&] { load_config(cls); }, {"cls.json", "core.timing.imad32", "missing"});

    const std::string half =
        dir.edited("half.json", [](json& j) { j["core"]["timing"]["recip"].erase("latency"); });
    expect_error([&] { load_config(half); },
                 {"half.json", "core.timing.recip.latency", "missing key"});

    const std::string group = dir.edited("group.json", [](json& j) { j["memory"].erase("dram"); });
    expect_error([&] { load_config(group); }, {"group.json", "memory.dram", "missing"});
}

TEST_CASE("values of the wrong type are errors", "[config]") {
    TempDir dir;
    const std::string s = dir.child("s.json", {{"cores", "eight"}});
    expect_error([&] { load_config(s); },
                 {"s.json", "cores", "expected a non-negative integer", "\"eight\""});

    const std::string neg = dir.child("neg.json", {{"cores", -4}});
    expect_error([&] { load_config(neg); }, {"neg.json", "cores", "must not be negative"});

    const std::string frac =
        dir.child("frac.json", {{"core", {{"l1d", {{"size_bytes", 8192.5}}}}}});
    expect_error([&] { load_config(frac); },
                 {"frac.json", "core.l1d.size_bytes", "expected a non-negative integer"});

    const std::string clk =
        dir.child("clk.json", {{"clock_ghz", {{"value", "fast"}, {"source", "me"}}}});
    expect_error([&] { load_config(clk); }, {"clk.json", "clock_ghz", "expected a number"});

    const std::string occ =
        dir.child("occ.json", {{"core", {{"register_file", {{"occupancy", {{104, 1024}}}}}}}});
    expect_error([&] { load_config(occ); },
                 {"occ.json", "core.register_file.occupancy", "step 1", "halves"});

    const std::string big = dir.child("big.json", {{"cores", 5000000000ull}});
    expect_error([&] { load_config(big); }, {"big.json", "cores", "too large"});
}

TEST_CASE("out-of-range values are errors", "[config]") {
    TempDir dir;
    auto with = [&](const std::string& name, const json& body) { return dir.child(name, body); };
    auto l1d = [](const json& fields) { return json{{"core", {{"l1d", fields}}}}; };

    expect_error(
        [&] {
            load_config(with("zero.json", {{"cores", 0}}));
        },
        {"zero.json", "cores", "out of range"});
    expect_error(
        [&] {
            load_config(with("clock.json", {{"clock_ghz", 0.0}}));
        },
        {"clock.json", "clock_ghz", "out of range"});
    expect_error(
        [&] {
            load_config(with("pow2.json", l1d({{"size_bytes", 12288}})));
        },
        {"pow2.json", "core.l1d.size_bytes", "24 sets", "power of two"});
    expect_error(
        [&] {
            load_config(with("sets.json", l1d({{"size_bytes", 10000}})));
        },
        {"sets.json", "core.l1d.size_bytes", "not divisible into sets"});
    expect_error(
        [&] {
            load_config(with("line.json", l1d({{"line_bytes", 96}})));
        },
        {"line.json", "core.l1d.line_bytes", "not a power of two"});
    expect_error(
        [&] {
            load_config(with("long.json", l1d({{"line_bytes", 16384}})));
        },
        {"long.json", "core.l1d.line_bytes", "larger than size_bytes"});
    expect_error(
        [&] {
            load_config(with("assoc.json", l1d({{"associativity", 0}})));
        },
        {"assoc.json", "core.l1d.associativity", "out of range"});
    expect_error(
        [&] {
            load_config(with("policy.json", l1d({{"replacement", "lur"}})));
        },
        {"policy.json", "core.l1d.replacement", "unknown name 'lur'", "lru"});
    auto rc = [](const json& fields) { return json{{"core", {{"register_cache", fields}}}}; };
    expect_error(
        [&] {
            load_config(with("sharing.json", rc({{"sharing", "warp"}})));
        },
        {"sharing.json", "core.register_cache.sharing", "unknown name 'warp'", "simd"});
    expect_error(
        [&] {
            load_config(with("latency.json", rc({{"file_read_latency", 100}})));
        },
        {"latency.json", "core.register_cache.file_read_latency", "out of range"});
    expect_error(
        [&] {
            load_config(with("third.json", rc({{"file_third_source_delay", 65}})));
        },
        {"third.json", "core.register_cache.file_third_source_delay", "out of range"});
    expect_error(
        [&] {
            load_config(with("halves.json", rc({{"half_registers", "own"}})));
        },
        {"halves.json", "core.register_cache.half_registers", "unknown name 'own'", "own_entry"});
    expect_error(
        [&] {
            load_config(with("pool.json", {{"core", {{"active_simds", 1000}}}}));
        },
        {"pool.json", "core.active_simds", "out of range"});
    expect_error(
        [&] {
            load_config(with("forwarding.json", rc({{"forwarding", "never"}})));
        },
        {"forwarding.json", "core.register_cache.forwarding", "unknown name 'never'"});
    expect_error(
        [&] {
            load_config(with("placement.json", {{"core", {{"simd_placement", "rotated"}}}}));
        },
        {"placement.json", "core.simd_placement", "unknown name 'rotated'", "rotate"});
    expect_error(
        [&] {
            load_config(with("family.json", {{"family", "apple9"}}));
        },
        {"family.json", "family", "unknown name"});
    expect_error(
        [&] {
            load_config(with("simds.json", {{"core", {{"max_resident_simds", 1024}}}}));
        },
        {"simds.json", "core.max_resident_simds", "register_file.size_bytes"});
    expect_error(
        [&] {
            load_config(with("issue.json",
                             {{"core", {{"timing", {{"f32_arith", {{"issue_interval", 0}}}}}}}}));
        },
        {"issue.json", "core.timing.f32_arith.issue_interval", "out of range"});
    expect_error(
        [&] {
            load_config(with("bus.json", {{"memory", {{"dram", {{"channels", 3}}}}}}));
        },
        {"bus.json", "memory.dram.channels", "bus_width_bits 128", "3 channels"});

    const json steps = json::array({{{"halves", 104}, {"threads", 1024}},
                                    {{"halves", 96}, {"threads", 896}},
                                    {{"halves", 256}, {"threads", 384}}});
    expect_error(
        [&] {
            load_config(
                with("order.json", {{"core", {{"register_file", {{"occupancy", steps}}}}}}));
        },
        {"order.json", "core.register_file.occupancy", "step 2", "ascending"});
    const json over = json::array({{{"halves", 256}, {"threads", 1024}}});
    expect_error(
        [&] {
            load_config(with("over.json", {{"core", {{"register_file", {{"occupancy", over}}}}}}));
        },
        {"over.json", "core.register_file.occupancy", "more than size_bytes"});
}

TEST_CASE("an error in an inherited config names the file that set the value", "[config]") {
    TempDir dir;
    const std::string child =
        dir.child("child.json", {{"memory", {{"l2", {{"size_bytes", 1000000}}}}}});
    expect_error([&] { load_config(child); }, {"child.json", "memory.l2.size_bytes"});
    // A rule broken by a base value and a child's change is reported at the child's key.
    const std::string assoc =
        dir.child("assoc.json", {{"memory", {{"l2", {{"associativity", 7}}}}}});
    expect_error([&] { load_config(assoc); },
                 {"assoc.json", "memory.l2.associativity", "size_bytes 786432", "not divisible"});
}

TEST_CASE("overrides given with --set apply with their own source", "[config]") {
    const agx::MachineConfig c = load_config(
        "m1", {"core.l1d.size_bytes=16384", "core.l1d.replacement=fifo",
               "core.timing.f32_arith.issue_interval=2", "clock_ghz=1.5", "name=\"custom\""});
    CHECK(c.core.l1d.size_bytes == 16384);
    CHECK(c.core.l1d.replacement == agx::Replacement::Fifo);
    CHECK(c.core.timing.at("f32_arith").issue_interval == 2);
    CHECK(c.core.timing.at("f32_arith").latency == 2);
    CHECK(c.clock_ghz == Approx(1.5));
    CHECK(c.name == "custom");
    CHECK(c.sources.at("core.l1d.size_bytes") == "command line --set");
    CHECK(c.sources.at("core.l1d.line_bytes") != "command line --set");

    const json steps = json::array({{{"halves", 256}, {"threads", 384}}});
    CHECK(load_config("m1", {"core.register_file.occupancy=" + steps.dump()})
              .core.register_file.occupancy.size() == 1);
    CHECK(load_config("m1", {"cores=4", "cores=16"}).cores == 16);  // the last one wins
}

TEST_CASE("bad --set overrides are errors naming the override", "[config]") {
    expect_error(
        [] { load_config("m1", {"core.l1d.size_byts=1"}); },
        {"--set core.l1d.size_byts=1", "unknown key", "did you mean core.l1d.size_bytes?"});
    expect_error([] { load_config("m1", {"core.l1d.size_bytes=abc"}); },
                 {"--set core.l1d.size_bytes=abc", "core.l1d.size_bytes",
                  "expected a non-negative integer"});
    expect_error([] { load_config("m1", {"core.l1d.size_bytes=12000"}); },
                 {"--set core.l1d.size_bytes=12000", "not divisible"});
    expect_error([] { load_config("m1", {"cores=0"}); }, {"--set cores=0", "out of range"});
    expect_error([] { load_config("m1", {"cores"}); }, {"--set cores", "expected key.path=value"});
    expect_error([] { load_config("m1", {"=4"}); }, {"--set =4", "expected key.path=value"});
    expect_error([] { load_config("m1", {"core.l1d=5"}); },
                 {"--set core.l1d=5", "group of settings"});
    expect_error([] { load_config("m1", {"core.timing.fdiv.latency=3"}); },
                 {"--set core.timing.fdiv.latency=3", "unknown key"});
}

TEST_CASE("config_to_json round-trips the resolved config", "[config]") {
    TempDir dir;
    for (const char* name : kShipped) {
        INFO(name);
        const agx::MachineConfig c = load_config(name);
        const json j = agx::config_to_json(c);
        CHECK(j.at("cores").at("value") == c.cores);
        CHECK(j.at("cores").at("source") == c.sources.at("cores"));
        CHECK(j.at("clock_ghz").at("value") == c.clock_ghz);
        CHECK(j.at("core").at("l1d").at("size_bytes").at("value") == c.core.l1d.size_bytes);
        CHECK(j.at("core").at("timing").at("f32_arith").at("issue_interval").at("value") ==
              c.core.timing.at("f32_arith").issue_interval);
        CHECK(j.at("core").at("register_file").at("occupancy").at("value").size() == 10);
        CHECK(!j.contains("extends"));

        const agx::MachineConfig again =
            load_config(dir.write_json(std::string(name) + "-shown.json", j));
        CHECK(agx::config_to_json(again) == j);
        CHECK(again.sources == c.sources);

        const json bare = agx::config_to_json(c, false);
        CHECK(bare.at("cores") == c.cores);
        CHECK(bare.at("memory").at("dram").at("bus_width_bits") == c.memory.dram.bus_width_bits);
        const agx::MachineConfig unsourced =
            load_config(dir.write_json(std::string(name) + "-bare.json", bare));
        CHECK(agx::config_to_json(unsourced, false) == bare);
    }
}

TEST_CASE("validate_config checks configs built in code", "[config]") {
    agx::MachineConfig c = load_config("m1");
    CHECK_NOTHROW(agx::validate_config(c));
    c.core.l1d.line_bytes = 100;
    expect_error([&] { agx::validate_config(c); },
                 {"m1", "core.l1d.line_bytes", "not a power of two"});
    c = load_config("m1");
    c.core.timing.erase("recip");
    expect_error([&] { agx::validate_config(c); }, {"core.timing.recip", "missing timing class"});
    c = load_config("m1");
    c.core.timing["fdiv"] = {};
    expect_error([&] { agx::validate_config(c); }, {"core.timing.fdiv", "unknown timing class"});
}

namespace {
template <class E>
void check_policy_table() {
    std::set<std::string_view> names;
    for (const auto& [value, name] : agx::PolicyNames<E>::table) {
        CHECK(names.insert(name).second);  // a name chooses one value
        CHECK(agx::policy_from_name<E>(name) == value);
        CHECK(agx::policy_name(value) == name);
    }
    CHECK_FALSE(agx::policy_from_name<E>("no_such_policy").has_value());
}
}  // namespace

TEST_CASE("config: each policy's name table reads and writes every value") {
    check_policy_table<agx::Replacement>();
    check_policy_table<agx::SchedulerPolicy>();
    check_policy_table<agx::SimdPlacement>();
    check_policy_table<agx::RegisterCacheSharing>();
    check_policy_table<agx::HalfRegisters>();
    check_policy_table<agx::ForwardingPolicy>();
    check_policy_table<agx::WritePolicy>();
    CHECK(agx::policy_name_list<agx::Replacement>() == "lru, fifo, random");
}

TEST_CASE(
    "config storage: the register cache holds a partition per active simd, 4 B x 32 lanes "
    "an entry") {
    const agx::MachineConfig partitioned =
        load_config("m1", {"core.register_cache.sharing=simd", "core.register_cache.entries=10",
                           "core.active_simds=2", "core.schedulers=4"});
    const auto rows = agx::structure_storage(partitioned);
    auto find = [&](const std::string& name) {
        for (const auto& r : rows)
            if (r.structure == name) return r;
        FAIL("no row " << name);
        return rows.front();
    };
    CHECK(find("register cache").per_scheduler == 10u * 4 * 32 * 2);
    CHECK(find("register cache").per_core == 10u * 4 * 32 * 2 * 4);
    CHECK(find("L1 data cache").per_core == partitioned.core.l1d.size_bytes);
    CHECK(find("L1 data cache").per_scheduler == 0);
    CHECK(find("L2").per_chip == partitioned.memory.l2.size_bytes);

    const agx::MachineConfig shared = load_config(
        "m1", {"core.register_cache.sharing=scheduler", "core.register_cache.entries=10"});
    CHECK(agx::structure_storage(shared)[1].per_scheduler == 10u * 4 * 32);
}
