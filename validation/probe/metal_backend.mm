// The Metal layer: every Metal call the probe makes is in this file. It
// finds the GPU, compiles a generated kernel with fixed math settings,
// describes the device, runs dispatches (one at a time, or back to back with
// several command buffers in flight, as every measured dispatch is) and
// reports when the GPU started and ended each, by its command buffer and by
// the stage-boundary counters where they are sampled. Every call
// is checked and a failure names the call. What costs a single benchmark
// (a kernel that does not compile, a binary archive that cannot be written,
// counter samples that cannot be read) is reported for that benchmark;
// only a GPU that cannot be found or used at all stops the tool. Everything
// else (kernels, launch plans, warm-up, trials, figures, files) is portable
// C++ tested with the fake backend.
//
// Built with ARC (-fobjc-arc) on macOS 13 or later, linked with Metal,
// Foundation, CoreFoundation, IOKit and CoreGraphics: a command-line tool
// gets no default Metal device unless CoreGraphics is linked (Apple's
// documentation of MTLCreateSystemDefaultDevice), and falls back to the
// first of MTLCopyAllDevices() if it still gets none.
#include <CoreFoundation/CoreFoundation.h>
#import <Foundation/Foundation.h>
#include <IOKit/IOKitLib.h>
#import <Metal/Metal.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "validation/probe/backend.hpp"
#include "validation/probe/chip_table.hpp"

namespace agx::probe {

namespace {

std::string str(NSString* s) {
    return s ? std::string([s UTF8String]) : std::string();
}

std::string described(const std::string& call, NSError* error) {
    return call + " failed" + (error ? ": " + str(error.localizedDescription) : std::string());
}

[[noreturn]] void fail(const std::string& call, NSError* error) {
    throw BackendError(described(call, error));
}

// The default device; a command-line tool may get nil (CoreGraphics not
// loaded, some macOS versions), so then the first device there is.
id<MTLDevice> find_device(std::string& how) {
    id<MTLDevice> device = MTLCreateSystemDefaultDevice();
    if (device) {
        how = "MTLCreateSystemDefaultDevice()";
        return device;
    }
    NSArray<id<MTLDevice>>* all = MTLCopyAllDevices();
    if (all.count > 0) {
        how = "MTLCopyAllDevices()[0] (MTLCreateSystemDefaultDevice() returned nil)";
        return all.firstObject;
    }
    return nil;
}

// IORegistry: the AGXAccelerator service carries the core count Metal does not report.
std::uint32_t gpu_core_count() {
    io_iterator_t it = IO_OBJECT_NULL;
    // MACH_PORT_NULL selects the default main port on every macOS version.
    if (IOServiceGetMatchingServices(MACH_PORT_NULL, IOServiceMatching("AGXAccelerator"), &it) !=
        KERN_SUCCESS)
        return 0;
    std::uint32_t cores = 0;
    for (io_object_t service = IOIteratorNext(it); service != IO_OBJECT_NULL;
         service = IOIteratorNext(it)) {
        CFTypeRef value = IORegistryEntrySearchCFProperty(
            service, kIOServicePlane, CFSTR("gpu-core-count"), kCFAllocatorDefault,
            kIORegistryIterateRecursively | kIORegistryIterateParents);
        if (value) {
            int n = 0;
            if (CFGetTypeID(value) == CFNumberGetTypeID() &&
                CFNumberGetValue((CFNumberRef)value, kCFNumberIntType, &n) && n > 0)
                cores = static_cast<std::uint32_t>(n);
            CFRelease(value);
        }
        IOObjectRelease(service);
        if (cores) break;
    }
    IOObjectRelease(it);
    return cores;
}

std::string gpu_family(id<MTLDevice> device) {
    // MTLGPUFamilyAppleN is 1000 + N; raw values reach families newer than the SDK.
    for (int n = 12; n >= 1; --n)
        if ([device supportsFamily:static_cast<MTLGPUFamily>(1000 + n)])
            return "Apple" + std::to_string(n);
    return "not an Apple GPU family";
}

std::string file_name_of(const std::string& id) {
    std::string s = id;
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
    return s;
}

// The same math on every macOS. By default fast math, Xcode's default and
// the setting the reference tables were measured with: math mode fast and
// the fast float functions. With `precise`, math mode safe (no
// transformation that could change a result) and the precise float
// functions. macOS 15 replaced fastMathEnabled with mathMode and
// mathFloatingPointFunctions; per Apple's documentation fastMathEnabled sets
// exactly these two (YES: fast and fast, NO: safe and precise), so older
// systems get the same kernels through it. `what` says which.
MTLCompileOptions* compile_options(bool precise, std::string& what) {
    MTLCompileOptions* options = [MTLCompileOptions new];
#if defined(__MAC_15_0) && __MAC_OS_X_VERSION_MAX_ALLOWED >= __MAC_15_0
    if (@available(macOS 15.0, *)) {
        options.mathMode = precise ? MTLMathModeSafe : MTLMathModeFast;
        options.mathFloatingPointFunctions =
            precise ? MTLMathFloatingPointFunctionsPrecise : MTLMathFloatingPointFunctionsFast;
        what = precise ? "mathMode safe, mathFloatingPointFunctions precise (--precise)"
                       : "mathMode fast, mathFloatingPointFunctions fast";
        return options;
    }
#endif
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    options.fastMathEnabled = precise ? NO : YES;
#pragma clang diagnostic pop
    what = precise ? "fastMathEnabled NO (math mode safe, precise float functions; --precise)"
                   : "fastMathEnabled YES (math mode fast, fast float functions)";
    return options;
}

// Start and end samples of this many command buffers at once: the most a
// batch keeps in flight while sampling.
constexpr unsigned kSampleSlots = 16;

class MetalBackend : public Backend {
  public:
    explicit MetalBackend(const MetalOptions& options) {
        @autoreleasepool {
            device_ = find_device(info_.device_source);
            if (!device_)
                throw BackendError("no Metal GPU: MTLCreateSystemDefaultDevice() returned nil and "
                                   "MTLCopyAllDevices() is empty");
            queue_ = [device_ newCommandQueue];
            if (!queue_) throw BackendError("[MTLDevice newCommandQueue] returned nil");

            const auto seeds = seed_words();
            seeds_ = [device_ newBufferWithBytes:seeds.data()
                                          length:seeds.size() * sizeof(std::uint32_t)
                                         options:MTLResourceStorageModeShared];
            if (!seeds_)
                throw BackendError(
                    "[MTLDevice newBufferWithBytes:length:options:] returned nil (seeds)");
            out_ = [device_ newBufferWithLength:kOutWords * sizeof(std::uint32_t)
                                        options:MTLResourceStorageModePrivate];
            if (!out_)
                throw BackendError(
                    "[MTLDevice newBufferWithLength:options:] returned nil (output)");

            compile_options_ = compile_options(options.precise, info_.compile_options);
            info_.backend = "metal";
            info_.name = str(device_.name);
            info_.chip = chip_from_device_name(info_.name);
            info_.family = gpu_family(device_);
            info_.os = "macOS " + str([[NSProcessInfo processInfo] operatingSystemVersionString]);
            info_.cores = gpu_core_count();
            info_.max_threadgroup_memory =
                static_cast<std::uint32_t>(device_.maxThreadgroupMemoryLength);
            if (options.use_counters)
                setup_counters();
            else
                info_.counters_note = "--no-counters";
        }
    }

