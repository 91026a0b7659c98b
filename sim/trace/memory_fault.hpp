// A memory instruction whose lane addresses the model cannot accept (a
// misaligned lane access). The core engine turns it into an InputError that
// names the workload and the trace line.
#pragma once

#include <stdexcept>
#include <string>

namespace agx {

class MemoryFault : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The alignment a lane access of `bytes` needs: the largest power of two that
// divides its size (a 12-byte vec3 needs 4). Power-of-two sizes up to the
// line then never straddle a line; other sizes may, and are split.
inline unsigned natural_alignment(unsigned bytes) {
    return bytes == 0 ? 1 : (bytes & (~bytes + 1));
}

}  // namespace agx
