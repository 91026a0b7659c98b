#include "validation/probe/chip_table.hpp"

#include <cctype>
#include <sstream>
#include <vector>

namespace agx::probe {

std::string chip_from_device_name(std::string_view device_name) {
    std::istringstream words{std::string(device_name)};
    std::string word, chip;
    while (words >> word) {
        for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (word == "apple" || word == "gpu") continue;
        chip += (chip.empty() ? "" : "-") + word;
    }
    return chip;
}

std::optional<double> clock_ghz_of_chip(std::string_view chip) {
    struct Entry {
        std::string_view chip;
        double ghz;
    };
    // Measured with the GPU at its top clock: the figure's cycles assume it.
    static const Entry table[] = {
        {"m1", 1.278},  {"m1-pro", 1.296}, {"m1-max", 1.296}, {"m1-ultra", 1.296},
        {"m2", 1.398},  {"m2-pro", 1.398}, {"m2-max", 1.398}, {"m2-ultra", 1.398},
        {"a14", 1.278}, {"a15", 1.338},
    };
    for (const auto& e : table)
        if (e.chip == chip) return e.ghz;
    return std::nullopt;
}

}  // namespace agx::probe
