// The process's resident memory, for the tests that require a reader to
// stream in bounded memory.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <fstream>

namespace agx_test {

// Under AddressSanitizer freed memory waits in a quarantine and every byte
// has shadow memory, so resident memory grows with what was ever allocated
// and says nothing about what the code keeps: the bound is not checked there.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kResidentMemoryMeasurable = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kResidentMemoryMeasurable = false;
#else
inline constexpr bool kResidentMemoryMeasurable = true;
#endif
#else
inline constexpr bool kResidentMemoryMeasurable = true;
#endif

inline std::size_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace agx_test
