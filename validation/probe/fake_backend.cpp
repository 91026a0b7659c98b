#include "validation/probe/fake_backend.hpp"

#include <algorithm>
#include <stdexcept>

#include "isa/catalogue.hpp"
#include "validation/lib/benchmark.hpp"
#include "validation/probe/msl_ops.hpp"

namespace agx::probe {

namespace {

constexpr double kWaveOverheadCycles = 2000;     // launch and completion of each simd's work
constexpr double kCommandBufferSeconds = 20e-6;  // what the command buffer adds around the pass
constexpr double kSubmitSeconds = 1e-4;          // the GPU idles this long for a dispatch run alone

struct Cost {
    double issue = 0;    // scheduler cycles per repetition of one simd
    double latency = 0;  // cycles of the longest dependent chain per repetition
};

// Issue cost and latency of a machine instruction, by pipeline.
Cost step_cost(std::string_view mnemonic) {
    const auto& cat = isa::Catalogue::instance();
    const auto op = cat.find(mnemonic);
    if (!op) return {1, 3};
    switch (cat.info(*op).unit) {
        case isa::Unit::IntComplex:
            return {4, 5};
        case isa::Unit::Shuffle:
            return {2, 5};
        default:
            return {1, 3};
    }
}

// A repetition of the kernel the generator writes: each operation with the
// instructions its expression adds (msl_ops.hpp's companions).
Cost repetition_cost(const validation::BenchmarkDefinition& def) {
    Cost total;
    for (const auto& item : def.body) {
        const auto steps = validation::expand_operation(with_companions(item.op, def.register_bits),
                                                        def.register_bits, def.name);
        double chain = 0;
        for (const auto& s : steps) {
            const Cost c = step_cost(s.mnemonic);
            total.issue += c.issue * item.count;
            chain = s.depends_on_previous ? chain + c.latency : c.latency;
            total.latency = std::max(total.latency, chain);
        }
    }
    if (def.operand_shape == validation::OperandShape::Vec4Groups) {
        // One operation per repetition, `ilp` of them in flight.
        total.latency /= def.ilp;
    } else {
        total.issue *= def.ilp;
    }
    return total;
}

bool matches(const std::string& pattern, const std::string& name) {
    return !pattern.empty() && (pattern == "*" || name.find(pattern) != std::string::npos);
}

}  // namespace

void parse_fake_failures(const std::string& list, FakeOptions& options) {
    std::size_t at = 0;
    while (at <= list.size()) {
        const std::size_t comma = list.find(',', at);
        const std::string item =
            list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        at = comma == std::string::npos ? list.size() + 1 : comma + 1;
        if (item.empty()) continue;
        const std::size_t eq = item.find('=');
        const std::string key = item.substr(0, eq);
        const std::string value = eq == std::string::npos ? "*" : item.substr(eq + 1);
        if (key == "compile")
            options.fail_compile = value;
        else if (key == "run")
            options.fail_run = value;
        else if (key == "resolve")
            options.fail_resolve = value;
        else if (key == "archive")
            options.fail_archive = true;
        else if (key == "counter-buffer")
            options.fail_counter_buffer = true;
        else if (key == "counter-disagree")
            options.counter_disagree = value;
        else if (key == "fold")
            options.fold = value;
        else
            throw std::invalid_argument("unknown fake failure '" + key +
                                        "' (compile, run, resolve, archive, counter-buffer, "
                                        "counter-disagree, fold)");
    }
}

FakeBackend::FakeBackend(const FakeOptions& options) : options_(options), rng_(options.seed) {}

DeviceInfo FakeBackend::device() const {
    DeviceInfo d;
    d.backend = "fake";
    d.name = options_.name;
    d.chip = options_.chip;
    d.family = "Apple7";
    d.os = "none (fake backend)";
    d.cores = options_.cores;
    d.device_source = "fake";
    d.compile_options =
        options_.precise ? "none (fake backend; --precise)" : "none (fake backend; fast math)";
    d.stage_boundary_counters =
        options_.counters != FakeOptions::Counters::None && !options_.fail_counter_buffer;
    if (options_.fail_counter_buffer)
        d.counters_note =
            "[MTLDevice newCounterSampleBufferWithDescriptor:error:] failed: injected by the fake "
            "backend";
    else if (options_.counters == FakeOptions::Counters::None)
        d.counters_note = "the fake backend was asked for no counters";
    return d;
}

PipelineInfo FakeBackend::compile(const Kernel& kernel, const std::string& archive_dir) {
    if (matches(options_.fail_compile, kernel.def.name))
        throw BackendError("[MTLDevice newLibraryWithSource:options:error:] for " +
                           kernel.def.name + " (" + std::to_string(kernel.repetitions) +
                           " repetitions) failed: program_source: error: injected by the fake "
                           "backend");
    PipelineInfo p;
    p.handle = static_cast<int>(kernels_.size());
    kernels_[p.handle] = kernel;
    p.registers = 8 + kernel.live_values * (kernel.def.register_bits / 16);
    // Like the hardware, a kernel with many live values gets smaller groups.
    p.max_threads_per_threadgroup = *p.registers > 104 ? 512 : 1024;
    p.thread_execution_width = 32;
    // The fake writes no archive; asked to fail, it says which call did.
    if (!archive_dir.empty() && options_.fail_archive)
        p.archive_error = "[MTLBinaryArchive serializeToURL:error:] to " + archive_dir +
                          " failed: injected by the fake backend";
    return p;
}

double FakeBackend::wave_cycles(const Kernel& kernel, std::uint32_t resident_simds) {
    const Cost c = repetition_cost(kernel.def);
    const double per_scheduler = std::max(1.0, resident_simds / 4.0);
    return kWaveOverheadCycles + kernel.repetitions * std::max(c.latency, c.issue * per_scheduler);
}

DispatchTiming FakeBackend::run(const PipelineInfo& pipeline, const Dispatch& d) {
    ++submitted_.alone;
    // Committed alone and waited for: the GPU idles while the CPU submits.
    return execute(pipeline, d, kSubmitSeconds);
}

std::vector<DispatchTiming> FakeBackend::run_batch(const std::vector<Submission>& batch,
                                                   unsigned in_flight) {
    ++submitted_.batches;
    submitted_.batched += batch.size();
    submitted_.max_in_flight = std::max(submitted_.max_in_flight, in_flight);
    std::vector<DispatchTiming> out;
    out.reserve(batch.size());
    // The first waits for its submission; the others are queued behind it.
    for (std::size_t i = 0; i < batch.size(); ++i)
        out.push_back(execute(batch[i].pipeline, batch[i].dispatch,
                              i == 0 || in_flight <= 1 ? kSubmitSeconds : 0.0));
    return out;
}

DispatchTiming FakeBackend::execute(const PipelineInfo& pipeline, const Dispatch& dispatch,
                                    double idle) {
    const auto it = kernels_.find(pipeline.handle);
    if (it == kernels_.end())
        throw BackendError("fake backend: run with a pipeline it did not compile");
    if (dispatch.threadgroups == 0 || dispatch.threads_per_threadgroup == 0)
        throw BackendError("fake backend: empty dispatch");
    const std::string& name = it->second.def.name;
    if (matches(options_.fail_run, name))
        throw BackendError("MTLCommandBuffer execution (status 5) for " + name +
                           " failed: injected by the fake backend");
    const DeviceInfo dev = device();
    const std::uint32_t groups =
        dispatch.threadgroup_memory_bytes
            ? std::max<std::uint32_t>(
                  1, dev.threadgroup_memory_per_core / dispatch.threadgroup_memory_bytes)
            : 32;
    const std::uint32_t active =
        std::min(dispatch.params.active_simds, dispatch.threads_per_threadgroup / 32);
    const double waves = static_cast<double>(dispatch.threadgroups) / (options_.cores * groups);
    const bool cold = dispatches_++ < options_.cold_dispatches || busy_ < options_.cold_seconds;
    const double clock = options_.clock_ghz * (cold ? 0.5 : 1.0);
    std::uniform_real_distribution<double> noise(0.0, options_.noise);
    double cycles = wave_cycles(it->second, groups * active);
    if (matches(options_.fold, name) && !options_.precise)
        cycles = kWaveOverheadCycles + (cycles - kWaveOverheadCycles) / 64;
    const double seconds = waves * cycles / (clock * 1e9) * (1.0 + noise(rng_));

    busy_ += seconds;
    DispatchTiming t;
    t.gpu_start = now_ + idle;
    t.gpu_end = t.gpu_start + seconds + kCommandBufferSeconds;
    if (matches(options_.fail_resolve, name) && device().stage_boundary_counters) {
        t.counter_error =
            "[MTLCounterSampleBuffer resolveCounterRange:] returned nil: injected by the fake "
            "backend";
    } else if (device().stage_boundary_counters) {
        t.seconds_per_tick = 1e-9;
        if (options_.counters == FakeOptions::Counters::Real) {
            const double span = matches(options_.counter_disagree, name) ? seconds / 2 : seconds;
            t.counter_start =
                static_cast<std::uint64_t>((t.gpu_start + kCommandBufferSeconds / 2) * 1e9);
            t.counter_end = t.counter_start + static_cast<std::uint64_t>(span * 1e9);
        }
    }
    now_ = t.gpu_end;
    return t;
}

}  // namespace agx::probe
