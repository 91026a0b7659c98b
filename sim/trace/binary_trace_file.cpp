#include "sim/trace/binary_trace_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sim/common/errors.hpp"
#include "sim/trace/binary_trace_checksum.hpp"
#include "sim/trace/binary_trace_format.hpp"
#include "sim/trace/binary_trace_records.hpp"
#include "sim/trace/instruction_check.hpp"
#include "sim/trace/kernel_name.hpp"
#include "sim/trace/trace_line_reader.hpp"
#include "sim/trace/trace_writer.hpp"

namespace agx::binary_trace {

namespace {

constexpr std::size_t kIndexReadPiece = 64 * 1024;  // the chunk table is checksummed in pieces

std::string hex_offset(std::uint64_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// Reads fields of the index in order, refusing to run past its end.
class IndexCursor {
  public:
    IndexCursor(const unsigned char* p, std::size_t size, const std::string& path)
        : p_(p), end_(p + size), path_(path) {}
    template <typename T>
    T take() {
        need(sizeof(T));
        T v = load<T>(p_);
        p_ += sizeof(T);
        return v;
    }
    const unsigned char* bytes(std::size_t n) {
        need(n);
        const unsigned char* at = p_;
        p_ += n;
        return at;
    }

  private:
    void need(std::size_t n) const {
        if (static_cast<std::size_t>(end_ - p_) < n)
            throw InputError(path_, "corrupt index: shorter than its contents");
    }
    const unsigned char* p_;
    const unsigned char* end_;
    const std::string& path_;
};

}  // namespace

BinaryTraceFile::BinaryTraceFile(const std::string& path)
    : file_(std::make_shared<trace_detail::TraceFile>(path)) {
    opened_ = identity();
    const std::uint64_t size = opened_.size;

    unsigned char header[kHeaderBytes] = {};
    const std::size_t have = static_cast<std::size_t>(std::min<std::uint64_t>(size, kHeaderBytes));
    read(0, header, have, "header");
    if (have == 0 || std::memcmp(header, kMagic, std::min(have, sizeof kMagic)) != 0)
        throw InputError(path, "not an agxsim binary trace (bad magic bytes)");
    if (have < kHeaderBytes)
        throw InputError(path, "truncated: " + std::to_string(size) +
                                   " bytes, shorter than the binary trace header");
    const auto version = load<std::uint32_t>(header + 8);
    if (version != kVersion)
        throw InputError(path, "binary trace version " + std::to_string(version) +
                                   " not supported (this agxsim reads version " +
                                   std::to_string(kVersion) + ")");
    if (load<std::uint32_t>(header + 12) != 0)
        throw InputError(path, "corrupt header: unknown flags");
    read_index(size);
}

BinaryTraceFile::~BinaryTraceFile() = default;

const std::string& BinaryTraceFile::path() const {
    return file_->path();
}

BinaryTraceFile::Identity BinaryTraceFile::identity() const {
    struct stat st {};
    if (::fstat(file_->fd(), &st) != 0)
        throw InputError(path(), std::string("cannot read trace: ") + std::strerror(errno));
    auto ns = [](const timespec& t) { return std::int64_t{t.tv_sec} * 1000000000 + t.tv_nsec; };
    return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
            static_cast<std::uint64_t>(st.st_size), ns(st.st_mtim), ns(st.st_ctim)};
}

// The change time cannot be set back by a program, so an unchanged identity
// means the bytes are those that were checked.
void BinaryTraceFile::check_unchanged() const {
    if (!(identity() == opened_)) throw InputError(path(), "the trace changed after it was opened");
}

void BinaryTraceFile::read(std::uint64_t offset, void* out, std::size_t size,
                           const char* what) const {
    auto* p = static_cast<char*>(out);
    while (size > 0) {
        const ssize_t n = ::pread(file_->fd(), p, size, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            throw InputError(path(), std::string("cannot read trace: ") + std::strerror(errno));
        if (n == 0)
            throw InputError(path(), std::string("truncated: the file ends inside the ") + what +
                                         " (it changed after it was opened?)");
        p += n;
        offset += static_cast<std::uint64_t>(n);
        size -= static_cast<std::size_t>(n);
    }
}

void BinaryTraceFile::read_index(std::uint64_t file_size) {
    const std::string& where = path();
    if (file_size < kHeaderBytes + kFooterBytes)
        throw InputError(where, "truncated: " + std::to_string(file_size) +
                                    " bytes, too short to hold the footer");
    unsigned char footer[kFooterBytes];
    read(file_size - kFooterBytes, footer, kFooterBytes, "footer");
    if (std::memcmp(footer + 24, kEndMagic, sizeof kEndMagic) != 0)
        throw InputError(where, "truncated: the file (" + std::to_string(file_size) +
                                    " bytes) does not end with the binary trace footer");
    index_offset_ = load<std::uint64_t>(footer);
    const auto index_bytes = load<std::uint64_t>(footer + 8);
    const auto index_crc = load<std::uint32_t>(footer + 16);
    if (load<std::uint32_t>(footer + 20) != kVersion)
        throw InputError(where, "corrupt footer: its version differs from the header's");
    if (index_offset_ < kHeaderBytes || index_bytes < kIndexFixedBytes ||
        index_offset_ > file_size - kFooterBytes ||
        index_bytes != file_size - kFooterBytes - index_offset_)
        throw InputError(where, "corrupt footer: the index it points to (" +
                                    std::to_string(index_bytes) + " bytes at " +
                                    hex_offset(index_offset_) + ") does not fit the file");

    // The whole index is checksummed, in pieces: the chunk table can be long.
    std::vector<unsigned char> piece(
        static_cast<std::size_t>(std::min<std::uint64_t>(index_bytes, kIndexReadPiece)));
    std::uint32_t crc = 0;
    for (std::uint64_t done = 0; done < index_bytes;) {
        const auto n =
            static_cast<std::size_t>(std::min<std::uint64_t>(index_bytes - done, piece.size()));
        read(index_offset_ + done, piece.data(), n, "index");
        crc = crc32(piece.data(), n, crc);
        done += n;
    }
    if (crc != index_crc) throw InputError(where, "corrupt index (checksum mismatch)");

    unsigned char fixed[kIndexFixedBytes];
    read(index_offset_, fixed, kIndexFixedBytes, "index");
    IndexCursor head(fixed, kIndexFixedBytes, where);
    launch_.threads_per_threadgroup = head.take<std::uint32_t>();
    launch_.threadgroups = head.take<std::uint32_t>();
    launch_.registers_halves = head.take<std::uint32_t>();
    launch_.threadgroup_memory_bytes = head.take<std::uint32_t>();
    launch_.overhead_cycles = head.take<std::uint32_t>();
    launch_.code_in_l2_bytes = head.take<std::uint32_t>();
    const auto section_count = head.take<std::uint32_t>();
    const auto name_bytes = head.take<std::uint32_t>();
    const auto mnemonic_count = head.take<std::uint32_t>();
    if (head.take<std::uint32_t>() != 0)
        throw InputError(where, "corrupt index: reserved field not 0");
    chunk_count_ = head.take<std::uint64_t>();
    if (name_bytes > kMaxKernelName)
        throw InputError(where, "index: a kernel name of " + std::to_string(name_bytes) +
                                    " bytes (at most " + std::to_string(kMaxKernelName) + ")");
    if (mnemonic_count > 0x10000)
        throw InputError(where, "corrupt index: " + std::to_string(mnemonic_count) +
                                    " mnemonics (at most 65536)");

    // The launch, checked as the text format checks its `launch` line.
    if (launch_.threads_per_threadgroup < 1 || launch_.threads_per_threadgroup > 1024)
        throw InputError(where, "launch: threads_per_threadgroup must be 1..1024");
    if (launch_.threadgroups < 1)
        throw InputError(where, "launch: threadgroups must be at least 1");
    if (launch_.registers_halves < 1 || launch_.registers_halves > 256)
        throw InputError(where, "launch: registers must be 1..256 half-registers");
    const std::uint64_t total =
        std::uint64_t{launch_.threadgroups} * launch_.simds_per_threadgroup();
    if (total > UINT32_MAX) throw InputError(where, "launch: more than 2^32 simds");

    // Everything before the chunk table is small: read it whole.
    const std::uint64_t tables = index_bytes - kIndexFixedBytes;
    if (chunk_count_ > tables / kChunkEntryBytes)
        throw InputError(
            where, "corrupt index: " + std::to_string(chunk_count_) + " chunks do not fit it");
    const std::uint64_t head_bytes = tables - chunk_count_ * kChunkEntryBytes;
    if (head_bytes < name_bytes + std::uint64_t{section_count} * kSectionEntryBytes)
        throw InputError(where, "corrupt index: its tables do not fit it");
    std::vector<unsigned char> rest(static_cast<std::size_t>(head_bytes));
    read(index_offset_ + kIndexFixedBytes, rest.data(), rest.size(), "index");
    IndexCursor in(rest.data(), rest.size(), where);
    const unsigned char* name = in.bytes(name_bytes);
    kernel_name_.assign(reinterpret_cast<const char*>(name), name_bytes);
    if (name_bytes)  // 0: no name
        if (const auto problem = kernel_name_problem(kernel_name_))
            throw InputError(where, "index: " + *problem);

    const auto& cat = isa::Catalogue::instance();
    for (std::uint32_t i = 0; i < mnemonic_count; ++i) {
        const auto len = in.take<std::uint8_t>();
        const unsigned char* text = in.bytes(len);
        const std::string_view m(reinterpret_cast<const char*>(text), len);
        const auto op = cat.find(m);
        if (!op)
            throw InputError(where, "unknown mnemonic '" + std::string(m) +
                                        "' in the index (not in this agxsim's catalogue)");
        opcodes_.push_back(*op);
    }
    mnemonic_count_ = opcodes_.size();
    // Never empty, so that the stream decoder's clamped lookup stays inside.
    if (opcodes_.empty()) opcodes_.push_back(0);

    sections_.resize(section_count);
    for (auto& s : sections_) {
        s.first_simd = in.take<std::uint32_t>();
        s.last_simd = in.take<std::uint32_t>();
        s.first_chunk = in.take<std::uint64_t>();
        s.chunk_count = in.take<std::uint64_t>();
    }
    if (in.bytes(0) != rest.data() + rest.size())
        throw InputError(where, "corrupt index: unexpected bytes after the section table");
    chunk_table_offset_ = index_offset_ + kIndexFixedBytes + head_bytes;

    // Sections: sorted, within the chunk table, and covering every simd
    // exactly once.
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < sections_.size(); ++i) {
        const auto& s = sections_[i];
        if (s.first_simd > s.last_simd)
            throw InputError(
                where, "corrupt index: " + describe(i) + " has its first simd above its last");
        if (s.chunk_count == 0 || s.first_chunk > chunk_count_ ||
            s.chunk_count > chunk_count_ - s.first_chunk)
            throw InputError(
                where, "corrupt index: " + describe(i) + " names chunks beyond the chunk table");
        if (s.first_simd > expected)
            throw InputError(where,
                             "simd " + std::to_string(expected) + " has no instruction stream");
        if (s.first_simd < expected)
            throw InputError(
                where, "simd " + std::to_string(s.first_simd) + " has two instruction streams");
        expected = std::uint64_t{s.last_simd} + 1;
    }
    if (expected < total)
        throw InputError(where, "simd " + std::to_string(expected) + " has no instruction stream");
    if (expected > total)
        throw InputError(where, "simd " + std::to_string(total) + " out of range: the launch has " +
                                    std::to_string(total) + " simds");
}

const SectionEntry* BinaryTraceFile::find(std::uint32_t global_simd) const {
    auto it =
        std::upper_bound(sections_.begin(), sections_.end(), global_simd,
                         [](std::uint32_t g, const SectionEntry& s) { return g < s.first_simd; });
    if (it == sections_.begin()) return nullptr;
    --it;
    return global_simd <= it->last_simd ? &*it : nullptr;
}

std::string BinaryTraceFile::describe(std::size_t section) const {
    const auto& s = sections_[section];
    return "section " + std::to_string(section) + " (simd " + std::to_string(s.first_simd) +
           (s.last_simd != s.first_simd ? ".." + std::to_string(s.last_simd) : "") + ")";
}

ChunkEntry BinaryTraceFile::chunk_entry(std::uint64_t index) const {
    unsigned char raw[kChunkEntryBytes];
    read(chunk_table_offset_ + index * kChunkEntryBytes, raw, sizeof raw, "chunk table");
    ChunkEntry e;
    e.offset = load<std::uint64_t>(raw);
    e.compressed_bytes = load<std::uint32_t>(raw + 8);
    e.decoded_bytes = load<std::uint32_t>(raw + 12);
    e.crc = load<std::uint32_t>(raw + 16);
    if (e.offset < kHeaderBytes || e.compressed_bytes == 0 || e.offset > index_offset_ ||
        e.compressed_bytes > index_offset_ - e.offset || e.decoded_bytes == 0 ||
        e.decoded_bytes > kChunkBytes || load<std::uint32_t>(raw + 20) != 0)
        throw InputError(path(), "corrupt index: chunk " + std::to_string(index) +
                                     " has impossible offsets or sizes");
    return e;
}

std::shared_ptr<const Chunk> BinaryTraceFile::decode_chunk(std::uint64_t index,
                                                           bool verify_checksum) const {
    const ChunkEntry e = chunk_entry(index);
    frame_.resize(e.compressed_bytes);
    read(e.offset, frame_.data(), frame_.size(), "chunk");
    auto chunk = std::make_shared<Chunk>();
    chunk->index = index;
    chunk->size = e.decoded_bytes;
    // Zero padding: the decoder may read a whole record's worth past any
    // record start without a bounds check.
    chunk->bytes.reset(new unsigned char[e.decoded_bytes + kChunkPadding]);
    std::memset(chunk->bytes.get() + e.decoded_bytes, 0, kChunkPadding);
    const std::string where = "chunk " + std::to_string(index) + " at byte " + hex_offset(e.offset);
    const std::string problem =
        decompressor_.decompress(frame_.data(), frame_.size(), chunk->bytes.get(), e.decoded_bytes);
    if (!problem.empty()) throw InputError(path(), where + ": corrupt frame: " + problem);
    if (verify_checksum && crc32(chunk->bytes.get(), e.decoded_bytes) != e.crc)
        throw InputError(path(), where + ": corrupt frame (checksum mismatch)");
    return chunk;
}

std::shared_ptr<const Chunk> BinaryTraceFile::chunk(std::uint64_t index) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(index);
    if (it != live_.end())
        if (auto c = it->second.lock()) return c;
    check_unchanged();
    if (index >= chunk_count_) throw InputError(path(), "the trace changed after it was opened");
    std::shared_ptr<const Chunk> c = decode_chunk(index, false);
    live_[index] = c;
    recent_[next_recent_++ % kRecentChunks] = c;
    if (live_.size() > live_limit_) {
        for (auto e = live_.begin(); e != live_.end();)
            e = e->second.expired() ? live_.erase(e) : std::next(e);
        live_limit_ = std::max<std::size_t>(64, 2 * live_.size());
    }
    return c;
}

