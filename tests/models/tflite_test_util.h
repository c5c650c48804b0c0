// Shared by the host and QEMU .tflite model tests: the int8 models with TensorFlow Lite
// Micro golden data (../shared/models/tflm-golden, see its README), the SeaNet single-layer
// models with their upstream golden CSVs, and bit-exact comparison helpers.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compiler.h"
#include "npy.h"
#include "test_util.h"

namespace mote::testing {

// Where a golden model runs besides the host: every counted core (instruction_counts.h),
// only the Cortex-M4 (a large network: issue 17 asks for it there), or nowhere (an arena
// above the 2 MB the emulated boards give a program, e.g. full-resolution image-to-image
// networks of tens of MB).
enum class QemuRuns { kEveryCore, kCortexM4, kHostOnly };

struct TfliteModel {
  const char* name;  // stem in tflm-golden/
  const char* path;  // under ../shared/models/
  QemuRuns qemu = QemuRuns::kEveryCore;
  // Over a billion MACs per inference (dncnn_color_blind_quant: 11 G): the host checks
  // sample 0 only, as TflmGoldenHuge (a Release-build test: tools/sanitize.sh leaves it out).
  bool huge = false;
  bool runs_on(const std::string& core) const {
    return qemu == QemuRuns::kEveryCore || (qemu == QemuRuns::kCortexM4 && core == "cortex-m4");
  }
};

// Every .tflite model with golden data in tflm-golden/, except the ones the compiler
// refuses (refused_models.h: the audio preprocessor's TFLite Micro Signal custom ops, and
// operators issue 17 adds). TflmGoldenCoverage checks that no golden model is left out.
inline const std::vector<TfliteModel>& tflm_golden_models() {
  static const std::vector<TfliteModel> models = {
      {"hello_world_int8", "tflite/tflm/hello_world_int8.tflite"},
      {"micro_speech_quantized", "tflite/tflm/micro_speech_quantized.tflite"},
      {"kws_ref_model", "tflite/mlperf_tiny/kws_ref_model.tflite"},
      {"vww_96_int8", "tflite/mlperf_tiny/vww_96_int8.tflite"},
      {"pretrainedResnet_quant", "tflite/mlperf_tiny/pretrainedResnet_quant.tflite"},
      {"ad01_int8", "tflite/mlperf_tiny/ad01_int8.tflite"},
      {"simple_add_model", "tflite/tflm/simple_add_model.tflite"},
      {"trained_lstm_int8", "tflite/tflm/trained_lstm_int8.tflite"},
      {"kws_micronet_m", "ethos-u/kws_micronet_m.tflite"},
      // Real-world networks as other people's converters wrote them (uint8 I/O,
      // NCHW transposes, padding constants folded into absurd scales).
      {"squeezenet_v1_1_quant", "ethos-u/squeezenet_v1_1_quant.tflite", QemuRuns::kCortexM4},
      {"yolo-fastest_192_face_v4", "ethos-u/yolo-fastest_192_face_v4.tflite", QemuRuns::kCortexM4},
      {"dncnn_color_blind_quant", "realworld/dncnn_color_blind_quant.tflite", QemuRuns::kHostOnly, true},
      {"zero_dce_pp_quant", "realworld/zero_dce_pp_quant.tflite", QemuRuns::kHostOnly, true},
      {"zero_dce_quant", "ethos-u/zero_dce_quant.tflite", QemuRuns::kHostOnly, true},
      {"Mobilenet_v3_small_quant", "realworld/Mobilenet_v3_small_quant.tflite", QemuRuns::kCortexM4},
  };
  return models;
}

// Every model of tflm-golden/ has samples s0, s1 and s2.
constexpr int kTflmGoldenSamples = 3;

// `name` as a gtest parameter name: every character but letters and digits becomes '_'
// (yolo-fastest_192_face_v4 -> yolo_fastest_192_face_v4).
inline std::string gtest_name(std::string name) {
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

inline std::string model_path(const TfliteModel& m) { return shared_models() + "/" + m.path; }

inline std::string golden_path(const std::string& name, int sample, const std::string& kind) {
  return shared_models() + "/tflm-golden/" + name + ".s" + std::to_string(sample) + "." + kind + ".npy";
}

// How many samples `name` has in tflm-golden/ (s0, s1, ... while sample k's out0 exists).
inline int tflm_golden_sample_count(const std::string& name) {
  int n = 0;
  while (std::filesystem::exists(golden_path(name, n, "out0"))) ++n;
  return n;
}

inline int golden_input_count(const std::string& name) {
  int n = 0;
  while (std::filesystem::exists(golden_path(name, 0, "in" + std::to_string(n)))) ++n;
  return n;
}

inline std::string golden_input_args(const std::string& name, int sample) {
  std::string args;
  for (int i = 0; i < golden_input_count(name); ++i)
    args += " --input '" + golden_path(name, sample, "in" + std::to_string(i)) + "'";
  return args;
}

// The name of the tensor feeding the model's last softmax ("" when there is none): the
// tensor tflm-golden's .presoftmax.npy files hold.
inline std::string softmax_input_name(const std::string& model) {
  const ir::Graph graph = import_model(model);
  for (auto it = graph.nodes.rbegin(); it != graph.nodes.rend(); ++it)
    if (it->op == ir::Op::kSoftmax) return graph.tensors[it->inputs[0]].name;
  return "";
}

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `mote compile MODEL -o DIR/NAME.mote --target TARGET [--output-tensor T]`; fails the test
// on error and returns the program path.
inline std::string compile_tflite(const TempDir& dir, const std::string& model, const std::string& name,
                                  const std::string& target, const std::string& extra_output = "") {
  const std::string program = dir.file(name + ".mote");
  std::string args = "compile " + shell_quote(model) + " -o " + shell_quote(program) + " --target " + target;
  if (!extra_output.empty()) args += " --output-tensor " + shell_quote(extra_output);
  const CommandResult r = run_mote(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return program;
}

inline size_t element_bytes(DType dtype) {
  switch (dtype) {
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kBool: return 1;
    case DType::kInt16: return 2;
    case DType::kInt64: return 8;
    default: return 4;
  }
}

// Element i of an integer or float array as a double (for messages).
inline double element(const NpyArray& a, size_t i) {
  const uint8_t* p = a.data.data() + i * element_bytes(a.dtype);
  switch (a.dtype) {
    case DType::kInt8: return static_cast<int8_t>(*p);
    case DType::kUInt8: return *p;
    case DType::kInt16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case DType::kInt32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    case DType::kInt64: { int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case DType::kFloat32: { float v; std::memcpy(&v, p, 4); return v; }
    default: return *p;
  }
}

// Every element identical: same dtype, shape and bytes. Reports how many differ.
inline void expect_identical(const NpyArray& got, const NpyArray& want, const std::string& what) {
  ASSERT_EQ(dtype_name(got.dtype), std::string(dtype_name(want.dtype))) << what;
  ASSERT_EQ(shape_string(got.shape), shape_string(want.shape)) << what;
  ASSERT_EQ(got.data.size(), want.data.size()) << what;
  const size_t n = got.data.size() / element_bytes(got.dtype);
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < n; ++i) {
    if (std::memcmp(got.data.data() + i * element_bytes(got.dtype), want.data.data() + i * element_bytes(want.dtype),
                    element_bytes(got.dtype)) != 0) {
      if (differ++ == 0) first = i;
    }
  }
  EXPECT_EQ(differ, 0u) << what << ": " << differ << " of " << n << " elements differ; first at " << first
                        << ": got " << element(got, first) << ", expected " << element(want, first);
}

inline size_t argmax(const NpyArray& a) {
  size_t best = 0;
  const size_t n = a.data.size() / element_bytes(a.dtype);
  for (size_t i = 1; i < n; ++i)
    if (element(a, i) > element(a, best)) best = i;
  return best;
}

// ---------------------------------------------------------------------------------------
// SeaNet single-layer models: tflite/seanet/<op>/<model>.tflite with <model>_input<i>_<dtype>.csv
// and <model>_golden_<dtype>.csv (one line of integers, the tensor flattened row-major).
// ---------------------------------------------------------------------------------------

struct SeanetModel {
  const char* op;
  const char* name;
};

inline const std::vector<SeanetModel>& seanet_models() {
  static const std::vector<SeanetModel> models = {
      {"add", "add0"}, {"add", "add1"}, {"conv", "conv0"}, {"conv", "conv1"},
      {"leaky_relu", "leaky_relu0"}, {"leaky_relu", "leaky_relu1"}, {"pad", "pad0"}, {"pad", "pad1"},
      {"quantize", "quantize0"}, {"quantize", "quantize1"}, {"strided_slice", "strided_slice0"},
      {"strided_slice", "strided_slice1"}, {"sub", "sub0"}, {"sub", "sub1"},
      {"transpose_conv", "transpose_conv0"}, {"transpose_conv", "transpose_conv1"},
  };
  return models;
}

inline std::string seanet_dir(const SeanetModel& m) { return shared_models() + "/tflite/seanet/" + m.op; }

// The file in the model's folder whose name starts with `prefix` (e.g. "add0_input1_").
inline std::string find_with_prefix(const std::string& dir, const std::string& prefix) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind(prefix, 0) == 0 && entry.path().extension() == ".csv") return entry.path().string();
  }
  return "";
}

