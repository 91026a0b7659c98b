// A profile (docs/statistics.md, "Profiles"; what `agxsim run --profile`
// writes): the input is the JSON file, read and listed as `agxsim profile
// show` does (--top 40). It lists or is refused with InputError; an
// accepted profile also lists with --top 0 and with every instruction, and
// each listing is one line per row, with no control character (a terminal
// escape from the input) but the newlines.
#include "sim/common/json_input.hpp"
#include "sim/stats/instruction_profile.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

constexpr std::size_t kTop = 40;  // profile show's default --top

// The heading, the line on waits, a blank line, the table's head, a row per
// instruction listed and a line on the rest.
void check_listing(const std::string& listing, std::size_t rows, std::size_t top) {
    const std::size_t listed = std::min(rows, top);
    const std::size_t lines = 4 + listed + (rows > top ? 1 : 0);
    std::size_t newlines = 0;
    for (const char ch : listing) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n')
            ++newlines;
        else if (c < 0x20 || c == 0x7f)
            agx_fuzz::finding("profile show --top " + std::to_string(top) +
                              " prints the control character " + std::to_string(c));
    }
    if (newlines != lines)
        agx_fuzz::finding("profile show --top " + std::to_string(top) + " prints " +
                          std::to_string(newlines) + " lines for " + std::to_string(rows) +
                          " instructions, not " + std::to_string(lines));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    const std::string path = write_file("profile.json", data, size);
    nlohmann::json profile;
    std::string listing;
    // What `agxsim profile show` does (sim/cli/profile_command.cpp).
    if (!accepted("profile show", [&] {
            profile = agx::read_json_file(path, "profile", nullptr, "not JSON");
            listing = agx::format_profile(profile, path, kTop);
        }))
        return 0;
    const std::size_t rows = profile.at("instructions").size();
    check_listing(listing, rows, kTop);
    for (const std::size_t top : {std::size_t{0}, rows}) {
        must_work("profile show with another --top",
                  [&] { listing = agx::format_profile(profile, path, top); });
        check_listing(listing, rows, top);
    }
    return 0;
}
