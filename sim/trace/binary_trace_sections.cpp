#include "sim/trace/binary_trace_sections.hpp"

#include <algorithm>
#include <cstring>
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

using namespace binary_trace;

namespace {

void expect(bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(std::string("binary trace writer: ") + what);
}

}  // namespace

struct BinarySectionsWriter::State {
    explicit State(std::ostream& o) : out(o) {}

    // A section being written: its records since its last chunk was
    // written, and the entries of the chunks it has written. (Members, not
    // file-local types: a member of State may not have a type of an
    // anonymous namespace once a unity build includes this file.)
    struct OpenSection {
        SectionEntry entry;
        std::vector<unsigned char> chunk;  // grows to at most kChunkBytes
        Deltas deltas;                     // of the chunk's records so far
        unsigned depth = 0;                // repeat blocks open
        std::vector<ChunkEntry> chunks;
        bool open = false;
    };
    struct ClosedSection {
        SectionEntry entry;
        std::vector<ChunkEntry> chunks;
    };

    std::ostream& out;
    std::uint64_t written = 0;
    Launch launch;
    std::string kernel_name;
    bool begun = false, finished = false;
    FrameCompressor compressor;
    std::string frame;
    std::vector<OpenSection> slots;  // by handle
    std::vector<Section> free_slots;
    std::vector<ClosedSection> closed;
    std::unordered_map<isa::Opcode, std::uint16_t> mnemonic_ids;
    std::vector<isa::Opcode> opcodes;  // by mnemonic id

    void write(const void* p, std::size_t n) {
        out.write(static_cast<const char*>(p), static_cast<std::streamsize>(n));
        written += n;
    }

    OpenSection& open_one(Section s) {
        expect(s < slots.size() && slots[s].open, "no such open section");
        return slots[s];
    }

    // Records never straddle chunks: a record that does not fit starts the
    // next one, so a stream can decode a chunk on its own.
    void append(OpenSection& o, const unsigned char* p, std::size_t n) {
        if (o.chunk.size() + n > kChunkBytes) flush_chunk(o);
        o.chunk.insert(o.chunk.end(), p, p + n);
    }

    void flush_chunk(OpenSection& o) {
        if (o.chunk.empty()) return;
        frame.clear();
        compressor.compress(o.chunk.data(), o.chunk.size(), frame);
        ChunkEntry e;
        e.offset = written;
        e.compressed_bytes = static_cast<std::uint32_t>(frame.size());
        e.decoded_bytes = static_cast<std::uint32_t>(o.chunk.size());
        e.crc = crc32(o.chunk.data(), o.chunk.size());
        o.chunks.push_back(e);
        write(frame.data(), frame.size());
        o.chunk.clear();
        o.deltas = {};
    }

    void check_coverage(const std::vector<ClosedSection>& sections) const {
        const std::uint64_t total =
            std::uint64_t{launch.threadgroups} * launch.simds_per_threadgroup();
        std::uint64_t next = 0;
        for (const ClosedSection& s : sections) {
            if (s.entry.first_simd != next)
                throw std::invalid_argument(
                    "binary trace writer: simd " +
                    std::to_string(std::min<std::uint64_t>(next, s.entry.first_simd)) +
                    " has no section or two");
            next = std::uint64_t{s.entry.last_simd} + 1;
        }
        if (next != total)
            throw std::invalid_argument("binary trace writer: sections cover simds 0.." +
                                        std::to_string(next) + ", the launch has " +
                                        std::to_string(total));
    }
};

BinarySectionsWriter::BinarySectionsWriter(std::ostream& out)
    : state_(std::make_unique<State>(out)) {}

BinarySectionsWriter::~BinarySectionsWriter() = default;

void BinarySectionsWriter::begin(const Launch& launch, const std::string& kernel_name) {
    State& st = *state_;
    expect(!st.begun, "begin() called twice");
    check_kernel_name(kernel_name);
    st.begun = true;
    st.launch = launch;
    st.kernel_name = kernel_name;
    unsigned char header[kHeaderBytes] = {};
    std::memcpy(header, kMagic, sizeof kMagic);
    store<std::uint32_t>(header + 8, kVersion);
    st.write(header, sizeof header);
}

BinarySectionsWriter::Section BinarySectionsWriter::open_section(std::uint32_t first_simd,
                                                                 std::uint32_t last_simd) {
    State& st = *state_;
    expect(st.begun && !st.finished, "a section outside the trace");
    expect(first_simd <= last_simd, "section's first simd above its last");
    Section s = st.slots.size();
    if (!st.free_slots.empty()) {
        s = st.free_slots.back();
        st.free_slots.pop_back();
    } else {
        st.slots.emplace_back();
    }
    State::OpenSection& o = st.slots[s];
    o.entry = {first_simd, last_simd, 0, 0};
    o.chunk.clear();
    o.deltas = {};
    o.depth = 0;
    o.chunks.clear();
    o.open = true;
    return s;
}

void BinarySectionsWriter::instruction(Section s, const Instruction& in) {
    State& st = *state_;
    State::OpenSection& o = st.open_one(s);
    auto it = st.mnemonic_ids.find(in.opcode);
    if (it == st.mnemonic_ids.end()) {
        expect(st.mnemonic_ids.size() < 0xffff, "more than 65535 mnemonics");
        it =
            st.mnemonic_ids.emplace(in.opcode, static_cast<std::uint16_t>(st.opcodes.size())).first;
        st.opcodes.push_back(in.opcode);
    }
    unsigned char record[kMaxInstructionRecord];
    std::size_t n = encode_instruction(in, it->second, o.deltas, record);
    if (o.chunk.size() + n > kChunkBytes) {
        // It starts the next chunk, where deltas start from zero again.
        st.flush_chunk(o);
        n = encode_instruction(in, it->second, o.deltas, record);
    }
    st.append(o, record, n);
}

