// The kernel workload and its per-simd streams: memory instructions and
// control flow here, arithmetic in execute_alu.cpp.
#include "sim/kernel/kernel_workload.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>

#include "isa/semantics.hpp"
#include "sim/common/errors.hpp"
#include "sim/common/format.hpp"
#include "sim/common/lane_copy.hpp"
#include "sim/kernel/execute.hpp"

namespace agx::kernel {

namespace {

// The alignment a lane's access needs: the largest power of two dividing
// its size, as the trace format checks (traces/FORMAT.md).
unsigned alignment(unsigned bytes) {
    return bytes & (~bytes + 1u);
}

// A lane's offset register as an element index: a 16-bit offset
// (threadgroup addresses in rNl) extends from 16 bits, a 32-bit one from 32,
// each as the instruction says (signed unless offset=unsigned).
std::int64_t lane_index(const KernelInstruction& k, const Operand& off, const Source& o,
                        unsigned lane) {
    if (off.halves == 1)
        return k.offset_unsigned ? std::int64_t{o.u16(lane)}
                                 : std::int64_t{static_cast<std::int16_t>(o.u16(lane))};
    return k.offset_unsigned ? std::int64_t{o.u32(lane)}
                             : std::int64_t{static_cast<std::int32_t>(o.u32(lane))};
}

// A lane's address from its base and its offset in bytes: threadgroup
// addresses take the base's low 32 bits and may come out negative (as an
// unsigned value, above any threadgroup memory); device addresses wrap
// around 2^64.
std::uint64_t lane_address(bool threadgroup, std::uint64_t base, std::int64_t offset) {
    return threadgroup
               ? static_cast<std::uint64_t>(static_cast<std::int64_t>(base & 0xffffffffu) + offset)
               : base + static_cast<std::uint64_t>(offset);
}

// Every lane's 32 bits of a source, for the lane-wide comparisons.
void lane_words(const Source& v, std::uint32_t* out) {
    for (unsigned l = 0; l < kLanes; ++l) out[l] = v.u32(l);
}

// The lanes whose comparison holds (bit l for lane l), every lane compared:
// the comparison reads only its operands, so lanes the caller does not look
// at cost nothing but the work. 16-bit operands (r1l, u2h) compare as 16-bit
// values; a float immediate beside them is a binary32 literal, compared at 16
// bits.
std::uint32_t compare_lanes(const KernelInstruction& k, const Source& a, const Source& b) {
    const Operand& x = k.in.src[0];
    const Operand& y = k.in.src[1];
    const bool sixteen = (x.kind != OperandKind::Imm && x.halves == 1) ||
                         (y.kind != OperandKind::Imm && y.halves == 1);
    switch (k.sem) {
        case Sem::IfFcmp:
        case Sem::ElseFcmp:
        case Sem::WhileFcmp: {
            const auto cond = static_cast<isa::sem::FloatCond>(k.cond);
            if (!sixteen) {
                isa::sem::LaneWords av, bv;
                lane_words(a, av.data());
                lane_words(b, bv.data());
                return isa::sem::fcompare32_lanes(cond, av, bv);
            }
            auto halves = [](const Operand& o, const Source& v) {
                isa::sem::LaneHalves out;
                if (o.kind == OperandKind::Imm)
                    out.fill(isa::sem::f32_to_f16(isa::sem::f32(o.imm)));
                else
                    for (unsigned l = 0; l < kLanes; ++l) out[l] = v.u16(l);
                return out;
            };
            return isa::sem::fcompare16_lanes(cond, halves(x, a), halves(y, b));
        }
        default: {
            isa::sem::LaneWords av, bv;
            lane_words(a, av.data());
            lane_words(b, bv.data());
            return isa::sem::icompare_lanes(static_cast<isa::sem::IntCond>(k.cond), av, bv,
                                            sixteen ? 16 : 32);
        }
    }
}

}  // namespace

class KernelWorkload::Stream : public InstructionStream {
  public:
    Stream(KernelWorkload& w, std::uint32_t threadgroup, std::uint32_t simd_in_group,
           std::shared_ptr<ThreadgroupShared> shared)
        : w_(w), shared_(std::move(shared)) {
        const ResolvedLaunch& L = w.spec_;
        const auto groups = L.threadgroups();
        SimdPlace& p = s_.place;
        p.threadgroup_position = {threadgroup % groups[0], (threadgroup / groups[0]) % groups[1],
                                  threadgroup / (groups[0] * groups[1])};
        p.threadgroup_size = L.threadgroup;
        p.grid_size = L.grid;
        p.simd_in_group = simd_in_group;
        p.first_global_thread =
            std::uint64_t{threadgroup} * L.threads_per_threadgroup() + simd_in_group * kLanes;
        global_simd_ = threadgroup * w.launch_.simds_per_threadgroup() + simd_in_group;
        const SimdPlace::LanePositions g = p.lane_positions(true);
        for (unsigned l = 0; l < kLanes; ++l) {
            if (p.index_in_threadgroup(l) >= L.threads_per_threadgroup()) continue;
            if (g[0][l] < L.grid[0] && g[1][l] < L.grid[1] && g[2][l] < L.grid[2])
                s_.present |= 1u << l;
        }
        s_.exec = s_.present;
        s_.regs.assign(std::size_t{(L.registers_halves + 1) / 2} * kLanes, 0);
        if (s_.present == 0) finish();
    }

