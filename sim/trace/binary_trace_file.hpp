// An open binary trace: its header, footer and index, checked when it is
// opened, and its chunks, decoded on demand into a small cache that every
// stream of the trace shares.
//
// Memory depends on the number of sections and of resident simds, never on
// the trace's length: the chunk table stays in the file and is read one
// entry at a time; the cache holds the chunks streams are reading plus the
// few most recently used ones.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "isa/catalogue.hpp"
#include "sim/trace/binary_trace_zstd.hpp"
#include "sim/trace/workload.hpp"

namespace agx {
class TraceWriter;
namespace trace_detail {
class TraceFile;
}
}  // namespace agx

namespace agx::binary_trace {

struct SectionEntry {
    std::uint32_t first_simd = 0;  // global simd indices, inclusive
    std::uint32_t last_simd = 0;
    std::uint64_t first_chunk = 0;
    std::uint64_t chunk_count = 0;
};

struct ChunkEntry {
    std::uint64_t offset = 0;  // of its zstd frame in the file
    std::uint32_t compressed_bytes = 0;
    std::uint32_t decoded_bytes = 0;
    std::uint32_t crc = 0;  // CRC-32 of the decoded bytes
};

// The records of one chunk, followed by kChunkPadding zero bytes.
struct Chunk {
    std::uint64_t index = 0;
    std::size_t size = 0;
    std::unique_ptr<unsigned char[]> bytes;
};

class BinaryTraceFile {
  public:
    // Opens `path` and checks its header, footer and index; the chunks are
    // checked by check_records(). Throws InputError("<path>", reason).
    explicit BinaryTraceFile(const std::string& path);
    ~BinaryTraceFile();
    BinaryTraceFile(const BinaryTraceFile&) = delete;
    BinaryTraceFile& operator=(const BinaryTraceFile&) = delete;

    const std::string& path() const;
    const Launch& launch() const { return launch_; }
    const std::string& kernel_name() const { return kernel_name_; }
    const std::vector<SectionEntry>& sections() const { return sections_; }  // by first simd
    const SectionEntry* find(std::uint32_t global_simd) const;
    // Opcodes by the file's mnemonic ids; never empty, and a stream's
    // clamped lookups stay within opcode_table_size().
    const isa::Opcode* opcodes() const { return opcodes_.data(); }
    std::size_t opcode_table_size() const { return opcodes_.size(); }

    // The decoded chunk `index`, for streams: shared through the cache, and
    // not checksummed again, since opening checked every chunk; instead the
    // file must be the one that was checked (same inode, size, modification
    // and change times). Thread-safe. Throws InputError if the file changed
    // or the frame does not decode.
    std::shared_ptr<const Chunk> chunk(std::uint64_t index) const;

    // Decodes every record of section `section` (an index into sections()),
    // checking each, and its repeat structure; passes them to `out` if not
    // null (the begin_section() / end_section() calls included). Throws
    // InputError naming the section, chunk and byte.
    void walk_section(std::size_t section, TraceWriter* out) const;

    // Checks every record of every section: what opening a trace does, so
    // that a bad file fails before simulation starts.
    void check_records() const;

  private:
    void read(std::uint64_t offset, void* out, std::size_t size, const char* what) const;
    void read_index(std::uint64_t file_size);
    ChunkEntry chunk_entry(std::uint64_t index) const;
    // Caller holds mutex_ (the decompressor and frame buffer are shared).
    std::shared_ptr<const Chunk> decode_chunk(std::uint64_t index, bool verify_checksum) const;
    void check_unchanged() const;
    std::string describe(std::size_t section) const;

    std::shared_ptr<const trace_detail::TraceFile> file_;
    Launch launch_;
    std::string kernel_name_;
    std::vector<isa::Opcode> opcodes_;
    std::size_t mnemonic_count_ = 0;  // in the file (opcodes_ has at least one entry)
    std::vector<SectionEntry> sections_;
    std::uint64_t chunk_count_ = 0;
    std::uint64_t chunk_table_offset_ = 0;  // in the file
    std::uint64_t index_offset_ = 0;        // chunks lie before it
    struct Identity {
        std::uint64_t device, inode, size;
        std::int64_t modified_ns, changed_ns;
        bool operator==(const Identity& o) const {
            return device == o.device && inode == o.inode && size == o.size &&
                   modified_ns == o.modified_ns && changed_ns == o.changed_ns;
        }
    };
    Identity identity() const;
    Identity opened_{};

    // The chunk cache: every chunk some stream still holds, found again by
    // its index, and the last few decoded, kept alive so that simds moving
    // through the same chunks one after another decode each once.
    static constexpr std::size_t kRecentChunks = 8;
    mutable std::mutex mutex_;
    mutable FrameDecompressor decompressor_;
    mutable std::vector<unsigned char> frame_;
    mutable std::unordered_map<std::uint64_t, std::weak_ptr<const Chunk>> live_;
    mutable std::size_t live_limit_ = 64;  // purge expired entries beyond this
    mutable std::array<std::shared_ptr<const Chunk>, kRecentChunks> recent_;
    mutable std::size_t next_recent_ = 0;
};

}  // namespace agx::binary_trace
