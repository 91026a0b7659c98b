// `agxsim sweep`: a study of 54 points runs in parallel, survives being
// killed midway (the rerun adds exactly the missing rows), plots; bad
// descriptions are refused before anything runs; a failing point is recorded
// and the others go on; shards merge and report what is missing.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/sweep/results_csv.hpp"
#include "tests/cli/cli_run.hpp"

using namespace agx_test;

namespace {

const std::string kKernels = std::string(AGX_SOURCE_DIR) + "/traces/kernels/";

// 3 workloads x 3 register-cache sizes x 6 active-simd counts = 54 points.
std::string study(const fs::path& dir) {
    const std::string text = R"({
  "name": "rc-by-simds",
  "workloads": [")" + kKernels +
                             R"(saxpy.agxk",
                {"path": ")" +
                             kKernels + R"(collatz.agxk", "set": {"launch.n": 4096}},
                {"path": ")" +
                             kKernels + R"(reduce_sum.agxk", "set": {"launch.n": 16384}}],
  "configs": ["m1"],
  "axes": [
    {"key": "core.register_cache.entries", "values": [8, 16, 22]},
    {"key": "core.active_simds", "range": {"from": 1, "to": 6, "step": 1}}
  ],
  "metrics": ["cycles", "ipc", "stall.dependency"],
  "baseline": {"core.register_cache.entries": 22, "core.active_simds": 3}
})";
    fs::create_directories(dir);
    const fs::path p = dir / "study.json";
    std::ofstream(p) << text;
    return p.string();
}

// The rows by point number, without host_seconds (which differs run to run).
std::map<std::size_t, std::vector<std::string>> rows_of(const fs::path& csv) {
    const agx::sweep::ResultsTable t = agx::sweep::read_results(csv.string());
    const std::size_t host = t.column("host_seconds");
    std::map<std::size_t, std::vector<std::string>> rows;
    for (auto r : t.rows) {
        r.erase(r.begin() + static_cast<long>(host));
        const std::size_t point = std::stoul(r[0]);
        REQUIRE(rows.emplace(point, r).second);  // no point twice
    }
    return rows;
}

std::size_t lines_in(const fs::path& p) {
    const std::string s = slurp(p);
    return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

// Starts a sweep, waits until `rows` rows are in its results, sends `sig`,
// and returns the exit status.
int interrupt_midway(const std::string& sweep, const fs::path& out, std::size_t rows, int sig) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        const std::string exe = agx_test::agxsim_exe(), o = out.string(),
                          log = (out.string() + ".log");
        std::freopen(log.c_str(), "w", stderr);
        ::execl(exe.c_str(), exe.c_str(), "sweep", "run", sweep.c_str(), "--out", o.c_str(), "-j",
                "2", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < deadline) {
        if (fs::exists(out / "results.csv") && lines_in(out / "results.csv") >= rows + 1) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(pid, sig);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
}

void check_resumes(int sig) {
    const fs::path dir = scratch() / ("resume-" + std::to_string(sig));
    const std::string sweep = study(dir);
    const Result full =
        agxsim("sweep run " + sweep + " --out " + (dir / "full").string() + " -j 2");
    INFO(full.err);
    REQUIRE(full.code == 0);
    const auto expected = rows_of(dir / "full/results.csv");
    REQUIRE(expected.size() == 54);

    const int status = interrupt_midway(sweep, dir / "cut", 12, sig);
    if (sig == SIGINT) CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 130));
    if (sig == SIGKILL) CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
    const auto partial = rows_of(dir / "cut/results.csv");
    CHECK(partial.size() >= 12);
    CHECK(partial.size() < 54);  // stopped midway

    const Result rerun =
        agxsim("sweep run " + sweep + " --out " + (dir / "cut").string() + " -j 2");
    INFO(rerun.err);
    REQUIRE(rerun.code == 0);
    CHECK(rerun.err.find(std::to_string(partial.size()) + " of 54 points already in") !=
          std::string::npos);
    const auto resumed = rows_of(dir / "cut/results.csv");  // fails on a duplicate row
    CHECK(resumed == expected);                             // none missing, and the same figures
}

}  // namespace

TEST_CASE("sweep: 54 points at -j 2 resume after Ctrl-C with no duplicate or missing row") {
    check_resumes(SIGINT);
}