    DeviceInfo device() const override { return info_; }

    PipelineInfo compile(const Kernel& kernel, const std::string& archive_dir) override {
        @autoreleasepool {
            const std::string what = " for " + kernel.def.name + " (" +
                                     std::to_string(kernel.repetitions) + " repetitions)";
            NSError* error = nil;
            id<MTLLibrary> library = [device_ newLibraryWithSource:@(kernel.source.c_str())
                                                           options:compile_options_
                                                             error:&error];
            if (!library) fail("[MTLDevice newLibraryWithSource:options:error:]" + what, error);
            const std::string entry = kernel.entry.empty() ? kKernelEntry : kernel.entry;
            id<MTLFunction> function = [library newFunctionWithName:@(entry.c_str())];
            if (!function)
                throw BackendError("[MTLLibrary newFunctionWithName:] found no " + entry + what);

            MTLComputePipelineDescriptor* descriptor = [MTLComputePipelineDescriptor new];
            descriptor.computeFunction = function;
            descriptor.label = @(kernel.def.name.c_str());
            id<MTLComputePipelineState> pipeline =
                [device_ newComputePipelineStateWithDescriptor:descriptor
                                                       options:MTLPipelineOptionNone
                                                    reflection:nil
                                                         error:&error];
            if (!pipeline)
                fail("[MTLDevice newComputePipelineStateWithDescriptor:options:reflection:error:]" +
                         what,
                     error);

            PipelineInfo p;
            p.handle = static_cast<int>(pipelines_.size());
            pipelines_.push_back(pipeline);
            p.max_threads_per_threadgroup =
                static_cast<std::uint32_t>(pipeline.maxTotalThreadsPerThreadgroup);
            p.thread_execution_width = static_cast<std::uint32_t>(pipeline.threadExecutionWidth);
            // No public API reports register use: maxTotalThreadsPerThreadgroup
            // falls as it grows, and the binary archive's disassembly shows it.
            // An archive that cannot be written costs the archive, not the timing.
            if (!archive_dir.empty())
                write_archive(descriptor, archive_dir, kernel, p.archive, p.archive_error);
            return p;
        }
    }