inline std::vector<int64_t> read_csv_ints(const std::string& path) {
  std::ifstream in(path);
  std::vector<int64_t> values;
  std::string field;
  while (std::getline(in, field, ',')) {
    std::stringstream ss(field);
    int64_t v;
    if (ss >> v) values.push_back(v);
  }
  return values;
}

// The values as an array of `dtype` and `shape` (the CSV's dtype, from its file name,
// must be the tensor's: checked by the caller).
inline NpyArray ints_to_array(const std::vector<int64_t>& values, DType dtype, const std::vector<int64_t>& shape) {
  NpyArray a;
  a.dtype = dtype;
  a.shape = shape;
  const size_t size = element_bytes(dtype);
  a.data.resize(values.size() * size);
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t v = values[i];
    if (dtype == DType::kInt8) { const int8_t x = static_cast<int8_t>(v); std::memcpy(&a.data[i * size], &x, size); }
    if (dtype == DType::kInt16) { const int16_t x = static_cast<int16_t>(v); std::memcpy(&a.data[i * size], &x, size); }
    if (dtype == DType::kInt32) { const int32_t x = static_cast<int32_t>(v); std::memcpy(&a.data[i * size], &x, size); }
  }
  return a;
}

inline DType dtype_from_csv_name(const std::string& path) {
  if (path.find("_int32.csv") != std::string::npos) return DType::kInt32;
  if (path.find("_int16.csv") != std::string::npos) return DType::kInt16;
  return DType::kInt8;
}

