// The binary trace writer (traces/FORMAT.md, "Binary trace format").
#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/trace/binary_trace_checksum.hpp"
#include "sim/trace/binary_trace_file.hpp"
#include "sim/trace/binary_trace_format.hpp"
#include "sim/trace/binary_trace_records.hpp"
#include "sim/trace/binary_trace_zstd.hpp"
#include "sim/trace/kernel_name.hpp"
#include "sim/trace/trace_writer.hpp"

namespace agx {

namespace {

using namespace binary_trace;

class BinaryTraceWriter final : public TraceWriter {
  public:
    explicit BinaryTraceWriter(std::ostream& out) : out_(out) { chunk_.reserve(kChunkBytes); }

    void begin(const Launch& launch, const std::string& kernel_name) override {
        expect(!begun_, "begin() called twice");
        check_kernel_name(kernel_name);
        begun_ = true;
        launch_ = launch;
        kernel_name_ = kernel_name;
        unsigned char header[kHeaderBytes] = {};
        std::memcpy(header, kMagic, sizeof kMagic);
        store<std::uint32_t>(header + 8, kVersion);
        write(header, sizeof header);
    }

    void begin_section(std::uint32_t first_simd, std::uint32_t last_simd) override {
        expect(begun_ && !in_section_, "begin_section() outside the trace or inside a section");
        expect(first_simd <= last_simd, "section's first simd above its last");
        in_section_ = true;
        sections_.push_back({first_simd, last_simd, chunks_.size(), 0});
    }

    void instruction(const Instruction& in) override {
        expect(in_section_, "instruction outside a section");
        auto it = mnemonic_ids_.find(in.opcode);
        if (it == mnemonic_ids_.end()) {
            expect(mnemonic_ids_.size() < 0xffff, "more than 65535 mnemonics");
            it =
                mnemonic_ids_.emplace(in.opcode, static_cast<std::uint16_t>(opcodes_.size())).first;
            opcodes_.push_back(in.opcode);
        }
        unsigned char record[kMaxInstructionRecord];
        std::size_t n = encode_instruction(in, it->second, deltas_, record);
        if (chunk_.size() + n > kChunkBytes) {
            // It starts the next chunk, where deltas start from zero again.
            flush_chunk();
            n = encode_instruction(in, it->second, deltas_, record);
        }
        append(record, n);
    }

    void begin_repeat(std::uint32_t count) override {
        expect(in_section_, "repeat outside a section");
        expect(count >= 1, "repeat count 0");
        expect(depth_ < kMaxRepeatNesting, "repeat blocks nested too deep");
        ++depth_;
        unsigned char record[5] = {kRepeatRecord};
        store<std::uint32_t>(record + 1, count);
        append(record, sizeof record);
        deltas_ = {};  // a repeat pass jumps back to here
    }

    void end_repeat() override {
        expect(in_section_ && depth_ > 0, "end_repeat() without a repeat block");
        --depth_;
        const unsigned char record = kEndRepeatRecord;
        append(&record, 1);
        deltas_ = {};  // a replayed body's stream goes on from here
    }

    void end_section() override {
        expect(in_section_ && depth_ == 0, "end_section() outside a section or inside a repeat");
        const unsigned char record = kEndSectionRecord;
        append(&record, 1);
        flush_chunk();  // the next section starts a chunk of its own
        sections_.back().chunk_count = chunks_.size() - sections_.back().first_chunk;
        in_section_ = false;
    }

