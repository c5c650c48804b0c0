// `mote init-firmware` (cli/init_firmware.h): the memory-map parsing, the QEMU machine
// choice, the files written for a plan, and every refusal of the command: one line on
// stderr, a non-zero exit and nothing written. Building and running the projects is
// tests/firmware/check_init_firmware.py's (label firmware).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "init_firmware.h"
#include "npy.h"
#include "test_util.h"

namespace mote::testing {
namespace {

namespace fs = std::filesystem;

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::map<std::string, std::string> by_name(const std::vector<GeneratedFile>& files) {
  std::map<std::string, std::string> map;
  for (const GeneratedFile& f : files) map[f.name] = f.text;
  return map;
}

FirmwareProject m33_plan() {
  FirmwareProject p;
  p.name = "app";
  p.target = Target::kCortexM33;
  p.flash = parse_region("0x10000000:2MiB", "--flash");
  p.ram = parse_region("0x38000000:512KiB", "--ram");
  p.flash_text = "0x10000000:2MiB";
  p.ram_text = "0x38000000:512KiB";
  p.stack_bytes = 8192;
  p.mote_from = "sources";
  return p;
}

TEST(InitFirmware, ParsesRegions) {
  const MemoryRegion a = parse_region("0x10000000:2MiB", "--flash");
  EXPECT_EQ(a.origin, 0x10000000u);
  EXPECT_EQ(a.length, 2u << 20);
  const MemoryRegion b = parse_region("536870912:264K", "--ram");
  EXPECT_EQ(b.origin, 0x20000000u);
  EXPECT_EQ(b.length, 264u * 1024);
  EXPECT_EQ(parse_region("0:4096", "--ram").length, 4096u);
  for (const char* bad : {"0x10000000", ":2MiB", "0x1000:", "zz:2MiB", "0x0:2GB", "0x0:0", "-1:4K",
                          "0xFFFFF000:8K", "0x0:99999999999M"}) {
    try {
      parse_region(bad, "--flash");
      ADD_FAILURE() << bad << " accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("--flash '") + bad + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(InitFirmware, PicksTheQemuMachineWhoseMemoryHoldsTheMap) {
  std::string why;
  const auto region = [](const char* text) { return parse_region(text, "--flash"); };
  EXPECT_EQ(qemu_machine_for(Target::kCortexM33, region("0x10000000:2MiB"), region("0x38000000:512KiB"), &why).machine,
            "mps2-an505");
  const QemuFit m55 = qemu_machine_for(Target::kCortexM55, region("0x0:512KiB"), region("0x20000000:512KiB"), &why);
  EXPECT_EQ(m55.machine, "mps3-an547");
  EXPECT_EQ(m55.clock_hz, 32000000u);
  EXPECT_EQ(qemu_machine_for(Target::kCortexM0Plus, region("0x0:2MiB"), region("0x20000000:264KiB"), &why).machine,
            "mps2-an385");
  // The RP2040's XIP flash at 0x10000000: no QEMU machine for an M0+ boots there.
  EXPECT_EQ(qemu_machine_for(Target::kCortexM0Plus, region("0x10000000:2MiB"), region("0x20000000:264KiB"), &why).machine,
            "");
  EXPECT_NE(why.find("boots from 0x00000000"), std::string::npos) << why;
  // RAM past the machine's memory.
  EXPECT_EQ(qemu_machine_for(Target::kCortexM55, region("0x0:512KiB"), region("0x20000000:1MiB"), &why).machine, "");
  EXPECT_NE(why.find("RAM region"), std::string::npos) << why;
}

TEST(InitFirmware, WritesTheMemoryMapAndFillsEveryPlaceholder) {
  FirmwareProject p = m33_plan();
  p.model = "kws_ref_model";
  p.sample_inputs = {{1, 2, 3}};
  p.qemu = {"mps2-an505", 20000000};
  const auto files = by_name(firmware_project_files(p));
  for (const char* name : {"CMakeLists.txt", "README.md", "cmake/toolchain.cmake", "board/memory.ld", "board/sections.ld",
                           "board/startup.c", "board/console.c", "board/print.c", "board/instruction_counter.c",
                           "board/cycle_counter.c", "main.c", "sample_input.c", "sample_input.h"})
    EXPECT_EQ(files.count(name), 1u) << name;
  EXPECT_EQ(files.count("main_model.c") + files.count("main_board.c"), 0u);
  const std::string& ld = files.at("board/memory.ld");
  EXPECT_NE(ld.find("FLASH (rx) : ORIGIN = 0x10000000, LENGTH = 2M"), std::string::npos) << ld;
  EXPECT_NE(ld.find("RAM (rwx)  : ORIGIN = 0x38000000, LENGTH = 512K"), std::string::npos) << ld;
  EXPECT_NE(ld.find("STACK_SIZE = 8192;"), std::string::npos) << ld;
  EXPECT_NE(files.at("board/sections.ld").find(".mote_arena (NOLOAD)"), std::string::npos);
  EXPECT_NE(files.at("main.c").find("KWS_REF_MODEL_ARENA_BYTES"), std::string::npos);
  EXPECT_NE(files.at("main.c").find("kws_ref_model_kernels()"), std::string::npos);
  EXPECT_NE(files.at("cmake/toolchain.cmake").find("-mcpu=cortex-m33 -mfpu=fpv5-sp-d16 -mfloat-abi=hard"),
            std::string::npos);
  EXPECT_NE(files.at("CMakeLists.txt").find("LANGUAGES C CXX"), std::string::npos);
  EXPECT_NE(files.at("CMakeLists.txt").find("BOARD_QEMU_CLOCK_HZ=20000000u"), std::string::npos);
  EXPECT_NE(files.at("sample_input.c").find("sample_input_count = 1u"), std::string::npos);
  for (const auto& [name, text] : files) {
    for (size_t at = text.find('@'); at != std::string::npos; at = text.find('@', at + 1)) {
      const size_t end = text.find('@', at + 1);
      if (end == std::string::npos) break;
      const std::string inner = text.substr(at + 1, end - at - 1);
      EXPECT_FALSE(!inner.empty() && inner.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == std::string::npos)
          << name << ": @" << inner << "@";
    }
  }
}

TEST(InitFirmware, WithoutAModelWritesTheBringUpMainAndNeedsNoCxx) {
  FirmwareProject p = m33_plan();
  const auto files = by_name(firmware_project_files(p));
  EXPECT_NE(files.at("main.c").find("board bring-up"), std::string::npos);
  EXPECT_EQ(files.count("sample_input.c"), 0u);
  EXPECT_NE(files.at("CMakeLists.txt").find("LANGUAGES C)"), std::string::npos);
  EXPECT_NE(files.at("CMakeLists.txt").find("QEMU_MACHINE \"\""), std::string::npos);  // no machine given
  p.model = "m";
  p.mote_from = "package";  // the installed libraries link into a C-only project
  EXPECT_NE(by_name(firmware_project_files(p)).at("CMakeLists.txt").find("LANGUAGES C)"), std::string::npos);
}

TEST(InitFirmware, RefusesAPlanThatCannotLink) {
  const auto refused = [](FirmwareProject p, const char* fragment) {
    try {
      firmware_project_files(p);
      ADD_FAILURE() << "accepted; expected " << fragment;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  FirmwareProject p = m33_plan();
  p.flash.origin = 0x10000040;
  refused(p, "128-byte aligned");
  p = m33_plan();
  p.ram = p.flash;
  refused(p, "overlap");
  p = m33_plan();
  p.stack_bytes = 100;
  refused(p, "--stack 100");
  p = m33_plan();
  p.stack_bytes = 1u << 20;
  refused(p, "does not fit");
  p = m33_plan();
  p.mote_from = "git";
  refused(p, "--mote-from 'git'");
}

TEST(InitFirmware, ProjectIdentifier) {
  EXPECT_EQ(project_identifier("my-board.v2"), "my_board_v2");
  EXPECT_EQ(project_identifier("2040"), "_2040");
  EXPECT_EQ(project_identifier("--"), "");
}

// The command: each refusal is one line, exit non-zero, and the folder is not created
// (or left as it was).
class InitFirmwareCli : public ::testing::Test {
 protected:
  std::string kws() const { return shared_models() + "/tflite/mlperf_tiny/kws_ref_model"; }
  std::string command(const std::string& dir, const std::string& extra) const {
    return "init-firmware " + quote(dir) + " --target cortex-m33 " + extra;
  }
  void expect_refused(const std::string& args, const std::string& fragment, const std::string& dir) {
    const CommandResult r = run_mote(args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << "missing '" << fragment << "' in: " << r.err;
    EXPECT_FALSE(fs::exists(dir)) << dir << " written by: " << args;
  }
  TempDir dir_;
};

TEST_F(InitFirmwareCli, RefusesBadInputWithOneLineAndWritesNothing) {
  const std::string out = dir_.file("fw");
  const std::string map = "--flash 0x10000000:2MiB --ram 0x38000000:512KiB";
  expect_refused(command(out, "--flash 0x10000000 --ram 0x38000000:512KiB"), "--flash '0x10000000'", out);
  expect_refused(command(out, "--flash 0x10000000:2MiB --ram 0x10000000:512KiB"), "overlap", out);
  expect_refused("init-firmware " + quote(out) + " --target host " + map, "--target host", out);
  expect_refused("init-firmware " + quote(out) + " --target cortex-m9 " + map, "unknown target 'cortex-m9'", out);
  expect_refused(command(out, map + " --stack 3"), "--stack 3", out);
  expect_refused(command(out, map + " --input " + quote(kws() + ".s0.in0.npy")), "--input: give --model", out);
  expect_refused(command(out, map + " --name 'a b'"), "--name 'a b'", out);
  expect_refused("init-firmware --target cortex-m33 " + map, "give the folder to write, -o DIR", out);
  expect_refused(command(out, map + " -o " + quote(dir_.file("other"))), "two folders given", out);
  // The model's arena (15,680 B) and an 8 KiB stack do not fit in 16 KiB of RAM.
  expect_refused(command(out, "--flash 0x10000000:2MiB --ram 0x38000000:16KiB --model " + quote(kws() + ".tflite")),
                 "the arena (15,680) and the stack (8,192) need 23,872", out);
  expect_refused(command(out, "--flash 0x10000000:32KiB --ram 0x38000000:512KiB --model " + quote(kws() + ".tflite")),
                 "the program alone has", out);
  // An input of the wrong shape for the model.
  NpyArray wrong{DType::kInt8, {1, 10}, std::vector<uint8_t>(10)};
  write_npy(dir_.file("wrong.npy"), wrong);
  expect_refused(command(out, map + " --model " + quote(kws() + ".tflite") + " --input " + quote(dir_.file("wrong.npy"))),
                 "input 0 expects int8 [1,49,10,1], got int8 [1,10]", out);
  expect_refused(command(out, map + " --model " + quote(dir_.file("missing.tflite"))), "missing.tflite", out);
}

TEST_F(InitFirmwareCli, RefusesAFolderThatIsNotEmptyUnlessForced) {
  const std::string out = dir_.file("fw");
  fs::create_directories(out);
  write_npy(out + "/keep.npy", NpyArray{DType::kInt8, {1}, {7}});
  // DESIGN.md's form: -o DIR.
  const std::string args = "init-firmware --target cortex-m33 --flash 0x10000000:2MiB --ram 0x38000000:512KiB -o " + quote(out);
  const CommandResult refused = run_mote(args);
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_EQ(line_count(refused.err), 1) << refused.err;
  EXPECT_NE(refused.err.find("not empty"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(out + "/CMakeLists.txt"));
  const CommandResult forced = run_mote(args + " --force");
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_TRUE(fs::exists(out + "/CMakeLists.txt"));
  EXPECT_TRUE(fs::exists(out + "/keep.npy"));  // --force keeps what it does not write
  EXPECT_NE(forced.out.find("qemu-system-arm -M mps2-an505"), std::string::npos) << forced.out;
}

TEST_F(InitFirmwareCli, WritesTheModelAndItsSampleInput) {
  const std::string out = dir_.file("fw");
  const CommandResult r = run_mote(command(out, "--flash 0x10000000:2MiB --ram 0x38000000:512KiB --model " +
                                                    quote(kws() + ".tflite") + " --input " + quote(kws() + ".s0.in0.npy")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"model/kws_ref_model.h", "model/kws_ref_model.c", "model/kws_ref_model_kernels.c",
                           "model/kws_ref_model_sources.cmake", "model/mote/mote/mote.h", "sample_input.c", "main.c"})
    EXPECT_TRUE(fs::exists(out + "/" + name)) << name;
  const NpyArray input = read_npy(kws() + ".s0.in0.npy");
  const std::string c = read_text(out + "/sample_input.c");
  EXPECT_NE(c.find("input0[" + std::to_string(input.data.size()) + "]"), std::string::npos);
  EXPECT_NE(c.find("sample_input_bytes[] = { " + std::to_string(input.data.size()) + "u,"), std::string::npos) << c;
}

}  // namespace
}  // namespace mote::testing
