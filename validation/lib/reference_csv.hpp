// The reference tables of validation/data/metal-benchmarks/ read as they
// are: each CSV layout is recognised by its header, and every cell becomes a
// measurement record whose benchmark definition follows the measurement
// method (method.hpp). Both the M1 Max and the A14 columns are kept; the
// validator picks the chip of its config.
#pragma once

#include <string>

#include "validation/lib/measurement.hpp"

namespace agx::validation {

bool looks_like_reference_csv(const std::string& path);
// Throws InputError naming the file and line for an unknown layout or cell.
MeasurementFile import_reference_csv(const std::string& path);

}  // namespace agx::validation
