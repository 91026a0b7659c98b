#include "sim/kernel/opencl_compile.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "sim/common/child_process.hpp"
#include "sim/common/errors.hpp"

namespace agx::kernel {

namespace fs = std::filesystem;

namespace {

// scripts/setup-agx-compiler.sh's cache, for this Mesa version and recipe.
constexpr const char* kCacheLeaf = "agx-compiler/mesa-25.0.7-r1";

bool holds_tools(const fs::path& dir) {
    std::error_code ec;
    return fs::is_regular_file(dir / "bin" / "mesa_clc", ec) &&
           fs::is_regular_file(dir / "bin" / "asahi_clc", ec);
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A temporary directory, removed with everything in it.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "agxsim-clc-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary directory");
        path = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

// Runs a tool; on failure throws InputError with its most telling lines.
void run_tool(const std::string& tool, const std::vector<std::string>& argv, const fs::path& log,
              const std::string& where) {
    ChildOptions o;
    o.out.to = ChildStream::To::File;
    o.out.path = log.string();
    o.err.to = ChildStream::To::File;
    o.err.path = log.string() + ".err";
    ChildProcess child = ChildProcess::exec(tool, argv, o);
    const ChildExit e = child.wait();
    if (child.start_error() != 0)
        throw InputError(where, "cannot start " + tool + ": " + std::strerror(child.start_error()));
    if (e.exited() && e.exit_code() == 0) return;
    // The compiler's own diagnostics: clang's "file:line:col: error: ..."
    // lines first, else the last line it printed.
    std::string text = read_text(log.string() + ".err") + read_text(log);
    std::istringstream lines(text);
    std::string line, first_error, last;
    while (std::getline(lines, line)) {
        if (line.empty()) continue;
        if (first_error.empty() && line.find("error:") != std::string::npos) first_error = line;
        last = line;
    }
    const std::string name = fs::path(tool).filename().string();
    if (!first_error.empty()) throw InputError("", first_error);
    if (!e.exited())
        throw InputError(where, name + " crashed (signal " + std::to_string(e.signal()) + ")" +
                                    (last.empty() ? "" : ": " + last));
    throw InputError(where, name + " failed" + (last.empty() ? "" : ": " + last));
}

std::uint32_t le32(const std::vector<std::uint8_t>& b, std::size_t at) {
    return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at + 2]} << 16 |
           std::uint32_t{b[at + 3]} << 24;
}
std::uint16_t le16(const std::vector<std::uint8_t>& b, std::size_t at) {
    return static_cast<std::uint16_t>(b[at] | b[at + 1] << 8);
}

