// ir::Op: every op has one distinct snake_case name, and mote_ops.md (the spec of the
// Mote ops) has a table row for each, and a row only for ops that exist.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "ir/ops.h"

namespace mote {
namespace ops_test {

std::set<std::string> op_names() {
  std::set<std::string> names;
  for (size_t i = 0; i < ir::kOpCount; ++i) names.insert(ir::op_name(static_cast<ir::Op>(i)));
  return names;
}

// The op names in the first column of mote_ops.md's table ("add, sub, mul, div" lists
// several).
std::set<std::string> documented_ops() {
  std::ifstream file(std::string(MOTE_SOURCE_DIR) + "/compiler/ir/mote_ops.md");
  EXPECT_TRUE(file.good()) << "compiler/ir/mote_ops.md";
  std::set<std::string> names;
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("| ", 0) != 0) continue;
    const std::string cell = line.substr(2, line.find(" |", 2) - 2);
    if (cell == "op" || cell.find("---") != std::string::npos) continue;
    std::istringstream list(cell);
    for (std::string name; std::getline(list >> std::ws, name, ',');) names.insert(name);
  }
  return names;
}

TEST(Ops, NamesAreDistinctAndSnakeCase) {
  EXPECT_EQ(op_names().size(), ir::kOpCount);
  for (const std::string& name : op_names()) {
    EXPECT_FALSE(name.empty());
    for (char c : name) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') << name;
  }
  std::ostringstream printed;
  printed << ir::Op::kDepthwiseConv2d;
  EXPECT_EQ(printed.str(), "depthwise_conv2d");
}

TEST(Ops, MoteOpsMdSpecifiesExactlyTheOps) { EXPECT_EQ(documented_ops(), op_names()); }

}  // namespace ops_test
}  // namespace mote