    const Instruction* peek() override {
        if (s_.finished) return nullptr;
        if (!ready_) prepare();
        return &cur_;
    }

    void advance() override {
        if (!ready_) prepare();
        const KernelInstruction& k = w_.program_.code[s_.index];
        if (++w_.executed_ > w_.max_instructions_)
            fail(k,
                 "the kernel ran past --max-instructions=" + std::to_string(w_.max_instructions_) +
                     " (still running here: a loop that does not end?)");
        if (++executed_ > w_.max_simd_instructions_ && w_.max_simd_instructions_ != 0)
            fail(k, "this simd ran past --max-simd-instructions=" +
                        std::to_string(w_.max_simd_instructions_) +
                        " (still running here: a loop that does not end? A simd meant to run "
                        "longer needs a larger limit, 0 for none)");
        if (w_.observer_) w_.observer_->issued(global_simd_, cur_);
        ready_ = false;
        std::size_t next = s_.index + 1;
        if (is_alu(k.sem))
            execute_alu(k, s_, w_.uniforms_);
        else
            next = execute_other(k, next);
        s_.index = next;
    }

  private:
    [[noreturn]] void fail(const KernelInstruction& k, const std::string& why) const {
        const auto& t = s_.place.threadgroup_position;
        throw InputError(w_.program_.path + ":" + std::to_string(k.in.source_line),
                         "pc " + hex(k.in.pc) + ", threadgroup (" + std::to_string(t[0]) + "," +
                             std::to_string(t[1]) + "," + std::to_string(t[2]) + ") simd " +
                             std::to_string(s_.place.simd_in_group) + ": " + why);
    }

    // A sampled run relies on the threadgroups' independence: each device
    // access stays in the buffer its base points into (threadgroup_independence.hpp).
    // `k` is one of the code's: the preamble runs in the constructor, with no
    // device access, before the finding can be relied on.
    void check_independence(const KernelInstruction& k, std::size_t buffer) const {
        const std::int32_t expected =
            w_.independence_.buffer_of[static_cast<std::size_t>(&k - w_.program_.code.data())];
        if (expected < 0 || static_cast<std::size_t>(expected) == buffer) return;
        fail(k, "the access reaches buffer '" + w_.memory_.spec(buffer).name +
                    "' through the base of buffer '" +
                    w_.memory_.spec(static_cast<std::size_t>(expected)).name +
                    "': the sampled run takes the threadgroups for independent, each access "
                    "inside its base's buffer, to run skipped ranges early (run it with "
                    "--sample-plan early=0)");
    }

    void finish() {
        s_.finished = true;
        if (w_.observer_) w_.observer_->finished(global_simd_);
    }

