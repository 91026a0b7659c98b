// The stall breakdown of a run as a picture: a horizontal bar for the chip
// (every scheduler of every core simulated), one per core, and on a run of
// one core one per scheduler, each split into the share of scheduler-cycles
// that issued and the share lost to each stall cause (a CPI stack: the
// bar's segments, in cycles per instruction, add up to the bar's cycles per
// instruction, printed after it inside the picture).
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

namespace agx {

// `stats`: a run's statistics document (docs/statistics.md), whose
// gpu.core_N.scheduler_M hold `issued` and `stall_cycles`.
void write_cpi_stack_svg(std::ostream& out, const nlohmann::json& stats, const std::string& title);

}  // namespace agx