TEST_CASE(
    "sweep: 54 points at -j 2 resume after the sweep is killed with no duplicate or missing row") {
    check_resumes(SIGKILL);
}

TEST_CASE("sweep: the figures are the runs' own, and the plots draw them") {
    const fs::path dir = scratch() / "plot";
    const std::string sweep = study(dir);
    const Result r =
        agxsim("sweep run " + sweep + " --out " + (dir / "out").string() + " -j 2 --no-progress");
    REQUIRE(r.code == 0);
    // The baseline point of reduce_sum is the run with those --set values.
    const auto rows = rows_of(dir / "out/results.csv");
    const std::size_t baseline = 2 * 18 + 2 * 6 + 2;  // workload 2, entries 22, simds 3
    REQUIRE(rows.at(baseline)[1] == "reduce_sum");
    REQUIRE(rows.at(baseline)[3] == "22");
    REQUIRE(rows.at(baseline)[4] == "3");
    const Result one =
        agxsim("run " + kKernels +
               "reduce_sum.agxk --set launch.n=16384 --set core.register_cache.entries=22 "
               "--set core.active_simds=3 --stats " +
               (dir / "one.json").string());
    REQUIRE(one.code == 0);
    const auto stats = nlohmann::json::parse(slurp(dir / "one.json"));
    CHECK(rows.at(baseline)[5] == std::to_string(stats["cycles"].get<long>()));
    // More issuing simds never make reduce_sum slower here, and 1 is slower than 6.
    CHECK(std::stod(rows.at(2 * 18 + 2 * 6 + 0)[5]) > std::stod(rows.at(2 * 18 + 2 * 6 + 5)[5]));

    const Result p =
        agxsim("sweep plot " + (dir / "out").string() + " --metric cycles --normalise");
    INFO(p.err);
    REQUIRE(p.code == 0);
    const fs::path plots = dir / "out/plots";
    const std::string line = slurp(plots / "cycles-normalised-vs-core_active_simds.svg");
    CHECK(line.find("<svg") == 0);
    CHECK(std::count(line.begin(), line.end(), 'M') >= 3);  // a line per workload
    for (const char* w : {"saxpy", "collatz", "reduce_sum"}) {
        CHECK(line.find(w) != std::string::npos);
        CHECK(fs::exists(plots /
                         ("cycles-normalised-core_register_cache_entries-x-core_active_simds-" +
                          std::string(w) + ".svg")));
    }
    CHECK(fs::exists(plots / "cycles-normalised-vs-core_register_cache_entries.svg"));
}

