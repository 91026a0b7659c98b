// Simulations already run, kept in a directory (`validate --cache DIR`): a
// second validate of the same rows with the same executable and machine
// reads each figure's cycles instead of simulating it again. The test suite
// runs the shipped tables several times over (the accuracy guards, the
// documented summaries, the register-cache trade at the shipped size), and
// shares them this way.
//
// A result's key is a digest of this executable's bytes, the machine config
// (every value, as `config show` gives it) and the benchmark definition and
// length. One directory holds one executable's results: opening it removes
// the results of any other build.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "sim/config/machine_config.hpp"
#include "validation/lib/benchmark.hpp"

namespace agx::validation {

class SimulationCache {
  public:
    // Makes the directory if need be; throws InputError("--cache", ...) when
    // it cannot, or when this executable cannot be read to identify it.
    explicit SimulationCache(const std::filesystem::path& dir);

    // The digest of a machine config (every value), computed once for the
    // keys of all its simulations.
    std::uint64_t config_digest(const MachineConfig& cfg) const;
    // The file name of a simulation's result in the directory.
    std::string key(std::uint64_t config_digest, const BenchmarkDefinition& def,
                    std::uint32_t repetitions) const;
    // A stored result (the simulating child's line), if any.
    std::optional<std::string> find(const std::string& key) const;
    // Stores a result; a failure to write loses only the saving.
    void store(const std::string& key, const std::string& result) const;

  private:
    std::filesystem::path dir_;
    std::string executable_;  // the digest of this executable, 16 hex digits
};

}  // namespace agx::validation
