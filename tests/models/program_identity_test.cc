// Behaviour unchanged: every line of program_identity.txt (a model of ../shared/models, a
// target and options) compiles to a program with exactly the recorded SHA-256. A refactor
// of the compiler must leave every program byte for byte as it was; a change that alters
// programs updates the table (tools/update_program_identity.sh) in the same commit and
// says why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "emit/c_emitter.h"
#include "refused_models.h"
#include "test_util.h"

namespace mote::testing {
namespace {

struct Entry {
  std::string sha256;
  std::string model;    // relative to ../shared/models
  std::string options;  // .npy values are relative to ../shared/models too
  int line = 0;
};
// What ctest shows after the test's name: the model and its options, not the raw bytes.
void PrintTo(const Entry& e, std::ostream* os) { *os << e.model << (e.options.empty() ? "" : " ") << e.options; }

std::vector<Entry> entries() {
  std::ifstream in(std::string(MOTE_SOURCE_DIR) + "/tests/models/program_identity.txt");
  std::vector<Entry> result;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    Entry e;
    e.line = number;
    words >> e.sha256 >> e.model;
    for (std::string word; words >> word;) {
      if (word.size() > 4 && word.compare(word.size() - 4, 4, ".npy") == 0) word = "'" + shared_models() + "/" + word + "'";
      e.options += " " + word;
    }
    result.push_back(e);
  }
  return result;
}

// Every model of ../shared/models that compiles (all but refused_models.h) on every
// target with default options, plus the option lines; no refused model.
TEST(ProgramIdentity, TableIsComplete) {
  const std::vector<Entry> all = entries();
  EXPECT_GE(all.size(), 256u);
  std::set<std::pair<std::string, std::string>> lines;
  for (const Entry& e : all) {
    EXPECT_EQ(e.sha256.size(), 64u) << "line " << e.line;
    EXPECT_TRUE(std::filesystem::exists(shared_models() + "/" + e.model)) << "line " << e.line << ": " << e.model;
    EXPECT_EQ(refusal_of(e.model), nullptr) << "line " << e.line << ": " << e.model << " is refused";
    lines.insert({e.model, e.options});
  }
  int models = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(shared_models())) {
    const std::string ext = entry.path().extension().string();
    const std::string model = std::filesystem::relative(entry.path(), shared_models()).string();
    if ((ext != ".onnx" && ext != ".tflite") || refusal_of(model) != nullptr) continue;
    ++models;
    const std::string npu = npu_of(model).empty() ? "" : " --npu " + npu_of(model);
    for (const char* target : {"host", "cortex-m0plus", "cortex-m3", "cortex-m4", "cortex-m7", "cortex-m33",
                               "cortex-m55"})
      EXPECT_TRUE(lines.count({model, std::string(" --target ") + target + npu})) << model << " --target " << target;
  }
  // 6 ONNX models and 44 .tflite ones (TfliteImport.EveryModelImportsOrIsRefusedForItsCustomOps).
  EXPECT_EQ(models, 50);
}

class ProgramIdentity : public ::testing::TestWithParam<Entry> {};

TEST_P(ProgramIdentity, SameBytesAsRecorded) {
  const Entry& e = GetParam();
  TempDir dir;
  const std::string program = dir.file("p.mote");
  const CommandResult r =
      run_mote("compile '" + shared_models() + "/" + e.model + "' -o '" + program + "'" + e.options);
  ASSERT_EQ(r.exit_code, 0) << e.model << e.options << ": " << r.err;
  const std::string bytes = read_text(program);
  const std::string sha = sha256_hex(std::vector<uint8_t>(bytes.begin(), bytes.end()));
  EXPECT_EQ(sha, e.sha256) << "program_identity.txt line " << e.line << ": " << e.model << e.options
                           << " compiles to other bytes than recorded";
}

std::string test_name(const ::testing::TestParamInfo<Entry>& info) {
  std::string name = "line" + std::to_string(info.param.line) + "_" + info.param.model;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(SharedModels, ProgramIdentity, ::testing::ValuesIn(entries()), test_name);

}  // namespace
}  // namespace mote::testing
