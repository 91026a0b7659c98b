// zstd frames through Boost.Iostreams' zstd filter, one frame per chunk.
//
// Each object keeps one filter, and so one zstd context, for all the frames
// it handles: creating a context costs far more than a 32 KiB chunk takes to
// decode.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace agx::binary_trace {

class FrameCompressor {
  public:
    FrameCompressor();
    ~FrameCompressor();
    // Appends `size` bytes at `data`, compressed as one complete zstd frame,
    // to `out`.
    void compress(const unsigned char* data, std::size_t size, std::string& out);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

class FrameDecompressor {
  public:
    FrameDecompressor();
    ~FrameDecompressor();
    // Decodes the frame `frame`..`frame + frame_size` into exactly
    // `decoded_size` bytes at `out`. Returns "" on success, else what is
    // wrong ("zstd: ...", or a size mismatch).
    std::string decompress(const unsigned char* frame, std::size_t frame_size, unsigned char* out,
                           std::size_t decoded_size);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace agx::binary_trace
