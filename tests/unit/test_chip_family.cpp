// The chip-family table that lets `validate` compare figures measured on a
// chip without a config of its own with a config of the same family.
#include <catch2/catch.hpp>

#include "sim/config/chip_family.hpp"
#include "sim/config/config_loader.hpp"

using agx::chip_family;
using agx::family_from_metal_name;

TEST_CASE("chip family: every variant of a chip is its chip's family") {
    CHECK(chip_family("m1") == "apple7");
    CHECK(chip_family("m1-pro") == "apple7");
    CHECK(chip_family("m1-max") == "apple7");
    CHECK(chip_family("m1-ultra") == "apple7");
    CHECK(chip_family("a14") == "apple7");
    CHECK(chip_family("m2-pro") == "apple8");
    CHECK(chip_family("a15") == "apple8");
    CHECK(chip_family("m3-max") == "apple9");
    CHECK(chip_family("a17-pro") == "apple9");
    // A name that only starts like a known chip is not that chip.
    CHECK_FALSE(chip_family("m10"));
    CHECK_FALSE(chip_family("a17"));
    CHECK_FALSE(chip_family(""));
    CHECK_FALSE(chip_family("m1pro"));
}

TEST_CASE("chip family: the table agrees with every shipped config's family") {
    for (const char* name : {"m1", "m1-max", "m2", "a14"})
        CHECK(chip_family(name) == agx::load_config(name, {}).family);
}

TEST_CASE("chip family: Metal's family names as the probe records them") {
    CHECK(family_from_metal_name("Apple7") == "apple7");
    CHECK(family_from_metal_name("Apple10") == "apple10");
    CHECK_FALSE(family_from_metal_name("Apple"));
    CHECK_FALSE(family_from_metal_name("Mac2"));
    CHECK_FALSE(family_from_metal_name("Apple7x"));
}