    // Builds the instruction the timing model sees: the static one with
    // this simd's mask and, for memory, its lanes' addresses (checked here,
    // before it issues).
    void prepare() {
        const auto& code = w_.program_.code;
        if (s_.index >= code.size()) {
            const KernelInstruction& last = code.back();
            fail(last, "ran past the last instruction without 'stop'");
        }
        const KernelInstruction& k = code[s_.index];
        const Instruction& t = k.in;
        copy_without_lanes(cur_, t);
        cur_.active_mask = s_.exec;
        cur_.mem.explicit_lanes = t.mem.bytes_per_lane != 0;
        if (t.mem.bytes_per_lane != 0) addresses(k);
        ready_ = true;
    }

    // Lane addresses of a memory instruction (traces/KERNEL.md, "Memory").
    void addresses(const KernelInstruction& k) {
        const Instruction& t = k.in;
        const auto& info = isa::Catalogue::instance().info(t.opcode);
        const unsigned bytes = t.mem.bytes_per_lane;
        const unsigned scale = static_cast<unsigned>(__builtin_ctz(k.component_bytes)) + k.shift;
        // Operand positions: data first (a destination for loads and
        // atomics), then base (not for the stack), then the offset.
        const bool data_is_src = info.is_store || info.is_atomic;
        const unsigned first_addr = data_is_src ? 1 : 0;
        const bool stack = k.sem == Sem::StackLoad || k.sem == Sem::StackStore;
        const Operand* base = stack ? nullptr : &t.src[first_addr];
        const Operand& off = t.src[stack ? first_addr : first_addr + 1];
        const Source o = resolve(off, s_, w_.uniforms_);
        const std::uint64_t misaligned = alignment(bytes) - 1u;  // a power of two's low bits
        lanes_in_one_page_ = false;
        if (!stack && whole_simd_addresses(k, info.memory, *base, off, o, scale, bytes, misaligned))
            return;
        // Lane by lane, checking each: the first lane out of bounds or
        // misaligned is the one named.
        cur_.mem.lane.fill(0);
        const bool threadgroup = info.memory == isa::MemorySpace::Threadgroup;
        for (unsigned l = 0; l < kLanes; ++l) {
            if (!(s_.exec >> l & 1u)) continue;
            const std::int64_t offset = lane_index(k, off, o, l) * (std::int64_t{1} << scale);
            std::uint64_t a = 0;
            auto where = [&] {
                return "lane " + std::to_string(l) + " address " + hex(a) + " (" +
                       std::to_string(bytes) + " bytes)";
            };
            if (threadgroup) {
                a = lane_address(true, read64(*base, s_, w_.uniforms_, l), offset);
                const auto at = static_cast<std::int64_t>(a);
                if (at < 0 || at + bytes > w_.spec_.threadgroup_memory)
                    fail(k, where() + " is outside the launch's threadgroup_memory=" +
                                std::to_string(w_.spec_.threadgroup_memory));
            } else if (stack) {
                a = w_.stack_base_ + (s_.place.first_global_thread + l) * w_.spec_.stack_bytes +
                    static_cast<std::uint64_t>(offset);
                if (offset < 0 || offset + bytes > w_.spec_.stack_bytes)
                    fail(k, "lane " + std::to_string(l) + " stack offset " +
                                std::to_string(offset) + " (" + std::to_string(bytes) +
                                " bytes) is outside the launch's stack=" +
                                std::to_string(w_.spec_.stack_bytes));
            } else {
                a = lane_address(false, read64(*base, s_, w_.uniforms_, l), offset);
                const auto buffer = w_.memory_.buffer_at(a, bytes);
                if (!buffer) fail(k, where() + " is outside every buffer");
                if (w_.holding_independence_) check_independence(k, *buffer);
            }
            if ((a & misaligned) != 0)
                fail(k,
                     where() + " is not aligned to its " + std::to_string(bytes) + "-byte access");
            cur_.mem.lane[l] = a;
        }
    }

