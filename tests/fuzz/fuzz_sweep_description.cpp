// A sweep description (docs/sweeps.md; what `agxsim sweep check|run|slurm`
// read): the input is the JSON document, read as docs/sweeps/input.json in a
// directory beside links to the repository's traces/ and validation/, so
// that its workloads ("../../traces/kernels/saxpy.agxk", a suite's
// "../../validation/data/ilp_occupancy.json") exist as in the shipped
// example. It reads or is refused with InputError; an accepted description
// spans 1 to 10^7 points, each of which (the first 256, the middle and the
// last) is numbered back to itself and makes its --set list and results
// row, and, recorded as an output directory's sweep.json, reads back the
// same and claims that directory again.
#include "sim/sweep/process_pool.hpp"
#include "sim/sweep/sweep_dir.hpp"
#include "sim/sweep/sweep_spec.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

namespace sw = agx::sweep;
using agx_fuzz::finding;

constexpr std::size_t kMaxPoints = 10'000'000;  // sweep_spec.cpp's limit
constexpr std::size_t kPointsWalked = 256;

void check_shape(const sw::SweepSpec& s) {
    if (s.workloads.empty() || s.configs.empty()) finding("no workload or no config");
    if (s.dimension_size.size() != s.dimensions || s.baseline.size() != s.dimensions)
        finding("dimension_size or baseline is not one per dimension");
    for (std::size_t d = 0; d < s.dimensions; ++d)
        if (s.dimension_size[d] == 0 || s.baseline[d] >= s.dimension_size[d])
            finding("dimension " + std::to_string(d) + " is empty or its baseline past its end");
    for (const sw::Axis& a : s.axes)
        if (a.dimension >= s.dimensions || a.values.size() != s.dimension_size[a.dimension])
            finding("axis '" + a.key + "' does not fit its dimension");
    if (s.metrics.empty()) finding("no metric");
}

void check_point(const sw::SweepSpec& s, std::size_t index,
                 const std::vector<std::string>& header) {
    const sw::Point p = sw::point_at(s, index);
    const std::string at = "point " + std::to_string(index) + ": ";
    if (p.index != index || p.workload >= s.workloads.size() || p.config >= s.configs.size() ||
        p.value_index.size() != s.dimensions)
        finding(at + "numbered out of the description's range");
    // Numbered back: workload, then config, then the dimensions, the first outermost.
    std::size_t back = p.workload * s.configs.size() + p.config;
    for (std::size_t d = 0; d < s.dimensions; ++d) {
        if (p.value_index[d] >= s.dimension_size[d]) finding(at + "a value index past its axis");
        back = back * s.dimension_size[d] + p.value_index[d];
    }
    if (back != index) finding(at + "numbers back to " + std::to_string(back));
    std::size_t swept = 0;
    for (const sw::Axis& a : s.axes) swept += a.key != "cores";
    const std::vector<std::string> sets = sw::point_sets(s, p);
    if (sets.size() != s.sets.size() + s.workloads[p.workload].sets.size() + swept)
        finding(at + "its --set list is not the sweep's, the workload's and the axes'");
    if (sw::point_cores(s, p).empty()) finding(at + "no cores");
    (void)sw::at_baseline(s, p);
    sw::PointOutcome failed;
    failed.index = index;
    failed.error = "exit 2: x";
    if (sw::results_row(s, p, failed).size() != header.size())
        finding(at + "its results row and the header differ in length");
}

void check_same(const sw::SweepSpec& a, const sw::SweepSpec& b) {
    auto differ = [](const char* what) {
        finding(std::string("sweep.json reads back another ") + what);
    };
    if (a.document != b.document) differ("document");
    if (a.name != b.name || a.description != b.description) differ("name or description");
    if (a.workloads.size() != b.workloads.size()) differ("workload count");
    for (std::size_t i = 0; i < a.workloads.size(); ++i) {
        const sw::WorkloadSpec &x = a.workloads[i], &y = b.workloads[i];
        if (x.kind != y.kind || x.name != y.name || x.path != y.path || x.suite_id != y.suite_id ||
            x.sets != y.sets)
            differ("workload");
    }
    if (a.configs != b.configs || a.cores != b.cores || a.sets != b.sets) differ("configs or sets");
    if (a.axes.size() != b.axes.size()) differ("axis count");
    for (std::size_t i = 0; i < a.axes.size(); ++i)
        if (a.axes[i].key != b.axes[i].key || a.axes[i].values != b.axes[i].values ||
            a.axes[i].dimension != b.axes[i].dimension)
            differ("axis");
    if (a.dimensions != b.dimensions || a.dimension_size != b.dimension_size ||
        a.baseline != b.baseline)
        differ("dimensions or baseline");
    if (a.metrics != b.metrics) differ("metric list");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace agx_fuzz;
    static const bool linked = [] {
        fs::create_directories(scratch() / "docs" / "sweeps");
        for (const char* dir : {"traces", "validation"})
            fs::create_directory_symlink(fs::path(AGX_SOURCE_DIR) / dir, scratch() / dir);
        return true;
    }();
    (void)linked;
    const std::string path = write_file("docs/sweeps/input.json", data, size);
    sw::SweepSpec spec;
    if (!accepted("read_sweep", [&] { spec = sw::read_sweep(path); })) return 0;

    check_shape(spec);
    const std::size_t n = sw::point_count(spec);
    if (n == 0 || n > kMaxPoints) finding("spans " + std::to_string(n) + " points");
    must_work("the points", [&] {
        const std::vector<std::string> header = sw::results_header(spec);
        for (std::size_t i = 0; i < n && i < kPointsWalked; ++i) check_point(spec, i, header);
        check_point(spec, n / 2, header);
        check_point(spec, n - 1, header);
    });

    const std::string out = (scratch() / "out").string();
    std::error_code ec;
    fs::remove_all(out, ec);
    sw::SweepSpec again;
    must_work("claim_directory", [&] { sw::claim_directory(out, spec); });
    must_work("read_directory", [&] { again = sw::read_directory(out); });
    check_same(spec, again);
    if (again.base_dir != spec.base_dir) finding("sweep.json reads back another base_dir");
    must_work("claiming the directory again", [&] { sw::claim_directory(out, spec); });
    return 0;
}
