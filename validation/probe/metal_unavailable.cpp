// Builds without Metal (anything but macOS): the probe's CLI still offers
// --backend metal and says why it cannot run.
#include "validation/probe/backend.hpp"

namespace agx::probe {

bool metal_backend_available() {
    return false;
}

std::unique_ptr<Backend> make_metal_backend(const MetalOptions&) {
    throw BackendError(
        "the Metal backend is not in this build (Metal needs macOS); --backend fake gives "
        "synthetic timings for testing the pipeline");
}

}  // namespace agx::probe
