// Every kernel the probe would run, for every benchmark of the shipped suite
// (validation/suite/instructions.json) and of the reference tables shipped in
// validation/data/metal-benchmarks/, parses as C++ against a stub of the Metal types
// (metal_stub.hpp): g++ -fsyntax-only on one file holding them all.
#include <catch2/catch.hpp>

#include <set>

#include "probe_test_util.hpp"
#include "validation/probe/kernel_generator.hpp"
#include "validation/probe/msl_ops.hpp"
#include "validation/probe/suite_source.hpp"

using namespace agx::probe;
using namespace probe_test;
namespace fs = std::filesystem;

namespace {

std::vector<SuiteEntry> every_definition() {
    std::vector<SuiteEntry> all =
        read_suite(std::string(AGX_SOURCE_DIR) + "/validation/suite/instructions.json");
    // The reference tables as shipped (validation/data/metal-benchmarks/, quad/ included).
    const fs::path tables = fs::path(AGX_SOURCE_DIR) / "validation" / "data" / "metal-benchmarks";
    for (const auto& f : fs::recursive_directory_iterator(tables))
        if (f.path().extension() == ".csv")
            for (auto& e : read_entries(f.path().string())) all.push_back(std::move(e));
    return all;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

}  // namespace

TEST_CASE("every generated kernel parses as C++ against the Metal stub") {
    const auto all = every_definition();
    REQUIRE(all.size() > 300);
    std::ostringstream unit;
    unit << "#include \"metal_stub.hpp\"\n";
    std::set<std::string> seen, unmappable;
    std::size_t kernels = 0;
    for (const auto& e : all) {
        auto key_json = to_json(e.def);
        key_json.erase("name");  // the same benchmark under several ids parses once
        const std::string key = key_json.dump();
        if (!seen.insert(key).second) continue;
        try {
            std::string src = generate_kernel(e.def, e.def.repetitions).source;
            src = replace_all(src, "#include <metal_stdlib>", "");
            src = replace_all(src, "[[threadgroup(", "[[agx_threadgroup(");  // see metal_stub.hpp
            unit << "namespace k" << kernels++ << " {\n" << src << "}\n";
        } catch (const GeneratorError& err) {
            unmappable.insert(err.what());
        }
    }
    // SIN_PT_1/2, BITINTERLEAVE16 and FREXP, throughput and latency each.
    {
        INFO(Catch::Detail::stringify(unmappable));
        CHECK(unmappable.size() == 8);
    }
    const fs::path file = scratch() / "all_kernels.cpp";
    std::ofstream(file) << unit.str();
    const Result r =
        shell(std::string(AGX_CXX_COMPILER) + " -std=c++17 -fsyntax-only -Wno-attributes -I" +
              AGX_PROBE_TEST_DIR + " " + file.string());
    INFO(kernels << " kernels in " << file << "\n" << r.err.substr(0, 6000));
    CHECK(kernels > 300);
    CHECK(r.code == 0);
}

TEST_CASE("the stub catches what MSL rejects: as_type between sizes, fast:: on half") {
    const fs::path file = scratch() / "bad_kernel.cpp";
    for (const std::string body : {"half h = half(1.0f); uint u = as_type<uint>(h); (void)u;",
                                   "half h = half(1.0f); h = fast::rsqrt(h);"}) {
        std::ofstream(file) << "#include \"metal_stub.hpp\"\nusing namespace metal;\nvoid f() { "
                            << body << " }\n";
        const Result r =
            shell(std::string(AGX_CXX_COMPILER) + " -std=c++17 -fsyntax-only -Wno-attributes -I" +
                  AGX_PROBE_TEST_DIR + " " + file.string());
        INFO(body);
        CHECK(r.code != 0);
    }
}