std::string strip_c_comments(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s.compare(i, 2, "//") == 0) {
            while (i < s.size() && s[i] != '\n') ++i;
            out += '\n';
        } else if (s.compare(i, 2, "/*") == 0) {
            const auto end = s.find("*/", i + 2);
            i = end == std::string::npos ? s.size() : end + 1;
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string scalar_type(const std::vector<std::string>& words) {
    bool is_unsigned = false;
    std::string base;
    for (const auto& w : words) {
        if (w == "unsigned")
            is_unsigned = true;
        else if (w == "signed" || w == "const" || w == "volatile" || w == "restrict" ||
                 w == "__restrict" || w == "__private" || w == "private")
            continue;
        else
            base = w;
    }
    static const std::map<std::string, std::string> types = {
        {"float", "f32"},   {"half", "f16"},     {"char", "i8"},    {"uchar", "u8"},
        {"short", "i16"},   {"ushort", "u16"},   {"int", "i32"},    {"uint", "u32"},
        {"long", "i64"},    {"ulong", "u64"},    {"size_t", "u64"}, {"bool", "u8"},
        {"int32_t", "i32"}, {"uint32_t", "u32"},
    };
    if (is_unsigned && base.empty()) base = "int";
    auto it = types.find(base);
    if (it == types.end()) return {};
    std::string t = it->second;
    if (is_unsigned && t[0] == 'i') t[0] = 'u';
    return t;
}

// OpenCL.std extended instructions that Mesa's SPIR-V front end turns into
// calls into libclc, which asahi_clc does not link (it crashes on them):
// the instruction number (the OpenCL extended instruction set
// specification) and the native_ form that compiles, if there is one.
struct LibclcBuiltin {
    std::uint32_t number;
    const char* name;
    const char* native;
};
constexpr LibclcBuiltin kLibclcBuiltins[] = {
    {0, "acos", ""},
    {1, "acosh", ""},
    {2, "acospi", ""},
    {3, "asin", ""},
    {4, "asinh", ""},
    {5, "asinpi", ""},
    {6, "atan", ""},
    {7, "atan2", ""},
    {8, "atanh", ""},
    {9, "atanpi", ""},
    {10, "atan2pi", ""},
    {11, "cbrt", ""},
    {14, "cos", "native_cos"},
    {15, "cosh", ""},
    {16, "cospi", ""},
    {17, "erfc", ""},
    {18, "erf", ""},
    {19, "exp", "native_exp"},
    {20, "exp2", "native_exp2"},
    {21, "exp10", "native_exp10"},
    {22, "expm1", ""},
    {29, "fmod", ""},
    {32, "hypot", ""},
    {35, "lgamma", ""},
    {37, "log", "native_log"},
    {38, "log2", "native_log2"},
    {39, "log10", "native_log10"},
    {40, "log1p", ""},
    {48, "pow", "native_powr (for x >= 0)"},
    {50, "powr", "native_powr"},
    {51, "remainder", ""},
    {57, "sin", "native_sin"},
    {58, "sincos", "native_sin and native_cos"},
    {59, "sinh", ""},
    {60, "sinpi", ""},
    {62, "tan", "native_tan"},
    {63, "tanh", ""},
    {64, "tanpi", ""},
    {65, "tgamma", ""},
};

// The first libclc builtin the SPIR-V module calls, or null. SPIR-V: a
// 5-word header, then instructions whose first word is (words << 16) |
// opcode; OpExtInstImport (11) names a set, OpExtInst (12) is
// (type, result, set, number, operands...).
const LibclcBuiltin* libclc_call(const std::string& spv) {
    if (spv.size() < 20 || spv.size() % 4 != 0) return nullptr;
    std::vector<std::uint32_t> w(spv.size() / 4);
    std::memcpy(w.data(), spv.data(), spv.size());
    std::uint32_t opencl_std = 0;
    for (std::size_t i = 5; i < w.size();) {
        const std::uint32_t words = w[i] >> 16, opcode = w[i] & 0xffffu;
        if (words == 0 || i + words > w.size()) break;
        if (opcode == 11 && words >= 3) {
            const char* name = reinterpret_cast<const char*>(&w[i + 2]);
            const std::size_t max = (words - 2) * 4;
            if (std::string(name, strnlen(name, max)) == "OpenCL.std") opencl_std = w[i + 1];
        } else if (opcode == 12 && words >= 5 && w[i + 3] == opencl_std) {
            for (const auto& b : kLibclcBuiltins)
                if (b.number == w[i + 4]) return &b;
        }
        i += words;
    }
    return nullptr;
}

// "file:line" of the first call of `name` in the source, else the file.
std::string call_site(const std::string& path, const std::string& source, const std::string& name) {
    const std::regex call("\\b" + name + "\\s*\\(");
    std::istringstream lines(strip_c_comments(source));
    unsigned n = 0;
    for (std::string line; std::getline(lines, line);) {
        ++n;
        if (std::regex_search(line, call)) return path + ":" + std::to_string(n);
    }
    return path;
}

}  // namespace

std::string find_compiler_dir() {
    if (const char* env = std::getenv("AGXSIM_AGX_COMPILER_DIR"); env && *env)
        return holds_tools(env) ? std::string(env) : std::string();
    fs::path root;
    if (const char* c = std::getenv("AGXSIM_CACHE_DIR"); c && *c)
        root = c;
    else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
        root = fs::path(x) / "agxsim";
    else if (const char* h = std::getenv("HOME"); h && *h)
        root = fs::path(h) / ".cache" / "agxsim";
    else
        return {};
    const fs::path dir = root / kCacheLeaf;
    return holds_tools(dir) ? dir.string() : std::string();
}

std::string compiler_version(const std::string& dir) {
    std::string v = read_text(fs::path(dir) / "COMPLETE");
    // "mesa 25.0.7-2+deb13u1, recipe 1, ..." (scripts/setup-agx-compiler.sh).
    const auto comma = v.find(',');
    if (comma == std::string::npos || v.rfind("mesa ", 0) != 0) return "Mesa";
    return "Mesa " + v.substr(5, comma - 5);
}

