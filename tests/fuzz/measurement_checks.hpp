// What the measurement and reference CSV targets check once a file is
// read: `validate` finds what each record's benchmark needs, and the file
// written back as JSON (what `agxsim data import` writes) reads again into
// the same records.
#pragma once

#include <sstream>
#include <string>

#include "tests/fuzz/fuzz_support.hpp"
#include "validation/lib/measurement.hpp"

namespace agx_fuzz {

inline void check_accepted_measurements(const agx::validation::MeasurementFile& file) {
    for (const auto& m : file.records)
        accepted("unsupported_reason",
                 [&] { (void)agx::validation::unsupported_reason(m.benchmark); });
    std::ostringstream out;
    must_work("writing the measurements back",
              [&] { agx::validation::write_measurements(file, out); });
    const std::string path = write_file("written.json", out.str());
    agx::validation::MeasurementFile again;
    must_work("reading the written measurements",
              [&] { again = agx::validation::read_measurements(path); });
    if (agx::validation::to_json(again) != agx::validation::to_json(file))
        finding("the written measurements read back different");
}

}  // namespace agx_fuzz
