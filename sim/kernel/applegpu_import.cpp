#include "sim/kernel/applegpu_import.hpp"

#include <cctype>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "sim/common/errors.hpp"

namespace agx::kernel {

namespace {

struct ListingLine {
    unsigned line = 0;         // in the listing
    std::uint64_t offset = 0;  // byte offset of the instruction
    std::string mnemonic;
    std::vector<std::string> operands;
};

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

bool is_hex(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// `   1c: 0a05c282             rcp              r1, r1.discard`; nullopt-like
// (false) for a line that is not an instruction (blank, a shader's name).
bool parse_line(const std::string& raw, unsigned number, ListingLine& out) {
    const std::string s = trim(raw);
    const auto colon = s.find(':');
    if (colon == std::string::npos || !is_hex(s.substr(0, colon))) return false;
    std::istringstream in(s.substr(colon + 1));
    std::string bytes, mnemonic;
    if (!(in >> bytes) || !is_hex(bytes) || !(in >> mnemonic)) return false;
    std::string rest;
    std::getline(in, rest);
    // get_sr prints the register's meaning in parentheses.
    if (const auto paren = rest.find('('); paren != std::string::npos) rest = rest.substr(0, paren);
    out.line = number;
    out.offset = std::strtoull(s.substr(0, colon).c_str(), nullptr, 16);
    out.mnemonic = mnemonic;
    out.operands.clear();
    std::string item;
    std::istringstream ops(rest);
    while (std::getline(ops, item, ',')) {
        item = trim(item);
        if (!item.empty()) out.operands.push_back(item);
    }
    return true;
}

class Importer {
  public:
    Importer(const std::string& path, const ListingLine& l) : path_(path), l_(l) {}

    [[noreturn]] void fail(const std::string& why) const {
        throw InputError(path_ + ":" + std::to_string(l_.line), why);
    }
    const std::string& op(std::size_t i) const {
        if (i >= l_.operands.size())
            fail("'" + l_.mnemonic + "' needs at least " + std::to_string(i + 1) + " operands");
        return l_.operands[i];
    }
    void expect_count(std::size_t n) const {
        if (l_.operands.size() != n)
            fail("'" + l_.mnemonic + "' with " + std::to_string(l_.operands.size()) +
                 " operands (expected " + std::to_string(n) + ")");
    }

    static bool is_register(const std::string& t) {
        const std::string s = t[0] == '$' ? t.substr(1) : t;
        return s.size() >= 2 && (s[0] == 'r' || s[0] == 'u') &&
               std::isdigit(static_cast<unsigned char>(s[1]));
    }
    // A register operand in agxsim's spelling: applegpu's `$r2` (old) and
    // `r2.cache` are the cache hint, `.discard` the discard hint.
    std::string reg(const std::string& t) const {
        std::string s = t;
        bool cache = false, discard = false;
        if (!s.empty() && s[0] == '$') {
            cache = true;
            s = s.substr(1);
        }
        std::string base = s;
        if (const auto dot = s.find('.'); dot != std::string::npos) {
            base = s.substr(0, dot);
            std::istringstream mods(s.substr(dot + 1));
            for (std::string m; std::getline(mods, m, '.');) {
                if (m == "cache")
                    cache = true;
                else if (m == "discard")
                    discard = true;
                else
                    fail("operand modifier '." + m + "' on '" + t + "' has no agxsim equivalent");
            }
        }
        return base + (cache ? ".cache" : "") + (discard ? ".discard" : "");
    }
    // Any source: a register as above, or an immediate as written.
    std::string src(const std::string& t) const { return is_register(t) ? reg(t) : t; }
    // The width of a register operand: 16 for a half, 64 for a pair, else 32.
    static unsigned width(const std::string& t) {
        std::string s = t[0] == '$' ? t.substr(1) : t;
        s = s.substr(0, s.find('.'));
        if (s.find('_') != std::string::npos) return 64;
        return (s.back() == 'l' || s.back() == 'h') ? 16 : 32;
    }
    std::string sized(const std::string& stem, const std::string& dst) const {
        const unsigned w = width(dst);
        if (w == 64) fail("'" + l_.mnemonic + "' on a 64-bit register has no agxsim equivalent");
        return stem + (w == 16 ? "16" : "32");
    }
    std::string join(std::size_t from, std::size_t to) const {
        std::string out;
        for (std::size_t i = from; i < to; ++i) out += (i > from ? ", " : "") + src(op(i));
        return out;
    }

    static std::string int_cond(const std::string& c) {
        static const std::map<std::string, std::string> m = {
            {"ueq", "eq"},   {"seq", "eq"},   {"nueq", "ne"},  {"nseq", "ne"},
            {"ult", "ult"},  {"ugt", "ugt"},  {"slt", "slt"},  {"sgt", "sgt"},
            {"ugte", "uge"}, {"ulte", "ule"}, {"sgte", "sge"}, {"slte", "sle"}};
        auto it = m.find(c);
        return it == m.end() ? "" : it->second;
    }
    static std::string float_cond(const std::string& c) {
        static const std::map<std::string, std::string> m = {
            {"eq", "eq"},   {"lt", "lt"},  {"gt", "gt"},  {"ltn", "ltn"},
            {"gtn", "gtn"}, {"gte", "ge"}, {"lte", "le"}, {"neq", "ne"}};
        auto it = m.find(c);
        return it == m.end() ? "" : it->second;
    }
    std::string cond(const std::string& c, bool is_float) const {
        const std::string r = is_float ? float_cond(c) : int_cond(c);
        if (r.empty())
            fail("condition '" + c + "' has no agxsim equivalent (" +
                 (is_float ? "eq lt gt ltn gtn gte lte neq"
                           : "ueq seq nueq nseq ult ugt slt sgt ugte ulte sgte slte") +
                 ")");
        return r;
    }

  private:
    const std::string& path_;
    const ListingLine& l_;
};

// Memory operands common to applegpu's device/threadgroup loads and stores,
// picked by kind: the data format, the first register (data), the next
// operand (base), the next (offset), `signed`/`unsigned`, `lsl N`.
struct MemoryOperands {
    std::string format, data, base, offset;
    bool unsigned_offset = false;
    unsigned shift = 0;
    int wait_group = -1;  // the integer before the format (device memory)
};

MemoryOperands memory_operands(const Importer& im, const std::vector<std::string>& ops) {
    static const std::set<std::string> kFormats = {"i8",      "i16",    "i32",      "f16",
                                                   "u8norm",  "s8norm", "u16norm",  "s16norm",
                                                   "rgb10a2", "srgba8", "rg11b10f", "rgb9e5"};
    MemoryOperands m;
    std::size_t i = 0;
    for (; i < ops.size(); ++i)
        if (kFormats.count(ops[i]) || kFormats.count(ops[i].substr(0, ops[i].find('.')))) break;
    if (i == ops.size()) im.fail("no data format (i8, i16, i32, ...) among the operands");
    m.format = ops[i];
    if (m.format != "i8" && m.format != "i16" && m.format != "i32")
        im.fail("memory format '" + m.format + "' has no agxsim equivalent (i8, i16, i32)");
    if (i > 0) {
        char* end = nullptr;
        const long g = std::strtol(ops[i - 1].c_str(), &end, 0);
        if (*end == '\0') m.wait_group = static_cast<int>(g);
    }
    std::vector<std::string> rest;
    for (std::size_t k = i + 1; k < ops.size(); ++k) {
        const std::string& t = ops[k];
        if (t == "signed" || t == "unsigned") {
            m.unsigned_offset = t == "unsigned";
        } else if (t.rfind("lsl", 0) == 0) {
            m.shift = static_cast<unsigned>(std::strtoul(t.substr(3).c_str(), nullptr, 0));
        } else if (m.data.empty()) {
            if (!Importer::is_register(t))
                continue;  // the mask (x, xy, ...) or a register-size word
            m.data = im.reg(t);
        } else {
            rest.push_back(t);
        }
    }
    if (m.data.empty() || rest.size() < 2)
        im.fail("cannot find the data, base and offset operands");
    m.base = im.src(rest[0]);
    m.offset = im.src(rest[1]);
    return m;
}

std::string hex(std::uint64_t v) {
    std::ostringstream o;
    o << "0x" << std::hex << v;
    return o.str();
}

}  // namespace

ImportedKernel import_applegpu_listing(const std::string& listing, const std::string& path,
                                       const std::string& name, const std::string& launch) {
    std::vector<ListingLine> lines;
    {
        std::istringstream in(listing);
        std::string raw;
        unsigned number = 0;
        while (std::getline(in, raw)) {
            ++number;
            ListingLine l;
            if (parse_line(raw, number, l)) lines.push_back(std::move(l));
        }
    }
    if (lines.empty())
        throw InputError(path, "no instruction lines ('OFFSET: BYTES mnemonic operands')");

    std::set<std::uint64_t> offsets;
    for (const auto& l : lines) offsets.insert(l.offset);
    std::set<std::uint64_t> targets;
    auto label = [](std::uint64_t offset) { return "at_" + hex(offset); };
    // A branch target: an absolute offset as the disassembler prints it.
    auto target = [&](const Importer& im, const ListingLine& l, const std::string& t) {
        char* end = nullptr;
        const bool hexa = t.rfind("0x", 0) == 0 || t.rfind("0X", 0) == 0;
        const std::uint64_t v = std::strtoull(t.c_str(), &end, hexa ? 16 : 10);
        if (t.empty() || *end != '\0' || t.find('-') != std::string::npos)
            im.fail("branch target '" + t + "' is not an offset in the listing");
        if (!offsets.count(v))
            im.fail("branch to " + hex(v) + ", where no instruction of the listing starts");
        targets.insert(v);
        return label(v);
    };

    using Handler = std::function<std::string(const Importer&, const ListingLine&)>;
    std::unordered_map<std::string, Handler> handlers;
    auto same = [](const std::string& mnemonic) {
        return [mnemonic](const Importer& im, const ListingLine& l) {
            return mnemonic + (l.operands.empty() ? "" : " " + im.join(0, l.operands.size()));
        };
    };
    for (const char* m : {"fadd32",
                          "fmul32",
                          "fmadd32",
                          "fadd16",
                          "fmul16",
                          "fmadd16",
                          "floor",
                          "ceil",
                          "trunc",
                          "rint",
                          "sin_pt_1",
                          "sin_pt_2",
                          "popcount",
                          "bitrev",
                          "ffs",
                          "bfeil",
                          "bfi",
                          "extr",
                          "intl",
                          "asr",
                          "shlhi",
                          "shrhi",
                          "asrh",
                          "mov_imm",
                          "get_sr",
                          "wait",
                          "stop",
                          "threadgroup_barrier",
                          "memory_barrier",
                          "simd_shuffle",
                          "simd_shuffle_up",
                          "simd_shuffle_down",
                          "simd_shuffle_xor",
                          "simd_matrix_fmadd16",
                          "simd_matrix_fmadd32",
                          "ret"})
        handlers[m] = same(m);
    handlers["simd_shuffle_rotate_up"] = same("simd_shuffle_rotate");
    // Older listings (applegpu's README) print the float ops without a width.
    for (const char* stem : {"fadd", "fmul", "fmadd", "rcp", "rsqrt", "exp2", "log2"}) {
        const std::string s = stem;
        handlers[s] = [s](const Importer& im, const ListingLine& l) {
            return im.sized(s == "exp2" || s == "log2" ? s + "_" : s, im.op(0)) + " " +
                   im.join(0, l.operands.size());
        };
    }
    handlers["iadd"] = [](const Importer& im, const ListingLine& l) {
        std::size_t n = l.operands.size();
        std::string attrs;
        if (n == 4 && im.op(3).rfind("lsl", 0) == 0) {
            attrs += " shift=" + trim(im.op(3).substr(3));
            --n;
        }
        if (n != 3) im.fail("'iadd' with " + std::to_string(n) + " operands (expected 3)");
        std::string b = im.op(2);
        if (b.size() > 4 && b.compare(b.size() - 4, 4, ".neg") == 0) {
            b = b.substr(0, b.size() - 4);
            attrs += " neg=1";
        }
        return im.sized("iadd", im.op(0)) + " " + im.reg(im.op(0)) + ", " + im.src(im.op(1)) +
               ", " + im.src(b) + attrs;
    };
    handlers["imadd"] = [](const Importer& im, const ListingLine& l) {
        std::size_t n = l.operands.size();
        std::string attrs;
        if (n == 5 && im.op(4).rfind("lsl", 0) == 0) {
            attrs += " shift=" + trim(im.op(4).substr(3));
            --n;
        }
        if (n != 4) im.fail("'imadd' with " + std::to_string(n) + " operands (expected 4)");
        std::string c = im.op(3);
        if (c.size() > 4 && c.compare(c.size() - 4, 4, ".neg") == 0) {
            c = c.substr(0, c.size() - 4);
            attrs += " neg=1";
        }
        return im.sized("imadd", im.op(0)) + " " + im.join(0, 3) + ", " + im.src(c) + attrs;
    };
    auto bitop = [](const std::string& op) {
        return [op](const Importer& im, const ListingLine& l) {
            im.expect_count(3);
            return im.sized("bitop", im.op(0)) + " " + im.join(0, 3) + " op=" + op;
        };
    };
    for (const char* op : {"and", "or", "xor", "nand", "nor", "xnor"}) handlers[op] = bitop(op);
    handlers["not"] = [](const Importer& im, const ListingLine& l) {
        im.expect_count(2);
        return im.sized("bitop", im.op(0)) + " " + im.join(0, 2) + ", 0 op=not_a";
    };
    handlers["mov"] = [](const Importer& im, const ListingLine& l) {
        im.expect_count(2);
        return "mov " + im.join(0, 2);
    };
    // bitop TT, d, a, b: applegpu's truth table, character i for agxsim's bit i.
    handlers["bitop"] = [](const Importer& im, const ListingLine& l) {
        im.expect_count(4);
        const std::string& tt = im.op(0);
        static const std::map<unsigned, std::string> names = {
            {0, "zero"}, {1, "nor"},  {2, "andn"}, {3, "not_b"}, {5, "not_a"},
            {6, "xor"},  {7, "nand"}, {8, "and"},  {9, "xnor"},  {10, "a"},
            {11, "orn"}, {12, "b"},   {14, "or"},  {15, "ones"}};
        unsigned table = 0;
        if (tt.size() != 4 || tt.find_first_not_of("01") != std::string::npos)
            im.fail("truth table '" + tt + "' (4 binary digits expected)");
        for (unsigned i = 0; i < 4; ++i) table |= static_cast<unsigned>(tt[i] - '0') << i;
        auto it = names.find(table);
        if (it == names.end()) im.fail("truth table '" + tt + "' has no agxsim name");
        return im.sized("bitop", im.op(1)) + " " + im.join(1, 4) + " op=" + it->second;
    };
    for (const char* f : {"fcmpsel", "icmpsel"}) {
        const std::string stem = f;
        handlers[stem] = [stem](const Importer& im, const ListingLine& l) {
            im.expect_count(6);
            return im.sized(stem, im.op(1)) + " " + im.join(1, 6) +
                   " cc=" + im.cond(im.op(0), stem[0] == 'f');
        };
    }
    handlers["convert"] = [](const Importer& im, const ListingLine& l) {
        im.expect_count(4);
        const std::string& mode = im.op(0);
        const bool to_float = mode == "u32_to_f" || mode == "s32_to_f";
        if (!to_float && mode != "f_to_u32" && mode != "f_to_s32")
            im.fail("convert mode '" + mode +
                    "' has no agxsim equivalent (u32_to_f s32_to_f f_to_u32 f_to_s32)");
        // agxsim rounds int -> float to nearest even and float -> int toward
        // zero; `1` is how older listings print rte, `0` rtz.
        std::string round = im.op(3);
        if (round == "1") round = "rte";
        if (round == "0") round = "rtz";
        if (round != (to_float ? "rte" : "rtz"))
            im.fail("convert " + mode + " rounding '" + im.op(3) + "': agxsim models " +
                    (to_float ? "rte" : "rtz") + " only");
        return "convert " + im.join(1, 3) + " mode=" + mode;
    };
    for (const char* f :
         {"if_icmp", "if_fcmp", "else_icmp", "else_fcmp", "while_icmp", "while_fcmp"}) {
        const std::string m = f;
        handlers[m] = [m](const Importer& im, const ListingLine& l) {
            im.expect_count(5);
            if (im.op(0) != "r0l")
                im.fail("'" + m + "' on '" + im.op(0) +
                        "': agxsim keeps the exec-mask stack in r0l");
            const bool is_float = m.find("fcmp") != std::string::npos;
            return m + " " + im.join(2, 4) + " cc=" + im.cond(im.op(1), is_float) +
                   " n=" + im.op(4);
        };
    }
    handlers["pop_exec"] = [](const Importer& im, const ListingLine& l) {
        im.expect_count(2);
        if (im.op(0) != "r0l")
            im.fail("'pop_exec' on '" + im.op(0) + "': agxsim keeps the exec-mask stack in r0l");
        return "pop_exec " + im.op(1);
    };
    for (const char* m : {"jmp_exec_any", "jmp_exec_none", "call"}) {
        const std::string mm = m;
        handlers[mm] = [mm, &target](const Importer& im, const ListingLine& l) {
            im.expect_count(1);
            if (mm == "call" && Importer::is_register(im.op(0))) return "call " + im.reg(im.op(0));
            return mm + " " + target(im, l, im.op(0));
        };
    }
    for (const char* m : {"device_load", "device_store"}) {
        const std::string mm = m;
        handlers[mm] = [mm](const Importer& im, const ListingLine& l) {
            const MemoryOperands o = memory_operands(im, l.operands);
            std::string s = mm + " " + o.data + ", " + o.base + ", " + o.offset;
            if (o.wait_group >= 0) s += " slot=" + std::to_string(o.wait_group);
            if (o.format != "i32") s += " format=" + o.format;
            if (o.unsigned_offset) s += " offset=unsigned";
            if (o.shift) s += " shift=" + std::to_string(o.shift);
            return s;
        };
    }
    for (const char* m : {"threadgroup_load", "threadgroup_store"}) {
        const std::string mm = m;
        handlers[mm] = [mm](const Importer& im, const ListingLine& l) {
            const MemoryOperands o = memory_operands(im, l.operands);
            std::string s = mm + " " + o.data + ", " + o.base + ", " + o.offset;
            if (o.format != "i32") s += " format=" + o.format;
            return s;
        };
    }
    auto atomic_op = [](const Importer& im, const std::string& op) {
        static const std::map<std::string, std::string> m = {
            {"add", "add"},   {"sub", "sub"},   {"xchg", "xchg"}, {"cmpxchg", "cmpxchg"},
            {"umin", "umin"}, {"imin", "smin"}, {"umax", "umax"}, {"imax", "smax"},
            {"and", "and"},   {"or", "or"},     {"xor", "xor"}};
        auto it = m.find(op);
        if (it == m.end()) im.fail("atomic operation '" + op + "' has no agxsim equivalent");
        return it->second;
    };
    // atomic OP, g, R, A, O, signed|unsigned, S, ... (applegpu's fields in order)
    handlers["atomic"] = [atomic_op](const Importer& im, const ListingLine& l) {
        const std::string op = atomic_op(im, im.op(0));
        std::string s = "atomic " + im.reg(im.op(2)) + ", " + im.src(im.op(6)) + ", " +
                        im.src(im.op(3)) + ", " + im.src(im.op(4)) + " op=" + op +
                        " slot=" + im.op(1);
        if (im.op(5) == "unsigned") s += " offset=unsigned";
        return s;
    };
    // threadgroup_atomic OP, R, A, O, S, ...
    handlers["threadgroup_atomic"] = [atomic_op](const Importer& im, const ListingLine& l) {
        const std::string op = atomic_op(im, im.op(0));
        return "threadgroup_atomic " + im.reg(im.op(1)) + ", " + im.src(im.op(4)) + ", " +
               im.src(im.op(2)) + ", " + im.src(im.op(3)) + " op=" + op;
    };

    std::vector<std::pair<const ListingLine*, std::string>> out;
    for (const ListingLine& l : lines) {
        const Importer im(path, l);
        auto h = handlers.find(l.mnemonic);
        if (h == handlers.end())
            im.fail("no agxsim equivalent for '" + l.mnemonic +
                    "' (agxsim isa list shows what it models)");
        out.emplace_back(&l, h->second(im, l));
    }

    std::ostringstream k;
    k << "# " << name << ": imported by `agxsim kernel import` from " << path
      << "\n# (applegpu disassembly); each line keeps its listing offset. Give it a launch\n"
      << "# with `agxsim run KERNEL --launch FILE` (traces/KERNEL.md).\n"
      << "agxsim-kernel 1\nkernel name=" << name << "\n";
    if (!launch.empty()) k << launch << (launch.back() == '\n' ? "" : "\n");
    k << "\n";
    for (const auto& [l, text] : out) {
        if (targets.count(l->offset)) k << label(l->offset) << ":\n";
        std::string line = "    " + text;
        if (line.size() < 60) line.append(60 - line.size(), ' ');
        k << line << " # " << hex(l->offset) << "\n";
    }
    return {k.str(), static_cast<unsigned>(out.size())};
}

}  // namespace agx::kernel
