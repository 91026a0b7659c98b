#include "sim/trace/binary_trace_zstd.hpp"

#include <algorithm>
#include <cstring>
#include <exception>

#include <boost/iostreams/categories.hpp>
#include <boost/iostreams/device/back_inserter.hpp>
#include <boost/iostreams/filter/zstd.hpp>

namespace agx::binary_trace {

namespace io = boost::iostreams;

namespace {

// The compressed frame as a Source for the filter (array_source is a direct
// device, which a filter used on its own cannot read from).
struct FrameSource {
    using char_type = char;
    using category = io::source_tag;
    const char* next;
    const char* end;
    std::streamsize read(char* s, std::streamsize n) {
        if (next == end) return -1;
        const auto k = std::min<std::streamsize>(n, end - next);
        std::memcpy(s, next, static_cast<std::size_t>(k));
        next += k;
        return k;
    }
};

// "zstd: Unknown frame descriptor", without the suffix std::ios_base::failure
// adds.
std::string zstd_message(const std::exception& e) {
    std::string m = e.what();
    const std::string suffix = ": iostream error";
    if (m.size() > suffix.size() && m.compare(m.size() - suffix.size(), suffix.size(), suffix) == 0)
        m.resize(m.size() - suffix.size());
    return "zstd: " + m;
}

// Input is handed to zstd in pieces of this size.
constexpr std::streamsize kFilterBuffer = 64 * 1024;

}  // namespace

// The filters are used as multichar filters straight on a device, without a
// filtering stream: close() ends the frame and resets the zstd context for
// the next one.
struct FrameCompressor::Impl {
    io::zstd_compressor filter{io::zstd_params(io::zstd::default_compression), kFilterBuffer};
};

FrameCompressor::FrameCompressor() : impl_(std::make_unique<Impl>()) {}
FrameCompressor::~FrameCompressor() = default;

void FrameCompressor::compress(const unsigned char* data, std::size_t size, std::string& out) {
    io::back_insert_device<std::string> sink(out);
    const char* p = reinterpret_cast<const char*>(data);
    while (size > 0) {
        const std::streamsize n = impl_->filter.write(sink, p, static_cast<std::streamsize>(size));
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    impl_->filter.close(sink, BOOST_IOS::out);
}

struct FrameDecompressor::Impl {
    io::zstd_decompressor filter{kFilterBuffer};
};

FrameDecompressor::FrameDecompressor() : impl_(std::make_unique<Impl>()) {}
FrameDecompressor::~FrameDecompressor() = default;

std::string FrameDecompressor::decompress(const unsigned char* frame, std::size_t frame_size,
                                          unsigned char* out, std::size_t decoded_size) {
    const char* begin = reinterpret_cast<const char*>(frame);
    FrameSource source{begin, begin + frame_size};
    auto& filter = impl_->filter;
    std::string problem;
    try {
        std::size_t got = 0;
        while (got < decoded_size) {
            const std::streamsize n = filter.read(source, reinterpret_cast<char*>(out) + got,
                                                  static_cast<std::streamsize>(decoded_size - got));
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        char extra = 0;
        if (got < decoded_size)
            problem = "frame decodes to " + std::to_string(got) + " bytes, the index says " +
                      std::to_string(decoded_size);
        else if (filter.read(source, &extra, 1) > 0)
            problem = "frame decodes to more than the " + std::to_string(decoded_size) +
                      " bytes the index says";
    } catch (const std::exception& e) {
        problem = zstd_message(e);
    }
    // Resets the context for the next frame, also after an error.
    try {
        filter.close(source, BOOST_IOS::in);
    } catch (const std::exception& e) {
        if (problem.empty()) problem = zstd_message(e);
    }
    return problem;
}

}  // namespace agx::binary_trace
