// The text trace format (traces/FORMAT.md): the input is a trace file. It
// opens or is refused with InputError; an accepted trace's streams read,
// and it converts to both formats and back to the same instructions.
#include "sim/trace/text_trace.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/trace_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    const std::string path = write_file("input.trace", data, size);
    std::unique_ptr<agx::Workload> w;
    if (!accepted("open_text_trace", [&] { w = agx::open_text_trace(path); })) return 0;
    // A trace starting with 0x89 is not text to open_trace(); the binary
    // target covers those.
    if (size > 0 && data[0] == 0x89) return 0;
    check_accepted_trace(path, *w, false);
    return 0;
}
