// A measurement file (docs/validation.md, "Data and method"; what the Metal probe writes and
// `agxsim validate -m` reads): the input is the JSON document. It reads or
// is refused with InputError; an accepted file writes back and reads again
// the same.
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/measurement_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    const std::string path = write_file("input.json", data, size);
    agx::validation::MeasurementFile file;
    if (!accepted("read_measurements", [&] { file = agx::validation::read_measurements(path); }))
        return 0;
    check_accepted_measurements(file);
    return 0;
}
