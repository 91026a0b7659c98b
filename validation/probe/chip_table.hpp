// Apple GPUs by name: the config name a chip's measurements are filed under
// (configs/<chip>.json) and the GPU clock its cycles are computed with.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace agx::probe {

// "Apple M1 Max" -> "m1-max", "Apple A14 GPU" -> "a14": lower case, without
// "Apple" and "GPU", words joined by '-'.
std::string chip_from_device_name(std::string_view device_name);

// The GPU clock of a chip in GHz (metal-benchmarks' chip table: M1 1.278,
// M1 Pro/Max/Ultra 1.296, M2 family 1.398, A14 1.278, A15 1.338); empty for
// a chip the table does not know (the probe then needs --clock-ghz).
std::optional<double> clock_ghz_of_chip(std::string_view chip);

}  // namespace agx::probe
