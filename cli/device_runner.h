// Runs a Mote program on an emulated Cortex-M core: QEMU (qemu-system-arm) boots the
// runner firmware for that core (platforms/cortex_m/runner), which reads the program
// and inputs from the host through semihosting, runs it once and writes back the
// outputs and a per-op instruction count.
//
// Firmware is looked up in $MOTE_FIRMWARE_DIR when set, else in the build's firmware
// directory (compile definition MOTE_FIRMWARE_DIR, ${CMAKE_BINARY_DIR}/firmware).
// QEMU runs with `-icount shift=0`, so instruction counts are exact to one SysTick
// tick (40 instructions on mps2 machines, 50 on mps2-an505, 31.25 on mps3-an547) and
// identical from run to run. A run is killed after $MOTE_QEMU_TIMEOUT seconds
// (default 300).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/loaded_program.h"

namespace mote {

// What an NPU op of run 0 handed the runner's NPU driver (device addresses): its payload
// (region -1) or one region.
struct DeviceNpuRegion {
  uint32_t op = 0;
  int32_t region = 0;
  uint64_t address = 0;
  uint32_t bytes = 0;
};

struct DeviceRunResult {
  std::vector<std::vector<uint8_t>> outputs;  // raw bytes of each graph output, in order
  // run_sequence_on_device: the outputs of runs 1, 2, ... (outputs holds run 0's).
  std::vector<std::vector<std::vector<uint8_t>>> later_outputs;
  std::vector<uint64_t> op_instructions;      // executed instructions per op of run 0
  uint64_t total_instructions = 0;            // the whole run() call (run 0)
  uint32_t arena_given_bytes = 0;             // the arena the runner passed to load()
  uint32_t arena_used_bytes = 0;              // its high-water mark after the run
  uint32_t stack_used_bytes = 0;              // stack the first run used (painted; interrupts too)
  // Programs with NPU ops: where the runner placed the program, the arena and the NPU's
  // fast scratch (device addresses), and every payload and region of run 0's invokes.
  uint64_t program_address = 0, arena_address = 0, fast_scratch_address = 0;
  std::vector<DeviceNpuRegion> npu_regions;
};

// The devices run_on_device() accepts: "qemu-cortex-m0plus", "qemu-cortex-m3",
// "qemu-cortex-m4", "qemu-cortex-m7", "qemu-cortex-m33", "qemu-cortex-m55".
std::vector<std::string> device_names();

// Runs the program file at `program_path` with `inputs` (raw little-endian bytes per
// graph input, each exactly the input tensor's size) and returns `output_count`
// outputs. Throws std::runtime_error with a one-line message on any failure: unknown
// device, firmware not built, QEMU missing, timeout, a fault of the emulated core, or
// the runner's own error (e.g. a program that fails to load), which is forwarded.
// `loop_limit` bounds the loop iterations of each run (Interpreter::set_loop_limit; 0: none).
DeviceRunResult run_on_device(const std::string& device, const std::string& program_path,
                              const std::vector<std::vector<uint8_t>>& inputs,
                              uint32_t output_count, uint32_t loop_limit = LoadedProgram::kDefaultLoopLimit);

// Several runs of the program loaded once, in order (a stateful program's state carries
// from one to the next, as on a device): runs[r] holds run r's inputs. The profile and
// arena figures are run 0's.
DeviceRunResult run_sequence_on_device(const std::string& device, const std::string& program_path,
                                       const std::vector<std::vector<std::vector<uint8_t>>>& runs,
                                       uint32_t output_count,
                                       uint32_t loop_limit = LoadedProgram::kDefaultLoopLimit);

// One program of a batch (run_jobs_on_device): its runs as run_sequence_on_device takes
// them.
struct DeviceJob {
  std::string program_path;
  std::vector<std::vector<std::vector<uint8_t>>> runs;
  uint32_t output_count = 0;
  uint32_t loop_limit = LoadedProgram::kDefaultLoopLimit;
};

struct DeviceJobResult {
  std::string error;  // "" when the job ran; else the message run_sequence_on_device throws
  DeviceRunResult result;
};

// Runs every job in one QEMU session (the runner's batch mode), each with a freshly
// loaded program, workspace and arena, as run_sequence_on_device would run it alone:
// starting QEMU costs more than most one-operator programs take to run. A job the session
// does not finish (the core faulted in it, or the session ran out of time) is run alone
// again, so every failure is named as run_sequence_on_device names it. Throws only for
// what fails the whole batch (unknown device, firmware or QEMU missing).
std::vector<DeviceJobResult> run_jobs_on_device(const std::string& device, const std::vector<DeviceJob>& jobs);

}  // namespace mote
