#include "sim/kernel/opencl_compile.hpp"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "sim/common/child_process.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"

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
        std::error_code ec;
        const fs::path tmp = fs::temp_directory_path(ec);
        if (ec) throw InputError("TMPDIR", "no temporary directory: " + ec.message());
        std::string tmpl = (tmp / "agxsim-clc-XXXXXX").string();
        if (!mkdtemp(tmpl.data()))
            throw InputError("TMPDIR", std::string("cannot create a temporary directory for the "
                                                   "compiler: ") +
                                           std::strerror(errno));
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
            // The comment's line breaks stay, so lines keep their numbers.
            const auto end = s.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? s.size() : end + 2;
            out += ' ';
            for (std::size_t j = i; j < stop; ++j)
                if (s[j] == '\n') out += '\n';
            i = stop - 1;
        } else {
            out += s[i];
        }
    }
    return out;
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

std::vector<std::pair<std::string, std::string>> spirv_argument_types(const std::string& spv,
                                                                      const std::string& kernel,
                                                                      const std::string& where) {
    if (spv.size() < 20 || spv.size() % 4 != 0)
        throw InputError(where, "mesa_clc wrote no SPIR-V module");
    std::vector<std::uint32_t> w(spv.size() / 4);
    std::memcpy(w.data(), spv.data(), spv.size());
    auto text = [&](std::size_t at, std::size_t words) {
        const char* p = reinterpret_cast<const char*>(&w[at]);
        return std::string(p, strnlen(p, words * 4));
    };
    // What a type id is: "pointer", "local pointer", a scalar type, or "".
    std::map<std::uint32_t, std::string> types, names;
    std::uint32_t entry = 0;
    bool found = false;
    std::vector<std::pair<std::string, std::string>> out;
    bool in_entry = false;
    for (std::size_t i = 5; i < w.size();) {
        const std::uint32_t words = w[i] >> 16, op = w[i] & 0xffffu;
        if (words == 0 || i + words > w.size()) break;
        const auto arg = [&](std::size_t k) { return k < words ? w[i + k] : 0u; };
        switch (op) {
            case 5:  // OpName target "name"
                if (words >= 3) names[arg(1)] = text(i + 2, words - 2);
                break;
            case 15:  // OpEntryPoint model function "name"
                if (words >= 4 && text(i + 3, words - 3) == kernel) {
                    entry = arg(2);
                    found = true;
                }
                break;
            case 20:  // OpTypeBool
                types[arg(1)] = "u8";
                break;
            case 21:  // OpTypeInt id width signedness (OpenCL: no signedness)
                types[arg(1)] = "i" + std::to_string(arg(2));
                break;
            case 22:  // OpTypeFloat id width
                types[arg(1)] = "f" + std::to_string(arg(2));
                break;
            case 32:  // OpTypePointer id storage-class type
                // CrossWorkgroup (global) and UniformConstant (constant) are
                // device memory; Workgroup is local.
                types[arg(1)] = arg(2) == 5 || arg(2) == 0 ? "pointer"
                                : arg(2) == 4              ? "local pointer"
                                                           : "";
                break;
            case 54:  // OpFunction type id control function-type
                in_entry = found && arg(2) == entry;
                break;
            case 55:  // OpFunctionParameter type id
                if (in_entry) {
                    const auto name = names.count(arg(2)) ? names[arg(2)] : std::string();
                    const auto type = types.count(arg(1)) ? types[arg(1)] : std::string();
                    const std::string shown =
                        name.empty() ? "#" + std::to_string(out.size()) : name;
                    if (type == "local pointer")
                        throw InputError(where, "kernel " + kernel + ": argument '" + shown +
                                                    "' is a local pointer, which agxsim cannot "
                                                    "bind (declare the threadgroup array inside "
                                                    "the kernel)");
                    if (type.empty() || type == "f64")
                        throw InputError(where, "kernel " + kernel + ": argument '" + shown +
                                                    "' is not a global or constant pointer or "
                                                    "an integer or float scalar, which is what "
                                                    "agxsim can bind");
                    out.emplace_back(name, type);
                }
                break;
            case 56:  // OpFunctionEnd
                if (in_entry) return out;
                break;
            default:
                break;
        }
        i += words;
    }
    if (!found) throw InputError(where, "the SPIR-V module has no kernel named '" + kernel + "'");
    return out;
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
        if (name.rfind("_pad", 0) != 0) {
            // Asahi aligns arguments to 16-bit uniform halves (arg_align_B = 2).
            if (offset % 2 != 0)
                throw InputError(where, "argument '" + name + "' of " + kernel +
                                            " starts at an odd byte: not a layout Asahi makes");
            k.arguments.push_back({name, "", offset, size});
        }
        offset += size;
    }

    // The variant-0 G13G blob: `static const uint32_t NAME_0_g13g[N] = { 0x..., };`
    // `NAME_0_g13g[`, with NAME whole (not the end of a longer name).
    std::smatch array;
    const std::regex array_re("(^|[^A-Za-z0-9_])" + kernel + "_0_g13g\\[");
    if (!std::regex_search(c_text, array, array_re))
        throw InputError(where, "asahi_clc wrote no G13G binary for '" + kernel + "'");
    const auto at = static_cast<std::size_t>(array.position(0));
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
    if (k.workgroup[0] == 0 || k.workgroup[1] == 0 || k.workgroup[2] == 0)
        throw InputError(where, "kernel " + kernel +
                                    " needs __attribute__((reqd_work_group_size(X, Y, Z))): the "
                                    "compiler sizes its code for one threadgroup shape");
    if (kInfoBytes + std::uint64_t{binary_size} > blob.size() ||
        std::uint64_t{k.main_offset} + k.main_size > binary_size ||
        std::uint64_t{k.rodata_offset} + 2u * k.rodata_halves > binary_size ||
        k.preamble_offset > binary_size)
        throw InputError(where, "asahi_clc's binary for '" + kernel + "' is inconsistent");
    k.binary.assign(blob.begin() + kInfoBytes, blob.begin() + kInfoBytes + binary_size);
    return k;
}

