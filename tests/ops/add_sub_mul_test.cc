// ADD, SUB and MUL on int32 tensors (the dtypes float32, int8 and int16 of these ops run
// in the shared models and the kernel tests), as TensorFlow Lite Micro computes them:
// the exact result taken modulo 2^32 (two's complement, what TFLM's int32 expression gives
// on a Cortex-M where it overflows), then TFLM's clamp: SUB and MUL to the fused
// activation's int32 range (CalculateActivationRange), ADD never (TFLM passes the whole
// int32 range whatever the activation). numpy broadcasting up to rank 6, every fused
// activation, on the host and on emulated cores. Quantized int32 tensors as TFLM: ADD
// refuses quantized inputs, SUB quantized inputs and output, MUL reads them raw; refusals
// are one line.
#include <functional>
#include <limits>
#include <random>

#include "ops/broadcast_util.h"
#include "ops/op_test.h"

namespace mote::testing {
namespace add_sub_mul_test {

using fb::ActivationFunctionType;
using fb::TensorType;
using Shape = std::vector<int32_t>;

struct Shapes {
  Shape a, b, y;
};
const std::vector<Shapes> kShapes = {{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}},
                                     {{2, 3, 4}, {4}, {2, 3, 4}},
                                     {{1}, {3, 5}, {3, 5}},
                                     {{2, 1, 3, 1}, {4, 1, 5}, {2, 4, 3, 5}},
                                     {{1, 2, 1, 2, 1, 2}, {2, 1, 2, 1, 2, 1}, {2, 2, 2, 2, 2, 2}}};

const std::vector<ActivationFunctionType> kActivations = {ActivationFunctionType::NONE, ActivationFunctionType::RELU,
                                                          ActivationFunctionType::RELU6,
                                                          ActivationFunctionType::RELU_N1_TO_1};

enum class Kind { kAdd, kSub, kMul };
const char* kind_name(Kind k) { return k == Kind::kAdd ? "add" : k == Kind::kSub ? "sub" : "mul"; }

ModelSpec binary_model(Kind kind, TensorSpec a, TensorSpec b, TensorSpec y, ActivationFunctionType act) {
  std::vector<TensorSpec> t = {std::move(a), std::move(b), std::move(y)};
  switch (kind) {
    case Kind::kAdd:
      return single_op_model(std::move(t), op_code(fb::BuiltinOperator::ADD), {0, 1}, {2},
                             fb::BuiltinOptions::AddOptions,
                             [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateAddOptions(b, act).Union(); });
    case Kind::kSub:
      return single_op_model(std::move(t), op_code(fb::BuiltinOperator::SUB), {0, 1}, {2},
                             fb::BuiltinOptions::SubOptions,
                             [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSubOptions(b, act).Union(); });
    case Kind::kMul:
      break;
  }
  return single_op_model(std::move(t), op_code(fb::BuiltinOperator::MUL), {0, 1}, {2}, fb::BuiltinOptions::MulOptions,
                         [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateMulOptions(b, act).Union(); });
}

// The exact result in int64 (a product of two int32 fits), reduced modulo 2^32.
int32_t tflm_int32(Kind kind, int32_t a, int32_t b) {
  const int64_t exact = kind == Kind::kAdd   ? int64_t{a} + b
                        : kind == Kind::kSub ? int64_t{a} - b
                                             : int64_t{a} * b;
  const uint64_t low = static_cast<uint64_t>(exact) & 0xFFFFFFFFu;
  return low >= 0x80000000u ? static_cast<int32_t>(static_cast<int64_t>(low) - (int64_t{1} << 32))
                            : static_cast<int32_t>(low);
}

// TFLM's bounds: CalculateActivationRange<int32_t> for SUB and MUL, the whole range for ADD.
void tflm_bounds(Kind kind, ActivationFunctionType act, int32_t* lo, int32_t* hi) {
  *lo = std::numeric_limits<int32_t>::min();
  *hi = std::numeric_limits<int32_t>::max();
  if (kind == Kind::kAdd) return;
  if (act == ActivationFunctionType::RELU) *lo = 0;
  if (act == ActivationFunctionType::RELU6) *lo = 0, *hi = 6;
  if (act == ActivationFunctionType::RELU_N1_TO_1) *lo = -1, *hi = 1;
}

void expect_every_case(Kind kind, const std::function<int32_t()>& gen,
                       const std::vector<std::pair<int32_t, int32_t>>& edges) {
  for (ActivationFunctionType act : kActivations) {
    int32_t lo, hi;
    tflm_bounds(kind, act, &lo, &hi);
    for (const Shapes& s : kShapes) {
      std::vector<int32_t> a(elements(s.a)), b(elements(s.b));
      for (int32_t& x : a) x = gen();
      for (int32_t& x : b) x = gen();
      if (s.a == s.b) {
        for (size_t i = 0; i < edges.size(); ++i) a[i] = edges[i].first, b[i] = edges[i].second;
      }
      const auto ia = broadcast_index(s.a, s.y), ib = broadcast_index(s.b, s.y);
      std::vector<int32_t> y(elements(s.y));
      for (size_t i = 0; i < y.size(); ++i) y[i] = std::min(std::max(tflm_int32(kind, a[ia[i]], b[ib[i]]), lo), hi);
      const std::string name = std::string(kind_name(kind)) + "_s32_" + fb::EnumNameActivationFunctionType(act) +
                               "_r" + std::to_string(s.y.size()) + "_" + std::to_string(elements(s.a)) + "x" +
                               std::to_string(elements(s.b));
      expect_op_outputs(name,
                        binary_model(kind, TensorSpec("a", s.a, TensorType::INT32),
                                     TensorSpec("b", s.b, TensorType::INT32), TensorSpec("y", s.y, TensorType::INT32),
                                     act),
                        {{{bytes_of(a), bytes_of(b)}, {bytes_of(y)}}});
    }
  }
}

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
// Wrap-around both ways, the activation bounds' neighbours, zero.
const std::vector<std::pair<int32_t, int32_t>> kEdges = {
    {kMax, 1},  {kMin, -1},   {kMax, kMax}, {kMin, kMin}, {kMin, kMax}, {65536, 65536}, {-65536, 65537},
    {46341, 46341}, {0, -7}, {6, 1}, {-1, 0}, {7, -1}, {1, 0}, {-3, -2}, {3, 2}, {kMax, -1}, {kMin, 1}, {0, 0}};

TEST(AddSubMul, Int32AddWrapsAndIgnoresTheActivation) {
  std::mt19937 rng(160);
  const std::function<int32_t()> gen = [&] { return std::uniform_int_distribution<int32_t>(kMin, kMax)(rng); };
  expect_every_case(Kind::kAdd, gen, kEdges);
}

TEST(AddSubMul, Int32SubWrapsAndClampsToTheActivation) {
  std::mt19937 rng(161);
  const std::function<int32_t()> gen = [&] { return std::uniform_int_distribution<int32_t>(-20, 20)(rng); };
  expect_every_case(Kind::kSub, gen, kEdges);
}

TEST(AddSubMul, Int32MulWrapsAndClampsToTheActivation) {
  std::mt19937 rng(162);
  const std::function<int32_t()> gen = [&] { return std::uniform_int_distribution<int32_t>(-100000, 100000)(rng); };
  expect_every_case(Kind::kMul, gen, kEdges);
}

TEST(AddSubMul, Int32ConstantOperand) {
  const std::vector<int32_t> a = {1, -2, kMax, kMin, 40000, -40000};
  const std::vector<int32_t> c = {70000};
  std::vector<int32_t> y;
  for (int32_t v : a) y.push_back(tflm_int32(Kind::kMul, v, c[0]));
  expect_op_outputs("mul_s32_const",
                    binary_model(Kind::kMul, TensorSpec("a", {6}, TensorType::INT32),
                                 TensorSpec("c", {1}, TensorType::INT32, bytes_of(c)),
                                 TensorSpec("y", {6}, TensorType::INT32), ActivationFunctionType::NONE),
                    {{{bytes_of(a)}, {bytes_of(y)}}});
}

// TFLM's MUL reads int32 tensors raw whatever their quantization (ADD and SUB refuse it).
TEST(AddSubMul, Int32MulIgnoresQuantization) {
  const std::vector<int32_t> a = {3, -4, 100000, kMin};
  const std::vector<int32_t> b = {7, 7, -30000, -1};
  std::vector<int32_t> y;
  for (size_t i = 0; i < a.size(); ++i) y.push_back(std::min(std::max(tflm_int32(Kind::kMul, a[i], b[i]), 0), 6));
  expect_op_outputs("mul_s32_quantized",
                    binary_model(Kind::kMul, quantized("a", {4}, TensorType::INT32, 0.5f, 3),
                                 quantized("b", {4}, TensorType::INT32, 0.25f, 0),
                                 quantized("y", {4}, TensorType::INT32, 2.0f, -1), ActivationFunctionType::RELU6),
                    {{{bytes_of(a), bytes_of(b)}, {bytes_of(y)}}});
}

TEST(AddSubMul, Int32RefusalsAreOneLine) {
  const Shape s = {4};
  EXPECT_EQ(op_error("add_s32_quant", binary_model(Kind::kAdd, quantized("a", s, TensorType::INT32, 0.5f, 0),
                                                   TensorSpec("b", s, TensorType::INT32),
                                                   TensorSpec("y", s, TensorType::INT32), ActivationFunctionType::NONE)),
            "node 'y' (add): input 'a' is a quantized int32 tensor; TensorFlow Lite Micro adds int32 only without "
            "quantization");
  EXPECT_EQ(op_error("sub_s32_quant_out", binary_model(Kind::kSub, TensorSpec("a", s, TensorType::INT32),
                                                       TensorSpec("b", s, TensorType::INT32),
                                                       quantized("y", s, TensorType::INT32, 0.5f, 0),
                                                       ActivationFunctionType::NONE)),
            "node 'y' (sub): output 'y' is a quantized int32 tensor; TensorFlow Lite Micro subtracts int32 only "
            "without quantization");
  EXPECT_EQ(op_error("sub_s32_mixed", binary_model(Kind::kSub, TensorSpec("a", s, TensorType::INT32),
                                                   TensorSpec("b", s, TensorType::INT32), TensorSpec("y", s),
                                                   ActivationFunctionType::NONE)),
            "node 'y' (sub): output 'y' has dtype float32, expected int32");
}

}  // namespace add_sub_mul_test
}  // namespace mote::testing
