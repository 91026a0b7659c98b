// What the end-to-end tests share: running the agxsim executable with its
// output captured, a scratch directory per test process, small file helpers.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace agx_test {

namespace fs = std::filesystem;

struct Result {
    int code = -1;
    std::string out, err;
};

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// One directory per test process (CTest runs every test case in its own),
// removed when the process exits so that a run of the suite leaves no
// directory behind in the system's temporary directory.
inline fs::path scratch() {
    struct Scratch {
        fs::path dir = fs::temp_directory_path() / ("agxsim-cli-" + std::to_string(::getpid()));
        Scratch() { fs::create_directories(dir); }
        ~Scratch() {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    };
    static const Scratch s;
    return s.dir;
}

// The agxsim executable the tests run: the build's own, or the one
// AGXSIM_TEST_EXE names. scripts/test-sanitized.sh runs these tests from the
// Release build against its sanitized agxsim, which is what they test: the
// test binary itself then need not be built a second time with the
// sanitizers.
inline const std::string& agxsim_exe() {
    static const std::string exe = [] {
        const char* named = std::getenv("AGXSIM_TEST_EXE");
        return std::string(named && *named ? named : AGXSIM_EXE);
    }();
    return exe;
}

// Runs `agxsim ARGS` with stdout and stderr captured.
inline Result agxsim(const std::string& args) {
    const fs::path out = scratch() / "stdout.txt", err = scratch() / "stderr.txt";
    const std::string cmd = agxsim_exe() + " " + args + " >" + out.string() + " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

// `--cache DIR` for the validate runs tests repeat (the shipped tables on the
// shipped configs): one directory of simulations for the build's tests
// (validation/lib/simulation_cache.hpp), so that each runs once per build of
// agxsim, whichever test comes first.
inline std::string shared_validate_cache() {
    return " --cache " +
           (fs::path(agxsim_exe()).parent_path() / "tests" / "validate-cache").string();
}

// The cells of a markdown table row ("| a | b |" -> a, b), trimmed.
inline std::vector<std::string> table_cells(const std::string& row) {
    std::vector<std::string> out;
    std::istringstream in(row.substr(1));
    for (std::string c; std::getline(in, c, '|');) {
        const auto a = c.find_first_not_of(' '), b = c.find_last_not_of(' ');
        out.push_back(a == std::string::npos ? "" : c.substr(a, b - a + 1));
    }
    return out;
}

// The body rows of the markdown table of `doc` (a file of the project)
// between the comments `begin` and `end`: the "| " lines after its rule. The
// markers name the test that checks the table, so a missing one is an error.
inline std::vector<std::string> marked_table_rows(const std::string& doc, const std::string& begin,
                                                  const std::string& end) {
    const std::string text = slurp(fs::path(AGX_SOURCE_DIR) / doc);
    const auto from = text.find(begin), to = text.find(end);
    if (from == std::string::npos || to == std::string::npos)
        throw std::runtime_error(doc + ": no table between '" + begin + "' and '" + end + "'");
    std::vector<std::string> rows;
    bool body = false;
    std::istringstream in(text.substr(from, to - from));
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("| ", 0) != 0) continue;
        if (body) rows.push_back(line);
        body = body || line.find("---") != std::string::npos;
    }
    return rows;
}

// `value` written with as many decimals as `like` has: a doc's figure as the
// doc gives it.
inline std::string as_written(double value, const std::string& like) {
    const auto dot = like.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(like.size() - dot - 1);
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, value);
    return b;
}

// The path of a kernel of the library (traces/kernels/NAME).
inline std::string library_kernel(const std::string& name) {
    return (fs::path(AGX_SOURCE_DIR) / "traces/kernels" / name).string();
}

// `v` with `digits` decimals.
inline std::string fixed(double v, int digits) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", digits, v);
    return b;
}

inline std::string joined_lines(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
}

inline fs::path write_file(const std::string& name, const std::string& text) {
    const fs::path p = scratch() / name;
    std::ofstream(p) << text;
    return p;
}

// Whether a temporary of `target` ("<target>.partial-XXXXXX", as output files
// are written) is left in its directory.
inline bool partial_left(const fs::path& target) {
    const std::string prefix = target.filename().string() + ".partial";
    for (const auto& e : fs::directory_iterator(target.parent_path()))
        if (e.path().filename().string().rfind(prefix, 0) == 0) return true;
    return false;
}

inline std::string example(const std::string& name) {
    return std::string(AGX_SOURCE_DIR) + "/traces/examples/" + name;
}

}  // namespace agx_test