    // The common case of addresses(), for the whole simd at once: writes
    // every lane's address into cur_.mem.lane and returns true when all the
    // active lanes pass the checks (inside one device buffer, or inside
    // threadgroup memory, and aligned). It also notes whether they share one
    // device page (lanes_in_one_page_, from lanes_from_). When a lane fails
    // a check it returns false and addresses() goes lane by lane, to find
    // and name the first such lane.
    bool whole_simd_addresses(const KernelInstruction& k, isa::MemorySpace space,
                              const Operand& base, const Operand& off, const Source& o,
                              unsigned scale, unsigned bytes, std::uint64_t misaligned) {
        const std::uint32_t exec = s_.exec;
        if (exec == 0) return false;
        std::int64_t index[kLanes];
        for (unsigned l = 0; l < kLanes; ++l) index[l] = lane_index(k, off, o, l);
        // The base of every lane: one value for a uniform or an immediate, a
        // register pair's two words, anything else lane by lane.
        std::uint64_t bases[kLanes];
        if (base.kind != OperandKind::Reg) {
            std::fill(bases, bases + kLanes, read64(base, s_, w_.uniforms_, 0));
        } else if (base.halves == 4) {
            const std::uint32_t* lo = s_.reg(base.first_half >> 1);
            const std::uint32_t* hi = lo + kLanes;
            for (unsigned l = 0; l < kLanes; ++l) bases[l] = lo[l] | std::uint64_t{hi[l]} << 32;
        } else {
            for (unsigned l = 0; l < kLanes; ++l) bases[l] = read64(base, s_, w_.uniforms_, l);
        }
        const std::int64_t step = std::int64_t{1} << scale;
        auto& lane = cur_.mem.lane;
        std::uint64_t low = ~std::uint64_t{0}, high = 0, low_bits = 0;
        const bool threadgroup = space == isa::MemorySpace::Threadgroup;
        for (unsigned l = 0; l < kLanes; ++l) {
            std::uint64_t a = 0;
            if (exec >> l & 1u) {
                a = lane_address(threadgroup, bases[l], index[l] * step);
                low = std::min(low, a);
                high = std::max(high, a);
                low_bits |= a;
            }
            lane[l] = a;
        }
        if ((low_bits & misaligned) != 0) return false;
        if (threadgroup)  // as unsigned: a negative address is above the size
            return high < w_.spec_.threadgroup_memory &&
                   high + bytes <= w_.spec_.threadgroup_memory;
        if (high + bytes < high) return false;  // wraps past 2^64
        const std::uint64_t span = high + bytes - low;
        if (span > std::numeric_limits<unsigned>::max()) return false;
        const auto buffer = w_.memory_.buffer_at(low, static_cast<unsigned>(span));
        if (!buffer) return false;
        if (w_.holding_independence_) check_independence(k, *buffer);
        lanes_from_ = low;
        lanes_in_one_page_ =
            low / DeviceMemory::kPageBytes == (low + span - 1) / DeviceMemory::kPageBytes;
        return true;
    }

