// ADD, SUB and MUL on int32 tensors (no quantization) as TensorFlow Lite Micro runs them
// (add.cc, sub.cc, mul_common.cc over reference_ops): the sum, difference or product in
// two's complement (what a Cortex-M's ADD/SUB/MUL give where TFLite's C++ overflows),
// clamped to the fused activation's integer range (CalculateActivationRange: RELU [0, max],
// RELU6 [0, 6], RELU_N1_TO_1 [-1, 1]) for SUB and MUL; TFLM's ADD sets the whole int32
// range and ignores the activation. Broadcast and constant operands (quantized int32
// operands: add_sub_mul_test.cc). Oracles in 64 bits here; host and emulated cores.
#include <algorithm>
#include <cstdint>

#include "ops/op_test.h"

namespace mote::testing {
namespace add_sub_mul_int32_test {

using B = fb::BuiltinOperator;
using fb::ActivationFunctionType;
using fb::TensorType;

ModelSpec model(B code, ActivationFunctionType act, std::vector<int32_t> b_shape, std::vector<int32_t> b_data = {}) {
  std::vector<TensorSpec> tensors = {TensorSpec("a", {2, 3}, TensorType::INT32),
                                     TensorSpec("b", std::move(b_shape), TensorType::INT32, bytes_of(b_data)),
                                     TensorSpec("y", {2, 3}, TensorType::INT32)};
  fb::BuiltinOptions type = fb::BuiltinOptions::AddOptions;
  OptionsFn options = [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateAddOptions(b, act).Union(); };
  if (code == B::SUB) {
    type = fb::BuiltinOptions::SubOptions;
    options = [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateSubOptions(b, act).Union(); };
  } else if (code == B::MUL) {
    type = fb::BuiltinOptions::MulOptions;
    options = [act](flatbuffers::FlatBufferBuilder& b) { return fb::CreateMulOptions(b, act).Union(); };
  }
  return single_op_model(std::move(tensors), op_code(code), {0, 1}, {2}, type, options);
}

int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

int32_t reference(B code, ActivationFunctionType act, int32_t a, int32_t b) {
  const int64_t exact = code == B::ADD ? int64_t{a} + b : code == B::SUB ? int64_t{a} - b : int64_t{a} * b;
  int32_t lo = INT32_MIN, hi = INT32_MAX;
  if (code != B::ADD) {
    if (act == ActivationFunctionType::RELU) lo = 0;
    if (act == ActivationFunctionType::RELU6) lo = 0, hi = 6;
    if (act == ActivationFunctionType::RELU_N1_TO_1) lo = -1, hi = 1;
  }
  return std::clamp(wrap32(exact), lo, hi);
}

const std::vector<std::vector<int32_t>> kA = {{INT32_MIN, INT32_MAX, -1, 0, 1, 65536},
                                              {5, -7, 3, 100000, -100000, 2},
                                              {INT32_MAX, INT32_MIN, 46341, -46341, 6, -1}};

TEST(AddSubMulInt32, EveryActivationBroadcastAndWrap) {
  const std::vector<int32_t> b = {INT32_MIN, -1, 46341};  // broadcast along the rows
  for (B code : {B::ADD, B::SUB, B::MUL}) {
    for (ActivationFunctionType act : {ActivationFunctionType::NONE, ActivationFunctionType::RELU,
                                       ActivationFunctionType::RELU6, ActivationFunctionType::RELU_N1_TO_1}) {
      std::vector<OpSample> computed, constant;
      for (const std::vector<int32_t>& a : kA) {
        std::vector<int32_t> y(6);
        for (size_t i = 0; i < 6; ++i) y[i] = reference(code, act, a[i], b[i % 3]);
        computed.push_back({{bytes_of(a), bytes_of(b)}, {bytes_of(y)}});
        constant.push_back({{bytes_of(a)}, {bytes_of(y)}});
      }
      const std::string name = std::string(fb::EnumNameBuiltinOperator(code)) + "_s32_" +
                               fb::EnumNameActivationFunctionType(act);
      expect_op_outputs(name, model(code, act, {3}), computed);
      expect_op_outputs(name + "_constant", model(code, act, {3}, b), constant);
    }
  }
}

}  // namespace add_sub_mul_int32_test
}  // namespace mote::testing
