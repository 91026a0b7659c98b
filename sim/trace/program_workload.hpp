// A workload built in code: every simd runs the same body of instructions a
// given number of times. Memory use is the body's, whatever the repetitions,
// so it serves tests, benchmarks and generated suites alike.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/trace/workload.hpp"

namespace agx {

class ProgramWorkload : public Workload {
  public:
    ProgramWorkload(std::string name, Launch launch, std::vector<Instruction> body,
                    std::uint64_t repetitions)
        : name_(std::move(name)),
          launch_(launch),
          body_(std::move(body)),
          repetitions_(repetitions) {}

    const Launch& launch() const override { return launch_; }
    std::string name() const override { return name_; }
    std::unique_ptr<InstructionStream> open(std::uint32_t, std::uint32_t) override {
        return std::make_unique<Stream>(body_, repetitions_);
    }

  private:
    class Stream : public InstructionStream {
      public:
        Stream(const std::vector<Instruction>& body, std::uint64_t reps)
            : body_(body), left_(body.empty() ? 0 : reps) {}
        const Instruction* peek() override { return left_ ? &body_[pos_] : nullptr; }
        void advance() override {
            if (++pos_ == body_.size()) {
                pos_ = 0;
                --left_;
            }
        }

      private:
        const std::vector<Instruction>& body_;
        std::size_t pos_ = 0;
        std::uint64_t left_;
    };

    std::string name_;
    Launch launch_;
    std::vector<Instruction> body_;
    std::uint64_t repetitions_;
};

// Helpers to write instructions in code (tests, generated benchmarks).
Operand reg32(unsigned r, CacheHint hint = CacheHint::None);
Operand reg16(unsigned half, CacheHint hint = CacheHint::None);  // half index: r5h = 11
Operand imm(std::uint32_t bits);
// An instruction by mnemonic; operands in catalogue order (destinations
// first). pc is the running byte offset the caller keeps. Throws
// std::invalid_argument for an unknown mnemonic.
Instruction make_instruction(const char* mnemonic, std::initializer_list<Operand> operands,
                             std::uint32_t pc = 0);

}  // namespace agx
