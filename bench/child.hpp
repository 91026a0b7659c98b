// What a measurement child process does; each prints one JSON object on its
// standard output for the parent to read.
#pragma once

#include <cstdint>
#include <string>

namespace agx::bench {

// Simulates workload `name` (about `instructions` SIMD-instructions) on
// `cores` cores of `config`. With a non-empty `trace_dir`, first writes it
// as a binary trace there and simulates the trace instead, so that the
// figure includes decoding. Prints {"simd_instructions", "cycles",
// "host_seconds"}; host_seconds is the simulation's own (elaboration
// included), as `agxsim run --stats` reports it.
int simulate_child(const std::string& name, std::uint64_t instructions, unsigned cores,
                   const std::string& config, const std::string& trace_dir);

// Writes a binary trace of about `instructions` instructions in `trace_dir`
// and decodes every simd's stream, interleaved as the cores do. `kind` is
// "repeat" (ffma_ilp4, its loop a repeat block: what benchmark traces look
// like) or "flat" (stream_load written out instruction by instruction, a
// distinct address each: what a captured trace looks like). Prints
// {"instructions", "open_seconds", "decode_seconds", "decode_cpu_seconds",
// "file_bytes"}.
int decode_child(const std::string& kind, std::uint64_t instructions, const std::string& trace_dir);

}  // namespace agx::bench
