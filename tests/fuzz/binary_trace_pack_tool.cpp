// binary_trace_pack unpack IN.agxb OUT: writes the binary trace target's
// unpacked form of IN (binary_trace_pack.hpp), for its seed corpus.
// binary_trace_pack pack IN OUT.agxb: the file an unpacked input stands for,
// to reproduce a finding with agxsim.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "tests/fuzz/binary_trace_pack.hpp"

int main(int argc, char** argv) {
    const std::string mode = argc == 4 ? argv[1] : "";
    if (mode != "pack" && mode != "unpack") {
        std::cerr << "usage: binary_trace_pack unpack IN.agxb OUT | pack IN OUT.agxb\n";
        return 2;
    }
    std::ifstream in(argv[2], std::ios::binary);
    const std::string input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string output;
    const bool ok = mode == "unpack" ? agx_fuzz::unpack_binary_trace(input, output)
                                     : agx_fuzz::pack_binary_trace(
                                           reinterpret_cast<const std::uint8_t*>(input.data()),
                                           input.size(), output);
    if (!in || !ok) {
        std::cerr << argv[2] << ": cannot " << mode << " it\n";
        return 2;
    }
    std::ofstream(argv[3], std::ios::binary) << output;
    return 0;
}
