// Device memory: buffer placement, fills generated page by page, sparse
// residency, dumps and .npy reading.
#include <catch2/catch.hpp>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "isa/semantics.hpp"
#include "sim/common/errors.hpp"
#include "sim/kernel/device_memory.hpp"
#include "tests/unit/temp_file.hpp"

using namespace agx;
using namespace agx::kernel;

namespace {

BufferSpec buffer(const std::string& name, std::uint64_t size, Fill fill = {}) {
    BufferSpec b;
    b.name = name;
    b.size = size;
    b.fill = fill;
    return b;
}

Fill fill(Fill::Kind kind, ElementType type) {
    Fill f;
    f.kind = kind;
    f.type = type;
    return f;
}

template <typename T>
T load(DeviceMemory& m, std::uint64_t address) {
    T v;
    m.read(address, &v, sizeof v);
    return v;
}

std::string dump(const DeviceMemory& m, std::size_t b, bool npy) {
    std::ostringstream out;
    if (npy)
        m.dump_npy(b, out);
    else
        m.dump_raw(b, out);
    return out.str();
}

// A .npy file as numpy writes one, version `major`.
std::string npy(const std::string& descr, const std::string& shape, const std::string& data,
                int major = 1, bool fortran = false) {
    std::string header = "{'descr': '" + descr +
                         "', 'fortran_order': " + (fortran ? "True" : "False") +
                         ", 'shape': " + shape + ", }";
    const std::size_t pre = major == 1 ? 10 : 12;
    while ((pre + header.size() + 1) % 64) header.push_back(' ');
    header.push_back('\n');
    std::string out = "\x93NUMPY";
    out.push_back(static_cast<char>(major));
    out.push_back(0);
    const std::size_t n = header.size();
    out.push_back(static_cast<char>(n & 0xff));
    out.push_back(static_cast<char>(n >> 8));
    if (major != 1) out.append(2, '\0');
    return out + header + data;
}

}  // namespace

TEST_CASE("buffers are placed 64 KB apart with a gap, and found by address and name") {
    DeviceMemory m({buffer("a", 100), buffer("b", 64 * 1024), buffer("c", 1)});
    REQUIRE(m.buffer_count() == 3);
    CHECK(m.base(0) == DeviceMemory::kFirstBufferAddress);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(m.base(i) % (64 * 1024) == 0);
        if (i > 0) CHECK(m.base(i) >= m.base(i - 1) + m.spec(i - 1).size + 64 * 1024);
    }
    CHECK(m.find_buffer("b") == std::size_t{1});
    CHECK_FALSE(m.find_buffer("d"));
    CHECK(m.buffer_at(m.base(0), 100) == std::size_t{0});
    CHECK_FALSE(m.buffer_at(m.base(0), 101));  // runs off the end
    CHECK_FALSE(m.buffer_at(m.base(0) - 4, 4));
    CHECK(m.buffer_at(m.base(1) + 65532, 4) == std::size_t{1});
    CHECK_FALSE(m.buffer_at(m.base(1) + 65536, 4));
    CHECK(m.buffer_at(m.base(2), 1) == std::size_t{2});
}

TEST_CASE("fills: zero, constant, iota and random give each element its value") {
    Fill k = fill(Fill::Kind::Constant, ElementType::F32);
    k.value = 2.5;
    Fill io = fill(Fill::Kind::Iota, ElementType::I16);
    io.low = -3;
    Fill rf = fill(Fill::Kind::Random, ElementType::F32);
    rf.low = -1;
    rf.high = 1;
    rf.seed = 7;
    Fill ri = fill(Fill::Kind::Random, ElementType::U8);
    ri.low = 10;
    ri.high = 12;
    Fill h = fill(Fill::Kind::Constant, ElementType::F16);
    h.value = -2;
    DeviceMemory m({buffer("z", 64), buffer("k", 64, k), buffer("io", 20000, io),
                    buffer("rf", 40000, rf), buffer("ri", 1000, ri), buffer("h", 8, h)});
    CHECK(load<std::uint64_t>(m, m.base(0) + 8) == 0);
    CHECK(load<float>(m, m.base(1) + 60) == 2.5f);
    CHECK(load<std::int16_t>(m, m.base(2)) == -3);
    CHECK(load<std::int16_t>(m, m.base(2) + 2 * 5000) == 4997);  // on a later page
    CHECK(load<std::uint16_t>(m, m.base(5) + 6) == 0xc000);      // -2 in binary16

    double sum = 0;
    bool all_in_range = true, any_differ = false;
    for (int i = 0; i < 10000; ++i) {
        const float v = load<float>(m, m.base(3) + 4 * i);
        all_in_range = all_in_range && v >= -1.0f && v < 1.0f;
        any_differ = any_differ || v != load<float>(m, m.base(3));
        sum += v;
    }
    CHECK(all_in_range);
    CHECK(any_differ);
    // Element i is low + u (high - low) rounded to binary32, u = the top 53
    // bits of splitmix64's finaliser of (seed, i) over 2^53: these bits were
    // computed from that definition apart from agxsim.
    const std::pair<int, std::uint32_t> defined[] = {
        {0, 0xbe58ae06u},    {1, 0x3f0eac07u},    {2, 0xbdafe8c6u},   {1023, 0xbc371fbbu},
        {1024, 0xbe6d5998u}, {5000, 0xbd944f94u}, {9999, 0xbf52ff72u}};
    for (const auto& [i, bits] : defined) CHECK(load<std::uint32_t>(m, m.base(3) + 4 * i) == bits);
    CHECK(std::abs(sum / 10000) < 0.05);  // uniform on [-1, 1): mean near 0
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 1000; ++i) {
        const auto v = load<std::uint8_t>(m, m.base(4) + i);
        REQUIRE(v >= 10);
        REQUIRE(v <= 12);  // integers: [low, high] inclusive
        ++seen[v - 10];
    }
    CHECK(seen[0] > 0);
    CHECK(seen[2] > 0);
}

