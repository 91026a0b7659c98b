// One blocking TLM-2.0 request below a cache, sent at a cycle of its own.
//
// The engine runs ahead of the SystemC kernel (temporal decoupling), so a
// request carries its own time as the annotated delay from the kernel's now;
// the target adds what it costs and the answer comes back the same way. The
// payload is timing only: its data pointer is a line-sized scratch buffer.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>

#include "sim/model/clock.hpp"

namespace agx {

// Sends `cmd` of `bytes` at `address` through `socket`, as issued at cycle
// `at`, and returns the cycle its answer is back; reports an SC error from
// `who` with `failure` if the target answers with an error.
template <class Socket>
Cycle timed_request(Socket& socket, tlm::tlm_generic_payload& trans, const CoreClock& clock,
                    tlm::tlm_command cmd, std::uint64_t address, unsigned char* buffer,
                    std::uint32_t bytes, Cycle at, const char* who, const char* failure) {
    trans.set_command(cmd);
    trans.set_address(address);
    trans.set_data_ptr(buffer);
    trans.set_data_length(bytes);
    trans.set_streaming_width(bytes);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    const Cycle kernel_now = clock.now();
    sc_core::sc_time delay = clock.time(at > kernel_now ? at - kernel_now : 0);
    socket->b_transport(trans, delay);
    if (trans.is_response_error()) SC_REPORT_ERROR(who, failure);
    return kernel_now + clock.cycles(delay);
}

}  // namespace agx
