// What the fuzz targets share: a scratch directory of the process's own,
// the input written to a file there (every parser reads files), the rule
// each target checks (parsing succeeds or throws agx::InputError; any other
// exception is a finding), and a bounded walk over a workload's streams.
//
// A finding aborts with one line starting "agxsim-fuzz: ", so libFuzzer
// keeps the input and the replay tests fail with the reason.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/trace/workload.hpp"

#ifndef AGX_SOURCE_DIR
#error "AGX_SOURCE_DIR: the repository, for the shipped configs the targets read"
#endif

namespace agx_fuzz {

namespace fs = std::filesystem;

// A directory of this process's own under $TMPDIR, removed at a normal exit
// (a crash leaves it, beside the input libFuzzer saved).
// (An object whose destructor removes it: an atexit handler registered while
// the path was being made ran after the path's own destructor, and removed
// nothing.)
inline const fs::path& scratch() {
    struct Scratch {
        fs::path dir;
        Scratch() {
            std::string tmpl = (fs::temp_directory_path() / "agxsim-fuzz-XXXXXX").string();
            if (!::mkdtemp(tmpl.data())) {
                std::perror("agxsim-fuzz: mkdtemp");
                std::abort();
            }
            dir = tmpl;
        }
        ~Scratch() {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    };
    static const Scratch s;
    return s.dir;
}

inline std::string write_file(const std::string& name, const void* data, std::size_t size) {
    const fs::path p = scratch() / name;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    out.close();
    if (!out) {
        std::fprintf(stderr, "agxsim-fuzz: cannot write %s\n", p.c_str());
        std::abort();
    }
    return p.string();
}

inline std::string write_file(const std::string& name, const std::string& text) {
    return write_file(name, text.data(), text.size());
}

[[noreturn]] inline void finding(const std::string& what) {
    std::fprintf(stderr, "agxsim-fuzz: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

inline std::string describe(const std::exception& e) {
    return std::string(typeid(e).name()) + ": " + std::string(e.what()).substr(0, 2000);
}

// Runs `f`: true if it returns, false if it throws InputError (the input is
// bad and said so); anything else thrown is a finding, named by `what`.
template <class F>
bool accepted(const char* what, F&& f) {
    try {
        f();
        return true;
    } catch (const agx::InputError&) {
        return false;
    } catch (const std::exception& e) {
        finding(std::string(what) + ": not an InputError: " + describe(e));
    } catch (...) {
        finding(std::string(what) + ": an exception that is not a std::exception");
    }
}

// Runs `f`, which must not throw at all: what the tool accepted must keep
// working (its streams read, its conversions open again).
template <class F>
void must_work(const char* what, F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        finding(std::string(what) + ": " + describe(e));
    } catch (...) {
        finding(std::string(what) + ": an exception that is not a std::exception");
    }
}

// The instructions of a few streams (the first and the last simd of the
// first and the last threadgroup), at most `limit` from each: what the
// timing model pulls, without the model. Each visit reads the instruction's
// fields, so that a bad pointer shows under ASan.
template <class Visit>
void walk_streams(agx::Workload& w, std::size_t limit, Visit&& visit) {
    const agx::Launch& l = w.launch();
    const std::uint32_t simds = l.simds_per_threadgroup();
    if (l.threadgroups == 0 || simds == 0) return;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> picks = {
        {0, 0}, {0, simds - 1}, {l.threadgroups - 1, 0}, {l.threadgroups - 1, simds - 1}};
    for (std::size_t i = 0; i < picks.size(); ++i) {
        bool seen = false;
        for (std::size_t j = 0; j < i; ++j) seen = seen || picks[j] == picks[i];
        if (seen) continue;
        auto stream = w.open(picks[i].first, picks[i].second);
        for (std::size_t n = 0; n < limit; ++n) {
            const agx::Instruction* in = stream->peek();
            if (!in) break;
            visit(picks[i].first, picks[i].second, n, *in);
            stream->advance();
        }
    }
}

// A checksum over an instruction's fields, read as the timing model reads
// them (operands up to their counts, every active lane's address), for
// walks with nothing to compare against.
inline std::uint64_t touch(const agx::Instruction& in) {
    std::uint64_t h = in.pc ^ (std::uint64_t{in.source_line} << 32);
    h = h * 31 + static_cast<std::uint64_t>(in.opcode);
    for (unsigned i = 0; i < in.num_dst && i < in.dst.size(); ++i)
        h = h * 31 + in.dst[i].first_half + in.dst[i].halves;
    for (unsigned i = 0; i < in.num_src && i < in.src.size(); ++i)
        h = h * 31 + in.src[i].first_half + in.src[i].halves + in.src[i].imm;
    if (in.mem.bytes_per_lane != 0)
        for (unsigned lane = 0; lane < 32; ++lane)
            if (in.active_mask >> lane & 1u) h = h * 31 + in.mem.address(lane);
    return h;
}

}  // namespace agx_fuzz