TEST_CASE("a random fill is a function of (seed, index), whatever order pages are touched in") {
    Fill rf = fill(Fill::Kind::Random, ElementType::U32);
    rf.low = 0;
    rf.high = 4e9;
    rf.seed = 42;
    DeviceMemory forward({buffer("r", 1 << 20, rf)});
    DeviceMemory backward({buffer("r", 1 << 20, rf)});
    std::vector<std::uint32_t> a, b(4096);
    for (int i = 0; i < 4096; ++i)
        a.push_back(load<std::uint32_t>(forward, forward.base(0) + 256 * i));
    for (int i = 4095; i >= 0; --i)
        b[i] = load<std::uint32_t>(backward, backward.base(0) + 256 * i);
    CHECK(a == b);
    rf.seed = 43;
    DeviceMemory other({buffer("r", 1 << 20, rf)});
    CHECK(load<std::uint32_t>(other, other.base(0)) != a[0]);
}

TEST_CASE("span: a lane's bytes in place when they lie in one page, null when they straddle two") {
    Fill io = fill(Fill::Kind::Iota, ElementType::U32);
    DeviceMemory m({buffer("b", 3 * DeviceMemory::kPageBytes, io)});
    const std::uint64_t page2 = m.base(0) + DeviceMemory::kPageBytes;
    CHECK(m.span(page2 - 4, 8) == nullptr);  // the last word of page 1 and the first of page 2
    unsigned char* p = m.span(page2 + 8, 8);
    REQUIRE(p != nullptr);
    std::uint32_t v[2];
    std::memcpy(v, p, 8);
    CHECK(v[0] == DeviceMemory::kPageBytes / 4 + 2);  // iota: element i is i
    CHECK(v[1] == DeviceMemory::kPageBytes / 4 + 3);
    const std::uint32_t w = 0xdeadbeefu;
    std::memcpy(p, &w, 4);  // a write in place is what a read then finds
    CHECK(load<std::uint32_t>(m, page2 + 8) == w);
    CHECK(m.span(page2 + DeviceMemory::kPageBytes - 16, 16) != nullptr);  // ends on the boundary
}

TEST_CASE("writes stick, reads and writes may cross pages, and memory is held only where touched") {
    Fill io = fill(Fill::Kind::Iota, ElementType::U32);
    DeviceMemory m({buffer("huge", std::uint64_t{8} << 30, io)});
    CHECK(m.resident_bytes() == 0);
    const std::uint64_t at =
        m.base(0) + (std::uint64_t{3} << 30) + 4096 - 4;  // straddles two pages
    const std::uint64_t v = 0x1122334455667788ull;
    m.write(at, &v, 8);
    CHECK(load<std::uint64_t>(m, at) == v);
    CHECK(load<std::uint32_t>(m, at + 8) == static_cast<std::uint32_t>(((at + 8) - m.base(0)) / 4));
    CHECK(m.resident_bytes() == 2 * DeviceMemory::kPageBytes);
}

