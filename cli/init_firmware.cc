#include "init_firmware.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "embedded_file.h"

namespace mote {

// cli/firmware_template/ and the counters of platforms/cortex_m (cli/CMakeLists.txt).
extern const EmbeddedFile kFirmwareTemplate[];
extern const unsigned kFirmwareTemplate_count;

namespace {

// The QEMU machines of target/target.cc with what a project needs of them (from
// `info mtree` on QEMU 7.2, ../shared/TARGETS.md): where the core boots (its vector
// table address at reset), the memory it can execute from and write to, and SysTick's
// clock.
struct Machine {
  const char* name;
  uint32_t clock_hz;
  uint64_t boot;
  std::vector<MemoryRegion> memory;
};

const std::vector<Machine>& machines() {
  static const std::vector<Machine> list = {
      {"mps2-an385", 25000000, 0x0, {{0x00000000, 4u << 20}, {0x20000000, 4u << 20}, {0x21000000, 16u << 20}}},
      {"mps2-an386", 25000000, 0x0, {{0x00000000, 4u << 20}, {0x20000000, 4u << 20}, {0x21000000, 16u << 20}}},
      {"mps2-an500", 25000000, 0x0, {{0x00000000, 4u << 20}, {0x20000000, 4u << 20}, {0x60000000, 16u << 20}}},
      // Boots Secure: code at SSRAM1's Secure alias, RAM at SSRAM2/3's.
      {"mps2-an505", 20000000, 0x10000000, {{0x10000000, 4u << 20}, {0x38000000, 4u << 20}, {0x80000000, 16u << 20}}},
      // ITCM, DTCM, SRAM (and its alias), ISRAM, DDR.
      {"mps3-an547", 32000000, 0x0,
       {{0x00000000, 512u << 10}, {0x20000000, 512u << 10}, {0x01000000, 2u << 20}, {0x11000000, 2u << 20},
        {0x21000000, 4u << 20}, {0x60000000, 1ull << 31}}},
  };
  return list;
}

bool inside(const MemoryRegion& region, const std::vector<MemoryRegion>& memory) {
  for (const MemoryRegion& m : memory)
    if (region.origin >= m.origin && region.origin + region.length <= m.origin + m.length) return true;
  return false;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%08llX", static_cast<unsigned long long>(value));
  return text;
}

// A length for the linker script: K or M when exact.
std::string ld_length(uint64_t bytes) {
  if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + "M";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + "K";
  return std::to_string(bytes);
}

// What GCC needs to know of the core: the flags of cmake/toolchains/arm-none-eabi.cmake.
const char* cpu_flags(Target target) {
  switch (target) {
    case Target::kCortexM0Plus: return "-mcpu=cortex-m0plus -mfloat-abi=soft";
    case Target::kCortexM3: return "-mcpu=cortex-m3 -mfloat-abi=soft";
    case Target::kCortexM4: return "-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard";
    case Target::kCortexM7: return "-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard";
    case Target::kCortexM33: return "-mcpu=cortex-m33 -mfpu=fpv5-sp-d16 -mfloat-abi=hard";
    case Target::kCortexM55: return "-mcpu=cortex-m55 -mfloat-abi=hard";
    case Target::kHost: break;
  }
  throw std::runtime_error("init-firmware: --target host: give a Cortex-M core");
}

std::string substitute(const std::string& name, std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [key, value] : values) {
    const std::string token = "@" + key + "@";
    for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + value.size()))
      text.replace(at, token.size(), value);
  }
  // A placeholder nobody filled in is a bug of this file, not of the user's input.
  for (size_t at = text.find('@'); at != std::string::npos; at = text.find('@', at + 1)) {
    size_t end = at + 1;
    while (end < text.size() && (std::isupper(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    if (end > at + 1 && end < text.size() && text[end] == '@')
      throw std::logic_error("init-firmware template " + name + ": " + text.substr(at, end + 1 - at) + " not filled in");
  }
  return text;
}

// sample_input.h/.c: the samples as 16-byte aligned byte arrays.
void add_sample_input(const FirmwareProject& project, std::vector<GeneratedFile>* files) {
  files->push_back({"sample_input.h",
                    "/* The sample inputs main.c runs (written by `mote init-firmware --input`): one array\n"
                    " * per model input, in order; inputs past sample_input_count are zero bytes. */\n"
                    "#ifndef SAMPLE_INPUT_H_\n#define SAMPLE_INPUT_H_\n\n#include <stdint.h>\n\n"
                    "extern const uint32_t sample_input_count;\n"
                    "extern const uint8_t* const sample_inputs[];\n"
                    "extern const uint32_t sample_input_bytes[];\n\n#endif /* SAMPLE_INPUT_H_ */\n"});
  std::string c = "#include \"sample_input.h\"\n\n";
  std::string pointers, sizes;
  for (size_t i = 0; i < project.sample_inputs.size(); ++i) {
    const std::vector<uint8_t>& bytes = project.sample_inputs[i];
    c += "static const uint8_t input" + std::to_string(i) + "[" + std::to_string(bytes.size()) +
         "] __attribute__((aligned(16))) = {";
    for (size_t k = 0; k < bytes.size(); ++k) c += (k % 16 == 0 ? "\n    " : " ") + std::to_string(bytes[k]) + ",";
    c += "\n};\n\n";
    pointers += " input" + std::to_string(i) + ",";
    sizes += " " + std::to_string(bytes.size()) + "u,";
  }
  // An empty initializer list is not C: one unused entry when there are no samples.
  if (project.sample_inputs.empty()) pointers = " 0,", sizes = " 0u,";
  c += "const uint32_t sample_input_count = " + std::to_string(project.sample_inputs.size()) + "u;\n";
  c += "const uint8_t* const sample_inputs[] = {" + pointers + "};\n";
  c += "const uint32_t sample_input_bytes[] = {" + sizes + "};\n";
  files->push_back({"sample_input.c", c});
}

}  // namespace

MemoryRegion parse_region(const std::string& text, const char* option) {
  const auto bad = [&](const std::string& why) {
    return std::runtime_error(std::string(option) + " '" + text + "': " + why);
  };
  const size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    throw bad("expected ORIGIN:SIZE, e.g. 0x10000000:2MiB");
  const std::string origin_text = text.substr(0, colon);
  const std::string size_text = text.substr(colon + 1);
  MemoryRegion region;
  size_t used = 0;
  try {
    region.origin = std::stoull(origin_text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != origin_text.size() || origin_text[0] == '-') throw bad("origin '" + origin_text + "' is not a number");
  size_t digits = 0;
  while (digits < size_text.size() && std::isdigit(static_cast<unsigned char>(size_text[digits]))) ++digits;
  const std::string unit = size_text.substr(digits);
  uint64_t scale = 0;
  if (unit.empty() || unit == "B") scale = 1;
  else if (unit == "K" || unit == "KiB") scale = 1024;
  else if (unit == "M" || unit == "MiB") scale = 1024 * 1024;
  if (digits == 0 || digits > 10 || scale == 0) throw bad("size '" + size_text + "': expected e.g. 2097152, 512KiB or 2MiB");
  region.length = std::stoull(size_text.substr(0, digits)) * scale;
  if (region.length == 0) throw bad("size is zero");
  if (region.origin + region.length > (1ull << 32)) throw bad("ends past the 4 GiB address space");
  return region;
}

QemuFit qemu_machine_for(Target target, const MemoryRegion& flash, const MemoryRegion& ram, std::string* why) {
  const char* name = target_info(target).qemu_machine;
  for (const Machine& machine : machines()) {
    if (name == nullptr || machine.name != std::string(name)) continue;
    if (flash.origin != machine.boot) {
      *why = std::string("QEMU's ") + machine.name + " boots from " + hex(machine.boot) + ", not the flash origin " +
             hex(flash.origin);
      return {};
    }
    if (!inside(flash, machine.memory) || !inside(ram, machine.memory)) {
      *why = std::string("QEMU's ") + machine.name + " has no memory at all of " +
             (inside(flash, machine.memory) ? "the RAM region" : "the flash region");
      return {};
    }
    return {machine.name, machine.clock_hz};
  }
  *why = std::string("no QEMU machine for ") + target_info(target).name;
  return {};
}

void check_firmware_project(const FirmwareProject& p) {
  // The vector table sits at the flash origin, which VTOR must be able to hold (its low
  // 7 bits are zero on every core for the 16 system entries, more with interrupts).
  if (p.flash.origin % 128 != 0)
    throw std::runtime_error("--flash '" + p.flash_text + "': the origin holds the vector table and must be 128-byte aligned");
  if (p.ram.origin % 16 != 0 || p.ram.length % 8 != 0)
    throw std::runtime_error("--ram '" + p.ram_text + "': expected a 16-byte aligned origin and a size that is a multiple of 8");
  if (p.flash.origin < p.ram.origin + p.ram.length && p.ram.origin < p.flash.origin + p.flash.length)
    throw std::runtime_error("--flash '" + p.flash_text + "' and --ram '" + p.ram_text + "' overlap");
  if (p.stack_bytes < 512 || p.stack_bytes % 8 != 0)
    throw std::runtime_error("--stack " + std::to_string(p.stack_bytes) + ": expected at least 512 bytes, a multiple of 8");
  if (p.stack_bytes >= p.ram.length)
    throw std::runtime_error("--stack " + std::to_string(p.stack_bytes) + ": does not fit in --ram '" + p.ram_text + "'");
  if (p.name.empty()) throw std::runtime_error("init-firmware: no project name (give --name)");
  if (p.mote_from != "sources" && p.mote_from != "package")
    throw std::runtime_error("--mote-from '" + p.mote_from + "': expected sources or package");
}

std::string project_identifier(const std::string& text) {
  std::string id;
  for (char c : text) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.find_first_not_of('_') == std::string::npos) return "";
  if (std::isdigit(static_cast<unsigned char>(id[0]))) id = "_" + id;
  return id;
}

std::vector<GeneratedFile> firmware_project_files(const FirmwareProject& p) {
  check_firmware_project(p);
  std::string upper = p.model;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string cpu = target_info(p.target).name;
  const std::map<std::string, std::string> values = {
      {"PROJECT", p.name},
      {"CPU", cpu},
      {"CPU_FLAGS", cpu_flags(p.target)},
      {"FLASH_ARG", p.flash_text},
      {"RAM_ARG", p.ram_text},
      {"FLASH_ORIGIN", hex(p.flash.origin)},
      {"FLASH_LENGTH", ld_length(p.flash.length)},
      {"RAM_ORIGIN", hex(p.ram.origin)},
      {"RAM_LENGTH", ld_length(p.ram.length)},
      {"STACK_SIZE", std::to_string(p.stack_bytes)},
      {"MODEL", p.model},
      {"MODEL_UPPER", upper},
      {"MOTE_FROM", p.mote_from},
      {"MOTE_FROM_TEXT", p.model.empty() ? "nowhere yet (no model)"
                         : p.mote_from == "sources"
                             ? "model/mote: the runtime and exactly the model's kernel sources"
                             : "an installed package built for " + cpu + " (find_package(Mote))"},
      // The kernel sources are C++; the package's libraries link into a C-only project.
      {"LANGUAGES", !p.model.empty() && p.mote_from == "sources" ? "C CXX" : "C"},
      {"QEMU_MACHINE", p.qemu.machine},
      {"QEMU_CLOCK_HZ", std::to_string(p.qemu.clock_hz)},
      {"QEMU_TEXT", p.qemu.machine.empty() ? "no QEMU machine has this memory map, so there is no run target"
                                           : "qemu-system-arm -M " + p.qemu.machine},
  };
  std::vector<GeneratedFile> files;
  for (unsigned i = 0; i < kFirmwareTemplate_count; ++i) {
    std::string name = kFirmwareTemplate[i].name;
    if (name == "main_model.c" || name == "main_board.c") {
      if ((name == "main_model.c") == p.model.empty()) continue;
      name = "main.c";
    }
    files.push_back({name, substitute(name, kFirmwareTemplate[i].text, values)});
  }
  if (!p.model.empty()) add_sample_input(p, &files);
  return files;
}

}  // namespace mote
