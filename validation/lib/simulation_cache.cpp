#include "validation/lib/simulation_cache.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <system_error>

#include "sim/common/errors.hpp"
#include "sim/config/config_loader.hpp"

namespace agx::validation {

namespace fs = std::filesystem;

namespace {

// FNV-1a, 64 bits: a digest for telling builds and simulations apart, not
// for security.
std::uint64_t fnv1a(const char* data, std::size_t n, std::uint64_t h = 0xcbf29ce484222325ull) {
    for (std::size_t i = 0; i < n; ++i) {
        h ^= static_cast<unsigned char>(data[i]);
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string hex16(std::uint64_t v) {
    char b[17];
    std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
    return b;
}

// Whether a file is a result or a result's temporary: the executable's
// digest, a dash, the simulation's, perhaps ".partial-<pid>".
bool is_result_name(const std::string& name) {
    if (name.size() < 33 || name[16] != '-') return false;
    for (std::size_t i = 0; i < 33; ++i)
        if (i != 16 && !std::isxdigit(static_cast<unsigned char>(name[i]))) return false;
    return name.size() == 33 || name.compare(33, 9, ".partial-") == 0;
}

}  // namespace

SimulationCache::SimulationCache(const fs::path& dir) : dir_(dir) {
    std::ifstream exe("/proc/self/exe", std::ios::binary);
    if (!exe) throw InputError("--cache", "cannot read this executable to tell its results apart");
    std::uint64_t h = 0xcbf29ce484222325ull;
    char buf[1 << 16];
    while (exe.read(buf, sizeof buf) || exe.gcount() > 0)
        h = fnv1a(buf, static_cast<std::size_t>(exe.gcount()), h);
    executable_ = hex16(h);

    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_))
        throw InputError(dir_.string(), "--cache: not a directory that can be made (" +
                                            (ec ? ec.message() : "a file is in the way") + ")");
    // Another build's results can never be read again.
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
        const std::string name = e.path().filename().string();
        if (is_result_name(name) && name.compare(0, 16, executable_) != 0) fs::remove(e.path(), ec);
    }
}

std::uint64_t SimulationCache::config_digest(const MachineConfig& cfg) const {
    const std::string text = config_to_json(cfg, false).dump();
    return fnv1a(text.data(), text.size());
}

std::string SimulationCache::key(std::uint64_t config_digest, const BenchmarkDefinition& def,
                                 std::uint32_t repetitions) const {
    nlohmann::json benchmark = to_json(def);
    benchmark.erase("name");  // a label: the same benchmark under two names simulates alike
    // FNV-1a goes on from the config's digest: the key of config, benchmark
    // and length together.
    const std::string text = "\n" + benchmark.dump() + "\n" + std::to_string(repetitions);
    return executable_ + "-" + hex16(fnv1a(text.data(), text.size(), config_digest));
}

std::optional<std::string> SimulationCache::find(const std::string& key) const {
    std::ifstream in(dir_ / key, std::ios::binary);
    if (!in) return std::nullopt;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.empty() || text.back() != '\n') return std::nullopt;  // not whole: simulate again
    text.pop_back();
    return text;
}

void SimulationCache::store(const std::string& key, const std::string& result) const {
    const fs::path temporary = dir_ / (key + ".partial-" + std::to_string(::getpid()));
    {
        std::ofstream out(temporary, std::ios::binary);
        out << result << '\n';
        if (!out.flush()) {
            std::error_code ec;
            fs::remove(temporary, ec);
            return;
        }
    }
    std::error_code ec;
    fs::rename(temporary, dir_ / key, ec);  // whole or absent, for a reader beside this one
    if (ec) fs::remove(temporary, ec);
}

}  // namespace agx::validation
