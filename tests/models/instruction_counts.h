// The committed instruction counts, tests/models/instruction_counts.txt: instructions
// executed by one inference (sample s0) under QEMU, per model and core, as `mote run
// --device qemu-<core> --json` reports them. QEMU's counts are deterministic (-icount with
// SysTick), so the QEMU model tests check each run they make against its row: a count
// more than 1% above the row fails (a slowdown), and so does one more than 1% below (a
// speed-up must update the row in the same commit, so the next slowdown is measured from
// the new figure). `python3 tools/benchmark.py --update-table` regenerates the rows.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace mote::testing {

// The cores every counted model runs on (their `--target` names).
inline const char* const kCountedCores[] = {"cortex-m0plus", "cortex-m3", "cortex-m4",
                                            "cortex-m7",     "cortex-m33", "cortex-m55"};

// An ONNX model quantized (`--quantize int8 --calibration <model>.calib.npy`) for a
// core and counted there (qemu_ptq_model_test.cc); its table name is "<model>_int8".
struct QuantizedRun {
  const char* model;
  const char* target;
  std::string table_name() const { return std::string(model) + "_int8"; }
};

inline void PrintTo(const QuantizedRun& r, std::ostream* os) { *os << r.table_name() << " on " << r.target; }

// MobileNetV2 0.05 on every counted core, LeNet-5 on the M0+.
inline const std::vector<QuantizedRun>& quantized_counted_runs() {
  static const std::vector<QuantizedRun> runs = [] {
    std::vector<QuantizedRun> all;
    for (const char* core : kCountedCores) all.push_back({"mobilenet_v2_w005_96", core});
    all.push_back({"lenet5_28", "cortex-m0plus"});
    return all;
  }();
  return runs;
}

inline std::string instruction_count_table_path() {
  return std::string(MOTE_SOURCE_DIR) + "/tests/models/instruction_counts.txt";
}

// (model, core) -> instructions, from the table; a malformed line fails the test that
// reads it.
inline std::map<std::pair<std::string, std::string>, uint64_t> instruction_count_table() {
  std::map<std::pair<std::string, std::string>, uint64_t> table;
  std::ifstream in(instruction_count_table_path());
  EXPECT_TRUE(in.good()) << instruction_count_table_path() << ": cannot open";
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string model, core, extra;
    uint64_t instructions = 0;
    const bool ok = static_cast<bool>(fields >> model >> core >> instructions) && !(fields >> extra);
    EXPECT_TRUE(ok && instructions > 0) << instruction_count_table_path() << ":" << number
                                        << ": expected 'model core instructions', got '" << line << "'";
    EXPECT_TRUE(table.emplace(std::make_pair(model, core), instructions).second)
        << instruction_count_table_path() << ":" << number << ": " << model << " on " << core << " twice";
  }
  return table;
}

// Fails unless `measured` is within 1% of the table's row for (model, core).
inline void expect_instruction_count(const std::string& model, const std::string& core, uint64_t measured) {
  static const auto table = instruction_count_table();
  const auto row = table.find({model, core});
  ASSERT_NE(row, table.end()) << model << " on " << core << ": no row in " << instruction_count_table_path()
                              << " (measured " << measured << "; add it with python3 tools/benchmark.py "
                              << "--update-table)";
  const uint64_t expected = row->second;
  const double change = (static_cast<double>(measured) - static_cast<double>(expected)) / static_cast<double>(expected);
  EXPECT_LE(change, 0.01) << model << " on " << core << ": " << measured << " instructions, " << expected
                          << " in the table: " << 100 * change << "% more";
  EXPECT_GE(change, -0.01) << model << " on " << core << ": " << measured << " instructions, " << expected
                           << " in the table: " << -100 * change << "% fewer; update the table in this commit "
                           << "(python3 tools/benchmark.py --update-table)";
  ::testing::Test::RecordProperty("instructions", std::to_string(measured));
}

}  // namespace mote::testing