    // Memory, control flow, synchronisation; returns the next instruction.
    std::size_t execute_other(const KernelInstruction& k, std::size_t next) {
        switch (k.sem) {
            case Sem::DeviceLoad:
            case Sem::StackLoad:
            case Sem::ThreadgroupLoad:
                load(k);
                return next;
            case Sem::DeviceStore:
            case Sem::StackStore:
            case Sem::ThreadgroupStore:
                store(k);
                return next;
            case Sem::Atomic:
            case Sem::ThreadgroupAtomic:
                atomic(k);
                return next;
            case Sem::Wait:
            case Sem::ThreadgroupBarrier:
            case Sem::MemoryBarrier:
                return next;  // ordering comes from when the timing model issues
            case Sem::JmpExecAny:
                return s_.exec != 0 ? k.target : next;
            case Sem::JmpExecNone:
                return s_.exec == 0 ? k.target : next;
            case Sem::Call: {
                const std::uint32_t back = next < w_.program_.code.size()
                                               ? w_.program_.code[next].in.pc
                                               : w_.program_.code_bytes;
                std::size_t to = k.target;
                if (k.in.src[0].kind == OperandKind::Reg)
                    to = jump_to(k, resolve(k.in.src[0], s_, w_.uniforms_));
                for (unsigned l = 0; l < kLanes; ++l)
                    if (s_.exec >> l & 1u) s_.reg(1)[l] = back;
                return to;
            }
            case Sem::Ret:
                return jump_to(k, resolve(k.in.src[0], s_, w_.uniforms_));
            case Sem::Stop:
                finish();
                return s_.index;
            case Sem::PopExec:
                if (k.levels > s_.depth)
                    fail(k, "exec-mask stack underflow: pop_exec " + std::to_string(k.levels) +
                                " with " + std::to_string(s_.depth) + " level(s) open");
                s_.depth -= k.levels;
                update_stack(
                    k, [&](unsigned, std::uint32_t v) { return v > k.levels ? v - k.levels : 0u; });
                return next;
            default:
                break;
        }
        // The exec-mask stack (applegpu's if/else/while): r0l counts the
        // levels a lane is disabled by; 0 is active.
        const Source a = resolve(k.in.src[0], s_, w_.uniforms_),
                     b = resolve(k.in.src[1], s_, w_.uniforms_);
        const std::uint32_t n = k.levels;
        const std::uint32_t holds = compare_lanes(k, a, b);
        auto holds_in = [holds](unsigned l) { return (holds >> l & 1u) != 0; };
        switch (k.sem) {
            case Sem::IfIcmp:
            case Sem::IfFcmp:
                ++s_.depth;
                update_stack(k, [&](unsigned l, std::uint32_t v) {
                    if (v != 0) return v + n;
                    return holds_in(l) ? 0u : 1u;
                });
                break;
            case Sem::ElseIcmp:
            case Sem::ElseFcmp:
                if (s_.depth == 0) fail(k, "exec-mask stack underflow: else with no level open");
                update_stack(k, [&](unsigned l, std::uint32_t v) {
                    if (v == 0) return n;
                    if (v == 1) return holds_in(l) ? 0u : 1u;
                    return v;
                });
                break;
            case Sem::WhileIcmp:
            case Sem::WhileFcmp:
                // A loop's while opens the level its closing pop_exec pops
                // when no if opened one.
                if (s_.depth == 0) s_.depth = 1;
                update_stack(k, [&](unsigned l, std::uint32_t v) {
                    if (v < n) return holds_in(l) ? 0u : n;
                    return v;
                });
                break;
            default:
                fail(k, "internal: no semantics");
        }
        return next;
    }

    template <class F>
    void update_stack(const KernelInstruction& k, F f) {
        // Every lane's new counter first (f reads only its own lane), then
        // the present lanes' written back, in straight loops.
        std::uint32_t next[kLanes];
        std::uint32_t high_bits = 0;
        for (unsigned l = 0; l < kLanes; ++l) {
            next[l] = f(l, s_.r0l(l));
            high_bits |= next[l] >> 16;
        }
        const std::uint32_t present = s_.present;
        if (high_bits != 0)  // a counter past 16 bits: the first present lane with one is named
            for (unsigned l = 0; l < kLanes; ++l)
                if ((present >> l & 1u) && next[l] > 0xffffu)
                    fail(k, "exec-mask stack counter r0l overflows 16 bits in lane " +
                                std::to_string(l));
        std::uint32_t exec = 0;
        for (unsigned l = 0; l < kLanes; ++l) {
            const bool here = (present >> l & 1u) != 0;
            if (here) s_.regs[l] = (s_.regs[l] & 0xffff0000u) | next[l];  // r0l
            exec |= std::uint32_t{here && next[l] == 0} << l;
        }
        s_.exec = exec;
    }

    // The instruction at the pc a register holds: the lowest active lane's
    // (or the lowest lane's when none is active).
    std::size_t jump_to(const KernelInstruction& k, const Source& target) {
        const std::uint32_t lanes = s_.exec ? s_.exec : s_.present;
        const unsigned l = static_cast<unsigned>(__builtin_ctz(lanes));
        const std::uint32_t pc = target.u32(l);
        const std::int64_t i = w_.program_.index_at_pc(pc);
        if (i < 0) fail(k, "jump to pc " + hex(pc) + ", where no instruction starts");
        return static_cast<std::size_t>(i);
    }

    unsigned char* threadgroup_bytes(std::uint64_t address) {
        return shared_->memory.data() + address;
    }

    // Where a lane's n bytes are held, when they lie in one block (threadgroup
    // memory; one page of device memory): then whole registers move straight
    // to or from them. Null when they straddle two pages.
    unsigned char* held_bytes(const KernelInstruction& k, std::uint64_t address, unsigned n) {
        switch (k.sem) {
            case Sem::ThreadgroupLoad:
            case Sem::ThreadgroupStore:
                return threadgroup_bytes(address);
            case Sem::DeviceLoad:
            case Sem::DeviceStore:
                return w_.memory_.span(address, n);
            default:
                return nullptr;  // the stack's lanes take the general path
        }
    }