void BinarySectionsWriter::begin_repeat(Section s, std::uint32_t count) {
    State& st = *state_;
    State::OpenSection& o = st.open_one(s);
    expect(count >= 1, "repeat count 0");
    expect(o.depth < kMaxRepeatNesting, "repeat blocks nested too deep");
    ++o.depth;
    unsigned char record[5] = {kRepeatRecord};
    store<std::uint32_t>(record + 1, count);
    st.append(o, record, sizeof record);
    o.deltas = {};  // a repeat pass jumps back to here
}

void BinarySectionsWriter::end_repeat(Section s) {
    State& st = *state_;
    State::OpenSection& o = st.open_one(s);
    expect(o.depth > 0, "end_repeat() without a repeat block");
    --o.depth;
    const unsigned char record = kEndRepeatRecord;
    st.append(o, &record, 1);
    o.deltas = {};  // a replayed body's stream goes on from here
}

void BinarySectionsWriter::close_section(Section s) {
    State& st = *state_;
    State::OpenSection& o = st.open_one(s);
    expect(o.depth == 0, "a section closed inside a repeat");
    const unsigned char record = kEndSectionRecord;
    st.append(o, &record, 1);
    st.flush_chunk(o);  // the next section starts a chunk of its own
    st.closed.push_back({o.entry, std::move(o.chunks)});
    o.chunks = {};
    o.open = false;
    st.free_slots.push_back(s);
}

void BinarySectionsWriter::finish() {
    State& st = *state_;
    expect(st.begun && !st.finished, "finish() before begin() or twice");
    expect(st.free_slots.size() == st.slots.size(), "finish() with a section open");
    st.finished = true;
    std::vector<State::ClosedSection>& sections = st.closed;
    std::stable_sort(sections.begin(), sections.end(),
                     [](const State::ClosedSection& a, const State::ClosedSection& b) {
                         return a.entry.first_simd < b.entry.first_simd;
                     });
    st.check_coverage(sections);
    // The chunk table lists each section's chunks together, in section order.
    std::uint64_t chunk_count = 0;
    for (State::ClosedSection& s : sections) {
        s.entry.first_chunk = chunk_count;
        s.entry.chunk_count = s.chunks.size();
        chunk_count += s.chunks.size();
    }
    const std::uint64_t index_offset = st.written;
    std::uint32_t crc = 0;
    auto put = [&](const void* p, std::size_t n) {
        crc = crc32(p, n, crc);
        st.write(p, n);
    };
    unsigned char fixed[kIndexFixedBytes] = {};
    const Launch& launch = st.launch;
    store<std::uint32_t>(fixed + 0, launch.threads_per_threadgroup);
    store<std::uint32_t>(fixed + 4, launch.threadgroups);
    store<std::uint32_t>(fixed + 8, launch.registers_halves);
    store<std::uint32_t>(fixed + 12, launch.threadgroup_memory_bytes);
    store<std::uint32_t>(fixed + 16, launch.overhead_cycles);
    store<std::uint32_t>(fixed + 20, launch.code_in_l2_bytes);
    unsigned char* counts = fixed + kLaunchBytes;
    store<std::uint32_t>(counts, static_cast<std::uint32_t>(sections.size()));
    store<std::uint32_t>(counts + 4, static_cast<std::uint32_t>(st.kernel_name.size()));
    store<std::uint32_t>(counts + 8, static_cast<std::uint32_t>(st.opcodes.size()));
    store<std::uint64_t>(counts + 16, chunk_count);
    put(fixed, sizeof fixed);
    put(st.kernel_name.data(), st.kernel_name.size());
    const auto& cat = isa::Catalogue::instance();
    for (isa::Opcode op : st.opcodes) {
        const std::string_view m = cat.info(op).mnemonic;
        const auto len = static_cast<unsigned char>(m.size());
        put(&len, 1);
        put(m.data(), m.size());
    }
    for (const State::ClosedSection& s : sections) {
        unsigned char e[kSectionEntryBytes];
        store<std::uint32_t>(e, s.entry.first_simd);
        store<std::uint32_t>(e + 4, s.entry.last_simd);
        store<std::uint64_t>(e + 8, s.entry.first_chunk);
        store<std::uint64_t>(e + 16, s.entry.chunk_count);
        put(e, sizeof e);
    }
    for (const State::ClosedSection& s : sections)
        for (const ChunkEntry& c : s.chunks) {
            unsigned char e[kChunkEntryBytes] = {};
            store<std::uint64_t>(e, c.offset);
            store<std::uint32_t>(e + 8, c.compressed_bytes);
            store<std::uint32_t>(e + 12, c.decoded_bytes);
            store<std::uint32_t>(e + 16, c.crc);
            put(e, sizeof e);
        }
    unsigned char footer[kFooterBytes];
    store<std::uint64_t>(footer, index_offset);
    store<std::uint64_t>(footer + 8, st.written - index_offset);
    store<std::uint32_t>(footer + 16, crc);
    store<std::uint32_t>(footer + 20, kVersion);
    std::memcpy(footer + 24, kEndMagic, sizeof kEndMagic);
    st.write(footer, sizeof footer);
    st.out.flush();
}

}  // namespace agx
