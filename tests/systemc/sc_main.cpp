// The SystemC test binary: main() starts the kernel, which calls sc_main, which runs the
// Catch session. SystemC elaborates once per process, so CTest runs each test
// case in a process of its own (catch_discover_tests) and no test case may use
// SECTION.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <systemc>

#include <cstdlib>

int sc_main(int argc, char* argv[]) {
    return Catch::Session().run(argc, argv);
}

int main(int argc, char* argv[]) {
    ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);  // keep the kernel's banner out of test output
    return sc_core::sc_elab_and_sim(argc, argv);
}
