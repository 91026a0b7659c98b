// Replaying a trace file's structure into a TraceWriter: what `agxsim trace
// convert` does, for both formats.
#include "sim/common/errors.hpp"
#include "sim/trace/binary_trace_file.hpp"
#include "sim/trace/open_trace.hpp"
#include "sim/trace/trace_index.hpp"
#include "sim/trace/trace_line_reader.hpp"
#include "sim/trace/trace_parse.hpp"
#include "sim/trace/trace_writer.hpp"

namespace agx {

namespace {

constexpr std::size_t kReplayBuffer = 64 * 1024;  // one sequential pass per section

// The index pass has checked the whole file; this pass reads each section's
// lines once, in file order, so repeat bodies are written once.
void replay_text(const std::string& path, TraceWriter& out) {
    auto file = std::make_shared<const trace_detail::TraceFile>(path);
    const trace_detail::TraceIndex index = trace_detail::index_trace(file);
    out.begin(index.launch, index.kernel_name);
    const auto& cat = isa::Catalogue::instance();
    trace_detail::LineReader reader(file, kReplayBuffer);
    Instruction in;
    for (const trace_detail::SectionIndex& s : index.sections) {
        out.begin_section(s.first_simd, s.last_simd);
        reader.seek(s.body_offset, s.body_line);
        std::uint32_t pc = 0;  // pcs follow the static code, as the text streams number them
        unsigned depth = 0;
        std::string_view raw;
        bool ended = false;
        while (!ended && reader.next(raw)) {
            const trace_detail::LineContext at{reader.path(), reader.line_number()};
            const auto text = trace_detail::strip_comment(raw);
            if (text.empty()) continue;
            auto rest = text;
            const auto word = trace_detail::next_word(rest);
            if (word == "repeat") {
                std::uint64_t n = 0;
                trace_detail::parse_uint(rest, n);
                out.begin_repeat(static_cast<std::uint32_t>(n));
                ++depth;
            } else if (word == "end") {
                if (depth == 0) {
                    ended = true;
                } else {
                    out.end_repeat();
                    --depth;
                }
            } else {
                trace_detail::parse_instruction(text, at, index.launch.registers_halves, in);
                in.pc = pc;
                pc += cat.info(in.opcode).encoded_bytes;
                out.instruction(in);
            }
        }
        if (!ended) throw InputError(path, "truncated: the trace changed after it was opened");
        out.end_section();
    }
    out.finish();
}

void replay_binary(const std::string& path, TraceWriter& out) {
    const binary_trace::BinaryTraceFile file(path);
    // Check everything before writing anything.
    file.check_records();
    out.begin(file.launch(), file.kernel_name());
    for (std::size_t i = 0; i < file.sections().size(); ++i) file.walk_section(i, &out);
    out.finish();
}

}  // namespace

void replay_trace(const std::string& path, TraceWriter& out) {
    if (detect_trace_format(path) == TraceFormat::Binary)
        replay_binary(path, out);
    else
        replay_text(path, out);
}

}  // namespace agx