std::vector<std::pair<std::string, std::string>> kernel_argument_types(const std::string& source,
                                                                       const std::string& kernel,
                                                                       const std::string& where) {
    const std::string s = strip_c_comments(source);
    // `kernel void NAME(` or `__kernel void NAME(`, with attributes between.
    // `void NAME(` whose declaration (since the last `;` or `}`) says kernel.
    const std::regex decl("\\bvoid\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*\\(");
    const std::regex kernel_word("(^|[^A-Za-z0-9_])(__kernel|kernel)([^A-Za-z0-9_]|$)");
    for (std::sregex_iterator it(s.begin(), s.end(), decl), end; it != end; ++it) {
        if ((*it)[1].str() != kernel) continue;
        const std::size_t at = static_cast<std::size_t>(it->position(0));
        const std::size_t from = s.find_last_of(";}", at);
        const std::string before = s.substr(from == std::string::npos ? 0 : from + 1,
                                            at - (from == std::string::npos ? 0 : from + 1));
        if (!std::regex_search(before, kernel_word)) continue;
        std::size_t i = it->position(0) + it->length(0);
        int depth = 1;
        std::string params;
        for (; i < s.size() && depth > 0; ++i) {
            if (s[i] == '(') ++depth;
            if (s[i] == ')' && --depth == 0) break;
            params += s[i];
        }
        std::vector<std::pair<std::string, std::string>> out;
        std::vector<std::string> parts;
        std::string cur;
        depth = 0;
        for (char c : params) {
            if (c == '(') ++depth;
            if (c == ')') --depth;
            if (c == ',' && depth == 0) {
                parts.push_back(cur);
                cur.clear();
            } else {
                cur += c;
            }
        }
        if (!cur.empty()) parts.push_back(cur);
        for (const auto& p : parts) {
            std::string t = p;
            for (char& c : t)
                if (c == '*' || c == '[' || c == ']') c = c == '*' ? ' ' : ' ';
            std::istringstream words(t);
            std::vector<std::string> w;
            for (std::string x; words >> x;) w.push_back(x);
            if (w.empty() || (w.size() == 1 && w[0] == "void")) continue;
            const std::string name = w.back();
            w.pop_back();
            const bool pointer = p.find('*') != std::string::npos;
            bool local = false, global = false;
            for (const auto& x : w) {
                if (x == "local" || x == "__local") local = true;
                if (x == "global" || x == "__global" || x == "constant" || x == "__constant")
                    global = true;
            }
            if (pointer && local)
                throw InputError(where, "kernel " + kernel + ": argument '" + name +
                                            "' is a local pointer, which agxsim cannot bind "
                                            "(declare the threadgroup array inside the kernel)");
            if (pointer) {
                if (!global)
                    throw InputError(where, "kernel " + kernel + ": argument '" + name +
                                                "' is a pointer without global or constant");
                out.emplace_back(name, "pointer");
                continue;
            }
            const std::string type = scalar_type(w);
            if (type.empty())
                throw InputError(where, "kernel " + kernel + ": argument '" + name +
                                            "' has type '" + p +
                                            "', which agxsim cannot bind (pointers and "
                                            "scalars only)");
            out.emplace_back(name, type);
        }
        return out;
    }
    throw InputError(where, "no kernel named '" + kernel + "' is declared in the source");
}