    DispatchTiming run(const PipelineInfo& p, const Dispatch& d) override {
        @autoreleasepool {
            check_pipeline(p);
            id<MTLCommandBuffer> commands = command_buffer(p, d, 0);
            [commands commit];
            [commands waitUntilCompleted];
            DispatchTiming t = timing_of(commands);
            if (samples_) read_counters(t, 0);
            return t;
        }
    }

    std::vector<DispatchTiming> run_batch(const std::vector<Submission>& batch,
                                          unsigned in_flight) override {
        @autoreleasepool {
            for (const auto& s : batch) check_pipeline(s.pipeline);
            in_flight = std::max(1u, in_flight);
            // Each command buffer in flight samples into a slot of its own,
            // read back before a later one reuses it: no more in flight than
            // there are slots.
            if (samples_) in_flight = std::min(in_flight, kSampleSlots);
            std::vector<id<MTLCommandBuffer>> buffers;
            buffers.reserve(batch.size());
            std::vector<DispatchTiming> out(batch.size());
            std::size_t done = 0;  // command buffers waited for and read, in order
            auto finish = [&](std::size_t i) {
                [buffers[i] waitUntilCompleted];
                out[i] = timing_of(buffers[i]);
                if (samples_) read_counters(out[i], i % kSampleSlots);
            };
            for (std::size_t i = 0; i < batch.size(); ++i) {
                // At most `in_flight` queued: finish the oldest before adding
                // one (so command buffer i - kSampleSlots, the last to use
                // this slot, has been read).
                if (i >= in_flight) finish(done++);
                id<MTLCommandBuffer> commands =
                    command_buffer(batch[i].pipeline, batch[i].dispatch, i % kSampleSlots);
                [commands commit];
                buffers.push_back(commands);
            }
            while (done < buffers.size()) finish(done++);
            return out;
        }
    }

  private:
    void check_pipeline(const PipelineInfo& p) const {
        if (p.handle < 0 || static_cast<std::size_t>(p.handle) >= pipelines_.size())
            throw BackendError("run: a pipeline this backend did not compile");
    }

    // A command buffer holding the dispatch in a compute pass that samples
    // the stage-boundary counters at its start and end into sample slot
    // `slot` (where counters are sampled); not yet committed.
    id<MTLCommandBuffer> command_buffer(const PipelineInfo& p, const Dispatch& d,
                                        std::size_t slot) {
        id<MTLCommandBuffer> commands = [queue_ commandBuffer];
        if (!commands) throw BackendError("[MTLCommandQueue commandBuffer] returned nil");
        MTLComputePassDescriptor* pass = [MTLComputePassDescriptor computePassDescriptor];
        if (samples_) {
            pass.sampleBufferAttachments[0].sampleBuffer = samples_;
            pass.sampleBufferAttachments[0].startOfEncoderSampleIndex = 2 * slot;
            pass.sampleBufferAttachments[0].endOfEncoderSampleIndex = 2 * slot + 1;
        }
        id<MTLComputeCommandEncoder> encoder = [commands computeCommandEncoderWithDescriptor:pass];
        if (!encoder)
            throw BackendError(
                "[MTLCommandBuffer computeCommandEncoderWithDescriptor:] returned nil");
        encode(encoder, p, d);
        return commands;
    }

    // Encodes the dispatch and ends the encoder (`p` checked by check_pipeline).
    void encode(id<MTLComputeCommandEncoder> encoder, const PipelineInfo& p, const Dispatch& d) {
        [encoder setComputePipelineState:pipelines_[static_cast<std::size_t>(p.handle)]];
        [encoder setBuffer:seeds_ offset:0 atIndex:0];
        [encoder setBuffer:out_ offset:0 atIndex:1];
        KernelParams params = d.params;
        [encoder setBytes:&params length:sizeof params atIndex:2];
        [encoder setThreadgroupMemoryLength:d.threadgroup_memory_bytes atIndex:0];
        [encoder dispatchThreadgroups:MTLSizeMake(d.threadgroups, 1, 1)
                threadsPerThreadgroup:MTLSizeMake(d.threads_per_threadgroup, 1, 1)];
        [encoder endEncoding];
    }

    DispatchTiming timing_of(id<MTLCommandBuffer> commands) {
        if (commands.status != MTLCommandBufferStatusCompleted)
            fail("MTLCommandBuffer execution (status " +
                     std::to_string(static_cast<long>(commands.status)) + ")",
                 commands.error);
        DispatchTiming t;
        t.gpu_start = commands.GPUStartTime;
        t.gpu_end = commands.GPUEndTime;
        return t;
    }

