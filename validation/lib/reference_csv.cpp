#include "validation/lib/reference_csv.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"
#include "sim/common/json_input.hpp"
#include "validation/lib/method.hpp"

namespace agx::validation {

namespace {

constexpr double kM1MaxGhz = 1.296;  // metal-benchmarks' chip table
constexpr double kA14Ghz = 1.278;
constexpr const char* kSource =
    "metal-benchmarks (Philip Turner), measured with Metal compute kernels";

std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::string cell;
    std::stringstream ss(line);
    while (std::getline(ss, cell, sep)) out.push_back(cell);
    if (!line.empty() && line.back() == sep) out.emplace_back();
    return out;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
    while (!s.empty() && s.front() == ' ') s.erase(s.begin());
    return s;
}

std::string basename_no_ext(const std::string& path) {
    std::string b = path.substr(path.find_last_of('/') + 1);
    return b.substr(0, b.find_last_of('.'));
}

// "1.02" exact; "~17" approximate; "<10", "≤4.42" upper bounds; "" or "TBD" not measured.
void parse_value(const std::string& cell, Measurement& m, const std::string& where) {
    m.raw = cell;
    std::string s = cell;
    for (const char* q : {"~", "<", "≤"}) {
        if (s.rfind(q, 0) == 0) {
            m.qualifier = q;
            s = s.substr(std::string(q).size());
            break;
        }
    }
    if (s.empty() || s == "TBD") {
        m.value.reset();
        return;
    }
    double v = 0;
    try {
        std::size_t used = 0;
        v = std::stod(s, &used);
        if (used != s.size()) throw std::invalid_argument(s);
    } catch (const std::exception&) {
        throw InputError(where, "cannot read the figure '" + cell + "'");
    }
    // As a measurement file's value: a positive figure, or the error statistics mean nothing.
    if (!(std::isfinite(v) && v > 0 && v <= 1e9))
        throw InputError(where,
                         "the figure '" + cell + "' is out of range (above 0 and at most 1e9)");
    m.value = v;
}

// A cell of decimal digits only, as a 32-bit count; nothing otherwise.
std::optional<std::uint32_t> digits(const std::string& cell) {
    if (cell.empty() || cell.size() > 10 ||
        cell.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const std::uint64_t v = std::stoull(cell);
    if (v > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
    return static_cast<std::uint32_t>(v);
}

// An integer cell the row cannot do without.
std::uint32_t integer_cell(const std::string& cell, const std::string& where, const char* column) {
    if (cell.empty()) throw InputError(where + ": " + column, "missing (expected an integer)");
    if (auto v = digits(cell)) return *v;
    throw InputError(where + ": " + column,
                     "expected a non-negative integer below 2^32, got '" + cell + "'");
}

// The register width a row name implies: 32 wins ("IMUL(16x16=32)" writes 32 bits).
std::uint32_t width_of(const std::string& name) {
    if (name.find("32") != std::string::npos) return 32;
    if (name.find("16") != std::string::npos) return 16;
    return 32;
}

// The repetitions at which a sequence's latency was best: the first of a
// range. metal-benchmarks writes "A-B" with the latency's optimum first and
// the throughput's second (its README's note on the quad ballots: "Latency
// was best at 720 repetitions. Throughput was best at 1440 repetitions.
// Many genuine instruction sequences also have optimal throughput at more
// repetitions than latency."). "120-240" -> 120, "≤24-240" -> 24,
// "≤120" -> 120, "TBD" -> 0.
std::uint32_t latency_repetitions_of(std::string cell) {
    if (cell.rfind("≤", 0) == 0) cell = cell.substr(std::string("≤").size());
    const auto dash = cell.find('-');
    if (dash != std::string::npos) cell = cell.substr(0, dash);
    return digits(cell).value_or(0);
}

BenchmarkDefinition definition(const std::string& name, const std::vector<BodyItem>& body,
                               std::uint32_t bits, const KindParameters& p, double overhead) {
    BenchmarkDefinition b;
    b.name = name;
    b.body = body;
    b.ilp = p.ilp;
    b.simds_per_core = p.simds_per_core;
    b.register_bits = bits;
    b.repetitions = p.repetitions;
    b.operand_shape = p.operand_shape;
    b.method = p.method;
    b.resident_threadgroups = p.resident_threadgroups;
    b.waves = p.waves;
    b.overhead_cycles = p.method == BenchmarkDefinition::Method::Steady ? 0.0 : overhead;
    return b;
}

struct Importer {
    std::string path, table;
    MeasurementFile file;
    std::map<std::string, std::string> lines;  // id -> where it was given
    const Method& m = method();

    void add(Measurement rec, const std::string& cell, const std::string& where,
             const std::string& column) {
        // `validate` and `data import` key figures by id; two rows naming
        // the same figure would write a file that neither reads.
        const auto [first, fresh] = lines.emplace(rec.id, where);
        if (!fresh)
            throw InputError(where, "the figure '" + rec.id + "' is already given at " +
                                        first->second + " (a repeated row?)");
        parse_value(trim(cell), rec, where);
        rec.provenance = std::string(kSource) + "; " + table + ".csv, row '" +
                         rec.benchmark.body_label() + "', column " + column;
        // Validate the definition now, so an unknown operation names its line.
        benchmark_from_json(to_json(rec.benchmark), where);
        file.records.push_back(std::move(rec));
    }

    Measurement record(const std::string& id, const std::string& chip, double ghz, FigureKind kind,
                       BenchmarkDefinition def) {
        Measurement r;
        r.id = id;
        r.chip = chip;
        r.clock_ghz = ghz;
        r.kind = kind;
        r.benchmark = std::move(def);
        return r;
    }
};

}  // namespace

bool looks_like_reference_csv(const std::string& path) {
    return path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0;
}

MeasurementFile import_reference_csv(const std::string& path) {
    std::istringstream in(read_input_file(path, "reference CSV", kMaxCsvInputBytes));
    std::string header;
    std::getline(in, header);
    header = trim(header);
    Importer im;
    im.path = path;
    im.table = basename_no_ext(path);
    im.file.description = "Imported from " + im.table + ".csv: " + kSource +
                          " (M1 Max at 1.296 GHz; A14 at 1.278 GHz)";
    const Method& m = im.m;

    std::string line;
    int lineno = 1;
    while (std::getline(in, line)) {
        ++lineno;
        line = trim(line);
        if (line.empty()) continue;
        const std::string where = path + ":" + std::to_string(lineno);
        // Cells are copied into the records, which are written as JSON.
        if (!is_utf8(line)) throw InputError(where, "not UTF-8 text");
        const auto c = split(line, ',');
        auto col = [&](std::size_t i) { return i < c.size() ? trim(c[i]) : std::string(); };
        const std::string base = im.table + "/" + col(0);

        if (header ==
            "instruction,throughput_cycles_m1max,throughput_cycles_a14,latency_raw_min,latency_raw_"
            "max,latency_adjusted") {
            const std::string op = col(0);
            const auto bits = width_of(op);
            const std::vector<BodyItem> body = {{op, 1}};
            im.add(im.record(base + "/throughput/m1-max", "m1-max", kM1MaxGhz,
                             FigureKind::Throughput, definition(op, body, bits, m.throughput, 0)),
                   col(1), where, "throughput_cycles_m1max");
            if (!col(2).empty())
                im.add(im.record(base + "/throughput/a14", "a14", kA14Ghz, FigureKind::Throughput,
                                 definition(op, body, bits, m.throughput, 0)),
                       col(2), where, "throughput_cycles_a14");
            im.add(im.record(base + "/latency/m1-max", "m1-max", kM1MaxGhz, FigureKind::Latency,
                             definition(op, body, bits, m.latency, m.overhead(bits))),
                   col(4), where, "latency_raw_max");
        } else if (header ==
                       "sequence,throughput_cycles,latency_raw_min,latency_raw_max,optimal_"
                       "repetitions" ||
                   header == "sequence,throughput_cycles") {
            const std::string op = col(0);
            const auto bits = width_of(op);
            const std::vector<BodyItem> body = {{op, 1}};
            im.add(im.record(base + "/throughput/m1-max", "m1-max", kM1MaxGhz,
                             FigureKind::Throughput, definition(op, body, bits, m.throughput, 0)),
                   col(1), where, "throughput_cycles");
            if (c.size() >= 5) {
                // The figure is normalised to the method's repetitions (the
                // control group's "virtual repetitions"); the latency's
                // optimal count is the unroll, which sets the code size.
                auto def = definition(op, body, bits, m.latency, m.overhead(bits));
                def.unroll = latency_repetitions_of(col(4));
                im.add(im.record(base + "/latency/m1-max", "m1-max", kM1MaxGhz, FigureKind::Latency,
                                 def),
                       def.unroll ? col(3) : std::string(), where, "latency_raw_max");
            }
        } else if (header == "instructions,ilp,simds_per_core,cycles_32bit,cycles_16bit") {
            KindParameters p = m.ilp_occupancy;
            p.ilp = integer_cell(col(1), where, "ilp");
            p.simds_per_core = integer_cell(col(2), where, "simds_per_core");
            // "FMUL/FADD/IADD": the figure holds for each of them.
            for (const auto& op : split(col(0), '/')) {
                for (std::uint32_t bits : {32u, 16u}) {
                    const std::string id = im.table + "/" + op + "/ilp" + col(1) + "/simds" +
                                           col(2) + "/" + std::to_string(bits) + "bit";
                    im.add(im.record(id, "m1-max", kM1MaxGhz, FigureKind::IlpOccupancy,
                                     definition(op, {{op, 1}}, bits, p, m.overhead(p, bits))),
                           bits == 32 ? col(3) : col(4), where,
                           bits == 32 ? "cycles_32bit" : "cycles_16bit");
                }
            }
        } else if (header == "register_bits,cycles_min_low,cycles_min_high,virtual_repetitions") {
            const auto bits = integer_cell(col(0), where, "register_bits");
            KindParameters p = m.latency;
            p.repetitions = integer_cell(col(3), where, "virtual_repetitions");
            const std::string id = im.table + "/" + col(0) + "bit/reps" + col(3);
            im.add(im.record(id, "m1-max", kM1MaxGhz, FigureKind::Control,
                             definition("control group", {}, bits, p, m.overhead(bits))),
                   col(2), where, "cycles_min_high");
        } else {
            throw InputError(path + ":1", "unknown reference table layout '" + header + "'");
        }
    }
    return im.file;
}

}  // namespace agx::validation
