#include "sim/kernel/device_memory.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "isa/semantics.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/input_file.hpp"
#include "sim/common/lane_copy.hpp"

namespace agx::kernel {

namespace {

struct TypeInfo {
    ElementType type;
    const char* name;
    unsigned bytes;
    const char* npy_descr;  // as written in a .npy header
    bool is_float;
    bool is_signed;
};

constexpr TypeInfo kTypes[] = {
    {ElementType::F32, "f32", 4, "<f4", true, true},
    {ElementType::F16, "f16", 2, "<f2", true, true},
    {ElementType::I32, "i32", 4, "<i4", false, true},
    {ElementType::U32, "u32", 4, "<u4", false, false},
    {ElementType::I16, "i16", 2, "<i2", false, true},
    {ElementType::U16, "u16", 2, "<u2", false, false},
    {ElementType::I8, "i8", 1, "|i1", false, true},
    {ElementType::U8, "u8", 1, "|u1", false, false},
};

const TypeInfo& info(ElementType t) {
    return kTypes[static_cast<unsigned>(t)];
}

// splitmix64's finaliser: a well-mixed 64-bit value from (seed, index), so
// element i of a random fill does not depend on which pages were touched.
std::uint64_t mix(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = seed * 0x9e3779b97f4a7c15ull + index + 0x632be59bd9b4e5f5ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// A real value as the bytes of one element (little-endian). Floats round to
// nearest; integers are the value truncated toward zero, in two's complement
// at the element's width.
std::uint64_t element_bits(ElementType t, double v) {
    switch (t) {
        case ElementType::F32:
            return isa::sem::bits(static_cast<float>(v));
        case ElementType::F16:
            return isa::sem::f32_to_f16(static_cast<float>(v));
        default:
            break;
    }
    const double clamped = std::max(-9.2e18, std::min(1.8e19, std::trunc(v)));
    const std::uint64_t u = clamped < 0
                                ? static_cast<std::uint64_t>(static_cast<std::int64_t>(clamped))
                                : static_cast<std::uint64_t>(clamped);
    const unsigned bytes = info(t).bytes;
    return bytes == 8 ? u : u & ((std::uint64_t{1} << (bytes * 8)) - 1);
}

// Element i of a random binary32 fill: low + u (high - low), u in [0, 1)
// from (seed, i), rounded to binary32 and kept below `high` (rounding may
// reach it). What a fill needs of (low, high) is worked out once.
class RandomF32 {
  public:
    explicit RandomF32(const Fill& f)
        : seed_(f.seed),
          low_(f.low),
          high_(f.high),
          span_(f.high - f.low),
          guard_(f.high > f.low),
          below_high_(std::nextafter(static_cast<float>(f.high), -INFINITY)) {}
    float operator()(std::uint64_t index) const {
        const double u = static_cast<double>(mix(seed_, index) >> 11) * 0x1.0p-53;
        const float r = static_cast<float>(low_ + u * span_);
        return guard_ && r >= high_ ? below_high_ : r;
    }

  private:
    // Copies, not the Fill: a loop writing bytes keeps them in registers.
    std::uint64_t seed_;
    double low_, high_, span_;
    bool guard_;
    float below_high_;
};

std::uint64_t element_value(const Fill& f, std::uint64_t index) {
    switch (f.kind) {
        case Fill::Kind::Constant:
            return element_bits(f.type, f.value);
        case Fill::Kind::Iota:
            return element_bits(f.type, f.low + static_cast<double>(index));
        case Fill::Kind::Random: {
            if (f.type == ElementType::F32) return isa::sem::bits(RandomF32(f)(index));
            const std::uint64_t h = mix(f.seed, index);
            if (info(f.type).is_float) {  // binary16 (binary32 just above)
                const double u = static_cast<double>(h >> 11) * 0x1.0p-53;  // [0, 1)
                double v = f.low + u * (f.high - f.low);
                // Rounding to binary16 must not reach `high`.
                if (f.high > f.low &&
                    isa::sem::f16_to_f32(isa::sem::f32_to_f16(static_cast<float>(v))) >= f.high)
                    v = f.low;
                return element_bits(f.type, v);
            }
            const double lo = std::ceil(f.low), hi = std::floor(f.high);
            if (hi < lo) return element_bits(f.type, lo);
            const double span = hi - lo + 1;
            const std::uint64_t n = span >= 1.8e19 ? 0 : static_cast<std::uint64_t>(span);
            const std::uint64_t pick = n == 0 ? h : h % n;
            return element_bits(f.type, lo + static_cast<double>(pick));
        }
        default:
            return 0;
    }
}

constexpr std::uint64_t kAlign = 64 * 1024;

std::uint64_t round_up(std::uint64_t v, std::uint64_t a) {
    return (v + a - 1) / a * a;
}

std::vector<unsigned char> read_whole_file(const std::string& path, std::uint64_t limit) {
    const std::string bytes = read_input_file(path, "buffer data", limit);
    return std::vector<unsigned char>(bytes.begin(), bytes.end());
}

// The room a buffer's .npy data file has beyond the data for its header
// (numpy writes one of 128 bytes or so).
constexpr std::uint64_t kNpyHeaderMax = kMiB;

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::optional<ElementType> parse_element_type(std::string_view name) {
    for (const auto& t : kTypes)
        if (name == t.name) return t.type;
    return std::nullopt;
}
const char* element_type_name(ElementType t) {
    return info(t).name;
}
unsigned element_bytes(ElementType t) {
    return info(t).bytes;
}

DeviceMemory::DeviceMemory(std::vector<BufferSpec> buffers) {
    std::uint64_t next = kFirstBufferAddress;
    for (auto& spec : buffers) {
        Placed p;
        p.base = next;
        next = round_up(next + spec.size + kAlign, kAlign);
        if (spec.fill.kind == Fill::Kind::File) {
            const std::string& path = spec.fill.path;
            // Checked before reading: data larger than the buffer is not read.
            const bool npy = ends_with(path, ".npy");
            const std::uint64_t size = check_input_file(path, "buffer data", UINT64_MAX);
            if (size > spec.size + (npy ? kNpyHeaderMax : 0))
                throw InputError(path, std::to_string(size) + " bytes of data do not fit buffer '" +
                                           spec.name + "' of " + std::to_string(spec.size) +
                                           " bytes");
            if (npy)
                p.file_bytes = read_npy(path).bytes;
            else
                p.file_bytes = read_whole_file(path, spec.size);
            if (p.file_bytes.size() > spec.size)
                throw InputError(path, std::to_string(p.file_bytes.size()) +
                                           " bytes of data do not fit buffer '" + spec.name +
                                           "' of " + std::to_string(spec.size) + " bytes");
        }
        p.spec = std::move(spec);
        buffers_.push_back(std::move(p));
    }
}

std::size_t DeviceMemory::buffer_count() const {
    return buffers_.size();
}
const BufferSpec& DeviceMemory::spec(std::size_t b) const {
    return buffers_.at(b).spec;
}
std::uint64_t DeviceMemory::base(std::size_t b) const {
    return buffers_.at(b).base;
}

std::optional<std::size_t> DeviceMemory::find_buffer(std::string_view name) const {
    for (std::size_t i = 0; i < buffers_.size(); ++i)
        if (buffers_[i].spec.name == name) return i;
    return std::nullopt;
}

std::optional<std::size_t> DeviceMemory::buffer_at(std::uint64_t address, unsigned bytes) const {
    // Consecutive lanes mostly fall in the buffer the last one did.
    if (last_buffer_ < buffers_.size()) {
        const Placed& p = buffers_[last_buffer_];
        if (address >= p.base && address - p.base + bytes <= p.spec.size &&
            address - p.base + bytes >= bytes)
            return last_buffer_;
    }
    // Buffers are placed in increasing address order: the candidate is the
    // last one starting at or below `address`.
    auto it = std::upper_bound(buffers_.begin(), buffers_.end(), address,
                               [](std::uint64_t a, const Placed& p) { return a < p.base; });
    if (it == buffers_.begin()) return std::nullopt;
    --it;
    const std::uint64_t offset = address - it->base;
    if (offset + bytes > it->spec.size || offset + bytes < offset) return std::nullopt;
    last_buffer_ = static_cast<std::size_t>(it - buffers_.begin());
    return last_buffer_;
}

void DeviceMemory::initial_bytes(std::size_t b, std::uint64_t offset, unsigned char* out,
                                 std::size_t n) const {
    const Placed& p = buffers_[b];
    const Fill& f = p.spec.fill;
    switch (f.kind) {
        case Fill::Kind::Zero:
            std::memset(out, 0, n);
            return;
        case Fill::Kind::File: {
            std::memset(out, 0, n);
            if (offset < p.file_bytes.size()) {
                const std::size_t have = std::min<std::uint64_t>(n, p.file_bytes.size() - offset);
                std::memcpy(out, p.file_bytes.data() + offset, have);
            }
            return;
        }
        default:
            break;
    }
    const unsigned eb = element_bytes(f.type);
    std::size_t done = 0;
    // Whole elements (every page of a buffer but a ragged last): each
    // element's bytes written in place, little-endian.
    if (offset % eb == 0 && f.kind == Fill::Kind::Random && f.type == ElementType::F32) {
        // The commonest fill (every float input of the kernel library) in a
        // loop of its own: nothing to decide per element.
        const std::uint64_t first = offset / eb;
        const RandomF32 random(f);
        for (std::size_t i = 0; done + 4 <= n; ++i, done += 4) {
            const std::uint32_t v = isa::sem::bits(random(first + i));
            for (unsigned k = 0; k < 4; ++k)
                out[done + k] = static_cast<unsigned char>(v >> (8 * k));
        }
    }
    if (offset % eb == 0) {
        const std::uint64_t first = offset / eb + done / eb;
        for (std::size_t i = 0; done + eb <= n; ++i, done += eb) {
            const std::uint64_t v = element_value(f, first + i);
            for (unsigned k = 0; k < eb; ++k)
                out[done + k] = static_cast<unsigned char>(v >> (8 * k));
        }
    }
    while (done < n) {
        const std::uint64_t at = offset + done;
        const std::uint64_t index = at / eb;
        const unsigned within = static_cast<unsigned>(at % eb);
        const std::uint64_t v = element_value(f, index);
        unsigned char e[8];
        for (unsigned k = 0; k < eb; ++k) e[k] = static_cast<unsigned char>(v >> (8 * k));
        const std::size_t take = std::min<std::size_t>(eb - within, n - done);
        std::memcpy(out + done, e + within, take);
        done += take;
    }
}

unsigned char* DeviceMemory::page(std::uint64_t page_address) {
    RecentPage& recent = recent_[(page_address / kPageBytes) % kRecentPages];
    if (recent.address == page_address) return recent.data;
    auto it = pages_.find(page_address);
    if (it == pages_.end()) {
        // Left uninitialised here: every byte is written once below.
        std::unique_ptr<unsigned char[]> data(new unsigned char[kPageBytes]);
        std::size_t n = 0;
        if (auto b = buffer_at(page_address, 1)) {
            const Placed& p = buffers_[*b];
            const std::uint64_t offset = page_address - p.base;
            n = std::min<std::uint64_t>(kPageBytes, p.spec.size - offset);
            initial_bytes(*b, offset, data.get(), n);
        }
        std::memset(data.get() + n, 0, kPageBytes - n);
        it = pages_.emplace(page_address, std::move(data)).first;
    }
    recent.address = page_address;
    recent.data = it->second.get();
    return recent.data;
}

void DeviceMemory::read(std::uint64_t address, void* out, unsigned bytes) {
    auto* dst = static_cast<unsigned char*>(out);
    while (bytes > 0) {
        const std::uint64_t page_address = address & ~(kPageBytes - 1);
        const unsigned within = static_cast<unsigned>(address - page_address);
        const unsigned take = std::min<unsigned>(bytes, static_cast<unsigned>(kPageBytes) - within);
        copy_lane_bytes(dst, page(page_address) + within, take);
        dst += take;
        address += take;
        bytes -= take;
    }
}

unsigned char* DeviceMemory::span(std::uint64_t address, unsigned bytes) {
    const std::uint64_t page_address = address & ~(kPageBytes - 1);
    const std::uint64_t within = address - page_address;
    if (within + bytes > kPageBytes) return nullptr;
    return page(page_address) + within;
}

void DeviceMemory::write(std::uint64_t address, const void* in, unsigned bytes) {
    const auto* src = static_cast<const unsigned char*>(in);
    while (bytes > 0) {
        const std::uint64_t page_address = address & ~(kPageBytes - 1);
        const unsigned within = static_cast<unsigned>(address - page_address);
        const unsigned take = std::min<unsigned>(bytes, static_cast<unsigned>(kPageBytes) - within);
        copy_lane_bytes(page(page_address) + within, src, take);
        src += take;
        address += take;
        bytes -= take;
    }
}

void DeviceMemory::dump_raw(std::size_t b, std::ostream& out) const {
    const Placed& p = buffers_.at(b);
    std::vector<unsigned char> scratch(kPageBytes);
    // Buffers start page-aligned, so each page of the buffer is one chunk.
    for (std::uint64_t offset = 0; offset < p.spec.size; offset += kPageBytes) {
        const std::size_t n = std::min<std::uint64_t>(kPageBytes, p.spec.size - offset);
        auto it = pages_.find(p.base + offset);
        const unsigned char* data = nullptr;
        if (it != pages_.end()) {
            data = it->second.get();
        } else {
            initial_bytes(b, offset, scratch.data(), n);
            data = scratch.data();
        }
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(n));
    }
}

void DeviceMemory::dump_npy(std::size_t b, std::ostream& out) const {
    const Placed& p = buffers_.at(b);
    const TypeInfo& t = info(p.spec.fill.type);
    if (p.spec.size % t.bytes != 0)
        throw InputError("buffer '" + p.spec.name + "'",
                         "its " + std::to_string(p.spec.size) +
                             " bytes are not a whole number of " + t.name +
                             " elements: dump it raw (a file name not ending in .npy)");
    std::string header = std::string("{'descr': '") + t.npy_descr +
                         "', 'fortran_order': False, 'shape': (" +
                         std::to_string(p.spec.size / t.bytes) + ",), }";
    // Magic (6) + version (2) + length (2) + header, padded with spaces and
    // ended by a newline to a multiple of 64 bytes, as the format asks.
    const std::size_t unpadded = 10 + header.size() + 1;
    header.append(round_up(unpadded, 64) - unpadded, ' ');
    header.push_back('\n');
    const auto len = static_cast<std::uint16_t>(header.size());
    const char preamble[10] = {'\x93',
                               'N',
                               'U',
                               'M',
                               'P',
                               'Y',
                               1,
                               0,
                               static_cast<char>(len & 0xff),
                               static_cast<char>(len >> 8)};
    out.write(preamble, sizeof preamble);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    dump_raw(b, out);
}

std::size_t DeviceMemory::resident_bytes() const {
    return pages_.size() * kPageBytes;
}

NpyData read_npy(const std::string& path) {
    const std::vector<unsigned char> file = read_whole_file(path, kMaxNpyInputBytes);
    auto fail = [&](const std::string& why) -> void {
        throw InputError(path, "not a readable .npy file: " + why);
    };
    static const unsigned char kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (file.size() < 10 || std::memcmp(file.data(), kMagic, 6) != 0) fail("no \\x93NUMPY magic");
    const unsigned major = file[6];
    std::size_t header_len = 0, header_start = 0;
    if (major == 1) {
        header_len = file[8] | (file[9] << 8);
        header_start = 10;
    } else if (major == 2 || major == 3) {
        if (file.size() < 12) fail("truncated header");
        header_len = file[8] | (file[9] << 8) | (std::size_t{file[10]} << 16) |
                     (std::size_t{file[11]} << 24);
        header_start = 12;
    } else {
        fail("version " + std::to_string(major) + ".x (1.0 to 3.0 are read)");
    }
    if (header_start + header_len > file.size()) fail("truncated header");
    const std::string header(file.begin() + header_start, file.begin() + header_start + header_len);

    // The header is a Python dict literal; the three keys it must have are
    // read by name.
    auto value_after = [&](const std::string& key) -> std::string {
        for (const char q : {'\'', '"'}) {
            const std::string k = std::string(1, q) + key + q;
            auto at = header.find(k);
            if (at == std::string::npos) continue;
            at = header.find(':', at + k.size());
            if (at == std::string::npos) break;
            ++at;
            while (at < header.size() && header[at] == ' ') ++at;
            return header.substr(at);
        }
        fail("the header has no '" + key + "'");
        return {};
    };
    std::string descr = value_after("descr");
    if (descr.empty() || (descr[0] != '\'' && descr[0] != '"'))
        fail("'descr' is not a simple type string");
    descr = descr.substr(1, descr.find(descr[0], 1) - 1);
    const std::string fortran = value_after("fortran_order");
    const std::string shape_text = value_after("shape");
    if (shape_text.empty() || shape_text[0] != '(') fail("'shape' is not a tuple");
    std::uint64_t count = 1;
    unsigned dims = 0;
    {
        std::size_t i = 1;
        while (i < shape_text.size() && shape_text[i] != ')') {
            if (std::isdigit(static_cast<unsigned char>(shape_text[i]))) {
                std::uint64_t d = 0;
                while (i < shape_text.size() &&
                       std::isdigit(static_cast<unsigned char>(shape_text[i])))
                    d = d * 10 + static_cast<unsigned>(shape_text[i++] - '0');
                count *= d;
                ++dims;
            } else {
                ++i;
            }
        }
        if (i >= shape_text.size()) fail("'shape' is not a tuple");
    }
    if (fortran.rfind("True", 0) == 0 && dims > 1) fail("Fortran order (C order is read)");

    std::optional<ElementType> type;
    if (descr.size() >= 2) {
        const char order = descr[0];
        std::string rest = descr.substr(1);
        for (const auto& t : kTypes) {
            if (rest != std::string(t.npy_descr + 1)) continue;
            const bool one_byte = t.bytes == 1;
            if (order == '<' || order == '=' || order == '|' || (one_byte && order == '>'))
                type = t.type;
        }
        if (!type && descr[0] == '>') fail("big-endian data ('" + descr + "')");
    }
    if (!type) fail("element type '" + descr + "' (f4 f2 i4 u4 i2 u2 i1 u1 are read)");

    const std::size_t data_start = header_start + header_len;
    const std::uint64_t data_bytes = count * element_bytes(*type);
    if (file.size() - data_start < data_bytes)
        fail("truncated data: " + std::to_string(file.size() - data_start) + " bytes for " +
             std::to_string(count) + " elements");
    NpyData out;
    out.type = *type;
    out.bytes.assign(file.begin() + data_start, file.begin() + data_start + data_bytes);
    return out;
}

}  // namespace agx::kernel