CompiledKernel compile_opencl(const CompileOptions& options) {
    const std::string& src = options.source;
    std::error_code ec;
    if (!fs::is_regular_file(src, ec)) throw InputError(src, "no such file");
    check_input_file(src, "OpenCL C source", kMaxTextInputBytes);
    const std::string dir =
        options.compiler_dir.empty() ? find_compiler_dir() : options.compiler_dir;
    if (dir.empty())
        throw InputError(src,
                         "Mesa's AGX compiler is not built here: run `bash "
                         "scripts/setup-agx-compiler.sh` (or set AGXSIM_AGX_COMPILER_DIR)");
    TempDir tmp;
    const fs::path spv = tmp.path / "k.spv", h = tmp.path / "k.h", c = tmp.path / "k.c";
    // The source as given, so that the compiler's messages name it so.
    std::vector<std::string> clc = {"mesa_clc", "-o", spv.string(), src, "--"};
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
    const auto types = spirv_argument_types(read_text(spv), k.name, src);
    if (types.size() != k.arguments.size())
        throw InputError(
            src, "kernel " + k.name + ": the declaration has " + std::to_string(types.size()) +
                     " arguments, the compiler laid out " + std::to_string(k.arguments.size()));
    for (std::size_t i = 0; i < types.size(); ++i) {
        if (!types[i].first.empty() && types[i].first != k.arguments[i].name)
            throw InputError(src, "kernel " + k.name + ": argument " + std::to_string(i) + " is '" +
                                      types[i].first + "' in the source, '" + k.arguments[i].name +
                                      "' in the compiler's layout");
        k.arguments[i].type = types[i].second;
    }
    return k;
}

}  // namespace agx::kernel
