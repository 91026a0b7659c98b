// Device memory of a kernel run: the launch's named buffers, placed in one
// address space and held sparsely. A page is allocated on its first touch
// and filled then from the buffer's initial contents, so a kernel that
// touches 64 KB of a 4 GB buffer holds 64 KB, whatever the buffer's size.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace agx::kernel {

// Element types of initial contents and of `.npy` dumps.
enum class ElementType : std::uint8_t { F32, F16, I32, U32, I16, U16, I8, U8 };
// "f32", "f16", "i32", "u32", "i16", "u16", "i8", "u8".
std::optional<ElementType> parse_element_type(std::string_view name);
const char* element_type_name(ElementType t);
unsigned element_bytes(ElementType t);

// A buffer's initial contents.
struct Fill {
    enum class Kind : std::uint8_t {
        Zero,      // every byte 0
        Constant,  // every element `value`
        Random,    // element i: uniform in [low, high) (floats) or [low, high] (integers),
                   // a pure function of (seed, i): the same run gives the same data
        Iota,      // element i: low + i (as the element type)
        File,      // the bytes of `path` from the buffer's start (a `.npy` file's
                   // data, or any other file raw); the rest of the buffer is 0
    };
    Kind kind = Kind::Zero;
    ElementType type = ElementType::U32;
    double value = 0;  // Constant
    double low = 0, high = 1;
    std::uint64_t seed = 0;
    std::string path;  // File
};

struct BufferSpec {
    std::string name;
    std::uint64_t size = 0;  // bytes, >= 1
    Fill fill;
};

class DeviceMemory {
  public:
    // Where the first buffer starts. Each buffer starts on a 64 KB boundary
    // and is followed by at least 64 KB that belong to no buffer, so a
    // kernel that runs off the end of one buffer does not land in the next.
    static constexpr std::uint64_t kFirstBufferAddress = 0x10000000000ull;
    static constexpr std::uint64_t kPageBytes = 4096;

    // Reads File fills now: throws InputError naming the file (cannot open;
    // a `.npy` it cannot read; larger than the buffer).
    explicit DeviceMemory(std::vector<BufferSpec> buffers);
    // Not copied or moved: the table of recent pages points into the pages
    // this object owns.
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;

    std::size_t buffer_count() const;
    const BufferSpec& spec(std::size_t buffer) const;
    std::uint64_t base(std::size_t buffer) const;
    std::optional<std::size_t> find_buffer(std::string_view name) const;
    // The buffer that holds all of [address, address + bytes), if any.
    std::optional<std::size_t> buffer_at(std::uint64_t address, unsigned bytes) const;

    // Byte access; [address, address + bytes) must lie inside one buffer
    // (the caller checks with buffer_at()). Little-endian, like the GPU.
    void read(std::uint64_t address, void* out, unsigned bytes);
    void write(std::uint64_t address, const void* in, unsigned bytes);
    // Where [address, address + bytes) is held, to read or write in place,
    // when it lies in one page (allocated and filled on first touch, as by
    // read); null when it straddles two. The pointer lasts as long as this
    // memory. Inside one buffer, as for read and write.
    unsigned char* span(std::uint64_t address, unsigned bytes);

    // The buffer's whole contents, as raw bytes or as a `.npy` file (version
    // 1.0, one dimension, the fill's element type, little-endian). Pages
    // never touched are generated from the fill without being kept.
    void dump_raw(std::size_t buffer, std::ostream& out) const;
    void dump_npy(std::size_t buffer, std::ostream& out) const;

    // Bytes of pages held (for tests of sparseness).
    std::size_t resident_bytes() const;

  private:
    // The initial bytes of [offset, offset + n) of a buffer.
    void initial_bytes(std::size_t buffer, std::uint64_t offset, unsigned char* out,
                       std::size_t n) const;
    unsigned char* page(std::uint64_t page_address);  // allocated and filled on first touch

    struct Placed {
        BufferSpec spec;
        std::uint64_t base = 0;
        std::vector<unsigned char> file_bytes;  // File fills
    };
    std::vector<Placed> buffers_;
    std::unordered_map<std::uint64_t, std::unique_ptr<unsigned char[]>> pages_;
    // Pages touched lately, direct-mapped by page number: consecutive lanes
    // mostly hit the same page, and a kernel's instructions take turns
    // between a few buffers' pages (a load from each input, a store).
    struct RecentPage {
        std::uint64_t address = ~std::uint64_t{0};
        unsigned char* data = nullptr;
    };
    static constexpr std::size_t kRecentPages = 64;
    std::array<RecentPage, kRecentPages> recent_{};
    mutable std::size_t last_buffer_ = 0;  // buffer_at's last answer, tried first
};

// Reads a `.npy` file (versions 1.0 to 3.0, C order, little-endian or
// one-byte dtypes of the element types above): its data bytes and element
// type. Throws InputError naming the path and the reason.
struct NpyData {
    ElementType type;
    std::vector<unsigned char> bytes;
};
NpyData read_npy(const std::string& path);

}  // namespace agx::kernel
