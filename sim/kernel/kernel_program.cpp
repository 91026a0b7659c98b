// Reading a kernel file (traces/KERNEL.md): directives, labels and the
// instruction lines, each checked against the catalogue, the launch and
// the semantics the executor has.
#include "sim/kernel/kernel_program.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"
#include "sim/trace/trace_parse.hpp"

namespace agx::kernel {

namespace {

using trace_detail::Attribute;
using trace_detail::fail;
using trace_detail::LineContext;
using trace_detail::next_word;
using trace_detail::strip_comment;
using trace_detail::strip_utf8_bom;

constexpr std::string_view kHeader = "agxsim-kernel";
constexpr unsigned kVersion = 1;

const std::unordered_map<std::string_view, Sem>& sem_by_mnemonic() {
    static const std::unordered_map<std::string_view, Sem> m = {
        {"fadd16", Sem::Fadd16},
        {"fmul16", Sem::Fmul16},
        {"fmadd16", Sem::Fmadd16},
        {"fadd32", Sem::Fadd32},
        {"fmul32", Sem::Fmul32},
        {"fmadd32", Sem::Fmadd32},
        {"iadd16", Sem::Iadd16},
        {"iadd32", Sem::Iadd32},
        {"iaddsat32", Sem::Iaddsat32},
        {"bitop16", Sem::Bitop16},
        {"bitop32", Sem::Bitop32},
        {"fcmpsel16", Sem::Fcmpsel16},
        {"fcmpsel32", Sem::Fcmpsel32},
        {"icmpsel16", Sem::Icmpsel16},
        {"icmpsel32", Sem::Icmpsel32},
        {"fmin16", Sem::Fmin16},
        {"fmax16", Sem::Fmax16},
        {"imin16", Sem::Imin16},
        {"imax16", Sem::Imax16},
        {"fmin32", Sem::Fmin32},
        {"fmax32", Sem::Fmax32},
        {"imin32", Sem::Imin32},
        {"imax32", Sem::Imax32},
        {"mov", Sem::Mov},
        {"mov_imm", Sem::MovImm},
        {"get_sr", Sem::GetSr},
        {"imul16", Sem::Imul16},
        {"imadd16", Sem::Imadd16},
        {"imul16x32", Sem::Imul16x32},
        {"imadd16x32", Sem::Imadd16x32},
        {"imul32", Sem::Imul32},
        {"imadd32", Sem::Imadd32},
        {"imul32x64", Sem::Imul32x64},
        {"imadd32x64", Sem::Imadd32x64},
        {"imulhi32", Sem::Imulhi32},
        {"bfeil", Sem::Bfeil},
        {"bfi", Sem::Bfi},
        {"extr", Sem::Extr},
        {"intl", Sem::Intl},
        {"bitrev", Sem::Bitrev},
        {"popcount", Sem::Popcount},
        {"ffs", Sem::Ffs},
        {"clz", Sem::Clz},
        {"shl", Sem::Shl},
        {"shr", Sem::Shr},
        {"asr", Sem::Asr},
        {"shlhi", Sem::Shlhi},
        {"shrhi", Sem::Shrhi},
        {"asrh", Sem::Asrh},
        {"convert", Sem::Convert},
        {"rint", Sem::Rint},
        {"trunc", Sem::Trunc},
        {"floor", Sem::Floor},
        {"ceil", Sem::Ceil},
        {"rcp16", Sem::Rcp16},
        {"rcp32", Sem::Rcp32},
        {"rsqrt16", Sem::Rsqrt16},
        {"rsqrt32", Sem::Rsqrt32},
        {"exp2_16", Sem::Exp2_16},
        {"exp2_32", Sem::Exp2_32},
        {"log2_16", Sem::Log2_16},
        {"log2_32", Sem::Log2_32},
        {"sin_pt_1", Sem::SinPt1},
        {"sin_pt_2", Sem::SinPt2},
        {"simd_shuffle", Sem::SimdShuffle},
        {"simd_shuffle_down", Sem::SimdShuffleDown},
        {"simd_shuffle_up", Sem::SimdShuffleUp},
        {"simd_shuffle_xor", Sem::SimdShuffleXor},
        {"simd_shuffle_rotate", Sem::SimdShuffleRotate},
        {"simd_broadcast", Sem::SimdBroadcast},
        {"quad_shuffle", Sem::QuadShuffle},
        {"quad_broadcast", Sem::QuadBroadcast},
        {"quad_prefix_fadd32", Sem::QuadPrefixFadd32},
        {"quad_prefix_fmul32", Sem::QuadPrefixFmul32},
        {"quad_prefix_iadd32", Sem::QuadPrefixIadd32},
        {"quad_prefix_ixor32", Sem::QuadPrefixIxor32},
        {"simd_prefix_fadd32", Sem::SimdPrefixFadd32},
        {"simd_prefix_fmul32", Sem::SimdPrefixFmul32},
        {"simd_prefix_iadd32", Sem::SimdPrefixIadd32},
        {"simd_prefix_ixor32", Sem::SimdPrefixIxor32},
        {"quad_reduce_fadd32", Sem::QuadReduceFadd32},
        {"quad_reduce_fmul32", Sem::QuadReduceFmul32},
        {"quad_reduce_iadd32", Sem::QuadReduceIadd32},
        {"quad_reduce_ixor32", Sem::QuadReduceIxor32},
        {"quad_reduce_fmax32", Sem::QuadReduceFmax32},
        {"simd_reduce_fmax32", Sem::SimdReduceFmax32},
        {"quad_reduce_fmin32", Sem::QuadReduceFmin32},
        {"simd_reduce_fmin32", Sem::SimdReduceFmin32},
        {"quad_reduce_smax32", Sem::QuadReduceSmax32},
        {"simd_reduce_smax32", Sem::SimdReduceSmax32},
        {"quad_reduce_smin32", Sem::QuadReduceSmin32},
        {"simd_reduce_smin32", Sem::SimdReduceSmin32},
        {"quad_reduce_umax32", Sem::QuadReduceUmax32},
        {"simd_reduce_umax32", Sem::SimdReduceUmax32},
        {"quad_reduce_umin32", Sem::QuadReduceUmin32},
        {"simd_reduce_umin32", Sem::SimdReduceUmin32},
        {"quad_reduce_iand32", Sem::QuadReduceIand32},
        {"simd_reduce_iand32", Sem::SimdReduceIand32},
        {"quad_reduce_ior32", Sem::QuadReduceIor32},
        {"simd_reduce_ior32", Sem::SimdReduceIor32},
        {"simd_reduce_fadd32", Sem::SimdReduceFadd32},
        {"simd_reduce_fmul32", Sem::SimdReduceFmul32},
        {"simd_reduce_iadd32", Sem::SimdReduceIadd32},
        {"simd_reduce_ixor32", Sem::SimdReduceIxor32},
        {"quad_reduce_fadd16", Sem::QuadReduceFadd16},
        {"quad_reduce_fmul16", Sem::QuadReduceFmul16},
        {"quad_reduce_iadd16", Sem::QuadReduceIadd16},
        {"quad_reduce_ixor16", Sem::QuadReduceIxor16},
        {"simd_reduce_fadd16", Sem::SimdReduceFadd16},
        {"simd_reduce_fmul16", Sem::SimdReduceFmul16},
        {"simd_reduce_iadd16", Sem::SimdReduceIadd16},
        {"simd_reduce_ixor16", Sem::SimdReduceIxor16},
        {"simd_ballot", Sem::SimdBallot},
        {"icmp_ballot", Sem::IcmpBallot},
        {"fcmp_ballot", Sem::FcmpBallot},
        {"quad_ballot", Sem::QuadBallot},
        {"simd_matrix_fmadd16", Sem::SimdMatrixFmadd16},
        {"simd_matrix_fmadd32", Sem::SimdMatrixFmadd32},
        {"device_load", Sem::DeviceLoad},
        {"device_store", Sem::DeviceStore},
        {"atomic", Sem::Atomic},
        {"stack_load", Sem::StackLoad},
        {"stack_store", Sem::StackStore},
        {"threadgroup_load", Sem::ThreadgroupLoad},
        {"threadgroup_store", Sem::ThreadgroupStore},
        {"threadgroup_atomic", Sem::ThreadgroupAtomic},
        {"wait", Sem::Wait},
        {"uniform_store", Sem::UniformStore},
        {"threadgroup_barrier", Sem::ThreadgroupBarrier},
        {"memory_barrier", Sem::MemoryBarrier},
        {"jmp_exec_any", Sem::JmpExecAny},
        {"jmp_exec_none", Sem::JmpExecNone},
        {"call", Sem::Call},
        {"ret", Sem::Ret},
        {"if_icmp", Sem::IfIcmp},
        {"if_fcmp", Sem::IfFcmp},
        {"else_icmp", Sem::ElseIcmp},
        {"else_fcmp", Sem::ElseFcmp},
        {"while_icmp", Sem::WhileIcmp},
        {"while_fcmp", Sem::WhileFcmp},
        {"pop_exec", Sem::PopExec},
        {"stop", Sem::Stop},
    };
    return m;
}

bool is_int_cmp(Sem s) {
    return s == Sem::IfIcmp || s == Sem::ElseIcmp || s == Sem::WhileIcmp || s == Sem::Icmpsel16 ||
           s == Sem::Icmpsel32 || s == Sem::IcmpBallot;
}
bool is_float_cmp(Sem s) {
    return s == Sem::IfFcmp || s == Sem::ElseFcmp || s == Sem::WhileFcmp || s == Sem::Fcmpsel16 ||
           s == Sem::Fcmpsel32 || s == Sem::FcmpBallot;
}
bool is_branch(Sem s) {
    return s == Sem::JmpExecAny || s == Sem::JmpExecNone || s == Sem::Call;
}
// Float operations whose sources may carry .abs and .neg.
bool takes_float_modifiers(Sem s) {
    switch (s) {
        case Sem::Fadd16:
        case Sem::Fmul16:
        case Sem::Fmadd16:
        case Sem::Fadd32:
        case Sem::Fmul32:
        case Sem::Fmadd32:
        case Sem::Fcmpsel16:
        case Sem::Fcmpsel32:
        case Sem::Fmin16:
        case Sem::Fmax16:
        case Sem::Fmin32:
        case Sem::Fmax32:
        case Sem::Rint:
        case Sem::Trunc:
        case Sem::Floor:
        case Sem::Ceil:
        case Sem::Rcp16:
        case Sem::Rcp32:
        case Sem::Rsqrt16:
        case Sem::Rsqrt32:
        case Sem::Exp2_16:
        case Sem::Exp2_32:
        case Sem::Log2_16:
        case Sem::Log2_32:
        case Sem::IfFcmp:
        case Sem::ElseFcmp:
        case Sem::WhileFcmp:
        case Sem::FcmpBallot:
        case Sem::SinPt1:
        case Sem::SinPt2:
        case Sem::QuadPrefixFadd32:
        case Sem::QuadPrefixFmul32:
        case Sem::SimdPrefixFadd32:
        case Sem::SimdPrefixFmul32:
        case Sem::QuadReduceFadd32:
        case Sem::QuadReduceFmul32:
        case Sem::SimdReduceFadd32:
        case Sem::SimdReduceFmul32:
        case Sem::QuadReduceFmax32:
        case Sem::SimdReduceFmax32:
        case Sem::QuadReduceFmin32:
        case Sem::SimdReduceFmin32:
        case Sem::QuadReduceFadd16:
        case Sem::QuadReduceFmul16:
        case Sem::SimdReduceFadd16:
        case Sem::SimdReduceFmul16:
            return true;
        default:
            return false;
    }
}

bool takes_signed(Sem s) {
    switch (s) {
        case Sem::Iaddsat32:
        case Sem::Imin16:
        case Sem::Imax16:
        case Sem::Imin32:
        case Sem::Imax32:
        case Sem::Imul16x32:
        case Sem::Imadd16x32:
        case Sem::Imul32x64:
        case Sem::Imadd32x64:
        case Sem::Imulhi32:
            return true;
        default:
            return false;
    }
}
bool is_memory(Sem s) {
    switch (s) {
        case Sem::DeviceLoad:
        case Sem::DeviceStore:
        case Sem::Atomic:
        case Sem::StackLoad:
        case Sem::StackStore:
        case Sem::ThreadgroupLoad:
        case Sem::ThreadgroupStore:
        case Sem::ThreadgroupAtomic:
            return true;
        default:
            return false;
    }
}

std::optional<AtomicOp> parse_atomic_op(std::string_view n) {
    static const std::map<std::string_view, AtomicOp> m = {
        {"add", AtomicOp::Add},   {"sub", AtomicOp::Sub},        {"umin", AtomicOp::Umin},
        {"umax", AtomicOp::Umax}, {"smin", AtomicOp::Smin},      {"smax", AtomicOp::Smax},
        {"and", AtomicOp::And},   {"or", AtomicOp::Or},          {"xor", AtomicOp::Xor},
        {"xchg", AtomicOp::Xchg}, {"cmpxchg", AtomicOp::Cmpxchg}};
    auto it = m.find(n);
    if (it == m.end()) return std::nullopt;
    return it->second;
}

bool is_identifier(std::string_view w) {
    if (w.empty() ||
        !(std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_' || w[0] == '.'))
        return false;
    return std::all_of(w.begin(), w.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
}
// A register or uniform written where a label could be.
bool looks_like_register(std::string_view w) {
    return w.size() >= 2 && (w[0] == 'r' || w[0] == 'u') &&
           std::isdigit(static_cast<unsigned char>(w[1]));
}

struct CodeLine {
    std::uint32_t line;
    std::string text;  // the instruction, comment and label stripped
};

struct ReadFile {
    std::vector<Directive> directives;
    std::vector<CodeLine> code;
    std::vector<CodeLine> preamble;  // `section preamble` (a compiled kernel's)
    std::map<std::string, std::pair<std::size_t, std::uint32_t>> labels;  // name -> (index, line)
    std::string name;
};

std::vector<std::string> read_lines(const std::string& path, bool kernel) {
    check_input_file(path, kernel ? "kernel" : "launch file", kMaxTextInputBytes);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (lines.empty()) line = std::string(strip_utf8_bom(line));
        if (line.size() > 65536)
            throw InputError(path + ":" + std::to_string(lines.size() + 1),
                             "line longer than 65536 characters");
        lines.push_back(std::move(line));
    }
    return lines;
}

Directive parse_directive(std::string_view keyword, std::string_view rest, const LineContext& at) {
    Directive d;
    d.keyword = std::string(keyword);
    d.where = at.where();
    if (keyword == "buffer" || keyword == "uniform" || keyword == "arg" || keyword == "argument") {
        auto subject = next_word(rest);
        if (subject.empty() || subject.find('=') != std::string_view::npos)
            fail(at,
                 std::string(keyword) + " needs a name first (" +
                     (keyword == "buffer" ? "buffer NAME size=..." : "uniform u0_u1 buffer=NAME") +
                     ")");
        if ((keyword == "buffer" || keyword == "arg" || keyword == "argument") &&
            !is_identifier(subject))
            fail(at, "bad buffer name '" + std::string(subject) + "'");
        d.subject = std::string(subject);
    }
    std::set<std::string> seen;
    while (!rest.empty()) {
        auto word = next_word(rest);
        auto eq = word.find('=');
        if (eq == std::string_view::npos || eq == 0 || eq + 1 == word.size())
            fail(at, "expected key=value, got '" + std::string(word) + "'");
        std::string key(word.substr(0, eq));
        if (!seen.insert(key).second) fail(at, "'" + key + "=' given twice");
        d.values.push_back({key, std::string(word.substr(eq + 1))});
    }
    return d;
}

bool is_directive(std::string_view w) {
    return w == "kernel" || w == "launch" || w == "param" || w == "buffer" || w == "uniform" ||
           w == "arg" || w == "argument" || w == "compiled";
}

// Reads the kernel file (`kernel` true) or a launch file (directives only).
ReadFile read_file(const std::string& path, bool kernel) {
    ReadFile f;
    const auto lines = read_lines(path, kernel);
    bool header = !kernel;
    bool in_preamble = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::uint32_t number = static_cast<std::uint32_t>(i + 1);
        const LineContext at{path, number};
        std::string_view text = strip_comment(lines[i]);
        if (text.empty()) continue;
        if (!header) {
            std::string_view rest = text;
            auto word = next_word(rest);
            if (word != kHeader)
                fail(at, "not an agxsim kernel: the first statement must be 'agxsim-kernel 1'");
            std::uint64_t v = 0;
            if (!trace_detail::parse_uint(rest, v))
                fail(at, "bad version '" + std::string(rest) + "'");
            if (v != kVersion)
                fail(at, "kernel format version " + std::string(rest) +
                             " not supported (this agxsim reads version 1)");
            header = true;
            continue;
        }
        // Labels: "name:" starts the line, an instruction may follow.
        std::string_view rest = text;
        auto word = next_word(rest);
        if (kernel && word == "section") {
            if (rest == "preamble" && !in_preamble && f.code.empty() && f.preamble.empty())
                in_preamble = true;
            else if (rest == "main" && in_preamble)
                in_preamble = false;
            else
                fail(at, "expected 'section preamble' before the code, then 'section main'");
            continue;
        }
        if (kernel && in_preamble && !word.empty() && word.back() == ':')
            fail(at, "labels are not allowed in the preamble (it runs straight through)");
        if (kernel && !word.empty() && word.back() == ':') {
            auto label = word.substr(0, word.size() - 1);
            if (!is_identifier(label)) fail(at, "bad label '" + std::string(label) + "'");
            auto [it, fresh] = f.labels.insert({std::string(label), {f.code.size(), number}});
            if (!fresh)
                fail(at, "label '" + std::string(label) + "' already defined at line " +
                             std::to_string(it->second.second));
            if (rest.empty()) continue;
            text = rest;
            rest = text;
            word = next_word(rest);
        }
        if (is_directive(word)) {
            if (!kernel && (word == "argument" || word == "compiled"))
                fail(at, "'" + std::string(word) +
                             "' belongs to a compiled kernel, not a launch file (did you mean "
                             "'arg'?)");
            if (kernel && (!f.code.empty() || !f.preamble.empty() || in_preamble))
                fail(at, "'" + std::string(word) + "' must come before the first instruction");
            if (word == "kernel") {
                Directive d = parse_directive(word, rest, at);
                if (d.values.size() != 1 || d.values[0].first != "name")
                    fail(at, "expected 'kernel name=NAME'");
                f.name = d.values[0].second;
                continue;
            }
            f.directives.push_back(parse_directive(word, rest, at));
            continue;
        }
        if (!kernel)
            fail(at, "unknown directive '" + std::string(word) +
                         "' (a launch file holds launch, param, buffer, uniform and arg lines)");
        (in_preamble ? f.preamble : f.code).push_back({number, std::string(text)});
    }
    if (in_preamble) throw InputError(path, "'section preamble' has no 'section main' after it");
    if (!header) throw InputError(path, "empty file: no 'agxsim-kernel 1' header");
    return f;
}

// Replaces a branch's label operand by its target's pc.
std::string resolve_label(const CodeLine& cl, const LineContext& at, const ReadFile& f,
                          const std::vector<std::uint32_t>& pcs, std::uint32_t& target) {
    std::string_view rest = cl.text;
    auto mnemonic = next_word(rest);
    std::size_t end = 0;
    while (end < rest.size() && rest[end] != ',' && rest[end] != ' ' && rest[end] != '\t') ++end;
    auto word = rest.substr(0, end);
    if (mnemonic == "call" && looks_like_register(word)) return cl.text;  // a computed target
    if (word.empty() || looks_like_register(word) || !is_identifier(word))
        fail(at, std::string(mnemonic) + " needs a target label" +
                     (word.empty() ? "" : ", not '" + std::string(word) + "'"));
    auto it = f.labels.find(std::string(word));
    if (it == f.labels.end()) fail(at, "unknown label '" + std::string(word) + "'");
    if (it->second.first >= pcs.size())
        fail(at, "label '" + std::string(word) + "' marks no instruction (a branch into nowhere)");
    target = static_cast<std::uint32_t>(it->second.first);
    return std::string(mnemonic) + " " + std::to_string(pcs[target]) +
           std::string(rest.substr(end));
}

unsigned number_attr(const Attribute& a, const LineContext& at, unsigned max) {
    std::uint64_t v = 0;
    if (!trace_detail::parse_uint(a.value, v, max))
        fail(at, "bad " + std::string(a.key) + "=" + std::string(a.value) + " (0.." +
                     std::to_string(max) + ")");
    return static_cast<unsigned>(v);
}

// A compiled kernel's byte offset of an instruction: its `pc=` attribute.
std::optional<std::uint32_t> explicit_pc(const std::string& text, const LineContext& at) {
    std::string_view rest = text;
    while (!rest.empty()) {
        std::string_view word = next_word(rest);
        if (word.substr(0, 3) != "pc=") continue;
        std::uint64_t v = 0;
        if (!trace_detail::parse_uint(word.substr(3), v, 0xffffffffu))
            fail(at, "bad pc '" + std::string(word.substr(3)) + "'");
        return static_cast<std::uint32_t>(v);
    }
    return std::nullopt;
}

// Applies a kernel instruction's attributes (traces/KERNEL.md, "Attributes").
void apply_kernel_attributes(const std::array<Attribute, trace_detail::kMaxAttributes>& attrs,
                             unsigned n, const LineContext& at, KernelInstruction& k) {
    const auto& info = isa::Catalogue::instance().info(k.in.opcode);
    const std::string m(info.mnemonic);
    bool have_cc = false, have_op = false, have_mode = false;
    for (unsigned i = 0; i < n; ++i) {
        const std::string key(attrs[i].key);
        const std::string_view v = attrs[i].value;
        auto refuse = [&] { fail(at, "'" + key + "=' does not apply to " + m); };
        if (key == "mask" || key == "addr" || key == "size") {
            fail(at, "'" + key + "=' is a trace attribute: in a kernel the " +
                         (key == "mask" ? "active lanes come from the execution mask"
                                        : "addresses and sizes come from the operands"));
        } else if (key == "cc") {
            if (is_int_cmp(k.sem)) {
                auto c = isa::sem::parse_int_cond(v);
                if (!c)
                    fail(at, "unknown integer condition '" + std::string(v) +
                                 "' (eq, ne, ult, ule, ugt, uge, slt, sle, sgt, sge)");
                k.cond = static_cast<std::uint8_t>(*c);
            } else if (is_float_cmp(k.sem)) {
                auto c = isa::sem::parse_float_cond(v);
                if (!c)
                    fail(at, "unknown float condition '" + std::string(v) +
                                 "' (eq, ne, lt, le, gt, ge, ltn, gtn)");
                k.cond = static_cast<std::uint8_t>(*c);
            } else {
                refuse();
            }
            have_cc = true;
        } else if (key == "n") {
            if (!is_stack_op(k.sem)) refuse();
            k.levels = static_cast<std::uint8_t>(number_attr(attrs[i], at, 255));
        } else if (key == "op") {
            if (k.sem == Sem::Bitop16 || k.sem == Sem::Bitop32) {
                auto t = isa::sem::parse_bitop(v);
                if (!t)
                    fail(at, "unknown bitop '" + std::string(v) +
                                 "' (and, or, xor, nand, nor, xnor, andn, orn, not_a, not_b, a, b, "
                                 "zero, ones)");
                k.table = *t;
            } else if (k.sem == Sem::Atomic || k.sem == Sem::ThreadgroupAtomic) {
                auto o = parse_atomic_op(v);
                if (!o)
                    fail(at,
                         "unknown atomic op '" + std::string(v) +
                             "' (add, sub, umin, umax, smin, smax, and, or, xor, xchg, cmpxchg)");
                k.table = static_cast<std::uint8_t>(*o);
            } else {
                refuse();
            }
            have_op = true;
        } else if (key == "mode") {
            if (k.sem != Sem::Convert) refuse();
            auto c = isa::sem::parse_convert_mode(v);
            if (!c)
                fail(at, "unknown convert mode '" + std::string(v) +
                             "' (u32_to_f, s32_to_f, f_to_u32, f_to_s32)");
            k.table = static_cast<std::uint8_t>(*c);
            have_mode = true;
        } else if (key == "signed") {
            if (!takes_signed(k.sem)) refuse();
            k.is_signed = number_attr(attrs[i], at, 1) == 1;
        } else if (key == "neg") {
            if (k.sem != Sem::Iadd16 && k.sem != Sem::Iadd32 && k.sem != Sem::Imadd16 &&
                k.sem != Sem::Imadd32)
                refuse();
            k.negate = number_attr(attrs[i], at, 1) == 1;
        } else if (key == "shift") {
            if (is_memory(k.sem)) {
                k.shift = static_cast<std::uint8_t>(number_attr(attrs[i], at, 2));
            } else if (k.sem == Sem::Iadd16 || k.sem == Sem::Iadd32 || k.sem == Sem::Imadd16 ||
                       k.sem == Sem::Imadd32) {
                k.shift = static_cast<std::uint8_t>(number_attr(attrs[i], at, 4));
            } else {
                refuse();
            }
        } else if (key == "format") {
            if (!is_memory(k.sem) || k.sem == Sem::Atomic || k.sem == Sem::ThreadgroupAtomic)
                refuse();
            if (v == "i8")
                k.component_bytes = 1;
            else if (v == "i16")
                k.component_bytes = 2;
            else if (v == "i32")
                k.component_bytes = 4;
            else
                fail(at, "unknown format '" + std::string(v) + "' (i8, i16, i32)");
        } else if (key == "offset") {
            if (!is_memory(k.sem)) refuse();
            if (v != "signed" && v != "unsigned") fail(at, "offset= is 'signed' or 'unsigned'");
            k.offset_unsigned = v == "unsigned";
        } else if (key == "pc") {
            // The instruction's byte offset: taken when pcs are assigned.
        } else if (key == "slot") {
            if (!info.is_async) refuse();
            k.in.wait_slot = static_cast<std::uint8_t>(number_attr(attrs[i], at, 1));
        } else {
            fail(at, "unknown attribute '" + key + "'");
        }
    }
    if ((is_int_cmp(k.sem) || is_float_cmp(k.sem)) && !have_cc)
        fail(at, m + " needs cc= (its condition)");
    if ((k.sem == Sem::Bitop16 || k.sem == Sem::Bitop32 || k.sem == Sem::Atomic ||
         k.sem == Sem::ThreadgroupAtomic) &&
        !have_op)
        fail(at, m + " needs op=");
    if (k.sem == Sem::Convert && !have_mode) fail(at, "convert needs mode=");
}

// Memory shape: component size and count from the data register and
// format=, and every address operand present.
void check_memory(const LineContext& at, std::string_view data_text, KernelInstruction& k) {
    const auto& info = isa::Catalogue::instance().info(k.in.opcode);
    const std::string m(info.mnemonic);
    const std::size_t operands = info.operands.size();
    if (k.in.num_dst + k.in.num_src != operands)
        fail(at, m + " in a kernel needs all " + std::to_string(operands) +
                     " operands (its address comes from them)");
    if (k.sem == Sem::Atomic || k.sem == Sem::ThreadgroupAtomic) {
        const Operand& data = k.in.src[0];
        const bool cmpxchg = static_cast<AtomicOp>(k.table) == AtomicOp::Cmpxchg;
        if (data.kind == OperandKind::Reg && data.halves != (cmpxchg ? 4 : 2))
            fail(at, m + (cmpxchg ? " op=cmpxchg takes a 64-bit pair (compare, new value)"
                                  : " takes a 32-bit data register"));
        if (data.kind != OperandKind::Reg && cmpxchg)
            fail(at, m + " op=cmpxchg takes a 64-bit register pair (compare, new value)");
        k.component_bytes = 4;
        k.components = 1;
        k.in.mem.bytes_per_lane = 4;
        return;
    }
    const Operand& data = info.is_store ? k.in.src[0] : k.in.dst[0];
    if (data.kind != OperandKind::Reg)
        fail(at, m + " moves registers: its data must be a register group");
    // The operand loses how it was written; r4l_r4h (two 16-bit halves) and
    // r4 (one 32-bit register) are told apart by the text.
    std::string_view rest = data_text;
    auto dot = rest.find('.');
    if (dot != std::string_view::npos) rest = rest.substr(0, dot);
    const bool sixteen = !rest.empty() && (rest.back() == 'l' || rest.back() == 'h');
    k.components = static_cast<std::uint8_t>(sixteen ? data.halves : data.halves / 2);
    if (k.components < 1 || k.components > 4) fail(at, m + " moves 1 to 4 registers per lane");
    if (k.component_bytes == 0) k.component_bytes = sixteen ? 2 : 4;
    if (sixteen && k.component_bytes == 4) fail(at, "format=i32 does not fit 16-bit registers");
    k.in.mem.bytes_per_lane = static_cast<std::uint8_t>(k.components * k.component_bytes);
}

// The first operand as written (for check_memory).
std::string_view first_operand(std::string_view text) {
    std::string_view rest = text;
    next_word(rest);
    std::size_t end = 0;
    while (end < rest.size() && rest[end] != ',' && rest[end] != ' ' && rest[end] != '\t') ++end;
    return rest.substr(0, end);
}

KernelInstruction decode(const CodeLine& cl, const std::string& path, const ReadFile& f,
                         const std::vector<std::uint32_t>& pcs, std::size_t index,
                         std::uint32_t registers_halves) {
    const LineContext at{path, cl.line};
    KernelInstruction k;
    std::string_view peek = cl.text;
    const std::string mnemonic(next_word(peek));
    auto sem = sem_by_mnemonic().find(mnemonic);
    std::string text = cl.text;
    if (sem != sem_by_mnemonic().end() && is_branch(sem->second))
        text = resolve_label(cl, at, f, pcs, k.target);
    std::array<Attribute, trace_detail::kMaxAttributes> attrs;
    const unsigned n =
        trace_detail::parse_instruction_operands(text, at, registers_halves, k.in, attrs);
    // Every catalogue mnemonic has semantics; a new one without them is
    // refused here rather than run as a no-op.
    if (sem == sem_by_mnemonic().end())
        fail(at, "'" + mnemonic +
                     "' has no functional semantics in agxsim yet: it can appear in traces, not in "
                     "kernels");
    k.sem = sem->second;
    k.in.pc = pcs[index];
    k.in.source_line = cl.line;
    apply_kernel_attributes(attrs, n, at, k);
    for (unsigned i = 0; i < k.in.num_src; ++i)
        if (k.in.src[i].mods && !takes_float_modifiers(k.sem))
            fail(at, "'.abs' and '.neg' apply to the sources of float operations, not " + mnemonic);
    for (unsigned i = 0; i < k.in.num_dst; ++i)
        if (k.in.dst[i].mods) fail(at, "'.abs' and '.neg' apply to sources, not destinations");
    if (k.sem == Sem::JmpExecAny || k.sem == Sem::JmpExecNone) {
        if (k.in.num_src != 1) fail(at, mnemonic + " needs a target label");
    } else if (k.sem == Sem::Call) {
        if (k.in.num_src != 1) fail(at, "call needs a target label or register");
        if (k.in.src[0].kind == OperandKind::Uniform) fail(at, "call takes a label or a register");
    } else if (k.sem == Sem::Ret) {
        if (k.in.num_src != 1 || k.in.src[0].kind != OperandKind::Reg)
            fail(at, "ret needs the register holding the return pc (ret r1)");
    } else if (k.sem == Sem::PopExec) {
        k.levels = k.in.num_src
                       ? static_cast<std::uint8_t>(std::min<std::uint32_t>(k.in.src[0].imm, 255))
                       : 1;
        if (k.in.num_src && k.in.src[0].imm > 255) fail(at, "pop_exec pops at most 255 levels");
    } else if (k.sem == Sem::GetSr) {
        if (!is_special_register(k.in.src[0].imm))
            fail(at, "get_sr: unknown special register sr" + std::to_string(k.in.src[0].imm) +
                         " (see traces/KERNEL.md for the ones agxsim knows)");
    } else if (is_memory(k.sem)) {
        check_memory(at, first_operand(text), k);
    }
    // The stack ops and registers r0l (counter) and r1 (link) are implicit.
    if ((is_stack_op(k.sem) || k.sem == Sem::PopExec) && registers_halves < 1)
        fail(at, "the execution-mask stack needs r0l");
    if (k.sem == Sem::Call && registers_halves < 4)
        fail(at, "call writes the link register r1: the launch needs registers >= 4");
    return k;
}

}  // namespace

bool is_stack_op(Sem s) {
    return s == Sem::IfIcmp || s == Sem::IfFcmp || s == Sem::ElseIcmp || s == Sem::ElseFcmp ||
           s == Sem::WhileIcmp || s == Sem::WhileFcmp;
}

bool is_special_register(std::uint32_t n) {
    switch (n) {
        case 0:
        case 1:
        case 2:
        case 4:
        case 5:
        case 6:
        case 8:
        case 9:
        case 10:
        case 20:
        case 48:
        case 49:
        case 50:
        case 51:
        case 52:
        case 53:
        case 56:
        case 58:
        case 63:
        case 80:
        case 81:
        case 82:
            return true;
        default:
            return false;
    }
}

std::int64_t KernelProgram::index_at_pc(std::uint32_t pc) const {
    auto it =
        std::lower_bound(code.begin(), code.end(), pc,
                         [](const KernelInstruction& k, std::uint32_t p) { return k.in.pc < p; });
    if (it == code.end() || it->in.pc != pc) return -1;
    return it - code.begin();
}

bool is_kernel_file(const std::string& path) {
    if (!is_regular_input(path)) return false;  // the trace reader says what it is
    std::ifstream in(path, std::ios::binary);
    std::string line;
    for (int i = 0; i < 10000 && std::getline(in, line); ++i) {
        auto text = strip_comment(i == 0 ? strip_utf8_bom(line) : std::string_view(line));
        if (text.empty()) continue;
        return next_word(text) == kHeader;
    }
    return false;
}

void check_instruction_line(const std::string& text, const std::string& path, std::uint32_t line,
                            std::uint32_t registers_halves) {
    const ReadFile none;
    decode({line, text}, path, none, {0}, 0, registers_halves);
}

LoadedKernel load_kernel(const std::string& path, const std::string& launch_path,
                         const std::vector<std::string>& launch_overrides) {
    ReadFile f = read_file(path, true);
    LaunchText text;
    text.directives = launch_path.empty() ? f.directives : read_file(launch_path, false).directives;
    // A compiled kernel keeps what the compiler decided (its `compiled`
    // line, where each argument lands, its constants' uniforms) whatever
    // launch it runs with; the launch gives the grid, buffers and `arg`s.
    const bool compiled = std::any_of(f.directives.begin(), f.directives.end(),
                                      [](const Directive& d) { return d.keyword == "compiled"; });
    if (compiled && !launch_path.empty())
        for (const Directive& d : f.directives)
            if (d.keyword == "compiled" || d.keyword == "argument" || d.keyword == "uniform")
                text.directives.push_back(d);
    LoadedKernel k;
    k.launch = resolve_launch(text, launch_overrides);
    // A fill's file is named relative to the file that holds its directive.
    const std::filesystem::path directives_dir =
        std::filesystem::path(launch_path.empty() ? path : launch_path).parent_path();
    for (auto& buffer : k.launch.buffers)
        if (buffer.fill.kind == Fill::Kind::File &&
            std::filesystem::path(buffer.fill.path).is_relative())
            buffer.fill.path = (directives_dir / buffer.fill.path).string();
    k.program.path = path;
    k.program.name = f.name;
    if (f.code.empty()) throw InputError(path, "the kernel has no instructions");

    // Pcs first, so that a branch may name a label further down: by the
    // catalogue's lengths, or a compiled kernel's own byte offsets (`pc=`
    // on every instruction).
    std::vector<std::uint32_t> pcs;
    std::uint32_t pc = 0;
    const auto& cat = isa::Catalogue::instance();
    std::size_t explicit_pcs = 0;
    for (const CodeLine& cl : f.code) {
        std::string_view rest = cl.text;
        auto op = cat.find(next_word(rest));
        const std::uint32_t length = op ? cat.info(*op).encoded_bytes : 0;
        if (auto at = explicit_pc(cl.text, {path, cl.line})) {
            if (!pcs.empty() && *at <= pcs.back())
                throw InputError(path + ":" + std::to_string(cl.line),
                                 "pc= must increase from one instruction to the next");
            pc = *at;
            ++explicit_pcs;
        }
        pcs.push_back(pc);
        pc += length;  // an unknown mnemonic fails below
    }
    if (explicit_pcs != 0 && explicit_pcs != f.code.size())
        throw InputError(path,
                         "pc= is given on some instructions but not all (give it on every "
                         "instruction, or on none)");
    for (const auto& [name, where] : f.labels)
        if (where.first >= f.code.size())
            throw InputError(path + ":" + std::to_string(where.second),
                             "label '" + name + "' marks no instruction (a branch into nowhere)");
    for (std::size_t i = 0; i < f.code.size(); ++i) {
        k.program.code.push_back(decode(f.code[i], path, f, pcs, i, k.launch.registers_halves));
        if (k.program.code.back().sem == Sem::UniformStore)
            throw InputError(path + ":" + std::to_string(f.code[i].line),
                             "uniform_store writes uniforms once per launch: it belongs in the "
                             "preamble ('section preamble')");
    }
    k.program.code_bytes = pc;
    // The preamble runs once, straight through, before the threadgroups
    // (KernelWorkload): its own pcs, no labels.
    std::vector<std::uint32_t> preamble_pcs;
    pc = 0;
    for (const CodeLine& cl : f.preamble) {
        preamble_pcs.push_back(pc);
        std::string_view rest = cl.text;
        auto op = cat.find(next_word(rest));
        pc += op ? cat.info(*op).encoded_bytes : 0;
    }
    for (std::size_t i = 0; i < f.preamble.size(); ++i) {
        KernelInstruction in = decode(f.preamble[i], path, f, preamble_pcs, i, 256);
        if (is_branch(in.sem) || is_stack_op(in.sem) || in.sem == Sem::PopExec ||
            is_memory(in.sem) || in.sem == Sem::ThreadgroupBarrier)
            throw InputError(path + ":" + std::to_string(f.preamble[i].line),
                             "the preamble runs on one lane straight through: no branches, "
                             "execution-mask or memory instructions");
        k.program.preamble.push_back(in);
    }
    return k;
}

}  // namespace agx::kernel
