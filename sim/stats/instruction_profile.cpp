#include "sim/stats/instruction_profile.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>
#include <vector>

#include "isa/catalogue.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"

namespace agx {

namespace {

constexpr const char* kFormat = "agxsim-profile 2";
// Version 1 had no scheduler-cycle stalls; `profile show` still reads it.
constexpr const char* kFormatWithoutStalls = "agxsim-profile 1";

// The lines of a text file, or nothing for a binary one (a binary trace).
std::vector<std::string> text_lines(const std::string& path) {
    if (!is_regular_input(path)) return {};
    std::ifstream in(path, std::ios::binary);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (line.find('\0') != std::string::npos) return {};
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(" \t");
    return s.substr(a, b - a + 1);
}

// Counts in a profile are unsigned integers, at most 2^53 (exact in a
// double), so that sums and shares stay numbers.
constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 53;

void check_count(const nlohmann::json& x, const char* key, const std::string& where) {
    if (!x.is_object() || !x.contains(key)) throw InputError(where + "." + key, "missing");
    const nlohmann::json& v = x.at(key);
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > kMaxCount)
        throw InputError(where + "." + key,
                         "expected a count (an integer from 0 to 2^53), got " + v.dump());
}

// Every field format_profile reads, checked before it reads any.
void check_entry(const nlohmann::json& x, const std::string& where) {
    if (!x.is_object()) throw InputError(where, "expected an object");
    for (const char* key : {"pc", "line", "issues", "lanes"}) check_count(x, key, where);
    if (x.at("pc").get<std::uint64_t>() > UINT32_MAX ||
        x.at("line").get<std::uint64_t>() > UINT32_MAX)
        throw InputError(where, "pc or line beyond 32 bits");
    if (!x.contains("waits") || !x.at("waits").is_object())
        throw InputError(where + ".waits", "missing or not an object");
    for (const auto& kv : x.at("waits").items())
        check_count(x.at("waits"), kv.key().c_str(), where + ".waits");
    if (x.contains("stalls")) {
        if (!x.at("stalls").is_object()) throw InputError(where + ".stalls", "not an object");
        for (const auto& kv : x.at("stalls").items())
            check_count(x.at("stalls"), kv.key().c_str(), where + ".stalls");
    }
    if (!x.contains("register_cache")) throw InputError(where + ".register_cache", "missing");
    for (const char* key : {"hits", "misses"})
        check_count(x.at("register_cache"), key, where + ".register_cache");
    if (x.contains("memory")) {
        const nlohmann::json& m = x.at("memory");
        if (!m.is_object()) throw InputError(where + ".memory", "expected an object");
        if (m.contains("lines"))
            for (const char* key : {"lines", "l1_hits", "l1_misses"})
                check_count(m, key, where + ".memory");
        else if (m.contains("bank_passes"))
            check_count(m, "bank_passes", where + ".memory");
    }
    const char* name = x.contains("text") ? "text" : "mnemonic";
    if (!x.contains(name) || !x.at(name).is_string())
        throw InputError(where + "." + name, "missing or not a string");
}

// An instruction's text as one row of the table: its control characters
// (a newline, a terminal escape from the input) shown as escapes, and a text
// longer than a row elided in its middle.
std::string row_text(const std::string& text) {
    constexpr std::size_t kWidth = 120;
    std::string s = bounded_message(text);
    if (s.size() > kWidth) s = s.substr(0, 80) + "..." + s.substr(s.size() - (kWidth - 83));
    return s;
}

std::string percent(double part, double whole) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f%%", whole > 0 ? 100 * part / whole : 0.0);
    return buf;
}

}  // namespace

const char* wait_bucket_name(std::size_t bucket) {
    return bucket == kNotSelected ? kNotSelectedInfo.name
                                  : stall_cause_name(static_cast<StallCause>(bucket));
}

InstructionProfile::Entry& InstructionProfile::entry(const InstructionKey& at) {
    const std::uint64_t key = std::uint64_t{at.pc} << 32 | at.source_line;
    auto [it, fresh] = entries_.try_emplace(key);
    if (fresh) {
        it->second.pc = at.pc;
        it->second.source_line = at.source_line;
        it->second.opcode = at.opcode;
    }
    return it->second;
}

void InstructionProfile::issued(const IssueRecord& r) {
    Entry& e = entry(InstructionKey::of(*r.instruction));
    ++e.issues;
    e.lanes += static_cast<std::uint64_t>(__builtin_popcount(r.instruction->active_mask));
    e.register_cache_hits += r.register_cache_hits;
    e.register_cache_misses += r.register_cache_misses;
    e.lines += r.lines;
    e.l1_hits += r.l1_hits;
    e.l1_misses += r.l1_misses;
    e.bank_passes += r.bank_passes;
}

void InstructionProfile::waited(unsigned, const InstructionKey& at, std::size_t bucket, Cycle,
                                Cycle cycles) {
    entry(at).waits[bucket] += cycles;
}

void InstructionProfile::stalled(unsigned, unsigned, const InstructionKey* at, StallCause cause,
                                 Cycle, Cycle cycles) {
    const auto c = static_cast<std::size_t>(cause);
    if (at)
        entry(*at).stalls[c] += cycles;
    else
        unattributed_[c] += cycles;
}