TEST_CASE(
    "sweep: a bad description is one line naming the file and the entry, exit 2, nothing run") {
    const fs::path dir = scratch() / "bad";
    const std::string sweep = study(dir);
    auto check_bad = [&](const std::string& from, const std::string& to,
                         const std::string& message) {
        std::string text = slurp(sweep);
        REQUIRE(text.find(from) != std::string::npos);
        for (auto at = text.find(from); at != std::string::npos;
             at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
        const fs::path bad = dir / "bad.json";
        std::ofstream(bad) << text;
        const Result r = agxsim("sweep run " + bad.string() + " --out " + (dir / "never").string());
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find(message) != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK_FALSE(fs::exists(dir / "never"));
    };
    check_bad("\"metrics\"", "\"metric\"", "bad.json: metric: unknown key");
    check_bad("[8, 16, 22]", "[8, 3000, 22]", "bad.json: axes core.register_cache.entries=3000: ");
    check_bad("core.active_simds", "core.active_simd", "bad.json: axes core.active_simd=1: ");
    check_bad("saxpy.agxk", "saxpi.agxk", "bad.json: workloads[0]: no such file");
    check_bad("\"launch.n\": 4096", "\"launch.nn\": 4096", "bad.json: point 18 (collatz on m1): ");
    check_bad("[\"m1\"]", "[\"m7\"]", "bad.json: configs[0] m7: ");
    // A metric no run has stops the sweep at the first result.
    check_bad("\"stall.dependency\"", "\"gpu.nothing\"",
              "bad.json: metrics gpu.nothing: not a number");
}

TEST_CASE("sweep: a point that fails records its error, the others run, the exit code says so") {
    const fs::path dir = scratch() / "fail";
    fs::create_directories(dir);
    std::ofstream(dir / "oob.agxk") << "agxsim-kernel 1\n"
                                       "kernel name=oob\n"
                                       "param off=0\n"
                                       "launch grid=64 threadgroup=64 registers=8\n"
                                       "buffer y size=1024 fill=zero\n"
                                       "uniform u0_u1 buffer=y\n"
                                       "uniform u2 value=off\n"
                                       "    get_sr           r1, sr80\n"
                                       "    iadd32           r2, r1, u2\n"
                                       "    device_store     r1, u0_u1, r2 slot=1\n"
                                       "    stop\n";
    std::ofstream(dir / "s.json") << R"({"name": "f", "workloads": ["oob.agxk"],
        "axes": [{"key": "launch.off", "values": [0, 100000, 1]}]})";
    const Result r = agxsim("sweep run " + (dir / "s.json").string() + " --out " +
                            (dir / "out").string() + " -j 1");
    CHECK(r.code == 3);
    CHECK(r.err.find("2 of 3 points ok, 1 failed") != std::string::npos);
    const auto t = agx::sweep::read_results((dir / "out/results.csv").string());
    REQUIRE(t.rows.size() == 3);
    const std::size_t status = t.column("status"), error = t.column("error");
    std::map<std::string, std::vector<std::string>> by_point;
    for (const auto& row : t.rows) by_point[row[0]] = row;
    CHECK(by_point["0"][status] == "ok");
    CHECK(by_point["1"][status] == "failed");
    CHECK(by_point["1"][error].find("exit 2: ") == 0);
    CHECK(by_point["1"][error].find("is outside every buffer") != std::string::npos);
    CHECK(by_point["2"][status] == "ok");
    // A rerun leaves failed points alone unless asked.
    CHECK(agxsim("sweep run " + (dir / "s.json").string() + " --out " + (dir / "out").string())
              .code == 3);
    CHECK(agx::sweep::read_results((dir / "out/results.csv").string()).rows.size() == 3);
}

TEST_CASE(
    "sweep: shards run into their own files and collect merges them, naming what is missing") {
    const fs::path dir = scratch() / "shards";
    const std::string sweep = study(dir);
    const std::string out = (dir / "out").string();
    REQUIRE(agxsim("sweep run " + sweep + " --out " + out + " --shard 0/4 -j 2").code == 0);
    REQUIRE(agxsim("sweep run " + sweep + " --out " + out + " --shard 2/4 -j 2").code == 0);
    Result c = agxsim("sweep collect " + out);
    CHECK(c.code == 3);
    CHECK(c.out.find("collected 27 of 54 points from 2 shard files") != std::string::npos);
    CHECK(c.out.find("missing: points 1, 3, 5,") != std::string::npos);
    for (const char* shard : {"1/4", "3/4"})
        REQUIRE(
            agxsim("sweep run " + sweep + " --out " + out + " --shard " + shard + " -j 2").code ==
            0);
    // Beside a sweep appending to results.csv (its lock held), collect
    // refuses and leaves the file as it was.
    const std::string before = slurp(dir / "out/results.csv");
    const fs::path err = dir / "collect_err.txt";
    const int status = std::system(("flock " + out + "/results.csv.lock " + agx_test::agxsim_exe() +
                                    " sweep collect " + out + " >/dev/null 2>" + err.string())
                                       .c_str());
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
    CHECK(slurp(err).find("a sweep is appending to it") != std::string::npos);
    CHECK(slurp(dir / "out/results.csv") == before);
    c = agxsim("sweep collect " + out);
    CHECK(c.code == 0);
    REQUIRE(agxsim("sweep run " + sweep + " --out " + (dir / "local").string() + " -j 2").code ==
            0);
    CHECK(rows_of(dir / "out/results.csv") == rows_of(dir / "local/results.csv"));
    // The directory belongs to its sweep.
    std::ofstream(dir / "other.json")
        << R"({"name": "o", "workloads": [")" + kKernels + R"(saxpy.agxk"]})";
    const Result other = agxsim("sweep run " + (dir / "other.json").string() + " --out " + out);
    CHECK(other.code == 2);
    CHECK(other.err.find("holds results of another sweep description") != std::string::npos);
}