    void finish() override {
        expect(begun_ && !in_section_ && !finished_, "finish() inside a section or twice");
        finished_ = true;
        std::sort(sections_.begin(), sections_.end(),
                  [](const SectionEntry& a, const SectionEntry& b) {
                      return a.first_simd < b.first_simd;
                  });
        check_coverage();
        const std::uint64_t index_offset = written_;
        std::uint32_t crc = 0;
        auto put = [&](const void* p, std::size_t n) {
            crc = crc32(p, n, crc);
            write(p, n);
        };
        unsigned char fixed[kIndexFixedBytes] = {};
        store<std::uint32_t>(fixed + 0, launch_.threads_per_threadgroup);
        store<std::uint32_t>(fixed + 4, launch_.threadgroups);
        store<std::uint32_t>(fixed + 8, launch_.registers_halves);
        store<std::uint32_t>(fixed + 12, launch_.threadgroup_memory_bytes);
        store<std::uint32_t>(fixed + 16, launch_.overhead_cycles);
        store<std::uint32_t>(fixed + 20, launch_.code_in_l2_bytes);
        unsigned char* counts = fixed + kLaunchBytes;
        store<std::uint32_t>(counts, static_cast<std::uint32_t>(sections_.size()));
        store<std::uint32_t>(counts + 4, static_cast<std::uint32_t>(kernel_name_.size()));
        store<std::uint32_t>(counts + 8, static_cast<std::uint32_t>(opcodes_.size()));
        store<std::uint64_t>(counts + 16, chunks_.size());
        put(fixed, sizeof fixed);
        put(kernel_name_.data(), kernel_name_.size());
        const auto& cat = isa::Catalogue::instance();
        for (isa::Opcode op : opcodes_) {
            const std::string_view m = cat.info(op).mnemonic;
            const auto len = static_cast<unsigned char>(m.size());
            put(&len, 1);
            put(m.data(), m.size());
        }
        for (const SectionEntry& s : sections_) {
            unsigned char e[kSectionEntryBytes];
            store<std::uint32_t>(e, s.first_simd);
            store<std::uint32_t>(e + 4, s.last_simd);
            store<std::uint64_t>(e + 8, s.first_chunk);
            store<std::uint64_t>(e + 16, s.chunk_count);
            put(e, sizeof e);
        }
        for (const ChunkEntry& c : chunks_) {
            unsigned char e[kChunkEntryBytes] = {};
            store<std::uint64_t>(e, c.offset);
            store<std::uint32_t>(e + 8, c.compressed_bytes);
            store<std::uint32_t>(e + 12, c.decoded_bytes);
            store<std::uint32_t>(e + 16, c.crc);
            put(e, sizeof e);
        }
        unsigned char footer[kFooterBytes];
        store<std::uint64_t>(footer, index_offset);
        store<std::uint64_t>(footer + 8, written_ - index_offset);
        store<std::uint32_t>(footer + 16, crc);
        store<std::uint32_t>(footer + 20, kVersion);
        std::memcpy(footer + 24, kEndMagic, sizeof kEndMagic);
        write(footer, sizeof footer);
        out_.flush();
    }

  private:
    static void expect(bool ok, const char* what) {
        if (!ok) throw std::invalid_argument(std::string("binary trace writer: ") + what);
    }

    void check_coverage() const {
        const std::uint64_t total =
            std::uint64_t{launch_.threadgroups} * launch_.simds_per_threadgroup();
        std::uint64_t next = 0;
        for (const SectionEntry& s : sections_) {
            if (s.first_simd != next)
                throw std::invalid_argument(
                    "binary trace writer: simd " +
                    std::to_string(std::min<std::uint64_t>(next, s.first_simd)) +
                    " has no section or two");
            next = std::uint64_t{s.last_simd} + 1;
        }
        if (next != total)
            throw std::invalid_argument("binary trace writer: sections cover simds 0.." +
                                        std::to_string(next) + ", the launch has " +
                                        std::to_string(total));
    }

    void write(const void* p, std::size_t n) {
        out_.write(static_cast<const char*>(p), static_cast<std::streamsize>(n));
        written_ += n;
    }

    // Records never straddle chunks: a record that does not fit starts the
    // next one, so a stream can decode a chunk on its own.
    void append(const unsigned char* p, std::size_t n) {
        if (chunk_.size() + n > kChunkBytes) flush_chunk();
        chunk_.insert(chunk_.end(), p, p + n);
    }

    void flush_chunk() {
        if (chunk_.empty()) return;
        frame_.clear();
        compressor_.compress(chunk_.data(), chunk_.size(), frame_);
        ChunkEntry e;
        e.offset = written_;
        e.compressed_bytes = static_cast<std::uint32_t>(frame_.size());
        e.decoded_bytes = static_cast<std::uint32_t>(chunk_.size());
        e.crc = crc32(chunk_.data(), chunk_.size());
        chunks_.push_back(e);
        write(frame_.data(), frame_.size());
        chunk_.clear();
        deltas_ = {};
    }

    std::ostream& out_;
    std::uint64_t written_ = 0;
    Launch launch_;
    std::string kernel_name_;
    bool begun_ = false, in_section_ = false, finished_ = false;
    unsigned depth_ = 0;
    FrameCompressor compressor_;
    std::vector<unsigned char> chunk_;
    Deltas deltas_;  // of the chunk's records so far
    std::string frame_;
    std::vector<SectionEntry> sections_;
    std::vector<ChunkEntry> chunks_;
    std::unordered_map<isa::Opcode, std::uint16_t> mnemonic_ids_;
    std::vector<isa::Opcode> opcodes_;  // by mnemonic id
};

}  // namespace

std::unique_ptr<TraceWriter> make_binary_trace_writer(std::ostream& out) {
    return std::make_unique<BinaryTraceWriter>(out);
}

}  // namespace agx
