// ONNX ConvTranspose and Resize: the generated models (testdata/make_onnx_testdata.py,
// goldens from the ONNX spec's formulas in numpy) compiled for the host and run with the
// real kernels, every output compared; the attributes import folds and the ones it refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "compiler.h"
#include "compiler/host_run.h"
#include "onnx_test_util.h"

namespace mote {
namespace {

using onnx_test::count_ops;
using onnx_test::error_of;
using onnx_test::find_node;
using onnx_test::load_npy;
using onnx_test::testdata;
using Ints = std::vector<int64_t>;

std::vector<uint8_t> float_bytes_of(const std::vector<float>& v) {
  std::vector<uint8_t> bytes(v.size() * sizeof(float));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

// Compiles `model` for the host, runs it on its stored input and compares every output
// with the numpy golden: |got - want| <= 1e-5 * (1 + |want|), NaN failing.
void expect_matches_goldens(const std::string& model, size_t outputs) {
  SCOPED_TRACE(model);
  CompileOptions options;
  options.model_path = testdata(model + ".onnx");
  const CompileResult compiled = compile(options);
  const onnx_test::NpyArray in = load_npy(testdata(model + ".in0.npy"));
  const std::vector<std::vector<uint8_t>> got = testing::run_on_host(compiled.program, float_bytes_of(in.data));
  ASSERT_EQ(got.size(), outputs);
  for (size_t j = 0; j < outputs; ++j) {
    const onnx_test::NpyArray want = load_npy(testdata(model + ".out" + std::to_string(j) + ".npy"));
    ASSERT_EQ(got[j].size(), want.data.size() * sizeof(float)) << "output " << j;
    std::vector<float> values(want.data.size());
    std::memcpy(values.data(), got[j].data(), got[j].size());
    size_t bad = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      const double err = std::fabs(double{values[i]} - want.data[i]);
      if (!(err <= 1e-5 * (1.0 + std::fabs(double{want.data[i]}))) && bad++ == 0)
        ADD_FAILURE() << "output " << j << " element " << i << ": " << values[i] << ", expected " << want.data[i];
    }
    EXPECT_EQ(bad, 0u) << "output " << j;
  }
}

TEST(OnnxConvTranspose, EveryAttribute2dMatchesSpec) {
  expect_matches_goldens("conv_transpose_2d", 7);
  const ir::Graph g = import_model(testdata("conv_transpose_2d.onnx"));
  EXPECT_EQ(count_ops(g, "transpose_conv"), 7);
  // output_padding lowers the end pad; group and dilations pass through; the weights
  // [C, O/G, KH, KW] become [O, KH, KW, C/G].
  const ir::Node* outpad = find_node(g, "ct_pads_outpad");
  ASSERT_NE(outpad, nullptr);
  EXPECT_EQ(outpad->get_ints("pads"), Ints({1, 0, -1, 1}));
  const ir::Node* grouped = find_node(g, "ct_group_dilation");
  ASSERT_NE(grouped, nullptr);
  EXPECT_EQ(grouped->get_int("group", 0), 2);
  EXPECT_EQ(grouped->get_ints("dilations"), Ints({2, 1}));
  EXPECT_EQ(g.tensors[grouped->inputs[1]].shape, Ints({4, 2, 3, 2}));
  // SAME_LOWER with a kernel smaller than the stride: no padding (ONNX's inference).
  const ir::Node* small = find_node(g, "ct_same_lower_small_kernel");
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(small->get_ints("pads"), Ints({0, 0, 0, 0}));
  // output_shape [12, 10] from full extents [11, 12] with SAME_UPPER: total padding -1
  // and 2, the half rounded toward zero first.
  const ir::Node* shaped = find_node(g, "ct_output_shape_same_upper");
  ASSERT_NE(shaped, nullptr);
  EXPECT_EQ(shaped->get_ints("pads"), Ints({0, 1, -1, 1}));
}

TEST(OnnxConvTranspose, OneDimensionalRunsAs2d) {
  expect_matches_goldens("conv_transpose_1d", 3);
  const ir::Graph g = import_model(testdata("conv_transpose_1d.onnx"));
  const ir::Node* grouped = find_node(g, "ct1d_group_dilation");
  ASSERT_NE(grouped, nullptr);
  EXPECT_EQ(grouped->get_ints("strides"), Ints({1, 3}));
  EXPECT_EQ(grouped->get_ints("dilations"), Ints({1, 2}));
  EXPECT_EQ(grouped->get_ints("pads"), Ints({0, 1, 0, 0}));  // end 2 - output_padding 2
  EXPECT_EQ(g.tensors[grouped->inputs[1]].shape, Ints({6, 1, 3, 2}));
}

TEST(OnnxResize, EveryModeAndTransformMatchesSpec) {
  // 5 transforms x (4 nearest modes + 2 on ties + linear from sizes + linear from
  // scales) + defaults.
  expect_matches_goldens("resize_modes", 41);
  const ir::Graph g = import_model(testdata("resize_modes.onnx"));
  EXPECT_EQ(count_ops(g, "resize_nearest"), 31);
  EXPECT_EQ(count_ops(g, "resize_bilinear"), 10);
  const ir::Node* n = find_node(g, "nearest_asymmetric_round_prefer_ceil");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->get_string("coordinate_transform"), "asymmetric");
  EXPECT_EQ(n->get_string("nearest_mode"), "round_prefer_ceil");
  EXPECT_EQ(n->get_float("scale_h", 0), 2.5);
  EXPECT_EQ(n->get_float("scale_w", 0), 0.5);
  // Sizes give the scale out / in.
  const ir::Node* sized = find_node(g, "linear_half_pixel_sizes");
  ASSERT_NE(sized, nullptr);
  EXPECT_EQ(sized->get_float("scale_h", 0), 7.0 / 4.0);
  EXPECT_EQ(sized->get_float("scale_w", 0), 3.0 / 5.0);
}

TEST(OnnxResize, Opset11RoiAndOneDimensional) { expect_matches_goldens("resize_1d", 2); }

// --quantize int8 with the stored input as the calibration sample (int16 off): no node
// stays float, and every output is the golden within `steps` of the output's int8 step
// (the resize ops only move or blend input values; transpose_conv adds its rounding).
CompileResult compile_int8(const std::string& model) {
  const onnx_test::NpyArray in = load_npy(testdata(model + ".in0.npy"));
  CompileOptions options;
  options.model_path = testdata(model + ".onnx");
  options.quantize = "int8";
  options.quantize_options.int16 = ptq::Int16Policy::kOff;
  ptq::CalibrationInput calibration;
  calibration.path = model + ".in0.npy";
  calibration.shape = in.shape;
  calibration.shape.insert(calibration.shape.begin(), 1);
  calibration.data = float_bytes_of(in.data);
  options.calibration = {calibration};
  return compile(options);
}

void expect_int8_close(const std::string& model, size_t outputs, double steps) {
  SCOPED_TRACE(model);
  const onnx_test::NpyArray in = load_npy(testdata(model + ".in0.npy"));
  const CompileResult compiled = compile_int8(model);
  ASSERT_TRUE(compiled.report.quantization.has_value());
  EXPECT_TRUE(compiled.report.quantization->float_nodes.empty()) << compiled.report.quantization->float_nodes[0];
  const std::vector<std::vector<uint8_t>> got = testing::run_on_host(compiled.program, float_bytes_of(in.data));
  ASSERT_EQ(got.size(), outputs);
  for (size_t j = 0; j < outputs; ++j) {
    const onnx_test::NpyArray want = load_npy(testdata(model + ".out" + std::to_string(j) + ".npy"));
    ASSERT_EQ(got[j].size(), want.data.size() * sizeof(float)) << "output " << j;
    std::vector<float> values(want.data.size());
    std::memcpy(values.data(), got[j].data(), got[j].size());
    float lo = 0, hi = 0;
    for (float v : want.data) lo = std::min(lo, v), hi = std::max(hi, v);
    const double step = (double{hi} - lo) / 255.0;
    for (size_t i = 0; i < values.size(); ++i) {
      if (!(std::fabs(double{values[i]} - want.data[i]) <= steps * step)) {
        ADD_FAILURE() << "output " << j << " element " << i << ": " << values[i] << ", expected " << want.data[i]
                      << " (int8 step " << step << ")";
        break;
      }
    }
  }
}

TEST(OnnxResize, Int8ResizesRunInInt8) {
  expect_int8_close("resize_modes", 41, 1.5);
  expect_int8_close("resize_1d", 2, 1.5);
}

TEST(OnnxResizeCubic, EveryTransformAndAttributeMatchesSpec) {
  // 5 transforms x exclude_outside 0/1 x (up from scales, down from sizes) + a = -0.5,
  // -1, -0.6, non-integer scales, defaults.
  expect_matches_goldens("resize_cubic", 25);
  const ir::Graph g = import_model(testdata("resize_cubic.onnx"));
  EXPECT_EQ(count_ops(g, "resize_cubic"), 25);
  const ir::Node* odd = find_node(g, "cubic_a_one_exclude");
  ASSERT_NE(odd, nullptr);
  EXPECT_EQ(odd->get_float("cubic_coeff_a", 0), -1.0);
  EXPECT_EQ(odd->get_int("exclude_outside", 0), 1);
  EXPECT_EQ(odd->get_string("coordinate_transform"), "asymmetric");
  EXPECT_EQ(odd->get_float("scale_h", 0), double{1.7f});
  const ir::Node* defaults = find_node(g, "cubic_defaults");
  ASSERT_NE(defaults, nullptr);
  EXPECT_EQ(defaults->get_float("cubic_coeff_a", 0), -0.75);
  EXPECT_EQ(defaults->get_int("exclude_outside", 1), 0);
  EXPECT_EQ(defaults->get_string("coordinate_transform"), "half_pixel");
}

TEST(OnnxResizeCubic, OneDimensionalOpset17) { expect_matches_goldens("resize_cubic_1d", 3); }

TEST(OnnxResizeCrop, EveryModeMatchesSpec) {
  // nearest, linear, cubic x (inside, past the input, from scales, one output row) +
  // nearest_mode ceil + cubic with exclude_outside.
  expect_matches_goldens("resize_crop", 14);
  const ir::Graph g = import_model(testdata("resize_crop.onnx"));
  EXPECT_EQ(count_ops(g, "resize_nearest"), 5);
  EXPECT_EQ(count_ops(g, "resize_bilinear"), 4);
  EXPECT_EQ(count_ops(g, "resize_cubic"), 5);
  const ir::Node* past = find_node(g, "crop_linear_past");
  ASSERT_NE(past, nullptr);
  EXPECT_EQ(past->get_string("coordinate_transform"), "tf_crop_and_resize");
  EXPECT_EQ(past->get_float("extrapolation_value", 0), 7.5);
  // roi [starts..., ends...] of NCHW as {h_start, h_end, w_start, w_end}.
  const auto& roi = std::get<std::vector<double>>(past->attrs.at("roi"));
  EXPECT_EQ(roi, (std::vector<double>{double{-0.3f}, double{0.7f}, double{0.4f}, double{1.3f}}));
}

// --quantize int8: cubic runs in int8 (resize_cubic_s8), within 2 output steps of the
// spec's goldens.
TEST(OnnxResizeCubic, Int8RunsInInt8) {
  expect_int8_close("resize_cubic", 25, 2.0);
  expect_int8_close("resize_cubic_1d", 3, 2.0);
}

// --quantize int8 on the crops: cubic's run in int8; nearest's and linear's (pass-through
// ops keeping the input's scale, which the extrapolation value need not fit) stay float
// with the reason.
TEST(OnnxResizeCrop, QuantizeKeepsNearestAndLinearCropsFloat) {
  const CompileResult compiled = compile_int8("resize_crop");
  ASSERT_TRUE(compiled.report.quantization.has_value());
  const std::vector<std::string>& kept = compiled.report.quantization->float_nodes;
  ASSERT_EQ(kept.size(), 9u);
  for (const std::string& line : kept) {
    EXPECT_EQ(line.find("cubic"), std::string::npos) << line;
    EXPECT_NE(line.find("has dtype int8, expected float32 (no integer kernel for tf_crop_and_resize)"),
              std::string::npos)
        << line;
  }
}

TEST(OnnxConvTranspose, Int8RunsInInt8) {
  expect_int8_close("conv_transpose_2d", 7, 3.0);
  expect_int8_close("conv_transpose_1d", 3, 3.0);
}

TEST(OnnxConvResErrors, ExactMessages) {
  const std::pair<const char*, const char*> cases[] = {
      {"resize_roi_computed.onnx",
       "resize_roi_computed.onnx: node 'up' (Resize): roi is computed, not a constant: not supported"},
      {"resize_crop_channels.onnx",
       "resize_crop_channels.onnx: node 'up' (Resize): roi crops the batch or channel axis, not supported"},
      {"resize_crop_no_roi.onnx", "resize_crop_no_roi.onnx: node 'up' (Resize): coordinate_transformation_mode "
                                  "'tf_crop_and_resize' without a roi"},
      {"resize_exclude_outside_2.onnx", "resize_exclude_outside_2.onnx: node 'up' (Resize): attribute "
                                        "'exclude_outside' value 2 not supported (0 or 1)"},
      {"resize_half_pixel_symmetric.onnx",
       "resize_half_pixel_symmetric.onnx: node 'up' (Resize): attribute 'coordinate_transformation_mode' value "
       "'half_pixel_symmetric' not supported"},
      {"resize_bad_nearest_mode.onnx",
       "resize_bad_nearest_mode.onnx: node 'up' (Resize): attribute 'nearest_mode' value 'round_half_even' not "
       "supported"},
      {"resize_channels.onnx", "resize_channels.onnx: node 'up' (Resize): resizing the batch or channel axis ([1,1,2,2] "
                               "to [1,2,2,2]) not supported"},
      {"convtranspose_3d.onnx", "convtranspose_3d.onnx: node 'up' (ConvTranspose): input 'x' has rank 5, expected 3 "
                                "or 4 (1-D and 2-D only)"},
      {"convtranspose_negative_output_padding.onnx",
       "convtranspose_negative_output_padding.onnx: node 'up' (ConvTranspose): attribute 'output_padding' value "
       "[-1,0] not supported (negative)"},
  };
  for (const auto& [file, message] : cases) {
    const std::string path = testdata(file);
    std::string got = error_of([&] { import_model(path); });
    // Reading names the file by its path; strip the directory.
    const size_t dir = got.find(testdata(""));
    if (dir == 0) got = got.substr(testdata("").size());
    EXPECT_EQ(got, message) << file;
  }
}

}  // namespace
}  // namespace mote