TEST_CASE("dumps: raw bytes of the whole buffer, .npy with the fill's type") {
    Fill io = fill(Fill::Kind::Iota, ElementType::F32);
    io.low = 1;
    DeviceMemory m(
        {buffer("x", 4 * 3000, io), buffer("odd", 6, fill(Fill::Kind::Zero, ElementType::U32))});
    const float changed = -7.0f;
    m.write(m.base(0) + 4 * 2000, &changed, 4);  // one page touched, the rest generated
    const std::string raw = dump(m, 0, false);
    REQUIRE(raw.size() == 4 * 3000);
    std::vector<float> values(3000);
    std::memcpy(values.data(), raw.data(), raw.size());
    CHECK(values[0] == 1.0f);
    CHECK(values[2999] == 3000.0f);
    CHECK(values[2000] == -7.0f);
    CHECK(m.resident_bytes() == DeviceMemory::kPageBytes);  // dumping keeps nothing

    const std::string file = dump(m, 0, true);
    REQUIRE(file.size() > 10);
    CHECK(file.substr(0, 6) == "\x93NUMPY");
    const std::size_t header =
        static_cast<unsigned char>(file[8]) | (static_cast<unsigned char>(file[9]) << 8);
    CHECK((10 + header) % 64 == 0);
    CHECK(file.find("'descr': '<f4'") != std::string::npos);
    CHECK(file.find("'shape': (3000,)") != std::string::npos);
    CHECK(file.substr(10 + header) == raw);

    // The dump reads back as the same data.
    test::TempFile f(".npy");
    f.write(file);
    const NpyData back = read_npy(f.path());
    CHECK(back.type == ElementType::F32);
    CHECK(std::string(back.bytes.begin(), back.bytes.end()) == raw);

    CHECK_THROWS_WITH(dump(m, 1, true), Catch::Contains("buffer 'odd'") && Catch::Contains("raw"));
}

TEST_CASE("file fills: .npy data or raw bytes from the buffer's start, the rest zero") {
    std::string data(4 * 5, '\0');
    for (int i = 0; i < 5; ++i) {
        const std::int32_t v = -i;
        std::memcpy(&data[4 * i], &v, 4);
    }
    test::TempFile n(".npy"), r(".bin");
    n.write(npy("<i4", "(5,)", data, 2));
    r.write("abc");
    Fill fn = fill(Fill::Kind::File, ElementType::I32);
    fn.path = n.path();
    Fill fr = fill(Fill::Kind::File, ElementType::U8);
    fr.path = r.path();
    DeviceMemory m({buffer("n", 64, fn), buffer("r", 8, fr)});
    CHECK(load<std::int32_t>(m, m.base(0) + 16) == -4);
    CHECK(load<std::int32_t>(m, m.base(0) + 20) == 0);
    CHECK(load<char>(m, m.base(1) + 2) == 'c');
    CHECK(load<char>(m, m.base(1) + 3) == 0);

    Fill big = fn;
    CHECK_THROWS_WITH(DeviceMemory({buffer("small", 8, big)}),
                      Catch::Contains(n.path()) && Catch::Contains("do not fit buffer 'small'"));
    Fill missing = fill(Fill::Kind::File, ElementType::U8);
    missing.path = "/nonexistent/x.bin";
    CHECK_THROWS_WITH(DeviceMemory({buffer("m", 8, missing)}),
                      Catch::Contains("/nonexistent/x.bin") && Catch::Contains("cannot open"));
}

TEST_CASE("read_npy refuses what it cannot read, naming the file and the reason") {
    auto refused = [](const std::string& bytes, const std::string& reason) {
        test::TempFile f(".npy");
        f.write(bytes);
        try {
            read_npy(f.path());
            FAIL("accepted a file that should be refused for: " << reason);
        } catch (const InputError& e) {
            INFO(e.what());
            CHECK(std::string(e.what()).find(f.path()) != std::string::npos);
            CHECK(std::string(e.what()).find(reason) != std::string::npos);
        }
    };
    refused("not numpy at all", "magic");
    refused(npy(">f4", "(1,)", "abcd"), "big-endian");
    refused(npy("<f8", "(1,)", std::string(8, '\0')), "element type '<f8'");
    refused(npy("<f4", "(2, 2)", std::string(16, '\0'), 1, true), "Fortran");
    refused(npy("<f4", "(4,)", std::string(8, '\0')), "truncated data");
    // What it can read: one-byte types with either byte-order mark, 2-D C order.
    test::TempFile ok(".npy");
    ok.write(npy("|u1", "(2, 3)", "abcdef", 3));
    const NpyData d = read_npy(ok.path());
    CHECK(d.type == ElementType::U8);
    CHECK(d.bytes.size() == 6);
}

TEST_CASE("element type names parse and print") {
    for (const char* n : {"f32", "f16", "i32", "u32", "i16", "u16", "i8", "u8"}) {
        auto t = parse_element_type(n);
        REQUIRE(t);
        CHECK(std::string(element_type_name(*t)) == n);
    }
    CHECK(element_bytes(ElementType::F16) == 2);
    CHECK_FALSE(parse_element_type("f64"));
}
