// The generic Mote runner firmware: runs any Mote program on an emulated Cortex-M core,
// driven by the host (cli/device_runner.cc) through semihosting.
//
// Command line (SYS_GET_CMDLINE, words separated by single spaces, no quoting):
//   <program path> <output dir> <loop limit> <input0 path> [<input1 path> ...]
// The loop limit bounds the loop iterations of each run (Interpreter::set_loop_limit,
// decimal; 0: none).
// or, to run many programs in one QEMU session (the per-op tests run thousands):
//   @<jobs file>
// a text file holding one such command line per line (a job). Each job runs as if it were
// the whole command line, with the workspace and the interpreter starting afresh, except
// that an error is written to <output dir>/error.txt (the line without "error: ") and the
// next job runs; the exit status is then 0 unless the jobs file itself is unreadable or
// the core faults (the host finds which jobs finished by their profile.txt or error.txt).
// Paths are host paths, relative to the directory QEMU runs in. Input files come in
// runs: R * input_count files run the loaded program R times in order, run r reading
// files [r * input_count, (r + 1) * input_count), so a stateful program's state carries
// from run to run as on a device (a program without inputs runs once).
//
// It reads the program into the workspace (the large memory region after .noinit, see
// ld/sections.ld), loads it with an arena of exactly the program's arena_bytes placed
// right after it, then (for a program with NPU ops) the NPU's fast scratch and the
// functional NPU model's workspace, each exactly what the program's NPU ops need, reads
// each input file (raw little-endian bytes, exactly the input
// tensor's size), runs the program with every op of the first run timed by SysTick, and
// writes
//   <output dir>/out<j>.bin    raw bytes of output j (of run r > 0: out<j>.r<r>.bin)
//   <output dir>/profile.txt   "op <index> <instructions>" per op, "total <instructions>",
//                              then "arena <given bytes> <used bytes>" (of the first run),
//                              "stack <bytes>" (the stack the first run used below the
//                              caller of run(), interrupts included: paint_stack);
//                              for a program with NPU ops also "memory <program address>
//                              <arena address> <fast scratch address>" and per NPU op of
//                              the first run what it handed the driver: "npu <op> payload
//                              <address> <bytes>", then "npu <op> <region> <address>
//                              <bytes>" per region (addresses in decimal)
// Instruction counts are exact only under `-icount shift=0` (see instruction_counter.h);
// "total" spans the whole run() call, so it includes dispatch and the profiling calls.
// "used" is the arena's high-water mark: the arena is filled with kArenaFill before load,
// and used = 1 + the offset of the last byte that differs from it after the run (exact
// unless the last bytes written happen to equal the fill byte, so a lower bound).
//
// NPU ops (Ethos-U, kernels/ethos_u) run on the functional model of the Ethos-U55/U65
// (platforms/ethos_u/ethos_u_model.h) behind the NpuDriver hook, as `mote run --device
// host` runs them; a command stream the model refuses stops the run with the model's
// error line.
//
// Exit status: 0 on success (every job run, in batch mode); 1 after printing one line
// "error: ..." on the semihosting console (QEMU's stderr); 125 when the core faults
// (startup code).
#include <stdint.h>
#include <string.h>

#include "all_kernels.h"
#include "ethos_u/ethos_u.h"
#include "ethos_u_model.h"
#include "instruction_counter.h"
#include "mote/interpreter.h"
#include "mote/text_line.h"
#include "semihost.h"

extern "C" {
extern uint8_t __workspace_start[];
extern uint8_t __workspace_end[];
extern uint32_t __stack_limit[];  // ld/sections.ld: the lowest word of the main stack
}

