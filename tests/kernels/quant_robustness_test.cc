// check() guards run(): every integer kernel is given valid ops whose parameter words are
// then overwritten with hostile values (shift extremes, INT32_MIN/MAX, out-of-range zero
// points, ...). Whatever check() accepts must run without reading or writing outside
// its tensors and without undefined behaviour; the sanitizer build of this test
// (-fsanitize=address,undefined) turns any violation into a failure.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <vector>

#include "activation/activation.h"
#include "conv2d/conv2d.h"
#include "depthwise_conv2d/depthwise_conv2d.h"
#include "elementwise/elementwise.h"
#include "fully_connected/fully_connected.h"
#include "kernel_test_util.h"
#include "leaky_relu/leaky_relu.h"
#include "lstm/lstm.h"
#include "mean/mean.h"
#include "pool2d/pool2d.h"
#include "quant_test_util.h"
#include "quantize/quantize.h"
#include "reduce/reduce.h"
#include "softmax/softmax.h"
#include "strided_slice/strided_slice.h"
#include "transpose_conv/transpose_conv.h"

namespace mote {
namespace quant_robustness_test {

using testing::TestOp;

struct Subject {
  const char* name;
  const KernelEntry* entry;
  std::function<void(TestOp*)> build;  // a valid op with data
};

template <typename T>
void fill(TestOp* op, uint32_t t, size_t n, uint32_t seed) {
  op->set_data(t, testing::random_full_range<T>(n, seed));
}

// An int8 LSTM op for lstm_s8 and its variants, with `scratch_bytes` of scratch.
void build_lstm_s8(TestOp* op, uint32_t scratch_bytes) {
  // B 2, T 3, I 4, H 3, batch-major; TFLite's 24 inputs.
  for (int k = 0; k < 24; ++k) {
    if (k == 0) fill<int8_t>(op, op->add_input(DType::kInt8, {2, 3, 4}), 24, 1);
    else if (k <= 4) fill<int8_t>(op, op->add_input(DType::kInt8, {3, 4}), 12, 1 + k);
    else if (k <= 8) fill<int8_t>(op, op->add_input(DType::kInt8, {3, 3}), 9, 1 + k);
    else if (k >= 12 && k <= 15) fill<int32_t>(op, op->add_input(DType::kInt32, {3}), 3, k);
    else if (k == 18) fill<int8_t>(op, op->add_input(DType::kInt8, {2, 3}), 6, 18);
    else if (k == 19) fill<int16_t>(op, op->add_input(DType::kInt16, {2, 3}), 6, 19);
    else op->add_missing_input();
  }
  op->add_output(DType::kInt8, {2, 3, 3});
  op->add_output(DType::kInt8, {2, 3});
  op->add_output(DType::kInt16, {2, 3});
  LstmIntegerParams p{};
  for (int g = 0; g < 4; ++g) p.gate[g] = {1 << 30, -8 + g, 1 << 30, -9 + g, 0, 0};
  p.forget_cell = {1 << 30, 0};
  p.input_cell = {1 << 30, -3};
  p.hidden = {1 << 30, -7};
  p.input_zero_point = -128;
  p.hidden_zero_point = 5;
  p.cell_tanh_multiplier = 3;
  p.cell_tanh_shift = 0;
  p.cell_clip = 20000;
  p.cell_clip_enabled = 1;
  op->set_params(p);
  op->add_scratch(scratch_bytes);
}

std::vector<Subject> subjects() {
  std::vector<Subject> s;
  s.push_back({"conv2d_s8", &kConv2dS8Entry, [](TestOp* op) {
                 fill<int8_t>(op, op->add_input(DType::kInt8, {1, 5, 5, 4}), 100, 1);
                 fill<int8_t>(op, op->add_input(DType::kInt8, {4, 3, 3, 2}), 72, 2);
                 fill<int32_t>(op, op->add_input(DType::kInt32, {4}), 4, 3);
                 op->add_output(DType::kInt8, {1, 3, 3, 4});
                 op->set_raw_params(testing::params_bytes(
                     Conv2dS8Params{2, 2, 1, 1, 1, 1, 1, 1, 2, 3, -3, -128, 127},
                     testing::random_multipliers(4, 4, -12, 2)));
               }});
  s.push_back({"conv2d_s16", &kConv2dS16Entry, [](TestOp* op) {
                 fill<int16_t>(op, op->add_input(DType::kInt16, {1, 5, 5, 2}), 50, 1);
                 fill<int8_t>(op, op->add_input(DType::kInt8, {3, 3, 3, 2}), 54, 2);
                 fill<int64_t>(op, op->add_input(DType::kInt64, {3}), 3, 3);
                 op->add_output(DType::kInt16, {1, 5, 5, 3});
                 op->set_raw_params(testing::params_bytes(
                     Conv2dS16Params{1, 1, 1, 1, 1, 1, 1, 1, 1, 64, -32768, 32767},
                     testing::random_multipliers(3, 4, -20, 2)));
               }});
  s.push_back({"depthwise_conv2d_s8", &kDepthwiseConv2dS8Entry, [](TestOp* op) {
                 fill<int8_t>(op, op->add_input(DType::kInt8, {1, 4, 4, 2}), 32, 1);
                 fill<int8_t>(op, op->add_input(DType::kInt8, {1, 3, 3, 4}), 36, 2);
                 fill<int32_t>(op, op->add_input(DType::kInt32, {4}), 4, 3);
                 op->add_output(DType::kInt8, {1, 4, 4, 4});
                 op->set_raw_params(testing::params_bytes(
                     DepthwiseConv2dS8Params{1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, -128, 127},
                     testing::random_multipliers(4, 4, -12, 2)));
               }});
  s.push_back({"depthwise_conv2d_s16", &kDepthwiseConv2dS16Entry, [](TestOp* op) {
                 fill<int16_t>(op, op->add_input(DType::kInt16, {1, 4, 4, 2}), 32, 1);
                 fill<int8_t>(op, op->add_input(DType::kInt8, {1, 3, 3, 2}), 18, 2);
                 fill<int64_t>(op, op->add_input(DType::kInt64, {2}), 2, 3);
                 op->add_output(DType::kInt16, {1, 2, 2, 2});
                 op->set_raw_params(testing::params_bytes(
                     DepthwiseConv2dS16Params{1, 1, 1, 1, 0, 0, 0, 0, 1, -32768, 32767},
                     testing::random_multipliers(2, 4, -20, 2)));
               }});
  s.push_back({"fully_connected_s8", &kFullyConnectedS8Entry, [](TestOp* op) {
                 fill<int8_t>(op, op->add_input(DType::kInt8, {2, 6}), 12, 1);
                 fill<int8_t>(op, op->add_input(DType::kInt8, {3, 6}), 18, 2);
                 fill<int32_t>(op, op->add_input(DType::kInt32, {3}), 3, 3);
                 op->add_output(DType::kInt8, {2, 3});
                 op->set_raw_params(testing::params_bytes(
                     FullyConnectedS8Params{1, 0, 2, -128, 127, 3},
                     testing::random_multipliers(3, 4, -12, 2)));
               }});
  s.push_back({"fully_connected_s16 int64", &kFullyConnectedS16Entry, [](TestOp* op) {
                 fill<int16_t>(op, op->add_input(DType::kInt16, {2, 6}), 12, 1);
                 fill<int8_t>(op, op->add_input(DType::kInt8, {3, 6}), 18, 2);
                 fill<int64_t>(op, op->add_input(DType::kInt64, {3}), 3, 3);
                 op->add_output(DType::kInt16, {2, 3});
                 op->set_raw_params(testing::params_bytes(
                     FullyConnectedS16Params{0, 64, -32768, 32767, 3},
                     testing::random_multipliers(3, 4, -20, 2)));
               }});
  s.push_back({"fully_connected_s16 int32", &kFullyConnectedS16Entry, [](TestOp* op) {
                 fill<int16_t>(op, op->add_input(DType::kInt16, {2, 6}), 12, 1);
                 fill<int8_t>(op, op->add_input(DType::kInt8, {3, 6}), 18, 2);
                 fill<int32_t>(op, op->add_input(DType::kInt32, {3}), 3, 3);
                 op->add_output(DType::kInt16, {2, 3});
                 op->set_raw_params(testing::params_bytes(
                     FullyConnectedS16Params{-7, 32, -32768, 32767, 1},
                     testing::random_multipliers(1, 4, -20, 2)));
               }});
  auto binary = [](DType dtype, const std::vector<uint8_t>& params) {
    return [dtype, params](TestOp* op) {
      const uint32_t a = op->add_input(dtype, {2, 3});
      const uint32_t b = op->add_input(dtype, {3});
      if (dtype == DType::kInt8) {
        fill<int8_t>(op, a, 6, 1);
        fill<int8_t>(op, b, 3, 2);
      } else {
        fill<int16_t>(op, a, 6, 1);
        fill<int16_t>(op, b, 3, 2);
      }
      op->add_output(dtype, {2, 3});
      op->set_raw_params(params);
    };
  };
  const auto add_params = testing::params_bytes(
      QuantAddSubParams{1, -1, 2, 1 << 30, -1, 1 << 30, -2, 1 << 30, -18, -128, 127}, {});
  const auto mul_params = testing::params_bytes(QuantMulParams{0, 0, 0, 1 << 30, -5, -128, 127}, {});
  s.push_back({"add_s8", &kAddS8Entry, binary(DType::kInt8, add_params)});
  s.push_back({"sub_s8", &kSubS8Entry, binary(DType::kInt8, add_params)});
  s.push_back({"mul_s8", &kMulS8Entry, binary(DType::kInt8, mul_params)});
  s.push_back({"add_s16", &kAddS16Entry, binary(DType::kInt16, add_params)});
  s.push_back({"sub_s16", &kSubS16Entry, binary(DType::kInt16, add_params)});
  s.push_back({"mul_s16", &kMulS16Entry, binary(DType::kInt16, mul_params)});
  auto pool = [](TestOp* op) {
    fill<int8_t>(op, op->add_input(DType::kInt8, {1, 5, 5, 3}), 75, 1);
    op->add_output(DType::kInt8, {1, 3, 3, 3});
    op->set_params(Pool2dS8Params{3, 3, {2, 2, 1, 1, 1, 1, 1, 1}, -128, 127});
  };
  s.push_back({"avg_pool2d_s8", &kAvgPool2dS8Entry, pool});
  s.push_back({"max_pool2d_s8", &kMaxPool2dS8Entry, pool});
  auto pool16 = [](TestOp* op) {
    fill<int16_t>(op, op->add_input(DType::kInt16, {1, 5, 5, 3}), 75, 1);
    op->add_output(DType::kInt16, {1, 3, 3, 3});
    op->set_params(Pool2dS16Params{3, 3, {2, 2, 1, 1, 1, 1, 1, 1}, -32768, 32767});
  };
  s.push_back({"avg_pool2d_s16", &kAvgPool2dS16Entry, pool16});
  s.push_back({"max_pool2d_s16", &kMaxPool2dS16Entry, pool16});
  s.push_back({"softmax_s8", &kSoftmaxS8Entry, [](TestOp* op) {
                 fill<int8_t>(op, op->add_input(DType::kInt8, {2, 7}), 14, 1);
                 op->add_output(DType::kInt8, {2, 7});
                 op->set_params(SoftmaxS8Params{1 << 30, 20, -1984});
               }});
  auto unary8 = [](TestOp* op) {
    fill<int8_t>(op, op->add_input(DType::kInt8, {9}), 9, 1);
    op->add_output(DType::kInt8, {9});
  };
  s.push_back({"sigmoid_s8", &kSigmoidS8Entry, [unary8](TestOp* op) {
                 unary8(op);
                 op->set_params(SigmoidTanhS8Params{3, 1920, 1 << 30, 20});
               }});
  s.push_back({"tanh_s8", &kTanhS8Entry, [unary8](TestOp* op) {
                 unary8(op);
                 op->set_params(SigmoidTanhS8Params{3, 1920, 1 << 30, 20});
               }});
  s.push_back({"leaky_relu_s8", &kLeakyReluS8Entry, [unary8](TestOp* op) {
                 unary8(op);
                 op->set_params(LeakyReluQuantParams{1, 2, 1 << 30, 1, -(1 << 30), -2});
               }});
  s.push_back({"leaky_relu_s16", &kLeakyReluS16Entry, [](TestOp* op) {
                 fill<int16_t>(op, op->add_input(DType::kInt16, {9}), 9, 1);
                 op->add_output(DType::kInt16, {9});
                 op->set_params(LeakyReluQuantParams{1, 2, 1 << 30, 1, 1 << 30, -2});
               }});
  s.push_back({"mean_s8", &kMeanS8Entry, [](TestOp* op) {
                 fill<int8_t>(op, op->add_input(DType::kInt8, {2, 3, 4}), 24, 1);
                 op->add_output(DType::kInt8, {2, 4});
                 op->set_params(MeanS8Params{2, 5, -5, 1 << 30, -1});
               }});
  s.push_back({"mean_s16", &kMeanS16Entry, [](TestOp* op) {
                 fill<int16_t>(op, op->add_input(DType::kInt16, {2, 3, 4}), 24, 1);
                 op->add_output(DType::kInt16, {2, 4});
                 op->set_params(MeanS16Params{2, 300, -7, 1 << 30, -1});
               }});
  s.push_back({"sum_s8", &kSumS8Entry, [](TestOp* op) {
                 fill<int8_t>(op, op->add_input(DType::kInt8, {2, 3, 4}), 24, 1);
                 op->add_output(DType::kInt8, {3});
                 op->set_params(SumQuantParams{5, -3, 4, 1 << 30, 2});
               }});
  s.push_back({"sum_s16", &kSumS16Entry, [](TestOp* op) {
                 fill<int16_t>(op, op->add_input(DType::kInt16, {2, 3, 4}), 24, 1);
                 op->add_output(DType::kInt16, {2, 3});
                 op->set_params(SumQuantParams{4, 0, 0, 1 << 30, -3});
               }});
  s.push_back({"reduce_max_s8", &kReduceMaxS8Entry, [](TestOp* op) {
                 fill<int8_t>(op, op->add_input(DType::kInt8, {2, 3, 4}), 24, 1);
                 op->add_output(DType::kInt8, {2, 4});
                 op->set_params(ReduceParams{2});
               }});
  s.push_back({"requantize_s32_s16", &kRequantizeS32S16Entry, [](TestOp* op) {
                 fill<int32_t>(op, op->add_input(DType::kInt32, {9}), 9, 1);
                 op->add_output(DType::kInt16, {9});
                 op->set_params(RequantizeParams{0, 0, 1 << 30, -10});
               }});
  s.push_back({"requantize_s8_s8", &kRequantizeS8S8Entry, [unary8](TestOp* op) {
                 unary8(op);
                 op->set_params(RequantizeParams{3, -3, 1 << 30, 2});
               }});
  s.push_back({"quantize_f32_s8", &kQuantizeF32S8Entry, [](TestOp* op) {
                 op->set_data(op->add_input(DType::kFloat32, {4}),
                              std::vector<float>{1e30f, -1e30f, NAN, 0.5f});
                 op->add_output(DType::kInt8, {4});
                 op->set_params(AffineQuantParams{0.1f, 3});
               }});
  s.push_back({"transpose_conv_s16", &kTransposeConvS16Entry, [](TestOp* op) {
                 fill<int16_t>(op, op->add_input(DType::kInt16, {1, 2, 3, 2}), 12, 1);
                 fill<int8_t>(op, op->add_input(DType::kInt8, {3, 3, 3, 2}), 54, 2);
                 fill<int64_t>(op, op->add_input(DType::kInt64, {3}), 3, 3);
                 op->add_output(DType::kInt16, {1, 4, 6, 3});
                 op->set_raw_params(testing::params_bytes(
                     TransposeConvS16Params{2, 2, 1, 1, -32768, 32767},
                     testing::random_multipliers(3, 4, -20, 2)));
               }});
  s.push_back({"transpose_conv_s8", &kTransposeConvS8Entry, [](TestOp* op) {
                 fill<int8_t>(op, op->add_input(DType::kInt8, {1, 2, 3, 2}), 12, 1);
                 fill<int8_t>(op, op->add_input(DType::kInt8, {3, 3, 3, 2}), 54, 2);
                 fill<int32_t>(op, op->add_input(DType::kInt32, {3}), 3, 3);
                 op->add_output(DType::kInt8, {1, 4, 6, 3});
                 op->set_raw_params(testing::params_bytes(
                     TransposeConvS8Params{2, 2, 1, 1, -5, 7, -128, 127},
                     testing::random_multipliers(3, 4, -20, 2)));
               }});
  s.push_back({"strided_slice", &kStridedSliceEntry, [](TestOp* op) {
                 fill<int16_t>(op, op->add_input(DType::kInt16, {3, 4, 5}), 60, 1);
                 op->add_output(DType::kInt16, {2, 2, 3});
                 StridedSliceParams p{};
                 const int32_t begin[] = {2, 0, 4}, stride[] = {-1, 3, -2}, count[] = {2, 2, 3};
                 for (int i = 0; i < 3; ++i) {
                   p.begin[i] = begin[i];
                   p.stride[i] = stride[i];
                   p.count[i] = count[i];
                 }
                 op->set_params(p);
               }});
  s.push_back({"lstm_s8", &kLstmS8Entry, [](TestOp* op) {
                 build_lstm_s8(op, static_cast<uint32_t>(lstm_s8_scratch_bytes(4, 3)));
               }});
  s.push_back({"lstm_s8__dsp", &kLstmS8DspEntry,
               [](TestOp* op) { build_lstm_s8(op, lstm_s8__dsp_scratch_bytes(4, 3)); }});
  s.push_back({"lstm_s8__mve", &kLstmS8MveEntry,
               [](TestOp* op) { build_lstm_s8(op, lstm_s8__mve_scratch_bytes(4, 3)); }});
  return s;
}

TEST(QuantRobustness, WhateverCheckAcceptsRunsSafely) {
  const int32_t hostile[] = {0,   1,   -1,  2,     -2,    7,     8,      14,     15,
                             16,  30,  31,  32,    -31,   -32,   -33,    63,     64,
                             127, 128, -128, -129, 255,   32767, 32768,  -32768, -32769,
                             65535, 1 << 30, INT32_MAX, INT32_MIN, INT32_MIN + 1, 0x7FFF0000};
  std::mt19937 rng(1234);
  for (const Subject& subject : subjects()) {
    SCOPED_TRACE(subject.name);
    {
      TestOp op;
      subject.build(&op);
      ASSERT_EQ(op.check(*subject.entry), Status::kOk);  // the unmutated op is valid
      op.run(*subject.entry);
    }
    int accepted = 0;
    for (int iteration = 0; iteration < 3000; ++iteration) {
      TestOp op;
      subject.build(&op);
      OpContext ctx = op.context();
      const uint32_t words = ctx.params_bytes() / 4;
      ASSERT_GT(words, 0u);
      uint8_t* params = reinterpret_cast<uint8_t*>(&op.params<int32_t>());
      const int mutations = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < mutations; ++k) {
        const uint32_t word = rng() % words;
        const int32_t value = rng() % 4 == 0 ? static_cast<int32_t>(rng())
                                             : hostile[rng() % (sizeof(hostile) / sizeof(hostile[0]))];
        memcpy(params + 4 * word, &value, 4);
      }
      if (op.check(*subject.entry) == Status::kOk) {
        op.run(*subject.entry);
        ++accepted;
      }
    }
    // Some mutations are harmless (e.g. another valid multiplier) and must still run.
    EXPECT_GT(accepted, 0);
  }
}

}  // namespace quant_robustness_test
}  // namespace mote
