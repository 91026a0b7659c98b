// Bounded inputs: every reader that takes a file whole checks it first.
//
// A reader refuses, before reading anything, a path that is not a regular
// file (a directory, a device such as /dev/zero, a FIFO, a socket) and a file
// larger than its format's limit, with one line naming the file. A trace,
// which is streamed, must be a regular file too; its size is not limited.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace agx {

// The limits per format (README, "Inputs").
inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
// Kernels, launch files, applegpu listings, OpenCL C sources.
inline constexpr std::uint64_t kMaxTextInputBytes = 64 * kMiB;
// JSON: configs, measurement files, profiles, sweep descriptions.
inline constexpr std::uint64_t kMaxJsonInputBytes = 256 * kMiB;
// CSV: metal-benchmarks reference tables, a sweep's results.
inline constexpr std::uint64_t kMaxCsvInputBytes = 256 * kMiB;
// .npy files read on their own (a buffer's data file: the buffer's size).
inline constexpr std::uint64_t kMaxNpyInputBytes = 4096 * kMiB;

// Throws InputError("PATH", "cannot open WHAT: ...") unless `path` is a
// regular file (a symbolic link to one is followed) of at most `limit` bytes;
// returns its size.
std::uint64_t check_input_file(const std::string& path, const std::string& what,
                               std::uint64_t limit);

// The whole of `path`, checked by check_input_file first.
std::string read_input_file(const std::string& path, const std::string& what, std::uint64_t limit);

// "a directory", "a FIFO", ...: what a file that is not a regular one is,
// for a message (input and output checks alike).
const char* file_kind_name(mode_t mode);

// Whether `path` is a regular file (following a symbolic link).
bool is_regular_input(const std::string& path);

}  // namespace agx
