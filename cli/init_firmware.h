// `mote init-firmware`: a minimal bare-metal project for one core and memory map that
// builds with CMake and runs under QEMU (cli/firmware_template/ holds its files).
//
// The project (paths relative to its folder):
//   CMakeLists.txt, cmake/toolchain.cmake   the build; Mote from model/mote (sources) or
//                                           find_package(Mote) (package)
//   board/                                  start-up code, semihosting console, printing,
//                                           the SysTick and DWT counters, memory.ld (the
//                                           part's FLASH and RAM) and sections.ld (NOLOAD
//                                           arena and stack)
//   main.c                                  load, run, print outputs, per-op ticks, memory
//   sample_input.c/.h                       the --input samples as C arrays (with a model)
//   model/                                  what `mote compile --emit-c` writes (the CLI
//                                           compiles the model into it)
//   README.md                               how to build, run and adapt it
// This file plans the project; writing it and compiling the model are the CLI's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emit/c_emitter.h"
#include "target/target.h"

namespace mote {

struct MemoryRegion {
  uint64_t origin = 0;
  uint64_t length = 0;
};

// "0x10000000:2MiB" (origin in hex or decimal, size as 2097152, 2048K, 2048KiB, 2M, 2MiB)
// -> region; a one-line error naming `option` for anything else, or a region past 4 GiB.
MemoryRegion parse_region(const std::string& text, const char* option);

// The QEMU machine that runs a project for `target` with this memory: its -M name and
// SysTick clock, or an empty machine and, in *why, the reason none does (the flash must
// start where the machine boots from and both regions must lie in its memory).
struct QemuFit {
  std::string machine;
  uint32_t clock_hz = 0;
};
QemuFit qemu_machine_for(Target target, const MemoryRegion& flash, const MemoryRegion& ram, std::string* why);

struct FirmwareProject {
  std::string name;        // a C identifier: the executable and the names in the files
  Target target = Target::kCortexM4;
  MemoryRegion flash;
  MemoryRegion ram;
  std::string flash_text;  // as given, for the comments
  std::string ram_text;
  uint32_t stack_bytes = 0;
  std::string model;       // the generated files' prefix (model/<model>.h); "" for none
  std::string mote_from;   // "sources" or "package"
  std::vector<std::vector<uint8_t>> sample_inputs;  // per model input; may be empty
  QemuFit qemu;            // empty machine: no run target
};

// Checks the plan: stack size and alignment, region alignment and overlap. Throws
// std::runtime_error with one line.
void check_firmware_project(const FirmwareProject& project);

// Every file of the project but model/ (written by mote compile --emit-c).
std::vector<GeneratedFile> firmware_project_files(const FirmwareProject& project);

// A C identifier from a folder name: other characters become '_', a leading digit gets
// a '_' in front; "" when nothing usable is left.
std::string project_identifier(const std::string& text);

}  // namespace mote