TEST_CASE(
    "sweep: a point past its wall-time limit is killed and recorded as failed, the others "
    "run") {
    // A long point (a GEMM that takes tens of seconds on one core) beside a
    // short one (a thousand instructions of one simd, well under a second
    // even in a sanitized build), with a limit of three seconds.
    const fs::path dir = scratch() / "limit";
    fs::create_directories(dir);
    std::ofstream(dir / "s.json") << R"({"name": "l", "configs": ["m1-max"],
        "workloads": [{"path": ")" + kKernels +
                                         R"(sgemm_simd_matrix_tiled.agxk", "name": "long",
                       "set": {"launch.n": 1024}},
                      ")" + std::string(AGX_SOURCE_DIR) +
                                         R"(/traces/examples/ffma_chain.trace"]})";
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = agxsim("sweep run " + (dir / "s.json").string() + " --out " +
                            (dir / "out").string() + " -j 2 --point-seconds 3");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(r.err);
    CHECK(r.code == 3);
    CHECK(seconds < 10);
    const auto t = agx::sweep::read_results((dir / "out/results.csv").string());
    REQUIRE(t.rows.size() == 2);
    const std::size_t status = t.column("status"), error = t.column("error");
    for (const auto& row : t.rows) {
        INFO(row[1]);
        if (row[1] == "long") {
            CHECK(row[status] == "failed");
            CHECK(row[error] == "stopped after its wall-time limit of 3 s (--point-seconds)");
        } else {
            CHECK(row[status] == "ok");
        }
    }
    // A limit is a count of seconds.
    CHECK(agxsim("sweep run " + (dir / "s.json").string() + " --out " + (dir / "x").string() +
                 " --point-seconds 0")
              .code == 2);
}

TEST_CASE("sweep slurm --dry-run writes a job array of the shards and submits nothing") {
    const fs::path dir = scratch() / "slurm";
    const std::string sweep = study(dir);
    const Result r = agxsim("sweep slurm " + sweep + " --out " + (dir / "out").string() +
                            " --shards 6 --array-limit 2 --time 00:10:00 --dry-run");
    INFO(r.err);
    REQUIRE(r.code == 0);
    const std::string script = slurp(dir / "out/slurm/sweep.sbatch");
    CHECK(script.find("#SBATCH --array=0-5%2") != std::string::npos);
    CHECK(script.find("#SBATCH --time=00:10:00") != std::string::npos);
    CHECK(script.find("--shard \"${SLURM_ARRAY_TASK_ID}/6\"") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "out/shards"));

    // A refused option leaves nothing behind, so the corrected command runs
    // (a sweep.json left by it once blocked the directory).
    const std::string fresh = (dir / "fresh").string();
    const Result bad =
        agxsim("sweep slurm " + sweep + " --out " + fresh + " --partition 'two words' --dry-run");
    CHECK(bad.code == 2);
    CHECK_FALSE(fs::exists(fresh));
    const Result good = agxsim("sweep slurm " + sweep + " --out " + fresh + " --dry-run");
    INFO(good.err);
    CHECK(good.code == 0);
}

TEST_CASE("sweep: a suite benchmark is a workload, its figures those of `agxsim suite run`") {
    const fs::path dir = scratch() / "suite";
    fs::create_directories(dir);
    const std::string data = std::string(AGX_SOURCE_DIR) + "/validation/data/ilp_occupancy.json";
    std::ofstream(dir / "s.json") << R"({"name": "suite", "configs": ["m1-max"],
        "workloads": [{"suite": "ilp_occupancy/FMUL/ilp1/simds4/32bit", "measurements": ")" +
                                         data + R"(", "name": "fmul"}],
        "axes": [{"key": "core.register_cache.file_read_latency", "values": [1, 3]}],
        "metrics": ["cycles"]})";
    const Result r =
        agxsim("sweep run " + (dir / "s.json").string() + " --out " + (dir / "out").string());
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto rows = rows_of(dir / "out/results.csv");
    REQUIRE(rows.size() == 2);
    const Result one =
        agxsim("suite run ilp_occupancy/FMUL/ilp1/simds4/32bit -m " + data +
               " --config m1-max --set core.register_cache.file_read_latency=3 --stats " +
               (dir / "one.json").string());
    REQUIRE(one.code == 0);
    const auto stats = nlohmann::json::parse(slurp(dir / "one.json"));
    CHECK(rows.at(1)[4] == std::to_string(stats["cycles"].get<long>()));
    CHECK(std::stol(rows.at(0)[4]) <
          std::stol(rows.at(1)[4]));  // a faster register file, fewer cycles
}

