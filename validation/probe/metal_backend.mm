// The Metal layer: every Metal call the probe makes is in this file. It
// compiles a generated kernel, describes the device, runs one dispatch at a
// time and reports when the GPU started and ended it. Every call is checked
// and a failure names the call. Everything else (kernels, launch plans,
// warm-up, trials, figures, files) is portable C++ tested with the fake backend.
//
// Built with ARC (-fobjc-arc) on macOS 11 or later.
#import <Foundation/Foundation.h>
#include <IOKit/IOKitLib.h>
#import <Metal/Metal.h>

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

[[noreturn]] void fail(const std::string& call, NSError* error) {
    throw BackendError(call + " failed" +
                       (error ? ": " + str(error.localizedDescription) : std::string()));
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

class MetalBackend : public Backend {
  public:
    explicit MetalBackend(const MetalOptions& options) {
        @autoreleasepool {
            device_ = MTLCreateSystemDefaultDevice();
            if (!device_)
                throw BackendError("MTLCreateSystemDefaultDevice() returned nil: no Metal GPU");
            queue_ = [device_ newCommandQueue];
            if (!queue_) throw BackendError("[MTLDevice newCommandQueue] returned nil");

            // Non-zero, and a permutation of the lanes (shuffles read other lanes).
            std::uint32_t seeds[kSeedWords];
            for (std::uint32_t i = 0; i < kSeedWords; ++i) seeds[i] = 1 + (i * 7 + 3) % kSeedWords;
            seeds_ = [device_ newBufferWithBytes:seeds
                                          length:sizeof seeds
                                         options:MTLResourceStorageModeShared];
            if (!seeds_)
                throw BackendError(
                    "[MTLDevice newBufferWithBytes:length:options:] returned nil (seeds)");
            out_ = [device_ newBufferWithLength:kOutWords * sizeof(std::uint32_t)
                                        options:MTLResourceStorageModePrivate];
            if (!out_)
                throw BackendError(
                    "[MTLDevice newBufferWithLength:options:] returned nil (output)");

            info_.backend = "metal";
            info_.name = str(device_.name);
            info_.chip = chip_from_device_name(info_.name);
            info_.family = gpu_family(device_);
            info_.os = "macOS " + str([[NSProcessInfo processInfo] operatingSystemVersionString]);
            info_.cores = gpu_core_count();
            info_.max_threadgroup_memory =
                static_cast<std::uint32_t>(device_.maxThreadgroupMemoryLength);
            if (options.use_counters) setup_counters();
        }
    }

    DeviceInfo device() const override { return info_; }

    PipelineInfo compile(const Kernel& kernel, const std::string& archive_dir) override {
        @autoreleasepool {
            const std::string what = " for " + kernel.def.name + " (" +
                                     std::to_string(kernel.repetitions) + " repetitions)";
            MTLCompileOptions* options = [MTLCompileOptions new];
            // Fast math off: it would let the compiler reassociate the float chains.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#if defined(__MAC_15_0)
            if (@available(macOS 15.0, *))
                options.mathMode = MTLMathModeSafe;
            else
                options.fastMathEnabled = NO;
#else
            options.fastMathEnabled = NO;
#endif
#pragma clang diagnostic pop
            NSError* error = nil;
            id<MTLLibrary> library = [device_ newLibraryWithSource:@(kernel.source.c_str())
                                                           options:options
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
            if (!archive_dir.empty()) p.archive = write_archive(descriptor, archive_dir, kernel);
            return p;
        }
    }

    DispatchTiming run(const PipelineInfo& p, const Dispatch& d) override {
        @autoreleasepool {
            if (p.handle < 0 || static_cast<std::size_t>(p.handle) >= pipelines_.size())
                throw BackendError("run: a pipeline this backend did not compile");
            id<MTLCommandBuffer> commands = [queue_ commandBuffer];
            if (!commands) throw BackendError("[MTLCommandQueue commandBuffer] returned nil");
            MTLComputePassDescriptor* pass = [MTLComputePassDescriptor computePassDescriptor];
            if (samples_) {
                pass.sampleBufferAttachments[0].sampleBuffer = samples_;
                pass.sampleBufferAttachments[0].startOfEncoderSampleIndex = 0;
                pass.sampleBufferAttachments[0].endOfEncoderSampleIndex = 1;
            }
            id<MTLComputeCommandEncoder> encoder =
                [commands computeCommandEncoderWithDescriptor:pass];
            if (!encoder)
                throw BackendError(
                    "[MTLCommandBuffer computeCommandEncoderWithDescriptor:] returned nil");
            [encoder setComputePipelineState:pipelines_[static_cast<std::size_t>(p.handle)]];
            [encoder setBuffer:seeds_ offset:0 atIndex:0];
            [encoder setBuffer:out_ offset:0 atIndex:1];
            KernelParams params = d.params;
            [encoder setBytes:&params length:sizeof params atIndex:2];
            [encoder setThreadgroupMemoryLength:d.threadgroup_memory_bytes atIndex:0];
            [encoder dispatchThreadgroups:MTLSizeMake(d.threadgroups, 1, 1)
                    threadsPerThreadgroup:MTLSizeMake(d.threads_per_threadgroup, 1, 1)];
            [encoder endEncoding];
            [commands commit];
            [commands waitUntilCompleted];
            if (commands.status != MTLCommandBufferStatusCompleted)
                fail("MTLCommandBuffer execution (status " +
                         std::to_string(static_cast<long>(commands.status)) + ")",
                     commands.error);

            DispatchTiming t;
            t.gpu_start = commands.GPUStartTime;
            t.gpu_end = commands.GPUEndTime;
            if (samples_) {
                NSData* data = [samples_ resolveCounterRange:NSMakeRange(0, 2)];
                if (!data || data.length < 2 * sizeof(MTLCounterResultTimestamp))
                    throw BackendError(
                        "[MTLCounterSampleBuffer resolveCounterRange:] returned no timestamps");
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
            return t;
        }
    }

  private:
    void setup_counters() {
        if (![device_ supportsCounterSampling:MTLCounterSamplingPointAtStageBoundary]) return;
        id<MTLCounterSet> timestamps = nil;
        for (id<MTLCounterSet> set in device_.counterSets)
            if ([set.name isEqualToString:MTLCommonCounterSetTimestamp]) timestamps = set;
        if (!timestamps) return;
        MTLCounterSampleBufferDescriptor* descriptor = [MTLCounterSampleBufferDescriptor new];
        descriptor.counterSet = timestamps;
        descriptor.sampleCount = 2;
        descriptor.storageMode = MTLStorageModeShared;
        descriptor.label = @"agxsim-probe timestamps";
        NSError* error = nil;
        samples_ = [device_ newCounterSampleBufferWithDescriptor:descriptor error:&error];
        if (!samples_) fail("[MTLDevice newCounterSampleBufferWithDescriptor:error:]", error);
        [device_ sampleTimestamps:&cpu0_ gpuTimestamp:&gpu0_];
        info_.stage_boundary_counters = true;
    }

    std::string write_archive(MTLComputePipelineDescriptor* descriptor, const std::string& dir,
                              const Kernel& kernel) {
        NSError* error = nil;
        id<MTLBinaryArchive> archive =
            [device_ newBinaryArchiveWithDescriptor:[MTLBinaryArchiveDescriptor new] error:&error];
        if (!archive) fail("[MTLDevice newBinaryArchiveWithDescriptor:error:]", error);
        if (![archive addComputePipelineFunctionsWithDescriptor:descriptor error:&error])
            fail("[MTLBinaryArchive addComputePipelineFunctionsWithDescriptor:error:]", error);
        const std::string path = dir + "/" + file_name_of(kernel.def.name) + "-" +
                                 std::to_string(kernel.repetitions) + ".metallib";
        if (![archive serializeToURL:[NSURL fileURLWithPath:@(path.c_str())] error:&error])
            fail("[MTLBinaryArchive serializeToURL:error:] to " + path, error);
        return path;
    }

    id<MTLDevice> device_ = nil;
    id<MTLCommandQueue> queue_ = nil;
    id<MTLBuffer> seeds_ = nil;
    id<MTLBuffer> out_ = nil;
    id<MTLCounterSampleBuffer> samples_ = nil;
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
