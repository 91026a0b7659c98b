// Whether a kernel's threadgroups are independent (a sampled run then runs a
// skipped range as soon as it skips it), and the check that holds a kernel
// to that finding.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "sim/common/errors.hpp"
#include "sim/kernel/kernel_workload.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx;
using agx::kernel::KernelWorkload;

namespace {

std::unique_ptr<KernelWorkload> library(const std::string& name) {
    return std::make_unique<KernelWorkload>(kernel::load_kernel(
        std::string(AGX_SOURCE_DIR) + "/traces/kernels/" + name + ".agxk", "", {}));
}

// One threadgroup of 32 threads around `code`: `out` (4096 bytes) bound to
// u0_u1, `in` to u2_u3 and `res` to u4_u5. Buffers are placed in that
// order, each 64 KB past the previous one's end rounded up to 64 KB: `in`
// starts 0x20000 bytes after `out`.
struct Small {
    test::TempFile file{".agxk"};
    std::unique_ptr<KernelWorkload> k;
    explicit Small(const std::string& code) {
        file.write(
            "agxsim-kernel 1\nlaunch grid=32 threadgroup=32 registers=16\n"
            "buffer out size=4096 fill=zero\nbuffer in size=4096 fill=iota type=u32\n"
            "buffer res size=4096 fill=zero\n"
            "uniform u0_u1 buffer=out\nuniform u2_u3 buffer=in\nuniform u4_u5 buffer=res\n" +
            code);
        k = std::make_unique<KernelWorkload>(kernel::load_kernel(file.path(), "", {}));
    }
    void run() {
        auto stream = k->open(0, 0);
        while (stream->peek()) stream->advance();
    }
};

}  // namespace

TEST_CASE("threadgroup independence: the library's kernels, and why the others are not") {
    for (const char* name : {"stencil5", "stream_triad", "sgemm_simd_matrix_tiled", "transpose"}) {
        INFO(name);
        auto k = library(name);
        CHECK(k->independent_threadgroups());
        CHECK(k->threadgroup_dependence().empty());
    }
    // saxpy updates y in place.
    auto saxpy = library("saxpy");
    CHECK_FALSE(saxpy->independent_threadgroups());
    CHECK(saxpy->threadgroup_dependence().find("buffer 'y' is loaded (line ") != std::string::npos);
    CHECK(saxpy->threadgroup_dependence().find("and stored (line ") != std::string::npos);
    // histogram256 and scan count with device atomics.
    for (const char* name : {"histogram256", "scan"}) {
        INFO(name);
        auto k = library(name);
        CHECK_FALSE(k->independent_threadgroups());
        CHECK(k->threadgroup_dependence().find("is a device atomic") != std::string::npos);
    }
}

TEST_CASE("threadgroup independence: a base in registers is not taken for a buffer") {
    Small s(
        "    get_sr r0, sr80\n"
        "    mov r2, u2\n"
        "    mov r3, u3\n"
        "    device_load r1, r2_r3, r0 slot=0\n"
        "    wait 0\n"
        "    device_store r1, u4_u5, r0 slot=0\n"
        "    stop\n");
    CHECK_FALSE(s.k->independent_threadgroups());
    CHECK(s.k->threadgroup_dependence().find("line 12's base is not a uniform pair") !=
          std::string::npos);
}

TEST_CASE(
    "threadgroup independence: an access that leaves its base's buffer is an error once the "
    "finding is relied on") {
    // Loads through `out`'s base, stores to `res`: independent by the code.
    // The load's offset (0x8000 words) reaches past `out` into `in`.
    const std::string code =
        "    get_sr r0, sr80\n"
        "    mov_imm r2, 32768\n"
        "    iadd32 r2, r2, r0\n"
        "    device_load r1, u0_u1, r2 slot=0\n"
        "    wait 0\n"
        "    device_store r1, u4_u5, r0 slot=0\n"
        "    stop\n";
    {
        Small s(code);  // not relied on: it runs
        s.run();
        std::uint32_t v = 7;
        auto& m = s.k->memory();
        m.read(m.base(*m.find_buffer("res")) + 4 * 5, &v, 4);
        CHECK(v == 5);  // in[5]
    }
    Small s(code);
    REQUIRE(s.k->independent_threadgroups());
    try {
        s.run();
        FAIL("no error");
    } catch (const InputError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find(":12:") != std::string::npos);
        CHECK(what.find("reaches buffer 'in' through the base of buffer 'out'") !=
              std::string::npos);
        CHECK(what.find("--sample-plan early=0") != std::string::npos);
    }
    // A store likewise: through `out`'s base into `in`, with `res` loaded.
    Small store(
        "    get_sr r0, sr80\n"
        "    device_load r1, u4_u5, r0 slot=0\n"
        "    wait 0\n"
        "    mov_imm r2, 32768\n"
        "    iadd32 r2, r2, r0\n"
        "    device_store r1, u0_u1, r2 slot=0\n"
        "    stop\n");
    REQUIRE(store.k->independent_threadgroups());
    CHECK_THROWS_WITH(store.run(),
                      Catch::Contains(":14:") &&
                          Catch::Contains("reaches buffer 'in' through the base of buffer 'out'"));
}