    // The page every active lane of a device load or store falls in, found
    // once for them all (held_bytes per lane otherwise). It rests on
    // lanes_in_one_page_ describing this very instruction: addresses() sets
    // it in prepare(), and advance() executes the instruction prepare()
    // made ready, with nothing in between that computes other addresses.
    struct LanePage {
        unsigned char* data = nullptr;  // the bytes at `from`
        std::uint64_t from = 0;
        unsigned char* held(Stream& s, const KernelInstruction& k, std::uint64_t address,
                            unsigned n) const {
            return data ? data + (address - from) : s.held_bytes(k, address, n);
        }
    };
    LanePage lane_page(const KernelInstruction& k, bool direct) {
        const bool device = k.sem == Sem::DeviceLoad || k.sem == Sem::DeviceStore;
        if (!direct || !device || !lanes_in_one_page_) return {};
        return {w_.memory_.span(lanes_from_, 1), lanes_from_};
    }

    void read_bytes(const KernelInstruction& k, std::uint64_t address, void* out, unsigned n) {
        if (k.sem == Sem::ThreadgroupLoad || k.sem == Sem::ThreadgroupAtomic)
            copy_lane_bytes(out, threadgroup_bytes(address), n);
        else
            w_.memory_.read(address, out, n);
    }
    void write_bytes(const KernelInstruction& k, std::uint64_t address, const void* in,
                     unsigned n) {
        if (k.sem == Sem::ThreadgroupStore || k.sem == Sem::ThreadgroupAtomic)
            copy_lane_bytes(threadgroup_bytes(address), in, n);
        else
            w_.memory_.write(address, in, n);
    }

    // Register component c of a memory instruction's data operand: a 16-bit
    // half or a 32-bit register.
    Operand component(const Operand& data, const KernelInstruction& k, unsigned c) const {
        Operand o = data;
        const bool sixteen = k.components == data.halves;  // one half per component
        o.halves = sixteen ? 1 : 2;
        o.first_half = static_cast<std::uint16_t>(data.first_half + c * o.halves);
        return o;
    }

    // Whether a memory instruction's data are whole 32-bit registers moved
    // 4 bytes each: then a lane's bytes go straight to or from them.
    static bool whole_registers(const KernelInstruction& k, const Operand& data) {
        return k.component_bytes == 4 && data.halves == 2 * k.components;
    }

    void load(const KernelInstruction& k) {
        const unsigned cb = k.component_bytes, bytes = k.components * cb;
        const Operand& data = k.in.dst[0];
        const bool direct = whole_registers(k, data);
        const unsigned first = data.first_half / 2u;
        const LanePage page = lane_page(k, direct);
        for (unsigned l = 0; l < kLanes; ++l) {
            if (!(s_.exec >> l & 1u)) continue;
            if (direct)
                if (const unsigned char* held = page.held(*this, k, cur_.mem.lane[l], bytes)) {
                    for (unsigned c = 0; c < k.components; ++c)
                        std::memcpy(&s_.reg(first + c)[l], held + 4 * c, 4);
                    continue;
                }
            unsigned char buf[16] = {};
            read_bytes(k, cur_.mem.lane[l], buf, bytes);  // one lane's bytes, little-endian
            for (unsigned c = 0; c < k.components; ++c) {
                std::uint32_t v = 0;
                if (cb == 4)  // a size the compiler knows: no library call per lane
                    std::memcpy(&v, buf + c * cb, 4);
                else
                    std::memcpy(&v, buf + c * cb, cb);
                if (direct)
                    s_.reg(first + c)[l] = v;
                else
                    write_lane(component(data, k, c), s_, l, v);
            }
        }
    }

