// The binary trace format (traces/FORMAT.md, "Binary trace format"). An
// input starting with the magic's first byte (0x89) is a file as it is; any
// other input is the unpacked form of binary_trace_pack.hpp, which the
// target packs first (chunks compressed, sizes, offsets and checksums
// filled in), so that mutations reach the records and the index behind the
// checksums. The file opens or is refused with InputError; an accepted
// trace's streams read, and it converts to both formats and back to the
// same instructions.
#include "sim/trace/binary_trace.hpp"
#include "tests/fuzz/binary_trace_pack.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/trace_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    std::string path;
    if (size > 0 && data[0] == 0x89) {
        path = write_file("input.agxb", data, size);
    } else {
        std::string file;
        if (!pack_binary_trace(data, size, file)) return 0;
        path = write_file("input.agxb", file);
    }
    std::unique_ptr<agx::Workload> w;
    if (!accepted("open_binary_trace", [&] { w = agx::open_binary_trace(path); })) return 0;
    check_accepted_trace(path, *w, true);
    return 0;
}
