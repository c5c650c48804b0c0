// The operator coverage `mote compile --list-ops` prints (lower/coverage.h): every kernel
// of the registry runs a Mote op by its name, the dtypes read from kernel names, and a
// known operator's line.
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "import/onnx/onnx_importer.h"
#include "import/tflite/tflite_importer.h"
#include "kernel_registry.h"
#include "lower/coverage.h"
#include "lower/lower.h"

namespace mote::lower {
namespace coverage_test {

TEST(CoverageRules, EveryKernelRunsAMoteOp) {
  for (uint32_t i = 1; i < kKernelCount; ++i) {
    const auto id = static_cast<KernelId>(i);
    const std::optional<ir::Op> op = kernel_op(id);
    ASSERT_TRUE(op.has_value()) << kernel_name(id) << " starts with no Mote op's name";
    const std::vector<KernelId> kernels = kernels_of(*op);
    EXPECT_NE(std::find(kernels.begin(), kernels.end(), id), kernels.end()) << kernel_name(id);
    // A variant runs its reference's op.
    EXPECT_EQ(kernel_op(kernel_reference(id)), op) << kernel_name(id);
  }
}

TEST(CoverageRules, LongestOpNameWinsAndAliases) {
  EXPECT_EQ(kernel_op(KernelId::kTransposeConvS16), ir::Op::kTransposeConv);
  EXPECT_EQ(kernel_op(KernelId::kTranspose), ir::Op::kTranspose);
  EXPECT_EQ(kernel_op(KernelId::kDepthwiseConv2dS8), ir::Op::kDepthwiseConv2d);
  EXPECT_EQ(kernel_op(KernelId::kRequantizeU8S8), ir::Op::kQuantize);
  EXPECT_EQ(kernel_op(KernelId::kDequantizeS8F32), ir::Op::kDequantize);
  EXPECT_EQ(kernels_of(ir::Op::kReshape), kernels_of(ir::Op::kCopy));
}

TEST(CoverageRules, DtypesFromKernelNames) {
  EXPECT_EQ(kernel_dtypes(KernelId::kConv2dF32), "float32");
  EXPECT_EQ(kernel_dtypes(KernelId::kConv2dS81x1Dsp), "int8");
  EXPECT_EQ(kernel_dtypes(KernelId::kConv2dS16), "int16");
  EXPECT_EQ(kernel_dtypes(KernelId::kRequantizeU8S8), "uint8->int8");
  EXPECT_EQ(kernel_dtypes(KernelId::kQuantizeF32S16), "float32->int16");
  EXPECT_EQ(kernel_dtypes(KernelId::kTranspose), "any");
}

TEST(CoverageRules, ConvolutionLine) {
  const Coverage c = coverage_of({ir::Op::kConv2d});
  EXPECT_EQ(c.dtypes, (std::vector<std::string>{"float32", "int8", "int16"}));
  EXPECT_EQ(c.optimized, (std::vector<std::string>{"dsp: int8 int16 (cortex-m4 cortex-m7 cortex-m33 cortex-m55)",
                                                   "mve: float32 int8 int16 (cortex-m55)", "v6m: int8 int16 (cortex-m0plus)",
                                                   "fpu: float32 (cortex-m4 cortex-m7 cortex-m33 cortex-m55)"}));
  EXPECT_EQ(coverage_line("CONV_2D", c),
            "  CONV_2D                       float32 int8 int16            dsp: int8 int16 (cortex-m4 cortex-m7 "
            "cortex-m33 cortex-m55); mve: float32 int8 int16 (cortex-m55); v6m: int8 int16 (cortex-m0plus); fpu: float32 "
            "(cortex-m4 cortex-m7 cortex-m33 cortex-m55)");
  // A reshape an operator adds does not make it "any".
  EXPECT_EQ(coverage_of({ir::Op::kSoftmax, ir::Op::kReshape}).dtypes,
            (std::vector<std::string>{"float32", "int8", "int8->int16", "int16"}));
  EXPECT_EQ(coverage_of({ir::Op::kPad}).dtypes, (std::vector<std::string>{"any"}));
}

// An operator's `takes` narrows its line to dtypes its ops' kernels run: each must be a
// kernel's dtypes (or a kernel of any dtype runs it), so the table never claims a kernel
// that does not exist.
TEST(CoverageRules, TakesOnlyWhatKernelsRun) {
  size_t narrowed = 0;
  for (const TfliteOperator& op : tflite_operators()) {
    if (op.takes.empty()) continue;
    ++narrowed;
    std::vector<std::string> runs;
    for (ir::Op mote_op : op.becomes)
      for (KernelId id : kernels_of(mote_op)) runs.push_back(kernel_dtypes(id));
    const bool any = std::find(runs.begin(), runs.end(), "any") != runs.end();
    for (const std::string& dtype : op.takes)
      EXPECT_TRUE(any || std::find(runs.begin(), runs.end(), dtype) != runs.end()) << op.name << " takes " << dtype;
    EXPECT_EQ(coverage_of(op.becomes, op.takes).dtypes, op.takes) << op.name;
  }
  EXPECT_GE(narrowed, 15u);
  // COS runs on the unary op, whose kernels also take int8 and int16 (ABS): its line says
  // float32, and no optimized variant of another dtype.
  const Coverage cos = coverage_of({ir::Op::kUnary}, {"float32"});
  EXPECT_EQ(cos.dtypes, std::vector<std::string>{"float32"});
  EXPECT_TRUE(cos.optimized.empty());
  // Narrowed to int16, CONV_2D lists its int16 variants only (none of the int8 ones).
  EXPECT_EQ(coverage_of({ir::Op::kConv2d}, {"int16"}).optimized,
            (std::vector<std::string>{"dsp: int16 (cortex-m4 cortex-m7 cortex-m33 cortex-m55)", "mve: int16 (cortex-m55)",
                                      "v6m: int16 (cortex-m0plus)"}));
}

// Each ONNX operator that runs on the unary op lists int8 and int16 exactly when lowering
// picks an integer kernel for the function its conversion emits (Abs: ABS's; Exp, Floor,
// Sign, ...: none, so float32 only, though the unary op has int8 kernels).
TEST(CoverageRules, OnnxUnaryOperatorsListWhatTheirFunctionLowersTo) {
  size_t checked = 0;
  for (const OnnxOperator& op : onnx_operators()) {
    if (op.becomes.empty() || op.becomes.front() != ir::Op::kUnary) continue;
    // The function: legalize the operator alone on a float32 [4].
    onnx_import::SourceGraph source;
    source.name = "m";
    for (const char* name : {"x", "y"}) {
      ir::Tensor t;
      t.name = name;
      t.shape = {4};
      source.add_tensor(std::move(t));
    }
    source.inputs = {0};
    source.outputs = {1};
    onnx_import::SourceNode node;
    node.name = op.name;
    node.op = op.name;
    node.inputs = {0};
    node.outputs = {1};
    source.nodes.push_back(node);
    std::string fn;
    try {
      for (const ir::Node& n : onnx_import::legalize(source).nodes)
        if (n.op == ir::Op::kUnary && n.outputs[0] == 1) fn = n.get_string("fn");
    } catch (const CompileError&) {
      continue;  // takes more than one input (ReduceL1, Pow ...): not a plain unary function
    }
    if (fn.empty()) continue;
    ++checked;
    const Coverage coverage = coverage_of(op.becomes, op.takes);
    for (const DType dtype : {DType::kInt8, DType::kInt16}) {
      ir::Graph g;
      for (const char* name : {"x", "y"}) {
        ir::Tensor t;
        t.name = name;
        t.dtype = dtype;
        t.shape = {4};
        t.quant.scales = {0.05f};
        t.quant.zero_points = {0};
        g.add_tensor(std::move(t));
      }
      ir::Node unary;
      unary.name = op.name;
      unary.op = ir::Op::kUnary;
      unary.inputs = {0};
      unary.outputs = {1};
      unary.attrs["fn"] = fn;
      g.nodes.push_back(unary);
      bool lowers = true;
      try {
        lower_node(g, g.nodes[0], Target::kHost);
      } catch (const CompileError&) {
        lowers = false;
      }
      const std::string name = ir::dtype_name(dtype);
      const bool listed = std::find(coverage.dtypes.begin(), coverage.dtypes.end(), name) != coverage.dtypes.end();
      EXPECT_EQ(listed, lowers) << op.name << " (fn " << fn << ") " << name;
    }
  }
  EXPECT_GE(checked, 10u);
}

}  // namespace coverage_test
}  // namespace mote::lower