    void store(const KernelInstruction& k) {
        const unsigned cb = k.component_bytes, bytes = k.components * cb;
        const Operand& data = k.in.src[0];
        const bool direct = whole_registers(k, data) && data.kind == OperandKind::Reg;
        const unsigned first = data.first_half / 2u;
        const LanePage page = lane_page(k, direct);
        for (unsigned l = 0; l < kLanes; ++l) {
            if (!(s_.exec >> l & 1u)) continue;
            if (direct)
                if (unsigned char* held = page.held(*this, k, cur_.mem.lane[l], bytes)) {
                    for (unsigned c = 0; c < k.components; ++c)
                        std::memcpy(held + 4 * c, &s_.reg(first + c)[l], 4);
                    continue;
                }
            unsigned char buf[16];
            for (unsigned c = 0; c < k.components; ++c) {
                const std::uint32_t v = direct ? s_.reg(first + c)[l]
                                               : static_cast<std::uint32_t>(read64(
                                                     component(data, k, c), s_, w_.uniforms_, l));
                if (cb == 4)
                    std::memcpy(buf + c * cb, &v, 4);
                else
                    std::memcpy(buf + c * cb, &v, cb);
            }
            write_bytes(k, cur_.mem.lane[l], buf, bytes);
        }
    }

    // Lanes in order, each a whole read-modify-write, as the memory
    // serialises a simd's atomics to one address.
    void atomic(const KernelInstruction& k) {
        const auto op = static_cast<AtomicOp>(k.table);
        for (unsigned l = 0; l < kLanes; ++l) {
            if (!(s_.exec >> l & 1u)) continue;
            const std::uint64_t data = read64(k.in.src[0], s_, w_.uniforms_, l);
            const std::uint32_t x = static_cast<std::uint32_t>(data);
            std::uint32_t old = 0;
            read_bytes(k, cur_.mem.lane[l], &old, 4);
            std::uint32_t v = old;
            const auto sx = [](std::uint32_t a) { return static_cast<std::int32_t>(a); };
            switch (op) {
                case AtomicOp::Add:
                    v = old + x;
                    break;
                case AtomicOp::Sub:
                    v = old - x;
                    break;
                case AtomicOp::Umin:
                    v = std::min(old, x);
                    break;
                case AtomicOp::Umax:
                    v = std::max(old, x);
                    break;
                case AtomicOp::Smin:
                    v = sx(old) < sx(x) ? old : x;
                    break;
                case AtomicOp::Smax:
                    v = sx(old) > sx(x) ? old : x;
                    break;
                case AtomicOp::And:
                    v = old & x;
                    break;
                case AtomicOp::Or:
                    v = old | x;
                    break;
                case AtomicOp::Xor:
                    v = old ^ x;
                    break;
                case AtomicOp::Xchg:
                    v = x;
                    break;
                case AtomicOp::Cmpxchg:  // (compare, new value)
                    v = old == x ? static_cast<std::uint32_t>(data >> 32) : old;
                    break;
            }
            write_bytes(k, cur_.mem.lane[l], &v, 4);
            write_lane(k.in.dst[0], s_, l, old);
        }
    }

