// The `key=value` attributes of an instruction line: mask=, slot=, size=,
// addr= (traces/FORMAT.md, "Attributes").
#include "sim/trace/trace_parse.hpp"

namespace agx::trace_detail {

namespace {

using isa::InstructionInfo;
using isa::MemorySpace;

constexpr unsigned kLanes = 32;

std::uint64_t number(std::string_view key, std::string_view v, const LineContext& at,
                     std::uint64_t max = UINT64_MAX) {
    std::uint64_t x = 0;
    if (!parse_uint(trim(v), x, max))
        fail(at, "bad value '" + std::string(v) + "' for " + std::string(key) + "=");
    return x;
}

// "BASE", "BASE+STRIDE*lane", "BASE-STRIDE*lane" or "[a0,a1,...,a31]".
void parse_addresses(std::string_view v, const LineContext& at, MemoryAccess& mem) {
    if (!v.empty() && v.front() == '[') {
        if (v.back() != ']') fail(at, "missing ']' in addr=");
        v = v.substr(1, v.size() - 2);
        unsigned n = 0;
        while (true) {
            auto comma = v.find(',');
            auto item = trim(v.substr(0, comma));
            if (n == kLanes) fail(at, "addr= list has more than 32 entries");
            mem.lane[n++] = number("addr", item, at);
            if (comma == std::string_view::npos) break;
            v.remove_prefix(comma + 1);
        }
        if (n != kLanes)
            fail(at,
                 "addr= list has " + std::to_string(n) + " entries, expected 32 (one per lane)");
        mem.explicit_lanes = true;
        return;
    }
    auto op = v.find_first_of("+-");
    mem.base = number("addr", v.substr(0, op), at);
    if (op == std::string_view::npos) return;  // every lane at the same address
    auto term = v.substr(op + 1);
    const std::string_view lane = "*lane";
    if (term.size() <= lane.size() || term.substr(term.size() - lane.size()) != lane)
        fail(at, "bad addr= '" + std::string(v) + "': expected BASE+STRIDE*lane");
    auto stride = number("addr", term.substr(0, term.size() - lane.size()), at, INT64_MAX);
    mem.stride =
        v[op] == '-' ? -static_cast<std::int64_t>(stride) : static_cast<std::int64_t>(stride);
}

// The register that holds the data moved per lane, if any.
const Operand* data_operand(const InstructionInfo& info, const Instruction& in) {
    const Operand* d = (info.is_store || info.is_atomic) ? &in.src[0] : &in.dst[0];
    return d->kind == OperandKind::Reg ? d : nullptr;
}

}  // namespace

void apply_attributes(const Attribute* attrs, unsigned n, const InstructionInfo& info,
                      const LineContext& at, Instruction& out) {
    const bool memory = info.memory != MemorySpace::None;
    bool have_addr = false;
    unsigned size_bits = 0;
    for (unsigned k = 0; k < n; ++k) {
        auto key = attrs[k].key;
        auto value = attrs[k].value;
        auto only_memory = [&] {
            if (!memory) fail(at, std::string(key) + "= only applies to memory instructions");
        };
        if (key == "mask") {
            out.active_mask = static_cast<std::uint32_t>(number(key, value, at, 0xffffffffu));
        } else if (key == "slot") {
            if (!info.is_async)
                fail(at, "slot= only applies to asynchronous (device memory) instructions");
            auto s = number(key, value, at);
            if (s > 1) fail(at, "wait slot " + std::to_string(s) + " out of range (0 or 1)");
            out.wait_slot = static_cast<std::uint8_t>(s);
        } else if (key == "size") {
            only_memory();
            size_bits = static_cast<unsigned>(number(key, value, at, 1024));
            if (size_bits < 8 || size_bits > 128 || size_bits % 8 != 0)
                fail(at, "size=" + std::string(value) +
                             " must be 8..128 bits per lane, a multiple of 8");
        } else if (key == "addr") {
            only_memory();
            parse_addresses(value, at, out.mem);
            have_addr = true;
        } else {
            fail(at, "unknown attribute '" + std::string(key) + "'");
        }
    }
    if (!memory) return;
    if (!have_addr) fail(at, std::string(info.mnemonic) + " needs addr= (addresses of the lanes)");
    const Operand* data = data_operand(info, out);
    const unsigned capacity = data ? data->halves * 16u : 32u;
    if (size_bits == 0) size_bits = capacity > 128 ? 128 : capacity;
    if (size_bits > capacity)
        fail(at, "size=" + std::to_string(size_bits) + " does not fit the " +
                     std::to_string(capacity) + "-bit data register");
    out.mem.bytes_per_lane = static_cast<std::uint8_t>(size_bits / 8);
}

}  // namespace agx::trace_detail
