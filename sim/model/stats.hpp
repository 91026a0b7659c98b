// Statistics that describe themselves. A block declares each of its
// statistics once, where it reports it: the key, its unit, a one-line
// description and the value. The stats JSON (`agxsim run --stats`) takes the
// values; the declarations give docs/statistics.md's tables
// (tests/systemc/test_stats_doc.cpp checks them), so the file and its
// documentation cannot disagree. In the spirit of gem5's ADD_STAT and
// DRAMSys's addStat.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace agx {

enum class StatUnit : std::uint8_t {
    Count,            // events or items
    Cycles,           // core-clock cycles
    SchedulerCycles,  // cycles summed over schedulers
    Bytes,
    BytesPerCycle,  // per core-clock cycle
    GigabytesPerSecond,
    Ratio,  // 0 to 1
    Percent,
    InstructionsPerCycle,
    Seconds,           // host time
    PerSecond,         // host rate
    SimulatedSeconds,  // the simulated GPU's time
    Gigahertz,
    GigaflopsPerSecond,
    Text,
    Group,  // an object of further statistics
};
const char* stat_unit_name(StatUnit unit);

// One declared statistic. `path` is the block's place in the JSON with
// instance numbers as N (`gpu.core_N.scheduler_N.register_cache`).
struct StatDeclaration {
    std::string path;
    std::string name;
    StatUnit unit;
    std::string description;
};

// Where a block writes its statistics: the values into a JSON object and,
// when asked for, the declarations into a list.
class StatsWriter {
  public:
    StatsWriter(nlohmann::json& values, std::string path,
                std::vector<StatDeclaration>* declarations)
        : values_(values), path_(std::move(path)), declarations_(declarations) {}

    template <class T>
    void add(const char* name, StatUnit unit, const char* description, const T& value) {
        values_[name] = value;
        declare(name, unit, description);
    }
    // A group of statistics under `name` (an object in the JSON).
    StatsWriter group(const char* name, const char* description);

  private:
    void declare(const char* name, StatUnit unit, const char* description);

    nlohmann::json& values_;
    std::string path_;
    std::vector<StatDeclaration>* declarations_;
};

// The arithmetic of derived statistics, once: `part / whole`, 0 when there is
// no whole (a hit rate without accesses, a mean without samples).
inline double ratio(double part, double whole) {
    return whole > 0 ? part / whole : 0.0;
}

// A block's path with instance numbers as N: "gpu.core_3" -> "gpu.core_N".
std::string generic_stat_path(const std::string& path);

// The declarations as Markdown, a table per path, in the order declared
// (each (path, name) once).
std::string stats_markdown(const std::vector<StatDeclaration>& declarations);

}  // namespace agx