nlohmann::json InstructionProfile::to_json(const std::string& source, const std::string& machine,
                                           std::uint64_t cycles,
                                           const std::vector<std::string>* given) const {
    std::vector<const Entry*> sorted;
    for (const auto& kv : entries_) sorted.push_back(&kv.second);
    std::sort(sorted.begin(), sorted.end(), [](const Entry* a, const Entry* b) {
        return a->pc != b->pc ? a->pc < b->pc : a->source_line < b->source_line;
    });
    const std::vector<std::string> lines = given ? *given : text_lines(source);
    const auto& cat = isa::Catalogue::instance();

    nlohmann::json j;
    j["format"] = kFormat;
    j["workload"] = source;
    j["machine"] = machine;
    j["cycles"] = cycles;
    j["stall_unit"] = "scheduler-cycles";
    j["wait_unit"] = "simd-cycles";
    nlohmann::json unattributed = nlohmann::json::object();
    for (std::size_t c = 0; c < kStallCauseCount; ++c)
        if (unattributed_[c])
            unattributed[stall_cause_name(static_cast<StallCause>(c))] = unattributed_[c];
    j["stalls_without_instruction"] = unattributed;
    nlohmann::json list = nlohmann::json::array();
    for (const Entry* e : sorted) {
        nlohmann::json x;
        x["pc"] = e->pc;
        x["line"] = e->source_line;
        x["mnemonic"] = std::string(cat.info(e->opcode).mnemonic);
        if (e->source_line >= 1 && e->source_line <= lines.size())
            x["text"] = trimmed(lines[e->source_line - 1]);
        x["issues"] = e->issues;
        x["lanes"] = e->lanes;
        nlohmann::json stalls = nlohmann::json::object();
        for (std::size_t c = 0; c < kStallCauseCount; ++c)
            if (e->stalls[c]) stalls[stall_cause_name(static_cast<StallCause>(c))] = e->stalls[c];
        x["stalls"] = stalls;
        nlohmann::json waits = nlohmann::json::object();
        for (std::size_t b = 0; b < kWaitBuckets; ++b)
            if (e->waits[b]) waits[wait_bucket_name(b)] = e->waits[b];
        x["waits"] = waits;
        x["register_cache"] = {{"hits", e->register_cache_hits},
                               {"misses", e->register_cache_misses}};
        const auto space = cat.info(e->opcode).memory;
        if (space == isa::MemorySpace::Device)
            x["memory"] = {
                {"lines", e->lines}, {"l1_hits", e->l1_hits}, {"l1_misses", e->l1_misses}};
        else if (space == isa::MemorySpace::Threadgroup)
            x["memory"] = {{"bank_passes", e->bank_passes}};
        list.push_back(std::move(x));
    }
    j["instructions"] = std::move(list);
    return j;
}

