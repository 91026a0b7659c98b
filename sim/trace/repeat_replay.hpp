// The record-and-replay of a short innermost repeat body, shared by the text
// and the binary trace readers: the body's instructions are kept as they are
// decoded in its first pass, and its remaining passes come from that copy.
// Memory is bounded by `max_body` instructions per stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/trace/instruction.hpp"

namespace agx {

class RepeatReplay {
  public:
    explicit RepeatReplay(std::size_t max_body) : max_body_(max_body) {}

    // The next replayed instruction, or nullptr when not replaying. It stays
    // valid until the next call.
    const Instruction* next() {
        if (left_ == 0) return nullptr;
        const Instruction* in = &body_[pos_];
        pos_ = pos_ + 1 == body_.size() ? 0 : pos_ + 1;
        --left_;
        return in;
    }

    // A repeat block starts: record its body (a nested one restarts this).
    void repeat_started() {
        body_.clear();
        recording_ = true;
    }

    // An instruction decoded from the file.
    void decoded(const Instruction& in) {
        if (!recording_) return;
        if (body_.size() < max_body_)
            body_.push_back(in);
        else
            recording_ = false;  // too long: the reader goes on decoding
    }

    // The end of a repeat block with `remaining` passes to go. Returns true if
    // the whole body is recorded and will be replayed for them: the reader
    // drops its frame and goes on after the block once next() runs dry.
    bool take_over(std::uint32_t remaining) {
        const bool replay = remaining > 0 && recording_ && !body_.empty();
        recording_ = false;
        if (replay) {
            left_ = std::uint64_t{remaining} * body_.size();
            pos_ = 0;
        }
        return replay;
    }

  private:
    std::size_t max_body_;
    std::vector<Instruction> body_;
    bool recording_ = false;
    std::uint64_t left_ = 0;
    std::size_t pos_ = 0;
};

}  // namespace agx