inline DType dtype_from_name(const std::string& name) {
  if (name == "int8") return DType::kInt8;
  if (name == "int16") return DType::kInt16;
  if (name == "int32") return DType::kInt32;
  return DType::kFloat32;
}

// Writes the SeaNet inputs as .npy files shaped like the program's inputs (from
// `mote inspect --json`) and returns the --input arguments and the expected output.
struct SeanetCase {
  std::string input_args;
  NpyArray golden;
};

inline SeanetCase prepare_seanet(const TempDir& dir, const SeanetModel& m, const std::string& program) {
  SeanetCase c;
  const CommandResult r = run_mote("inspect " + shell_quote(program) + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  const std::string folder = seanet_dir(m);
  for (size_t i = 0; i < report["inputs"].size(); ++i) {
    const std::string csv = find_with_prefix(folder, std::string(m.name) + "_input" + std::to_string(i) + "_");
    EXPECT_FALSE(csv.empty()) << m.name << ": no CSV for input " << i;
    const DType dtype = dtype_from_name(report["inputs"][i]["dtype"].get<std::string>());
    EXPECT_EQ(dtype_from_csv_name(csv), dtype) << csv;
    const auto shape = report["inputs"][i]["shape"].get<std::vector<int64_t>>();
    const std::vector<int64_t> values = read_csv_ints(csv);
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    EXPECT_EQ(static_cast<int64_t>(values.size()), count) << csv;
    const std::string npy = dir.file("in" + std::to_string(i) + ".npy");
    write_npy(npy, ints_to_array(values, dtype, shape));
    c.input_args += " --input " + shell_quote(npy);
  }
  const std::string golden = find_with_prefix(folder, std::string(m.name) + "_golden_");
  EXPECT_FALSE(golden.empty()) << m.name << ": no golden CSV";
  const DType out_dtype = dtype_from_name(report["outputs"][0]["dtype"].get<std::string>());
  EXPECT_EQ(dtype_from_csv_name(golden), out_dtype) << golden;
  c.golden = ints_to_array(read_csv_ints(golden), out_dtype,
                           report["outputs"][0]["shape"].get<std::vector<int64_t>>());
  return c;
}

}  // namespace mote::testing
