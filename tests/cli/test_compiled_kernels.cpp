// End to end: kernels written in OpenCL C, compiled by Mesa's AGX compiler
// (scripts/setup-agx-compiler.sh), decoded natively and run. Without the
// compiler (AGXSIM_AGX_COMPILER_DIR unset and no cache) each test exits 77,
// which CTest counts as skipped, saying why.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/kernel/kernel_workload.hpp"
#include "sim/kernel/opencl_compile.hpp"
#include "tests/cli/cli_run.hpp"
#include "tests/kernel_support.hpp"

using namespace agx_test;

namespace {

std::string cl(const std::string& name) {
    return std::string(AGX_SOURCE_DIR) + "/traces/kernels/cl/" + name;
}

}  // namespace

TEST_CASE("run saxpy.cl --dump y=y.npy: the compiled kernel gives y = a*x+y bit for bit") {
    agx::test::need_compiler();
    // The buffers' initial contents, as the launch fills them.
    agx::kernel::KernelWorkload hand(agx::kernel::load_kernel(
        std::string(AGX_SOURCE_DIR) + "/traces/kernels/saxpy.agxk", "", {}));
    const auto x = agx::test::read_buffer<float>(hand, "x");
    const auto y0 = agx::test::read_buffer<float>(hand, "y");
    const fs::path y = scratch() / "y.npy";
    auto r = agxsim("run " + cl("saxpy.cl") + " --config m1 --dump y=" + y.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto out = agx::test::npy_values<float>(y.string(), agx::kernel::ElementType::F32);
    REQUIRE(out.size() == x.size());
    for (std::size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == std::fma(2.5f, x[i], y0[i]));
}

TEST_CASE("kernel compile writes a kernel that keeps the compiler's arguments and code") {
    agx::test::need_compiler();
    const fs::path k = scratch() / "saxpy.agxk";
    auto r = agxsim("kernel compile " + cl("saxpy.cl") + " -o " + k.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const std::string text = slurp(k);
    CHECK(text.find("argument x uniform=u0_u1 type=pointer") != std::string::npos);
    CHECK(text.find("argument y uniform=u2_u3 type=pointer") != std::string::npos);
    CHECK(text.find("argument a uniform=u4 type=f32") != std::string::npos);
    CHECK(text.find("compiled registers=") != std::string::npos);
    CHECK(text.find("fmadd32") != std::string::npos);
    // The written kernel runs with the same launch file.
    r = agxsim("run " + k.string() + " -q --launch " + cl("saxpy.launch"));
    INFO(r.err);
    CHECK(r.code == 0);
}

TEST_CASE("a scalar argument takes --set launch.NAME=") {
    agx::test::need_compiler();
    const fs::path y = scratch() / "y.npy";
    const fs::path launch = write_file("s.launch",
                                       "param n=64\n"
                                       "launch grid=n\n"
                                       "buffer x size=4*n fill=iota type=f32\n"
                                       "buffer y size=4*n fill=constant value=1 type=f32\n"
                                       "arg a value=2.5\n");
    auto r = agxsim("run " + cl("saxpy.cl") + " -q --launch " + launch.string() +
                    " --set launch.a=-3 --dump y=" + y.string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto out = agx::test::npy_values<float>(y.string(), agx::kernel::ElementType::F32);
    REQUIRE(out.size() == 64);
    for (std::size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == -3.0f * i + 1.0f);
}

TEST_CASE("a kernel that does not compile: the compiler's message with file and line, exit 2") {
    agx::test::need_compiler();
    const fs::path src = write_file("broken.cl",
                                    "kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
                                    "void broken(global float *y) {\n"
                                    "    y[get_global_id(0)] = undeclared_thing;\n"
                                    "}\n");
    const fs::path out = scratch() / "broken.agxk";
    auto r = agxsim("kernel compile " + src.string() + " -o " + out.string());
    CHECK(r.code == 2);
    CHECK(r.err.rfind("agxsim: " + src.string() + ":3:27: error:", 0) == 0);
    CHECK(r.err.find("undeclared_thing") != std::string::npos);
    CHECK(!fs::exists(out));
}

TEST_CASE("launch mistakes for a compiled kernel are one line, exit 2") {
    agx::test::need_compiler();
    const fs::path no_buffer = write_file("nb.launch",
                                          "param n=64\nlaunch grid=n\n"
                                          "buffer y size=4*n\narg a value=1\n");
    auto r = agxsim("run " + cl("saxpy.cl") + " -q --launch " + no_buffer.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("nb.launch:2: argument 'x' is a pointer and no buffer 'x'") !=
          std::string::npos);
    const fs::path no_value = write_file("nv.launch",
                                         "param n=64\nlaunch grid=n\nbuffer x size=4*n\n"
                                         "buffer y size=4*n\n");
    r = agxsim("run " + cl("saxpy.cl") + " -q --launch " + no_value.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("argument 'a' (f32) has no value") != std::string::npos);
    const fs::path wrong_group = write_file("wg.launch",
                                            "param n=64\nlaunch grid=n threadgroup=32\n"
                                            "buffer x size=4*n\nbuffer y size=4*n\n"
                                            "arg a value=1\n");
    r = agxsim("run " + cl("saxpy.cl") + " -q --launch " + wrong_group.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("reqd_work_group_size") != std::string::npos);
    const fs::path typo = write_file("ty.launch",
                                     "param n=64\nlaunch grid=n\nbuffer x size=4*n\n"
                                     "buffer y size=4*n\narg a value=1\n"
                                     "arg b value=1\n");
    r = agxsim("run " + cl("saxpy.cl") + " -q --launch " + typo.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("the kernel has no argument 'b'") != std::string::npos);
    // A pointer takes a buffer, not a value.
    const fs::path ok = write_file("ok.launch",
                                   "param n=64\nlaunch grid=n\nbuffer x size=4*n\n"
                                   "buffer y size=4*n\narg a value=1\n");
    r = agxsim("run " + cl("saxpy.cl") + " -q --launch " + ok.string() + " --set launch.x=5");
    CHECK(r.code == 2);
    CHECK(r.err.find("--set launch.x: argument 'x' is a pointer") != std::string::npos);
}

TEST_CASE("a kernel without reqd_work_group_size is refused, naming the attribute") {
    agx::test::need_compiler();
    const fs::path src = write_file("nosize.cl",
                                    "kernel void nosize(global float *y) {\n"
                                    "    y[get_global_id(0)] = 1.0f;\n"
                                    "}\n");
    auto r = agxsim("kernel compile " + src.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("needs __attribute__((reqd_work_group_size(X, Y, Z)))") != std::string::npos);
}

TEST_CASE("a full-precision builtin is refused with its line and its native_ form, exit 2") {
    agx::test::need_compiler();
    const fs::path src = write_file("full.cl",
                                    "kernel __attribute__((reqd_work_group_size(32, 1, 1)))\n"
                                    "void full(global float *x) {\n"
                                    "    uint i = get_global_id(0);\n"
                                    "    x[i] = exp2(x[i]);\n"
                                    "}\n");
    const fs::path out = scratch() / "full.agxk";
    auto r = agxsim("kernel compile " + src.string() + " -o " + out.string());
    CHECK(r.code == 2);
    CHECK(r.err.find("full.cl:4: the full-precision builtin exp2()") != std::string::npos);
    CHECK(r.err.find("use native_exp2 instead") != std::string::npos);
    CHECK(!fs::exists(out));
}

TEST_CASE("traces/KERNEL.md's compiled saxpy is what kernel compile writes") {
    agx::test::need_compiler();
    const auto r = agxsim("kernel compile " + cl("saxpy.cl"));
    REQUIRE(r.code == 0);
    // The compile's statements (directives and instructions), comments dropped.
    std::vector<std::string> compiled;
    std::istringstream out(r.out);
    bool started = false;
    for (std::string line; std::getline(out, line);) {
        started = started || line.rfind("compiled ", 0) == 0;
        if (!started) continue;
        const auto hash = line.find(" #");
        if (hash != std::string::npos) line = line.substr(0, hash);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        compiled.push_back(line);
    }
    const std::string doc = slurp(fs::path(AGX_SOURCE_DIR) / "traces/KERNEL.md");
    const auto from = doc.find("<!-- saxpy-compiled -->\n```\n");
    const auto to = doc.find("```\n<!-- /saxpy-compiled -->");
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    std::vector<std::string> documented;
    std::istringstream in(doc.substr(from + 28, to - from - 28));
    for (std::string line; std::getline(in, line);) documented.push_back(line);
    CHECK(documented == compiled);
}

TEST_CASE("bench/compiled_ffma_ilp4.agxk is what kernel compile makes of its source") {
    agx::test::need_compiler();
    const auto r =
        agxsim("kernel compile " + std::string(AGX_SOURCE_DIR) + "/bench/compiled_ffma_ilp4.cl");
    REQUIRE(r.code == 0);
    // Every line but the header comment (which names the source's path).
    auto statements = [](const std::string& text) {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            if (line.rfind("#", 0) != 0) out.push_back(line);
        return out;
    };
    CHECK(statements(r.out) ==
          statements(slurp(fs::path(AGX_SOURCE_DIR) / "bench/compiled_ffma_ilp4.agxk")));
}
