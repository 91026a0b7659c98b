#include "sim/config/chip_family.hpp"

#include <cctype>

namespace agx {

std::optional<std::string> chip_family(std::string_view chip) {
    // Apple's Metal feature set tables
    // (https://developer.apple.com/metal/Metal-Feature-Set-Tables.pdf), GPU
    // families by chip: Apple 7 is A14 and the M1 family, Apple 8 is A15, A16
    // and the M2 family, Apple 9 is A17 Pro, A18 and the M3 and M4 families.
    // A chip's variants (pro, max, ultra) share its GPU core.
    struct Entry {
        std::string_view prefix;  // the chip, or the chip followed by '-' and a variant
        std::string_view family;
    };
    static const Entry table[] = {
        {"a14", "apple7"}, {"m1", "apple7"}, {"a15", "apple8"},
        {"a16", "apple8"}, {"m2", "apple8"}, {"a17-pro", "apple9"},
        {"a18", "apple9"}, {"m3", "apple9"}, {"m4", "apple9"},
    };
    for (const auto& e : table) {
        if (chip == e.prefix) return std::string(e.family);
        if (chip.size() > e.prefix.size() && chip.substr(0, e.prefix.size()) == e.prefix &&
            chip[e.prefix.size()] == '-')
            return std::string(e.family);
    }
    return std::nullopt;
}

std::optional<std::string> family_from_metal_name(std::string_view metal_family) {
    constexpr std::string_view kApple = "Apple";
    if (metal_family.size() <= kApple.size() || metal_family.substr(0, kApple.size()) != kApple)
        return std::nullopt;
    const std::string_view number = metal_family.substr(kApple.size());
    for (char c : number)
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    return "apple" + std::string(number);
}

}  // namespace agx