CompiledKernel read_asahi_output(const std::string& c_text, const std::string& h_text,
                                 const std::string& kernel_in, const std::string& where) {
    // `struct NAME_args { ... } PACKED;` per kernel, in the header.
    const std::regex args_re("struct ([A-Za-z_][A-Za-z0-9_]*)_args \\{([^}]*)\\}");
    std::map<std::string, std::string> layouts;
    for (std::sregex_iterator it(h_text.begin(), h_text.end(), args_re), end; it != end; ++it)
        layouts[(*it)[1].str()] = (*it)[2].str();
    std::string kernel = kernel_in;
    if (kernel.empty()) {
        if (layouts.size() != 1) {
            std::string names;
            for (const auto& [n, _] : layouts) names += (names.empty() ? "" : ", ") + n;
            throw InputError(where, "the source has " + std::to_string(layouts.size()) +
                                        " kernels (" + names + "): choose one with --kernel");
        }
        kernel = layouts.begin()->first;
    }
    auto layout = layouts.find(kernel);
    if (layout == layouts.end())
        throw InputError(where, "the source has no kernel named '" + kernel + "'");

    CompiledKernel k;
    k.name = kernel;
    // Argument layout: `uintN_t name;`, `uintN_t name[C];`, `uint8_t _padK[P];`.
    const std::regex member("uint(8|16|32|64)_t ([A-Za-z_][A-Za-z0-9_]*)(\\[([0-9]+)\\])?;");
    std::uint32_t offset = 0;
    const std::string& body = layout->second;
    for (std::sregex_iterator it(body.begin(), body.end(), member), end; it != end; ++it) {
        const unsigned bits = std::stoul((*it)[1].str());
        const unsigned count = (*it)[4].matched ? std::stoul((*it)[4].str()) : 1;
        const std::uint32_t size = bits / 8 * count;
        const std::string name = (*it)[2].str();
        if (name.rfind("_pad", 0) != 0) k.arguments.push_back({name, "", offset, size});
        offset += size;
    }

    // The variant-0 G13G blob: `static const uint32_t NAME_0_g13g[N] = { 0x..., };`
    const std::string array = kernel + "_0_g13g[";
    const auto at = c_text.find(array);
    if (at == std::string::npos)
        throw InputError(where, "asahi_clc wrote no G13G binary for '" + kernel + "'");
    const auto open = c_text.find('{', at), close = c_text.find('}', at);
    std::vector<std::uint8_t> blob;
    std::istringstream words(c_text.substr(open + 1, close - open - 1));
    for (std::string w; std::getline(words, w, ',');) {
        const auto start = w.find("0x");
        if (start == std::string::npos) continue;
        const auto v = static_cast<std::uint32_t>(std::stoul(w.substr(start), nullptr, 16));
        for (int b = 0; b < 4; ++b) blob.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
    }
    constexpr std::size_t kInfoBytes = 44;
    if (blob.size() < kInfoBytes) throw InputError(where, "asahi_clc's binary is too short");
    k.preamble_offset = le32(blob, 0);
    k.main_offset = le32(blob, 4);
    k.main_size = le32(blob, 8);
    const std::uint32_t binary_size = le32(blob, 12);
    k.rodata_offset = le32(blob, 16);
    k.rodata_base_half = le16(blob, 20);
    k.rodata_halves = le16(blob, 22);
    k.registers_halves = le16(blob, 24);
    k.preamble_registers_halves = le16(blob, 26);
    k.push_count = le16(blob, 28);
    for (int d = 0; d < 3; ++d) k.workgroup[d] = le16(blob, 30 + 2 * d);
    k.local_bytes = le16(blob, 36);
    if (kInfoBytes + binary_size > blob.size() || k.main_offset + k.main_size > binary_size)
        throw InputError(where, "asahi_clc's binary for '" + kernel + "' is inconsistent");
    k.binary.assign(blob.begin() + kInfoBytes, blob.begin() + kInfoBytes + binary_size);
    return k;
}

CompiledKernel compile_opencl(const CompileOptions& options) {
    const std::string& src = options.source;
    std::error_code ec;
    if (!fs::is_regular_file(src, ec)) throw InputError(src, "no such file");
    const std::string dir =
        options.compiler_dir.empty() ? find_compiler_dir() : options.compiler_dir;
    if (dir.empty())
        throw InputError(src,
                         "Mesa's AGX compiler is not built here: run `bash "
                         "scripts/setup-agx-compiler.sh` (or set AGXSIM_AGX_COMPILER_DIR)");
    TempDir tmp;
    const fs::path spv = tmp.path / "k.spv", h = tmp.path / "k.h", c = tmp.path / "k.c";
    std::vector<std::string> clc = {"mesa_clc", "-o", spv.string(), fs::absolute(src).string(),
                                    "--"};
    for (const auto& d : options.defines) clc.push_back(d);
    run_tool((fs::path(dir) / "bin" / "mesa_clc").string(), clc, tmp.path / "clc.log", src);
    if (const LibclcBuiltin* b = libclc_call(read_text(spv))) {
        std::string why = "the full-precision builtin " + std::string(b->name) +
                          "() needs libclc, which Mesa's AGX compiler (asahi_clc) does not link";
        why += b->native[0] ? std::string(": use ") + b->native + " instead"
                            : std::string(
                                  ": it has no native_ form; write it from native_ "
                                  "functions or arithmetic");
        throw InputError(call_site(src, read_text(src), b->name), why);
    }
    run_tool((fs::path(dir) / "bin" / "asahi_clc").string(),
             {"asahi_clc", spv.string(), h.string(), c.string()}, tmp.path / "asahi.log", src);
    CompiledKernel k = read_asahi_output(read_text(c), read_text(h), options.kernel, src);
    k.source = src;
    const auto types = kernel_argument_types(read_text(src), k.name, src);
    if (types.size() != k.arguments.size())
        throw InputError(
            src, "kernel " + k.name + ": the declaration has " + std::to_string(types.size()) +
                     " arguments, the compiler laid out " + std::to_string(k.arguments.size()));
    for (std::size_t i = 0; i < types.size(); ++i) {
        if (types[i].first != k.arguments[i].name)
            throw InputError(src, "kernel " + k.name + ": argument " + std::to_string(i) + " is '" +
                                      types[i].first + "' in the source, '" + k.arguments[i].name +
                                      "' in the compiler's layout");
        k.arguments[i].type = types[i].second;
    }
    return k;
}

}  // namespace agx::kernel
