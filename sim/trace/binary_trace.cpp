// Workload and instruction streams of a binary trace.
#include "sim/trace/binary_trace.hpp"

#include <stdexcept>
#include <vector>

#include "sim/common/errors.hpp"
#include "sim/trace/binary_trace_file.hpp"
#include "sim/trace/binary_trace_format.hpp"
#include "sim/trace/binary_trace_records.hpp"
#include "sim/trace/repeat_replay.hpp"

namespace agx {

namespace {

using binary_trace::BinaryTraceFile;
using binary_trace::Chunk;
using binary_trace::SectionEntry;

// An innermost repeat body of at most this many instructions is decoded
// once and its remaining passes replayed from the copy, as the text reader
// does: a benchmark trace, a short body repeated thousands of times, then
// costs no decoding after its first pass. The bound keeps a stream's memory
// small (~24 KB) with hundreds of simds resident; decoding a record costs
// little, so longer bodies gain little from a copy.
constexpr std::size_t kMaxReplayedBody = 64;

// Follows one section's records: instructions are decoded one at a time into
// `current_`, repeat blocks are run by jumping back to their body's first
// record (or replayed, see kMaxReplayedBody). The file was checked when
// opened, so nothing here re-checks a record; chunks are verified against
// their checksum as they are decoded.
class BinaryStream final : public InstructionStream {
  public:
    BinaryStream(std::shared_ptr<const BinaryTraceFile> file, const SectionEntry& section)
        : file_(std::move(file)),
          opcodes_(file_->opcodes()),
          last_id_(static_cast<std::uint16_t>(file_->opcode_table_size() - 1)) {
        repeats_.reserve(binary_trace::kMaxRepeatNesting);
        enter(section.first_chunk, 0);
    }

    const Instruction* peek() override {
        if (!ready_) next();
        return head_;
    }

    void advance() override {
        if (!ready_) next();
        ready_ = false;
    }

  private:
    // A repeat block being run: where its body starts and how many more
    // passes remain after the current one.
    struct Frame {
        std::uint64_t chunk;
        std::uint32_t offset;
        std::uint32_t remaining;
    };

    void enter(std::uint64_t chunk, std::size_t offset) {
        if (!chunk_ || chunk_->index != chunk) chunk_ = file_->chunk(chunk);
        p_ = chunk_->bytes.get() + offset;
        end_ = chunk_->bytes.get() + chunk_->size;
        deltas_ = {};  // every place a stream enters starts deltas from zero
    }

    // Makes head_ the next instruction, from a replayed body or the file;
    // nullptr once the section has ended.
    void next() {
        using namespace binary_trace;
        ready_ = true;
        if ((head_ = replay_.next())) return;
        while (!done_) {
            // Records never straddle chunks, and the section's last record
            // ends it, so running off a chunk means its successor.
            if (p_ == end_) enter(chunk_->index + 1, 0);
            if ((*p_ & 3u) == kInstructionRecord) {
                p_ = decode_instruction(p_, opcodes_, last_id_, deltas_, current_, unchecked_);
                replay_.decoded(current_);
                head_ = &current_;
                return;
            }
            if (!follow_control_record()) {
                head_ = replay_.next();  // nullptr if the section ended
                return;
            }
        }
    }

    // Follows the repeat, end-of-repeat or end-of-section record at p_;
    // returns false where reading the file stops for now: the section has
    // ended, or a replayed body gives the next instructions.
    bool follow_control_record() {
        using namespace binary_trace;
        switch (*p_ & 3u) {
            case kRepeatRecord:
                repeats_.push_back({chunk_->index,
                                    static_cast<std::uint32_t>(p_ + 5 - chunk_->bytes.get()),
                                    load<std::uint32_t>(p_ + 1) - 1});
                p_ += 5;
                deltas_ = {};
                replay_.repeat_started();
                return true;
            case kEndRepeatRecord: {
                if (repeats_.empty()) changed();  // checked at open: the file changed since
                Frame& f = repeats_.back();
                if (f.remaining != 0 && !replay_.take_over(f.remaining)) {
                    --f.remaining;
                    enter(f.chunk, f.offset);
                    return true;
                }
                // The last pass, or the remaining ones come from the
                // decoded copy: the file goes on after this record.
                const bool replayed = f.remaining != 0;
                if (!replayed) replay_.take_over(0);
                repeats_.pop_back();
                ++p_;
                deltas_ = {};
                return !replayed;
            }
            default:  // end of section
                done_ = true;
                chunk_.reset();
                return false;
        }
    }

    [[noreturn]] void changed() const {
        throw InputError(file_->path(), "the trace changed after it was opened");
    }

    std::shared_ptr<const BinaryTraceFile> file_;
    const isa::Opcode* opcodes_;
    std::uint16_t last_id_;
    std::shared_ptr<const Chunk> chunk_;
    const unsigned char* p_ = nullptr;
    const unsigned char* end_ = nullptr;
    binary_trace::Deltas deltas_;
    binary_trace::Unchecked unchecked_;  // opening checked every record
    std::vector<Frame> repeats_;
    Instruction current_;
    const Instruction* head_ = nullptr;
    RepeatReplay replay_{kMaxReplayedBody};
    bool ready_ = false;  // head_ is the next instruction
    bool done_ = false;   // the section's last record was read
};

class BinaryTraceWorkload final : public Workload {
  public:
    explicit BinaryTraceWorkload(const std::string& path)
        : file_(std::make_shared<BinaryTraceFile>(path)) {
        file_->check_records();
    }

    const Launch& launch() const override { return file_->launch(); }

    std::unique_ptr<InstructionStream> open(std::uint32_t threadgroup,
                                            std::uint32_t simd_in_group) override {
        const auto per_group = launch().simds_per_threadgroup();
        if (threadgroup >= launch().threadgroups || simd_in_group >= per_group)
            throw std::out_of_range("binary trace: no simd " + std::to_string(simd_in_group) +
                                    " in threadgroup " + std::to_string(threadgroup));
        const SectionEntry* section = file_->find(threadgroup * per_group + simd_in_group);
        if (!section) throw std::logic_error("binary trace: index does not cover every simd");
        return std::make_unique<BinaryStream>(file_, *section);
    }

    std::string name() const override { return file_->path(); }

  private:
    std::shared_ptr<const BinaryTraceFile> file_;
};

}  // namespace

std::unique_ptr<Workload> open_binary_trace(const std::string& path) {
    return std::make_unique<BinaryTraceWorkload>(path);
}

}  // namespace agx
