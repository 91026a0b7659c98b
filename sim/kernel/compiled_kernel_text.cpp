#include "sim/kernel/compiled_kernel_text.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "isa/agx_decode.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/format.hpp"
#include "sim/kernel/applegpu_import.hpp"
#include "sim/kernel/launch_spec.hpp"

namespace agx::kernel {

namespace {

// A uniform's spelling from its first 16-bit half and its width in halves.
std::string uniform_name(unsigned first_half, unsigned halves) {
    const unsigned u = first_half / 2;
    if (halves >= 4) return "u" + std::to_string(u) + "_u" + std::to_string(u + 1);
    if (halves == 2) return "u" + std::to_string(u);
    return "u" + std::to_string(u) + (first_half % 2 ? "h" : "l");
}

// The uniform halves a preamble's uniform_store writes: FMT (i16, i32),
// MASK (x, xy, ...), from half O (applegpu: unk, F, mask, b, R, O).
void stored_halves(const std::vector<ListingInstruction>& code, std::vector<bool>& set) {
    for (const auto& l : code) {
        if (l.mnemonic != "uniform_store" || l.operands.size() < 6) continue;
        const unsigned per = l.operands[1] == "i32" ? 2 : 1;
        const unsigned count = static_cast<unsigned>(l.operands[2].size()) * per;
        const unsigned from =
            static_cast<unsigned>(std::strtoul(l.operands[5].c_str(), nullptr, 0));
        for (unsigned h = from; h < from + count && h < set.size(); ++h) set[h] = true;
    }
}

// The decoded code of [begin, end) of the binary, as the importer's input.
std::vector<ListingInstruction> decoded(const CompiledKernel& k, std::uint32_t begin,
                                        std::uint32_t end, const std::string& where) {
    // Decoded at their offsets in the whole binary, so that branch targets
    // (absolute) name the same offsets. Zero bytes to the end are padding.
    std::vector<isa::DecodedInstruction> code;
    for (std::uint32_t p = begin; p < end;) {
        bool rest_zero = true;
        for (std::uint32_t i = p; i < end && rest_zero; ++i) rest_zero = k.binary[i] == 0;
        if (rest_zero) break;
        isa::DecodedInstruction d;
        isa::DecodeFailure f;
        if (!isa::decode_instruction(k.binary.data(), end, p, d, f))
            throw InputError(where, "cannot decode the instruction at byte offset " +
                                        hex(f.offset) + " (bytes " + f.bytes_hex +
                                        "): " + f.reason);
        p += d.length;
        code.push_back(std::move(d));
    }
    // Mesa pads the code after its last `stop` with `trap`s (never
    // executed): they are left out.
    std::size_t count = code.size();
    while (count > 0 && code[count - 1].mnemonic == "trap") --count;
    if (count > 0 && count < code.size() && code[count - 1].mnemonic != "stop") count = code.size();
    std::vector<ListingInstruction> out;
    for (std::size_t i = 0; i < count; ++i) {
        const auto& d = code[i];
        ListingInstruction l;
        l.line = static_cast<unsigned>(out.size() + 1);
        l.offset = d.offset;
        l.mnemonic = d.mnemonic;
        for (std::string op : d.operands) {
            // get_sr's operand carries the register's name: "sr80 (thread_...)".
            const auto paren = op.find(" (");
            if (paren != std::string::npos && op.back() == ')') {
                l.note = op.substr(paren + 2, op.size() - paren - 3);
                op = op.substr(0, paren);
            }
            l.operands.push_back(op);
        }
        out.push_back(std::move(l));
    }
    return out;
}

}  // namespace

std::string compiled_kernel_text(const CompiledKernel& k, const std::string& compiler) {
    const std::string where = k.source + " (kernel " + k.name + ")";
    const std::uint32_t size = static_cast<std::uint32_t>(k.binary.size());
    const ImportedCode main = import_listing_instructions(
        decoded(k, k.main_offset, k.main_offset + k.main_size, where), where, false, true);
    ImportedCode preamble;
    // The uniform halves the launch fills (arguments, constants) and the
    // preamble writes: the code may read no other (what a driver pushes
    // beyond its arguments, agxsim does not model).
    std::vector<bool> filled(512, false);
    for (const auto& a : k.arguments)
        for (unsigned h = a.offset_bytes / 2; h < (a.offset_bytes + a.size_bytes + 1) / 2; ++h)
            if (h < filled.size()) filled[h] = true;
    for (unsigned h = k.rodata_base_half; h < k.rodata_base_half + k.rodata_halves; ++h)
        if (h < filled.size()) filled[h] = true;
    auto check_uniforms = [&](const ImportedCode& code, const std::string& part) {
        for (const auto& name : code.uniforms) {
            const UniformInit u = parse_uniform(name, where);
            for (unsigned h = u.first_half; h < u.first_half + u.halves; ++h)
                if (h >= filled.size() || !filled[h])
                    throw InputError(where, "the " + part + " reads " + name +
                                                ", which no argument, constant or preamble "
                                                "fills (a value the driver pushes, which agxsim "
                                                "does not model)");
        }
    };
    if (k.has_preamble()) {
        const std::uint32_t end = k.preamble_offset < k.main_offset ? k.main_offset : size;
        const auto code = decoded(k, k.preamble_offset, end, where);
        preamble = import_listing_instructions(code, where + " preamble", true);
        check_uniforms(preamble, "preamble");
        stored_halves(code, filled);
    }
    check_uniforms(main, "code");
    std::ostringstream o;
    o << "# " << k.name << ": compiled by `agxsim kernel compile` from " << k.source << "\n"
      << "# with " << compiler << "'s asahi_clc (G13G). Each instruction keeps its byte\n"
      << "# offset in the binary and applegpu's spelling as a comment. Run it with a launch\n"
      << "# that gives the grid, the buffers and `arg` values (traces/KERNEL.md).\n";
    o << "agxsim-kernel 1\nkernel name=" << k.name << "\n";
    const unsigned registers = std::max<unsigned>({k.registers_halves, main.registers_halves, 1});
    o << "compiled registers=" << registers << " threadgroup=" << k.workgroup[0] << ","
      << k.workgroup[1] << "," << k.workgroup[2];
    if (k.local_bytes) o << " threadgroup_memory=" << k.local_bytes;
    o << "\n";
    for (const auto& a : k.arguments) {
        const unsigned halves = (a.size_bytes + 1) / 2;
        o << "argument " << a.name << " uniform=" << uniform_name(a.offset_bytes / 2, halves)
          << " type=" << a.type << "\n";
    }
    // The constants the compiler promoted to uniforms (its rodata block).
    for (unsigned h = 0; h < k.rodata_halves;) {
        const unsigned half = k.rodata_base_half + h;
        const std::size_t at = k.rodata_offset + 2u * h;
        if (at + 2 > k.binary.size()) throw InputError(where, "rodata lies outside the binary");
        const bool whole = half % 2 == 0 && h + 1 < k.rodata_halves && at + 4 <= k.binary.size();
        std::uint32_t v = k.binary[at] | k.binary[at + 1] << 8;
        if (whole)
            v |= std::uint32_t{k.binary[at + 2]} << 16 | std::uint32_t{k.binary[at + 3]} << 24;
        o << "uniform " << uniform_name(half, whole ? 2 : 1) << " value=" << v
          << " type=" << (whole ? "u32" : "u16") << "   # constant\n";
        h += whole ? 2 : 1;
    }
    if (k.has_preamble()) {
        o << "\n# Runs once per launch on one lane: work on uniforms only, stored to uniforms.\n";
        o << "section preamble\n";
        for (const auto& line : preamble.lines) o << line << "\n";
        o << "section main\n";
    }
    o << "\n";
    for (const auto& line : main.lines) o << line << "\n";
    return o.str();
}

}  // namespace agx::kernel