    KernelWorkload& w_;
    std::shared_ptr<ThreadgroupShared> shared_;
    SimdState s_;
    Instruction cur_;
    bool ready_ = false;
    // Whether the active lanes of cur_, a device access, all fall in one
    // page, from lanes_from_ on: then a load or store finds the page once.
    bool lanes_in_one_page_ = false;
    std::uint64_t lanes_from_ = 0;
    std::uint32_t global_simd_ = 0;
    std::uint64_t executed_ = 0;  // by this simd
};

KernelWorkload::KernelWorkload(LoadedKernel kernel, std::uint64_t max_instructions,
                               std::uint64_t max_simd_instructions)
    : program_(std::move(kernel.program)),
      spec_(std::move(kernel.launch)),
      memory_(spec_.buffers),
      max_instructions_(max_instructions),
      max_simd_instructions_(max_simd_instructions) {
    launch_.threads_per_threadgroup = spec_.threads_per_threadgroup();
    const std::uint64_t groups = spec_.threadgroup_count();
    if (groups > 0xffffffffull)
        throw InputError(program_.path, "the grid has more than 2^32 threadgroups");
    launch_.threadgroups = static_cast<std::uint32_t>(groups);
    launch_.registers_halves = spec_.registers_halves;
    launch_.threadgroup_memory_bytes = spec_.threadgroup_memory;
    for (const auto& b : spec_.bindings) {
        const std::uint64_t address = memory_.base(b.buffer) + b.offset;
        uniforms_[b.uniform.first_half / 2] = static_cast<std::uint32_t>(address);
        uniforms_[b.uniform.first_half / 2 + 1] = static_cast<std::uint32_t>(address >> 32);
    }
    for (const auto& c : spec_.constants) {
        const unsigned r = c.first_half / 2;
        if (c.halves == 1) {
            const unsigned sh = (c.first_half & 1u) * 16u;
            uniforms_[r] =
                (uniforms_[r] & ~(0xffffu << sh)) | static_cast<std::uint32_t>(c.bits << sh);
        } else {
            uniforms_[r] = static_cast<std::uint32_t>(c.bits);
            if (c.halves == 4) uniforms_[r + 1] = static_cast<std::uint32_t>(c.bits >> 32);
        }
    }
    if (spec_.stack_bytes > 0) stack_base_ = memory_.base(memory_.buffer_count() - 1);
    run_preamble();
    independence_ = find_threadgroup_independence(program_, uniforms_, memory_);
}

bool KernelWorkload::independent_threadgroups() {
    holding_independence_ = independence_.independent;
    return holding_independence_;
}

// A compiled kernel's preamble computes what depends on the uniforms alone
// (its arguments and constants) once, and writes the results to uniforms
// the code reads (uniform_store). It runs here, once per launch, on one
// lane, before any threadgroup: the functional effect the hardware's
// preamble has before the dispatch's threads run. Its cycles are not
// charged (docs/architecture.md, "The preamble", says why).
void KernelWorkload::run_preamble() {
    if (program_.preamble.empty()) return;
    SimdState s;
    s.regs.assign(std::max<std::uint32_t>(spec_.registers_halves, 256) / 2 * kLanes + kLanes, 0);
    s.present = s.exec = 1u;
    for (const KernelInstruction& k : program_.preamble) {
        if (k.sem == Sem::Stop) break;
        if (k.sem == Sem::Wait) continue;
        if (k.sem == Sem::UniformStore) {
            const Operand& data = k.in.src[0];
            const unsigned first = k.in.src[1].imm;  // the uniform half it writes from
            for (unsigned h = 0; h < data.halves; ++h) {
                const unsigned src_half = data.first_half + h;
                const std::uint32_t v =
                    (s.reg(src_half / 2)[0] >> ((src_half & 1u) * 16u)) & 0xffffu;
                const unsigned dst_half = first + h;
                if (dst_half / 2 >= uniforms_.size())
                    throw InputError(program_.path, "the preamble writes past the last uniform");
                const unsigned sh = (dst_half & 1u) * 16u;
                auto& u = uniforms_[dst_half / 2];
                u = (u & ~(0xffffu << sh)) | (v << sh);
            }
            ++executed_;
            continue;
        }
        if (!is_alu(k.sem))
            throw InputError(program_.path, "the preamble holds an instruction it cannot run");
        execute_alu(k, s, uniforms_);
        ++executed_;
    }
}

KernelWorkload::~KernelWorkload() = default;

std::shared_ptr<KernelWorkload::ThreadgroupShared> KernelWorkload::threadgroup_shared(
    std::uint32_t threadgroup) {
    auto& slot = threadgroups_[threadgroup];
    if (auto live = slot.lock()) return live;
    // Forget threadgroups that have ended, so the map holds resident ones only.
    for (auto it = threadgroups_.begin(); it != threadgroups_.end();)
        it = it->second.expired() && it->first != threadgroup ? threadgroups_.erase(it)
                                                              : std::next(it);
    auto fresh = std::make_shared<ThreadgroupShared>();
    fresh->memory.assign(spec_.threadgroup_memory, 0);
    threadgroups_[threadgroup] = fresh;
    return fresh;
}

std::unique_ptr<InstructionStream> KernelWorkload::open(std::uint32_t threadgroup,
                                                        std::uint32_t simd_in_group) {
    return std::make_unique<Stream>(*this, threadgroup, simd_in_group,
                                    threadgroup_shared(threadgroup));
}

}  // namespace agx::kernel