namespace {

namespace semihost = mote::semihost;
using mote::Status;

constexpr uint32_t kClockHz = MOTE_CPU_CLOCK_HZ;  // set per machine by runner/CMakeLists.txt
constexpr uint32_t kMaxWords = 64;                 // program, output dir, loop limit, up to 61 inputs
constexpr uint32_t kExitError = 1;
constexpr uint8_t kArenaFill = 0xA5;
constexpr uint32_t kStackFill = 0x5AC3A53Cu;

// The stack pointer of the calling function, as a call made next from it would see it.
inline uintptr_t stack_pointer() {
  uintptr_t sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  return sp;
}

// Fills the free main stack with kStackFill, from its limit up to below this function's
// own frame, so stack_used_below() can find how deep a call went.
__attribute__((noinline)) void paint_stack() {
  uint32_t* const end = reinterpret_cast<uint32_t*>(stack_pointer()) - 16;
  for (uint32_t* word = __stack_limit; word < end; ++word) *word = kStackFill;
}

// The bytes of stack used below `top` (a stack pointer taken before paint_stack) since
// paint_stack: from the lowest word that no longer holds the fill. Exact unless a
// written word happens to equal the fill (then a lower bound); interrupts taken during
// the call count too.
__attribute__((noinline)) uint32_t stack_used_below(uintptr_t top) {
  const uint32_t* word = __stack_limit;
  while (reinterpret_cast<uintptr_t>(word) < top && *word == kStackFill) ++word;
  return static_cast<uint32_t>(top - reinterpret_cast<uintptr_t>(word));
}

// One line of text with a buffer of its own (mote/text_line.h: no printf, which would
// pull in the heap).
struct LineBuffer {
  char bytes[384] = {};
};
class Line : private LineBuffer, public mote::TextLine {
 public:
  Line() : TextLine(bytes, sizeof bytes) {}
  Line(const Line&) = delete;
  Line& operator=(const Line&) = delete;
  Line& text(const char* s) {
    TextLine::text(s);
    return *this;
  }
  Line& number(uint64_t value) {
    TextLine::number(value);
    return *this;
  }
  Line& status(Status status) {
    const char* description = mote::status_string(status);
    if (*description != '\0') return text(description);
    return text("status ").number(static_cast<uint32_t>(status));  // strings compiled out
  }
};

uint32_t fail(const Line& message) {
  Line line;
  line.text("error: ").text(message.c_str()).text("\n");
  semihost::write0(line.c_str());
  return kExitError;
}

// Splits `text` in place at spaces.
uint32_t split_words(char* text, const char* words[], uint32_t capacity) {
  uint32_t count = 0;
  while (*text != '\0') {
    while (*text == ' ') *text++ = '\0';
    if (*text == '\0') break;
    if (count == capacity) return capacity + 1;
    words[count++] = text;
    while (*text != '\0' && *text != ' ') ++text;
  }
  return count;
}

// A decimal number that fits in 32 bits, the whole word.
bool parse_u32(const char* word, uint32_t* value) {
  uint64_t n = 0;
  if (*word == '\0') return false;
  for (; *word != '\0'; ++word) {
    if (*word < '0' || *word > '9') return false;
    n = n * 10 + static_cast<uint32_t>(*word - '0');
    if (n > 0xFFFFFFFFu) return false;
  }
  *value = static_cast<uint32_t>(n);
  return true;
}

uint8_t* align_up(uint8_t* pointer, uintptr_t alignment) {
  const uintptr_t value = reinterpret_cast<uintptr_t>(pointer);
  return reinterpret_cast<uint8_t*>((value + alignment - 1) & ~(alignment - 1));
}

uint32_t bytes_between(const uint8_t* begin, const uint8_t* end) {
  return begin < end ? static_cast<uint32_t>(end - begin) : 0;
}

// Which bytes of the workspace are still free.
struct Workspace {
  uint8_t* next;
  uint8_t* end;
  uint32_t free_bytes() const { return bytes_between(next, end); }
};

// Per-op timing of the first run, filled by the profile hook; every run's hook records
// the op it is in (where an NPU op stopped the run).
struct Profile {
  uint64_t* op_ticks;  // op_count entries in the workspace
  uint64_t op_begin_ticks;
  uint32_t current_op;
};

void profile_op_begin(void* user, uint32_t op) {
  Profile* profile = static_cast<Profile*>(user);
  profile->current_op = op;
  profile->op_begin_ticks = mote_tick_counter_read();
}

void track_op(void* user, uint32_t op) { static_cast<Profile*>(user)->current_op = op; }

void profile_op_end(void* user, uint32_t op) {
  Profile* profile = static_cast<Profile*>(user);
  profile->op_ticks[op] += mote_tick_counter_read() - profile->op_begin_ticks;  // each iteration of a loop
}

uint64_t instructions(uint64_t ticks) {
  return mote_ticks_to_instructions(ticks, kClockHz);
}

// Opens `path` and checks its length; the message says what went wrong, naming `what`.
int32_t open_for_read(const char* what, const char* path, int32_t* length, Line& error) {
  const int32_t handle = semihost::open(path, semihost::OpenMode::kReadBinary);
  if (handle < 0) {
    error.text("cannot open ").text(what).text(" '").text(path).text("'");
    return -1;
  }
  *length = semihost::file_length(handle);
  if (*length < 0) {
    error.text("cannot get the size of ").text(what).text(" '").text(path).text("'");
    semihost::close(handle);
    return -1;
  }
  return handle;
}

bool read_all(const char* what, const char* path, int32_t handle, void* data, uint32_t bytes,
              Line& error) {
  const bool ok = semihost::read(handle, data, bytes);
  semihost::close(handle);
  if (!ok) error.text("cannot read ").text(what).text(" '").text(path).text("'");
  return ok;
}

bool write_file(const char* path, const void* data, uint32_t bytes, Line& error) {
  const int32_t handle = semihost::open(path, semihost::OpenMode::kWriteBinary);
  if (handle < 0) {
    error.text("cannot create '").text(path).text("'");
    return false;
  }
  const bool ok = semihost::write(handle, data, bytes);
  semihost::close(handle);
  if (!ok) error.text("cannot write '").text(path).text("'");
  return ok;
}

// What the program's NPU ops need beside the arena: the largest fast scratch (region 2
// of an op compiled for a dedicated fast scratch) and the largest workspace the NPU
// model needs for one command stream.
struct NpuNeeds {
  uint32_t fast_scratch_bytes;
  uint64_t model_workspace_bytes;
  uint32_t model_workspace_op;  // the op needing the most workspace
  uint32_t op_count;            // NPU ops
};

NpuNeeds npu_needs(const mote::Interpreter& interpreter) {
  NpuNeeds needs{0, 0, 0, 0};
  for (uint32_t op = 0; op < interpreter.op_count(); ++op) {
    if (!mote::is_ethos_u_op(*interpreter.op_desc(op))) continue;
    ++needs.op_count;
    const mote::OpContext ctx = interpreter.op_context(op);
    const uint32_t fast = mote::ethos_u_fast_scratch_bytes(ctx);
    if (fast > needs.fast_scratch_bytes) needs.fast_scratch_bytes = fast;
    const uint64_t workspace = mote::ethos_u_model_workspace_bytes(static_cast<const uint8_t*>(ctx.input_data(0)),
                                                                   ctx.input_desc(0).bytes);
    if (workspace > needs.model_workspace_bytes) {
      needs.model_workspace_bytes = workspace;
      needs.model_workspace_op = op;
    }
  }
  return needs;
}

// One thing an NPU op of the first run handed the driver: the payload or a region.
constexpr uint32_t kPayloadRecord = 0xFFFFFFFFu;
struct NpuRecord {
  uint32_t op;
  uint32_t region;  // or kPayloadRecord
  uint64_t address;
  uint32_t bytes;
};

// The runner's NPU driver: records what each invoke of the first run gets (for
// profile.txt), then runs the functional model.
struct RunnerNpu {
  mote::EthosUModel model;
  const uint32_t* current_op;  // the op the interpreter is in (Profile::current_op)
  NpuRecord* records;          // capacity entries in the workspace
  uint32_t capacity;
  uint32_t count;
  bool recording;
};

int32_t runner_npu_invoke(void* user, const uint8_t* payload, uint32_t payload_bytes, const uint64_t* base_addresses,
                          const uint32_t* base_bytes, uint32_t region_count) {
  RunnerNpu* npu = static_cast<RunnerNpu*>(user);
  if (npu->recording && npu->count + 1 + region_count <= npu->capacity) {
    const uint32_t op = *npu->current_op;
    npu->records[npu->count++] = {op, kPayloadRecord, reinterpret_cast<uintptr_t>(payload), payload_bytes};
    for (uint32_t i = 0; i < region_count; ++i)
      npu->records[npu->count++] = {op, i, base_addresses[i], base_bytes[i]};
  }
  return mote::ethos_u_model_invoke(&npu->model, payload, payload_bytes, base_addresses, base_bytes, region_count);
}

char g_command_line[2048];
mote::Interpreter g_interpreter;
// The NPU: the functional model, its workspace and the fast scratch placed after the
// arena by run_job().
RunnerNpu g_runner_npu;
mote::NpuDriver g_npu = {runner_npu_invoke, nullptr, nullptr, &g_runner_npu, nullptr, 0};

// "op 3 'name'" (the name when the program has one).
Line& describe_op(Line& line, uint32_t op) {
  line.text("op ").number(op);
  const char* name = g_interpreter.op_name(op);
  if (*name != '\0') line.text(" '").text(name).text("'");
  return line;
}

// Runs one job: `words` are its command line (program, output dir, loop limit, inputs),
// `workspace` the memory it may use. False with `error` set when anything fails.
bool run_job(const char* const* words, uint32_t word_count, Workspace workspace, Line& error) {
  uint32_t loop_limit = 0;
  if (word_count < 3 || word_count > kMaxWords || !parse_u32(words[2], &loop_limit)) {
    error.text("usage: <program> <output dir> <loop limit> <input0> [<input1> ...] (at most ")
        .number(kMaxWords - 3)
        .text(" inputs)");
    return false;
  }
  const char* program_path = words[0];
  const char* output_dir = words[1];
  g_runner_npu.count = 0;
  const uint32_t input_file_count = word_count - 3;

  // The program, read whole into the workspace.
  int32_t program_length = 0;
  const int32_t program_handle = open_for_read("program", program_path, &program_length, error);
  if (program_handle < 0) return false;
  const uint32_t program_bytes = static_cast<uint32_t>(program_length);
  if (program_bytes > workspace.free_bytes()) {
    semihost::close(program_handle);
    error.text("program '").text(program_path).text("' is ").number(program_bytes)
        .text(" bytes; the runner's workspace holds ").number(workspace.free_bytes());
    return false;
  }
  uint8_t* program = workspace.next;
  if (!read_all("program", program_path, program_handle, program, program_bytes, error)) {
    return false;
  }
  workspace.next = align_up(program + program_bytes, mote::kArenaAlignment);

  // The arena: exactly the planned size when it fits. When it does not (or the header
  // is unreadable) the interpreter gets all that is left and reports the problem.
  uint32_t arena_bytes = workspace.free_bytes();
  uint32_t planned_arena_bytes = 0;
  if (program_bytes >= sizeof(mote::ProgramHeader)) {
    mote::ProgramHeader header;
    memcpy(&header, program, sizeof(header));
    if (header.magic == mote::kProgramMagic) {
      planned_arena_bytes = header.arena_bytes;
      if (planned_arena_bytes <= arena_bytes) arena_bytes = planned_arena_bytes;
    }
  }
  uint8_t* arena = workspace.next;
  memset(arena, kArenaFill, arena_bytes);
  // The NPU's fast scratch follows the arena. Loading with all the rest claimed (load()
  // checks sizes, it touches no byte) lets the loaded program say what it needs.
  uint8_t* fast_scratch = align_up(arena + arena_bytes, 16);
  g_npu.fast_scratch = fast_scratch;
  g_npu.fast_scratch_bytes = bytes_between(fast_scratch, workspace.end);
  mote::LoadOptions options;
  options.npu = &g_npu;
  Status status = g_interpreter.load(mote::Span<const uint8_t>(program, program_bytes),
                                     mote::Span<uint8_t>(arena, arena_bytes),
                                     mote::all_kernels(), options);
  if (status == Status::kArenaTooSmall) {
    error.text("cannot load program '").text(program_path).text("': ").status(status)
        .text(" (the program needs a ").number(planned_arena_bytes)
        .text("-byte arena; the runner's workspace has ").number(arena_bytes)
        .text(" bytes left after the program)");
    return false;
  }
  if (status == Status::kFastScratchTooSmall) {
    error.text("cannot load program '").text(program_path).text("': ").status(status)
        .text(" (the runner's workspace has ").number(g_npu.fast_scratch_bytes)
        .text(" bytes left after the program and its arena)");
    return false;
  }
  if (status != Status::kOk) {
    error.text("cannot load program '").text(program_path).text("': ").status(status);
    if (g_interpreter.failed_op() != mote::kNoOffset) {
      error.text(" (op ").number(g_interpreter.failed_op()).text(")");
    }
    if (g_interpreter.failed_tensor() != mote::kNoOffset) {
      error.text(" (tensor ").number(g_interpreter.failed_tensor()).text(")");
    }
    return false;
  }
  // The NPU's fast scratch and the NPU model's workspace, exactly as large as needed.
  const NpuNeeds npu = npu_needs(g_interpreter);
  g_npu.fast_scratch_bytes = npu.fast_scratch_bytes;
  workspace.next = align_up(fast_scratch + npu.fast_scratch_bytes, 8);
  if (npu.model_workspace_bytes > workspace.free_bytes()) {
    error.text("the NPU model needs a ").number(npu.model_workspace_bytes).text("-byte workspace for ");
    describe_op(error, npu.model_workspace_op)
        .text("; the runner's workspace has ").number(workspace.free_bytes())
        .text(" bytes left after the program, its arena and the NPU's fast scratch");
    return false;
  }
  g_runner_npu.model.workspace = workspace.next;
  g_runner_npu.model.workspace_bytes = npu.model_workspace_bytes;
  workspace.next = align_up(workspace.next + npu.model_workspace_bytes, 8);
  g_interpreter.set_loop_limit(loop_limit);

  const uint32_t input_count = g_interpreter.input_count();
  const bool whole_runs = input_count == 0 ? input_file_count == 0 : input_file_count % input_count == 0;
  if (!whole_runs || (input_count != 0 && input_file_count == 0)) {
    error.text("the program has ").number(input_count)
        .text(" inputs but ").number(input_file_count).text(" input files were given");
    return false;
  }
  const uint32_t runs = input_count == 0 ? 1 : input_file_count / input_count;
  const uint32_t op_count = g_interpreter.op_count();
  if (uint64_t{op_count} * sizeof(uint64_t) > workspace.free_bytes()) {
    error.text("no room for the profile of ").number(op_count).text(" ops in the workspace");
    return false;
  }
  Profile profile{reinterpret_cast<uint64_t*>(workspace.next), 0, 0};
  for (uint32_t op = 0; op < op_count; ++op) profile.op_ticks[op] = 0;
  workspace.next += op_count * sizeof(uint64_t);
  // The NPU records of the first run: the payload and up to kNpuMaxRegions regions per
  // NPU op.
  const uint32_t npu_records = npu.op_count * (1 + mote::kNpuMaxRegions);
  if (uint64_t{npu_records} * sizeof(NpuRecord) > workspace.free_bytes()) {
    error.text("no room for the NPU records of ").number(npu.op_count).text(" NPU ops in the workspace");
    return false;
  }
  g_runner_npu.current_op = &profile.current_op;
  g_runner_npu.records = reinterpret_cast<NpuRecord*>(workspace.next);
  g_runner_npu.capacity = npu_records;
  const mote::ProfileHook hook{profile_op_begin, profile_op_end, &profile};
  const mote::ProfileHook tracking_hook{track_op, nullptr, &profile};
  uint64_t run_ticks = 0;
  uint32_t arena_used = 0;
  uint32_t run_stack = 0;
  for (uint32_t run = 0; run < runs; ++run) {
    // Inputs, read straight into their arena slots.
    for (uint32_t i = 0; i < input_count; ++i) {
      const char* path = words[3 + run * input_count + i];
      Line what;
      what.text("input ").number(i);
      int32_t length = 0;
      const int32_t handle = open_for_read(what.c_str(), path, &length, error);
      if (handle < 0) return false;
      const uint32_t expected = g_interpreter.input_desc(i)->bytes;
      if (static_cast<uint32_t>(length) != expected) {
        semihost::close(handle);
        error.text("input ").number(i).text(" '").text(path).text("' is ")
            .number(static_cast<uint32_t>(length)).text(" bytes, expected ").number(expected);
        return false;
      }
      if (!read_all(what.c_str(), path, handle, g_interpreter.input_data(i), expected, error)) {
        return false;
      }
    }
    // Run, timing every op of the first run. The counter starts here, as it always did:
    // started before the input reads, its phase (and the reload interrupts that land
    // inside the run) would move with the input files' sizes.
    g_runner_npu.recording = run == 0;
    const uintptr_t run_stack_top = stack_pointer();
    if (run == 0) paint_stack();
    if (run == 0) mote_tick_counter_start();
    const uint64_t run_begin = mote_tick_counter_read();
    status = g_interpreter.run(run == 0 ? &hook : &tracking_hook);
    if (run == 0) run_ticks = mote_tick_counter_read() - run_begin;
    if (run == 0) run_stack = stack_used_below(run_stack_top);
    if (status == Status::kLoopLimit) {
      error.text("run stopped: ").status(status).text(" (").number(loop_limit)
          .text(" iterations in one run: a loop whose condition still held)");
      return false;
    }
    if (status == Status::kNpuFailed) {
      error.text("run stopped at ");
      describe_op(error, profile.current_op).text(": the NPU model says: ")
          .text(mote::ethos_u_model_error(g_runner_npu.model));
      return false;
    }
    if (status != Status::kOk) {
      error.text("run failed: ").status(status);
      return false;
    }
    if (run == 0) {
      arena_used = arena_bytes;
      while (arena_used > 0 && arena[arena_used - 1] == kArenaFill) --arena_used;
    }
    for (uint32_t j = 0; j < g_interpreter.output_count(); ++j) {
      Line path;
      path.text(output_dir).text("/out").number(j);
      if (run != 0) path.text(".r").number(run);
      path.text(".bin");
      if (!write_file(path.c_str(), g_interpreter.output_data(j),
                      g_interpreter.output_desc(j)->bytes, error)) {
        return false;
      }
    }
  }

  Line profile_path;
  profile_path.text(output_dir).text("/profile.txt");
  const int32_t handle = semihost::open(profile_path.c_str(), semihost::OpenMode::kWriteBinary);
  if (handle < 0) {
    error.text("cannot create '").text(profile_path.c_str()).text("'");
    return false;
  }
  bool written = true;
  for (uint32_t op = 0; op < op_count && written; ++op) {
    Line line;
    line.text("op ").number(op).text(" ").number(instructions(profile.op_ticks[op])).text("\n");
    written = semihost::write(handle, line.c_str(), line.length());
  }
  Line total;
  total.text("total ").number(instructions(run_ticks)).text("\n");
  written = written && semihost::write(handle, total.c_str(), total.length());
  Line arena_line;
  arena_line.text("arena ").number(arena_bytes).text(" ").number(arena_used).text("\n");
  written = written && semihost::write(handle, arena_line.c_str(), arena_line.length());
  Line stack_line;
  stack_line.text("stack ").number(run_stack).text("\n");
  written = written && semihost::write(handle, stack_line.c_str(), stack_line.length());
  if (npu.op_count != 0) {
    Line memory;
    memory.text("memory ").number(reinterpret_cast<uintptr_t>(program)).text(" ")
        .number(reinterpret_cast<uintptr_t>(arena)).text(" ").number(reinterpret_cast<uintptr_t>(fast_scratch))
        .text("\n");
    written = written && semihost::write(handle, memory.c_str(), memory.length());
  }
  for (uint32_t i = 0; i < g_runner_npu.count && written; ++i) {
    const NpuRecord& record = g_runner_npu.records[i];
    Line line;
    line.text("npu ").number(record.op).text(" ");
    if (record.region == kPayloadRecord) {
      line.text("payload");
    } else {
      line.number(record.region);
    }
    line.text(" ").number(record.address).text(" ").number(record.bytes).text("\n");
    written = semihost::write(handle, line.c_str(), line.length());
  }
  semihost::close(handle);
  if (!written) {
    error.text("cannot write '").text(profile_path.c_str()).text("'");
    return false;
  }
  return true;
}

// Runs every line of the jobs file at `path` (see the top of this file).
uint32_t run_batch(const char* path, Workspace workspace) {
  Line error;
  int32_t length = 0;
  const int32_t handle = open_for_read("jobs file", path, &length, error);
  if (handle < 0) return fail(error);
  const uint32_t bytes = static_cast<uint32_t>(length);
  if (bytes >= workspace.free_bytes()) {
    semihost::close(handle);
    error.text("jobs file '").text(path).text("' is ").number(bytes).text(" bytes; the runner's workspace holds ")
        .number(workspace.free_bytes());
    return fail(error);
  }
  char* jobs = reinterpret_cast<char*>(workspace.next);
  if (!read_all("jobs file", path, handle, jobs, bytes, error)) return fail(error);
  jobs[bytes] = '\0';
  workspace.next = align_up(workspace.next + bytes + 1, mote::kProgramAlignment);
  for (char* line = jobs; *line != '\0';) {
    char* end = line;
    while (*end != '\0' && *end != '\n') ++end;
    char* const next = *end == '\0' ? end : end + 1;
    *end = '\0';
    const char* words[kMaxWords];
    const uint32_t word_count = split_words(line, words, kMaxWords);
    if (word_count != 0) {
      Line job_error;
      if (!run_job(words, word_count, workspace, job_error)) {
        // The error goes beside the job's outputs; without an output dir, to the console.
        Line error_path;
        if (word_count >= 2) error_path.text(words[1]).text("/error.txt");
        Line unused;
        if (word_count < 2 || !write_file(error_path.c_str(), job_error.c_str(), job_error.length(), unused)) {
          return fail(job_error);
        }
      }
    }
    line = next;
  }
  return 0;
}

uint32_t run_command_line() {
  Line error;
  const int32_t command_length = semihost::get_cmdline(g_command_line, sizeof(g_command_line));
  if (command_length < 0) {
    error.text("cannot read the semihosting command line (at most ")
        .number(sizeof(g_command_line) - 1)
        .text(" bytes)");
    return fail(error);
  }
  const char* words[kMaxWords];
  const uint32_t word_count = split_words(g_command_line, words, kMaxWords);
  const Workspace workspace{align_up(__workspace_start, mote::kProgramAlignment), __workspace_end};
  if (word_count == 1 && words[0][0] == '@') return run_batch(words[0] + 1, workspace);
  if (!run_job(words, word_count, workspace, error)) return fail(error);
  return 0;
}

}  // namespace

int main() { return static_cast<int>(run_command_line()); }
