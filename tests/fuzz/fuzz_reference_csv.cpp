// A reference CSV (validation/data/metal-benchmarks/, read by `validate -m`
// and `data import`): the input is the table, header line first. It imports
// or is refused with InputError; an accepted table writes as a measurement
// file that reads again the same.
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/measurement_checks.hpp"
#include "validation/lib/reference_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    const std::string path = write_file("input.csv", data, size);
    agx::validation::MeasurementFile file;
    if (!accepted("import_reference_csv",
                  [&] { file = agx::validation::import_reference_csv(path); }))
        return 0;
    check_accepted_measurements(file);
    return 0;
}
