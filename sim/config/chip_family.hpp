// Apple GPUs by chip name: the GPU family each belongs to, so that figures
// measured on a chip no config is shipped for (an M1 Pro, an M2 Max) are
// compared with a config of the same family (`agxsim validate`).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace agx {

// "apple7" for "m1-pro", "apple8" for "m2-max", ...: the family of a chip
// named as the probe names it (chip_from_device_name: lower case, words
// joined by '-'), from Apple's Metal feature set tables; empty for a chip the
// table does not know.
std::optional<std::string> chip_family(std::string_view chip);

// "Apple7" (MTLGPUFamilyApple7, as the probe records a device's family) ->
// "apple7"; empty when `metal_family` is not of that form.
std::optional<std::string> family_from_metal_name(std::string_view metal_family);

}  // namespace agx
