// Catch2's main and its implementation, compiled once for every test
// executable that has no main of its own (tests/CMakeLists.txt,
// agx_catch_main): Catch2 2.x is a single header whose implementation takes
// about 25 s to compile.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