void BinaryTraceFile::walk_section(std::size_t section, TraceWriter* out) const {
    const SectionEntry& s = sections_.at(section);
    if (out) out->begin_section(s.first_simd, s.last_simd);
    std::vector<std::uint32_t> repeats;  // open repeat counts
    Instruction scratch;
    std::string problem;
    bool ended = false;
    for (std::uint64_t c = s.first_chunk; c < s.first_chunk + s.chunk_count; ++c) {
        std::shared_ptr<const Chunk> chunk;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            chunk = decode_chunk(c, true);
        }
        const unsigned char* base = chunk->bytes.get();
        const unsigned char* p = base;
        const unsigned char* end = base + chunk->size;
        Deltas deltas;  // from zero at the chunk's start (see Deltas)
        auto fail = [&](const std::string& why) {
            throw InputError(path(), describe(section) + ", chunk " + std::to_string(c) +
                                         ", byte " + std::to_string(p - base) + ": " + why);
        };
        while (p < end) {
            if (ended) fail("records after the end of the section");
            const std::uint8_t tag = *p;
            switch (tag & 3u) {
                case kInstructionRecord: {
                    const unsigned char* next = check_instruction_record(
                        p, end, opcodes(), mnemonic_count_, launch_.registers_halves, deltas,
                        scratch, problem);
                    if (!next) fail(problem);
                    // What the text format could not say is refused too.
                    problem = trace_detail::instruction_problem(scratch, launch_);
                    if (!problem.empty())
                        fail(std::string(isa::Catalogue::instance().info(scratch.opcode).mnemonic) +
                             " " + problem);
                    if (out) out->instruction(scratch);
                    p = next;
                    break;
                }
                case kRepeatRecord: {
                    if (tag != kRepeatRecord) fail("repeat record with unknown flags");
                    if (end - p < 5) fail("repeat record cut by the end of its chunk");
                    const auto n = load<std::uint32_t>(p + 1);
                    if (n < 1) fail("repeat count 0 (expected 1 or more)");
                    if (repeats.size() == kMaxRepeatNesting)
                        fail("repeat blocks nested deeper than " +
                             std::to_string(kMaxRepeatNesting));
                    repeats.push_back(n);
                    if (out) out->begin_repeat(n);
                    p += 5;
                    deltas = {};
                    break;
                }
                case kEndRepeatRecord:
                    if (tag != kEndRepeatRecord) fail("end-of-repeat record with unknown flags");
                    if (repeats.empty()) fail("end of a repeat block that was not begun");
                    repeats.pop_back();
                    if (out) out->end_repeat();
                    ++p;
                    deltas = {};
                    break;
                default:
                    if (tag != kEndSectionRecord) fail("end-of-section record with unknown flags");
                    if (!repeats.empty()) fail("section ends inside a repeat block");
                    ended = true;
                    ++p;
                    break;
            }
        }
        if (ended && c + 1 != s.first_chunk + s.chunk_count)
            throw InputError(path(), describe(section) + ": chunks after the end of the section");
    }
    if (!ended)
        throw InputError(path(), describe(section) + ": truncated: no end-of-section record");
    if (out) out->end_section();
}

void BinaryTraceFile::check_records() const {
    for (std::size_t i = 0; i < sections_.size(); ++i) walk_section(i, nullptr);
}

}  // namespace agx::binary_trace
