#include "sim/trace/open_trace.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/common/errors.hpp"
#include "sim/trace/binary_trace.hpp"
#include "sim/trace/binary_trace_format.hpp"
#include "sim/trace/text_trace.hpp"
#include "sim/trace/trace_line_reader.hpp"

namespace agx {

TraceFormat detect_trace_format(const std::string& path) {
    const trace_detail::TraceFile file(path);
    unsigned char first = 0;
    ssize_t n;
    do n = ::pread(file.fd(), &first, 1, 0);
    while (n < 0 && errno == EINTR);
    if (n < 0) throw InputError(path, std::string("cannot read trace: ") + std::strerror(errno));
    // One byte decides, so that a binary trace cut inside its magic is still
    // reported as a truncated binary trace rather than as bad text.
    return n == 1 && first == binary_trace::kMagic[0] ? TraceFormat::Binary : TraceFormat::Text;
}

std::unique_ptr<Workload> open_trace(const std::string& path) {
    return detect_trace_format(path) == TraceFormat::Binary ? open_binary_trace(path)
                                                            : open_text_trace(path);
}

}  // namespace agx