TEST_CASE(
    "sweep plot and collect refuse results that are not the directory's sweep.json's points") {
    const fs::path dir = scratch() / "edited";
    fs::create_directories(dir);
    std::ofstream(dir / "s.json") << R"({"name": "e", "workloads": [")" + kKernels +
                                         R"(saxpy.agxk"],
        "axes": [{"key": "core.active_simds", "values": [1, 2]}], "metrics": ["cycles"]})";
    const fs::path out = dir / "out";
    REQUIRE(agxsim("sweep run " + (dir / "s.json").string() + " --out " + out.string() +
                   " -j 1 --no-progress")
                .code == 0);
    const std::string manifest = slurp(out / "sweep.json");
    const std::string results = slurp(out / "results.csv");
    auto refused = [&](const std::string& command, const std::string& message) {
        const Result r = agxsim(command);
        INFO(command << "\n" << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find(message) != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK_FALSE(fs::exists(out / "plots"));
    };
    // The axis reordered in the manifest: point 0 would be drawn as 2 simds.
    auto edited = nlohmann::json::parse(manifest);
    auto& values = edited.at("description").at("axes").at(0).at("values");
    REQUIRE(values == nlohmann::json::parse("[1, 2]"));
    values = nlohmann::json::parse("[2, 1]");
    std::ofstream(out / "sweep.json") << edited.dump(2);
    refused("sweep plot " + out.string(),
            "results.csv:2: point 0's core.active_simds is '1' where the sweep's point 0 "
            "has '2'");
    // A point number that is not one of the sweep's.
    std::ofstream(out / "sweep.json") << manifest;
    std::string renumbered = results;
    renumbered.replace(renumbered.find("\n0,"), 3, "\n7,");
    std::ofstream(out / "results.csv") << renumbered;
    refused("sweep plot " + out.string(), "results.csv:2: point 7 is past the sweep's 2 points");
    std::string lettered = results;
    lettered.replace(lettered.find("\n0,"), 3, "\nx,");
    std::ofstream(out / "results.csv") << lettered;
    refused("sweep plot " + out.string(),
            "results.csv:2: the first column is not a point number: 'x'");
    // collect checks each shard file the same way.
    fs::create_directories(out / "shards");
    std::ofstream(out / "shards" / "0-of-1.csv") << renumbered;
    refused("sweep collect " + out.string(), "0-of-1.csv:2: point 7 is past");
    // The sweep's own results still plot.
    fs::remove_all(out / "shards");
    std::ofstream(out / "results.csv") << results;
    const Result ok = agxsim("sweep plot " + out.string());
    INFO(ok.err);
    CHECK(ok.code == 0);
}

TEST_CASE("sweep: a fresh run counts nothing as done before, lists rows by point, leaves no lock") {
    // The point run first to check a statistics metric was reported as "1 of
    // N points already in results.csv", the rows came in the order points
    // finished, and results.csv.lock stayed behind.
    const fs::path dir = scratch() / "fresh";
    fs::create_directories(dir);
    std::ofstream(dir / "s.json") << R"({"name": "f", "workloads": [")" + kKernels +
                                         R"(saxpy.agxk"],
        "axes": [{"key": "launch.n", "values": [4096, 64, 2048, 128, 1024, 256]}],
        "metrics": ["cycles", "gpu.core_0.l1d.misses"]})";
    const fs::path out = dir / "out";
    const Result r = agxsim("sweep run " + (dir / "s.json").string() + " --out " + out.string() +
                            " -j 2 --no-progress");
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.err.find("already") == std::string::npos);
    CHECK(r.err.find("6 of 6 points ok") != std::string::npos);
    CHECK_FALSE(fs::exists(out / "results.csv.lock"));
    const auto t = agx::sweep::read_results((out / "results.csv").string());
    REQUIRE(t.rows.size() == 6);
    for (std::size_t i = 0; i < t.rows.size(); ++i) CHECK(t.rows[i][0] == std::to_string(i));
    // Run again: every point is done before, and says so.
    const Result again = agxsim("sweep run " + (dir / "s.json").string() + " --out " +
                                out.string() + " --no-progress");
    CHECK(again.code == 0);
    CHECK(again.err.find("6 of 6 points already in") != std::string::npos);
    CHECK_FALSE(fs::exists(out / "results.csv.lock"));
}
