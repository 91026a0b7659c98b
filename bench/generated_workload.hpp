// A workload whose instructions are computed as the simds consume them, not
// stored: the memory kernels of the benchmark need a different address for
// every load of millions, which a stored body would have to hold.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "sim/trace/workload.hpp"

namespace agx::bench {

class GeneratedWorkload : public Workload {
  public:
    // Fills `out` with instruction `index` (0 .. per_simd - 1) of global simd
    // `simd`. `out` is the stream's own, reused from one call to the next.
    using Generator =
        std::function<void(std::uint32_t simd, std::uint64_t index, Instruction& out)>;

    GeneratedWorkload(std::string name, Launch launch, std::uint64_t per_simd, Generator generate)
        : name_(std::move(name)),
          launch_(launch),
          per_simd_(per_simd),
          generate_(std::move(generate)) {}

    const Launch& launch() const override { return launch_; }
    std::string name() const override { return name_; }
    std::unique_ptr<InstructionStream> open(std::uint32_t threadgroup,
                                            std::uint32_t simd_in_group) override {
        return std::make_unique<Stream>(
            *this, threadgroup * launch_.simds_per_threadgroup() + simd_in_group);
    }

  private:
    class Stream : public InstructionStream {
      public:
        Stream(const GeneratedWorkload& w, std::uint32_t simd) : w_(w), simd_(simd) {}
        const Instruction* peek() override {
            if (index_ == w_.per_simd_) return nullptr;
            if (!ready_) w_.generate_(simd_, index_, current_);
            ready_ = true;
            return &current_;
        }
        void advance() override {
            ++index_;
            ready_ = false;
        }

      private:
        const GeneratedWorkload& w_;
        std::uint32_t simd_;
        std::uint64_t index_ = 0;
        bool ready_ = false;
        Instruction current_;
    };

    std::string name_;
    Launch launch_;
    std::uint64_t per_simd_;
    Generator generate_;
};

}  // namespace agx::bench