    // The pass's two timestamps from sample slot `slot`, or why not: a nil
    // resolve costs the counters of this dispatch, and the command buffer's
    // times remain.
    void read_counters(DispatchTiming& t, std::size_t slot) {
        NSData* data = [samples_ resolveCounterRange:NSMakeRange(2 * slot, 2)];
        if (!data || data.length < 2 * sizeof(MTLCounterResultTimestamp)) {
            t.counter_error = "[MTLCounterSampleBuffer resolveCounterRange:] returned " +
                              std::string(data ? "too few bytes" : "nil");
            return;
        }
        const auto* stamps = static_cast<const MTLCounterResultTimestamp*>(data.bytes);
        t.counter_start = stamps[0].timestamp;
        t.counter_end = stamps[1].timestamp;
        // GPU ticks to seconds over everything since the backend started.
        MTLTimestamp cpu = 0, gpu = 0;
        [device_ sampleTimestamps:&cpu gpuTimestamp:&gpu];
        if (gpu > gpu0_ && cpu > cpu0_)
            t.seconds_per_tick =
                static_cast<double>(cpu - cpu0_) / static_cast<double>(gpu - gpu0_) * 1e-9;
    }

    // Counter sampling where the device offers it; where it does not, or the
    // sample buffer cannot be made, the run times by the command buffer and
    // the file says why.
    void setup_counters() {
        if (![device_ supportsCounterSampling:MTLCounterSamplingPointAtStageBoundary]) {
            info_.counters_note = "the device does not sample counters at stage boundaries";
            return;
        }
        id<MTLCounterSet> timestamps = nil;
        for (id<MTLCounterSet> set in device_.counterSets)
            if ([set.name isEqualToString:MTLCommonCounterSetTimestamp]) timestamps = set;
        if (!timestamps) {
            info_.counters_note = "the device has no timestamp counter set";
            return;
        }
        MTLCounterSampleBufferDescriptor* descriptor = [MTLCounterSampleBufferDescriptor new];
        descriptor.counterSet = timestamps;
        descriptor.sampleCount = 2 * kSampleSlots;
        descriptor.storageMode = MTLStorageModeShared;
        descriptor.label = @"agxsim-probe timestamps";
        NSError* error = nil;
        samples_ = [device_ newCounterSampleBufferWithDescriptor:descriptor error:&error];
        if (!samples_) {
            info_.counters_note =
                described("[MTLDevice newCounterSampleBufferWithDescriptor:error:]", error);
            return;
        }
        [device_ sampleTimestamps:&cpu0_ gpuTimestamp:&gpu0_];
        info_.stage_boundary_counters = true;
    }

    void write_archive(MTLComputePipelineDescriptor* descriptor, const std::string& dir,
                       const Kernel& kernel, std::string& path, std::string& error_text) {
        NSError* error = nil;
        id<MTLBinaryArchive> archive =
            [device_ newBinaryArchiveWithDescriptor:[MTLBinaryArchiveDescriptor new] error:&error];
        if (!archive) {
            error_text = described("[MTLDevice newBinaryArchiveWithDescriptor:error:]", error);
            return;
        }
        if (![archive addComputePipelineFunctionsWithDescriptor:descriptor error:&error]) {
            error_text = described(
                "[MTLBinaryArchive addComputePipelineFunctionsWithDescriptor:error:]", error);
            return;
        }
        const std::string file = dir + "/" + file_name_of(kernel.def.name) + "-" +
                                 std::to_string(kernel.repetitions) + ".metallib";
        if (![archive serializeToURL:[NSURL fileURLWithPath:@(file.c_str())] error:&error]) {
            error_text = described("[MTLBinaryArchive serializeToURL:error:] to " + file, error);
            return;
        }
        path = file;
    }

    id<MTLDevice> device_ = nil;
    id<MTLCommandQueue> queue_ = nil;
    id<MTLBuffer> seeds_ = nil;
    id<MTLBuffer> out_ = nil;
    id<MTLCounterSampleBuffer> samples_ = nil;
    MTLCompileOptions* compile_options_ = nil;
    MTLTimestamp cpu0_ = 0, gpu0_ = 0;
    std::vector<id<MTLComputePipelineState>> pipelines_;
    DeviceInfo info_;
};

}  // namespace

bool metal_backend_available() {
    return true;
}

std::unique_ptr<Backend> make_metal_backend(const MetalOptions& options) {
    return std::make_unique<MetalBackend>(options);
}

}  // namespace agx::probe