std::string format_profile(const nlohmann::json& p, const std::string& path, std::size_t top) {
    if (!p.is_object() || !p.contains("format") ||
        (p.at("format") != kFormat && p.at("format") != kFormatWithoutStalls) ||
        !p.contains("instructions") || !p.at("instructions").is_array())
        throw InputError(path,
                         std::string("not an agxsim profile (no \"format\": \"") + kFormat + "\")");
    struct Row {
        const nlohmann::json* x;
        std::uint64_t waited, stalled;
    };
    std::vector<Row> rows;
    std::uint64_t all_waits = 0, all_issues = 0, all_stalls = 0, unattributed = 0;
    if (p.contains("stalls_without_instruction")) {
        const nlohmann::json& u = p.at("stalls_without_instruction");
        if (!u.is_object())
            throw InputError(path + ": stalls_without_instruction", "not an object");
        for (const auto& kv : u.items()) {
            check_count(u, kv.key().c_str(), path + ": stalls_without_instruction");
            if (__builtin_add_overflow(unattributed, kv.value().get<std::uint64_t>(),
                                       &unattributed))
                throw InputError(path + ": stalls_without_instruction",
                                 "the counts add up past 2^64");
        }
    }
    all_stalls = unattributed;
    std::size_t index = 0;
    for (const auto& x : p.at("instructions")) {
        check_entry(x, path + ": instructions[" + std::to_string(index++) + "]");
        // Each count is at most 2^53 (check_entry), but their sums may not fit.
        bool over = false;
        std::uint64_t w = 0, st = 0;
        for (const auto& kv : x.at("waits").items())
            over |= __builtin_add_overflow(w, kv.value().get<std::uint64_t>(), &w);
        if (x.contains("stalls"))
            for (const auto& kv : x.at("stalls").items())
                over |= __builtin_add_overflow(st, kv.value().get<std::uint64_t>(), &st);
        rows.push_back({&x, w, st});
        over |= __builtin_add_overflow(all_waits, w, &all_waits);
        over |= __builtin_add_overflow(all_stalls, st, &all_stalls);
        over |=
            __builtin_add_overflow(all_issues, x.at("issues").get<std::uint64_t>(), &all_issues);
        if (over)
            throw InputError(path + ": instructions[" + std::to_string(index - 1) + "]",
                             "the counts add up past 2^64");
    }
    for (const char* key : {"workload", "machine"})
        if (p.contains(key) && !p.at(key).is_string())
            throw InputError(path + ": " + key, "expected a string");
    if (p.contains("cycles") && !p.at("cycles").is_number_unsigned())
        throw InputError(path + ": cycles", "expected a count, got " + p.at("cycles").dump());
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.stalled != b.stalled ? a.stalled > b.stalled : a.waited > b.waited;
    });

    // Names from the file, like each row's text, with their control
    // characters escaped: the heading stays one line, without a terminal escape.
    std::ostringstream o;
    o << "profile of " << bounded_message(p.value("workload", "?")) << " on "
      << bounded_message(p.value("machine", "?")) << ": " << p.value("cycles", std::uint64_t{0})
      << " cycles, " << all_issues << " SIMD-instructions issued, " << all_stalls
      << " scheduler-cycles stalled (" << unattributed << " with no simd), " << all_waits
      << " simd-cycles waited\n";
    o << "(stalled: the run summary's scheduler-cycles, each charged once to the instruction that "
         "held its scheduler up; waited: every resident simd, every cycle it did not issue, "
         "charged "
         "to its next instruction; both charge a barrier's wait to the barrier)\n\n";
    char head[240];
    std::snprintf(head, sizeof head, "%8s %6s %9s %6s %12s %6s  %-40s %12s  %-40s %7s %-24s %s\n",
                  "pc", "line", "issues", "lanes", "stalled", "share", "top stalls", "waited",
                  "top waits", "rc miss", "memory", "instruction");
    o << head;
    for (std::size_t i = 0; i < rows.size() && i < top; ++i) {
        const nlohmann::json& x = *rows[i].x;
        const auto issues = x.at("issues").get<std::uint64_t>();
        const auto lanes = x.at("lanes").get<std::uint64_t>();
        // The two largest causes of a count object, as shares of `whole`;
        // a cause named in the file longer than a cause can be is cut.
        auto top_two = [](const nlohmann::json& counts, std::uint64_t whole) {
            std::vector<std::pair<std::uint64_t, std::string>> v;
            for (const auto& kv : counts.items())
                v.emplace_back(kv.value().get<std::uint64_t>(),
                               bounded_message(kv.key()).substr(0, 20));
            std::sort(v.begin(), v.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
            std::string out;
            for (std::size_t k = 0; k < v.size() && k < 2; ++k)
                out += (k ? ", " : "") + v[k].second + " " +
                       percent(static_cast<double>(v[k].first), static_cast<double>(whole));
            return out;
        };
        const std::string top_waits = top_two(x.at("waits"), rows[i].waited);
        const std::string top_stalls =
            x.contains("stalls") ? top_two(x.at("stalls"), rows[i].stalled) : std::string("-");
        const auto hits = x.at("register_cache").at("hits").get<std::uint64_t>();
        const auto misses = x.at("register_cache").at("misses").get<std::uint64_t>();
        std::string memory;
        if (x.contains("memory")) {
            const auto& m = x["memory"];
            if (m.contains("lines")) {
                const auto l = m["lines"].get<std::uint64_t>();
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.1f lines/req L1 %s",
                              issues ? static_cast<double>(l) / static_cast<double>(issues) : 0.0,
                              percent(static_cast<double>(m["l1_hits"].get<std::uint64_t>()),
                                      static_cast<double>(m["l1_hits"].get<std::uint64_t>() +
                                                          m["l1_misses"].get<std::uint64_t>()))
                                  .c_str());
                memory = buf;
            } else if (m.contains("bank_passes")) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.1f bank passes/req",
                              issues ? static_cast<double>(m["bank_passes"].get<std::uint64_t>()) /
                                           static_cast<double>(issues)
                                     : 0.0);
                memory = buf;
            }
        }
        const std::string text = row_text(x.contains("text") ? x["text"].get<std::string>()
                                                             : x.at("mnemonic").get<std::string>());
        char pc[16];
        std::snprintf(pc, sizeof pc, "0x%x", x.at("pc").get<unsigned>());
        char line[500];  // the columns before the instruction, all of bounded width
        std::snprintf(
            line, sizeof line, "%8s %6u %9llu %6s %12llu %6s  %-40s %12llu  %-40s %7s %-24s ", pc,
            x.at("line").get<unsigned>(), static_cast<unsigned long long>(issues),
            percent(static_cast<double>(lanes), 32.0 * static_cast<double>(issues)).c_str(),
            static_cast<unsigned long long>(rows[i].stalled),
            percent(static_cast<double>(rows[i].stalled), static_cast<double>(all_stalls)).c_str(),
            top_stalls.c_str(), static_cast<unsigned long long>(rows[i].waited), top_waits.c_str(),
            hits + misses
                ? percent(static_cast<double>(misses), static_cast<double>(hits + misses)).c_str()
                : "-",
            memory.c_str());
        o << line << text << "\n";
    }
    if (rows.size() > top) o << "... " << rows.size() - top << " more (--top)\n";
    return o.str();
}

}  // namespace agx
