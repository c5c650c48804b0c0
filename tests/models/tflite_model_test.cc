// The .tflite models on the host, bit for bit against TensorFlow Lite Micro:
//  - every int8 model with tflm-golden/ data: `mote run` outputs identical (every element)
//    to the golden outputs on every sample, and where a .presoftmax.npy exists the tensor
//    feeding the final softmax too (compiled as an extra output, `--output-tensor`);
//  - every SeaNet single-layer model (int16 activations) identical to its golden CSV;
//  - the upstream expectations of ../shared/models/README.md (micro_speech, hello_world);
//  - arena_bytes of `mote inspect --json` at most TFLM's arena (BASELINES.md), and the
//    MACs equal to BASELINES.md's count.
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tflite_test_util.h"

namespace mote::testing {
namespace {

std::string model_case_name(const ::testing::TestParamInfo<TfliteModel>& info) { return gtest_name(info.param.name); }

class TflmGoldenHost : public ::testing::TestWithParam<TfliteModel> {};

TEST_P(TflmGoldenHost, IdenticalToTflmOnEverySample) {
  const TfliteModel m = GetParam();
  TempDir dir;
  const std::string presoftmax = softmax_input_name(model_path(m));
  const bool check_presoftmax = std::filesystem::exists(golden_path(m.name, 0, "presoftmax"));
  ASSERT_TRUE(!check_presoftmax || !presoftmax.empty()) << m.name << ": presoftmax golden but no softmax";
  const std::string program =
      compile_tflite(dir, model_path(m), m.name, "host", check_presoftmax ? presoftmax : "");
  ASSERT_EQ(tflm_golden_sample_count(m.name), kTflmGoldenSamples) << m.name;
  for (int s = 0; s < (m.huge ? 1 : kTflmGoldenSamples); ++s) {
    const std::string out_dir = dir.file("s" + std::to_string(s));
    const CommandResult r =
        run_mote("run " + shell_quote(program) + golden_input_args(m.name, s) + " --output-dir " + shell_quote(out_dir));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    int outputs = 0;
    while (std::filesystem::exists(golden_path(m.name, s, "out" + std::to_string(outputs)))) ++outputs;
    // The model's outputs, then the softmax input where it is checked.
    ASSERT_EQ(written_output_count(out_dir), outputs + (check_presoftmax ? 1 : 0)) << m.name << " sample " << s;
    for (int k = 0; k < outputs; ++k) {
      const std::string j = std::to_string(k);
      expect_identical(read_npy(out_dir + "/out" + j + ".npy"), read_npy(golden_path(m.name, s, "out" + j)),
                       std::string(m.name) + " sample " + std::to_string(s) + " output " + j);
    }
    if (check_presoftmax) {
      expect_identical(read_npy(out_dir + "/out" + std::to_string(outputs) + ".npy"),
                       read_npy(golden_path(m.name, s, "presoftmax")),
                       std::string(m.name) + " sample " + std::to_string(s) + " softmax input '" + presoftmax + "'");
    }
  }
}

std::vector<TfliteModel> golden_models(bool huge) {
  std::vector<TfliteModel> models;
  for (const TfliteModel& m : tflm_golden_models())
    if (m.huge == huge) models.push_back(m);
  return models;
}

INSTANTIATE_TEST_SUITE_P(TflmGolden, TflmGoldenHost, ::testing::ValuesIn(golden_models(false)), model_case_name);
INSTANTIATE_TEST_SUITE_P(TflmGoldenHuge, TflmGoldenHost, ::testing::ValuesIn(golden_models(true)), model_case_name);

// ---------------------------------------------------------------------------------------

std::string seanet_case_name(const ::testing::TestParamInfo<SeanetModel>& info) { return info.param.name; }

class SeanetHost : public ::testing::TestWithParam<SeanetModel> {};

TEST_P(SeanetHost, IdenticalToGoldenCsv) {
  const SeanetModel m = GetParam();
  TempDir dir;
  const std::string program =
      compile_tflite(dir, seanet_dir(m) + "/" + m.name + ".tflite", m.name, "host");
  const SeanetCase c = prepare_seanet(dir, m, program);
  const CommandResult r =
      run_mote("run " + shell_quote(program) + c.input_args + " --output-dir " + shell_quote(dir.file("out")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_identical(read_npy(dir.file("out") + "/out0.npy"), c.golden, m.name);
}

INSTANTIATE_TEST_SUITE_P(Seanet, SeanetHost, ::testing::ValuesIn(seanet_models()), seanet_case_name);

// ---------------------------------------------------------------------------------------
// Expectations from ../shared/models/README.md, on the real sample inputs beside the models.

NpyArray run_sample(const TempDir& dir, const std::string& program, const std::string& input, int sample) {
  const std::string out_dir = dir.file("s" + std::to_string(sample));
  const CommandResult r = run_mote("run " + shell_quote(program) + " --input " + shell_quote(input) +
                                   " --output-dir " + shell_quote(out_dir));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return read_npy(out_dir + "/out0.npy");
}

TEST(TfliteExpectations, MicroSpeechHearsYesThenNo) {
  TempDir dir;
  const std::string stem = shared_models() + "/tflite/tflm/micro_speech_quantized";
  const std::string program = compile_tflite(dir, stem + ".tflite", "micro_speech", "host");
  const size_t expected[] = {2, 3};  // s0: "yes", s1: "no" (labels silence, unknown, yes, no)
  for (int s = 0; s < 2; ++s)
    EXPECT_EQ(argmax(run_sample(dir, program, stem + ".s" + std::to_string(s) + ".in0.npy", s)), expected[s])
        << "sample " << s;
}

TEST(TfliteExpectations, HelloWorldInt8ApproximatesSine) {
  TempDir dir;
  const std::string stem = shared_models() + "/tflite/tflm/hello_world_int8";
  const std::string program = compile_tflite(dir, stem + ".tflite", "hello_world_int8", "host");
  const double x[] = {0.77, 1.57, 2.3, 3.14};
  const float output_scale = 0.008290957f;  // README: output s=0.008290957 zp=5
  const int output_zero_point = 5;
  for (int s = 0; s < 4; ++s) {
    const NpyArray out = run_sample(dir, program, stem + ".s" + std::to_string(s) + ".in0.npy", s);
    ASSERT_EQ(out.dtype, DType::kInt8);
    const double y = output_scale * (element(out, 0) - output_zero_point);
    EXPECT_NEAR(y, std::sin(x[s]), 0.05) << "sample " << s << " (x = " << x[s] << ")";
  }
}

TEST(TfliteExpectations, HelloWorldFloatApproximatesSine) {
  TempDir dir;
  const std::string stem = shared_models() + "/tflite/tflm/hello_world_float";
  const std::string program = compile_tflite(dir, stem + ".tflite", "hello_world_float", "host");
  const double x[] = {0.0, 1.0, 3.0, 5.0};
  for (int s = 0; s < 4; ++s) {
    const NpyArray out = run_sample(dir, program, stem + ".s" + std::to_string(s) + ".in0.npy", s);
    ASSERT_EQ(out.dtype, DType::kFloat32);
    EXPECT_NEAR(element(out, 0), std::sin(x[s]), 0.05) << "sample " << s << " (x = " << x[s] << ")";
  }
}

// kws_ref_model_float32 is a TFLite "hybrid" model (int8 conv filters, float activations):
// its filters are dequantized at compile time, and it must hear what the int8 model hears.
TEST(TfliteExpectations, HybridKwsAgreesWithInt8Kws) {
  TempDir dir;
  const std::string stem = shared_models() + "/tflite/mlperf_tiny/kws_ref_model";
  const std::string float_program = compile_tflite(dir, stem + "_float32.tflite", "kws_float", "host");
  const std::string int8_program = compile_tflite(dir, stem + ".tflite", "kws_int8", "host");
  const NpyArray f = run_sample(dir, float_program, stem + "_float32.s0.in0.npy", 0);
  const NpyArray q = run_sample(dir, int8_program, stem + ".s0.in0.npy", 1);
  ASSERT_EQ(f.dtype, DType::kFloat32);
  EXPECT_EQ(argmax(f), argmax(q));
  EXPECT_GT(element(f, argmax(f)), 0.5);
}

// The MNIST LSTM reads a digit's 28 rows as a 28-step sequence; sample k shows the digit k.
TEST(TfliteExpectations, MnistLstmClassifiesDigits) {
  TempDir dir;
  const std::string stem = shared_models() + "/tflite/tflm/trained_lstm_int8";
  const std::string program = compile_tflite(dir, stem + ".tflite", "trained_lstm_int8", "host");
  for (int s = 0; s < 10; ++s) {
    const NpyArray out = run_sample(dir, program, stem + ".s" + std::to_string(s) + ".in0.npy", s);
    ASSERT_EQ(out.dtype, DType::kInt8);
    EXPECT_EQ(argmax(out), static_cast<size_t>(s)) << "sample " << s;
  }
}

// ---------------------------------------------------------------------------------------
// Arena and MACs against TensorFlow Lite Micro. The figures are copied from
// ../shared/models/BASELINES.md ("arena min, M4 CMSIS-NN" and "MACs" columns).

struct Baseline {
  const char* name;
  uint64_t tflm_arena_cmsis_nn;  // bytes
  uint64_t macs;                 // CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED only (+ ours for the LSTM)
};

const Baseline kBaselines[] = {
    {"hello_world_int8", 1'156, 288},
    {"micro_speech_quantized", 6'836, 336'000},
    {"kws_ref_model", 22'824, 2'656'768},
    {"vww_96_int8", 100'712, 7'489'664},
    {"pretrainedResnet_quant", 55'000, 12'501'632},
    {"ad01_int8", 3'012, 264'192},
    // BASELINES.md counts no LSTM MACs; ours: 28 steps x 4 gates x 20 x (28 + 20) = 107,520
    // plus the FC's 5,600.
    {"trained_lstm_int8", 4'056, 113'120},
    {"simple_add_model", 49'608, 0},
};

class TfliteArena : public ::testing::TestWithParam<Baseline> {};

TEST_P(TfliteArena, AtMostSevenTenthsOfTflmArenaAndSameMacs) {
  const Baseline b = GetParam();
  const TfliteModel* model = nullptr;
  for (const TfliteModel& m : tflm_golden_models())
    if (std::string(m.name) == b.name) model = &m;
  ASSERT_NE(model, nullptr) << b.name;
  TempDir dir;
  // The model's MACs (patching may run some again in the tiles' overlaps: at most the
  // default --max-recompute, 10%, more); `inspect` counts the program's.
  auto compile_report = [&](const char* target) {
    const std::string program = dir.file(std::string(b.name) + "_" + target + ".mote");
    const CommandResult c = run_mote("compile " + shell_quote(model_path(*model)) + " -o " + shell_quote(program) +
                                     " --target " + target + " --json");
    EXPECT_EQ(c.exit_code, 0) << c.err;
    auto report = nlohmann::json::parse(c.out);
    EXPECT_EQ(report["patching"]["unpatched_macs"].get<uint64_t>(), b.macs) << b.name << " on " << target;
    EXPECT_LE(report["macs"].get<uint64_t>(), b.macs + b.macs / 10) << b.name << " on " << target;
    const CommandResult r = run_mote("inspect " + shell_quote(program) + " --json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["macs"], report["macs"]) << b.name << " on " << target;
    return report;
  };
  // Issue 5's bar: at most 0.7x TFLM's arena (recorded for the Cortex-M4 with CMSIS-NN)
  // on the DSP cores, which run the same kernel variants, and on the Helium build, which
  // runs others (other scratch); the MACs are counted the same everywhere.
  const uint64_t arena = compile_report("cortex-m4")["arena_bytes"].get<uint64_t>();
  for (const char* target : {"cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55"}) {
    const uint64_t other = target == std::string("cortex-m4") ? arena : compile_report(target)["arena_bytes"].get<uint64_t>();
    EXPECT_LE(other * 10, b.tflm_arena_cmsis_nn * 7)
        << b.name << " on " << target << ": arena " << other << " bytes vs 0.7 x TFLM " << b.tflm_arena_cmsis_nn;
  }
  std::cout << "[ arena    ] " << b.name << ": " << arena << " bytes (TFLM CMSIS-NN " << b.tflm_arena_cmsis_nn << ")\n";
}

INSTANTIATE_TEST_SUITE_P(Baselines, TfliteArena, ::testing::ValuesIn(kBaselines),
                         [](const ::testing::TestParamInfo<Baseline>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace mote::testing

namespace mote::testing {
namespace {

// --optimize memory: the cortex-m4 variants whose scratch raises the arena
// (fully_connected_s8__dsp's widened rows in ad01) give way to the reference kernels, so
// the arena shrinks, and the outputs stay identical to the golden. (simple_add's
// add_s8_lut__dsp has no scratch: both modes give the same arena, checked below.)
TEST(OptimizeMemory, GivesUpVariantScratchThatRaisesTheArena) {
  for (const char* name : {"simple_add_model", "ad01_int8"}) {
    const TfliteModel* model = nullptr;
    for (const TfliteModel& m : tflm_golden_models())
      if (std::string(m.name) == name) model = &m;
    ASSERT_NE(model, nullptr) << name;
    TempDir dir;
    auto arena_of = [&](const std::string& optimize) {
      const std::string program = dir.file(optimize + ".mote");
      const CommandResult c = run_mote("compile " + shell_quote(model_path(*model)) + " -o " + shell_quote(program) +
                                       " --target cortex-m4 --optimize " + optimize);
      EXPECT_EQ(c.exit_code, 0) << c.err;
      const CommandResult r = run_mote("inspect " + shell_quote(program) + " --json");
      EXPECT_EQ(r.exit_code, 0) << r.err;
      const std::string out_dir = dir.file(optimize + "_out");
      const CommandResult run =
          run_mote("run " + shell_quote(program) + golden_input_args(name, 0) + " --output-dir " + shell_quote(out_dir));
      EXPECT_EQ(run.exit_code, 0) << run.err;
      expect_identical(read_npy(out_dir + "/out0.npy"), read_npy(golden_path(name, 0, "out0")),
                       std::string(name) + " --optimize " + optimize);
      return nlohmann::json::parse(r.out)["arena_bytes"].get<uint64_t>();
    };
    const uint64_t speed = arena_of("speed");
    const uint64_t memory = arena_of("memory");
    if (std::string(name) == "simple_add_model") {
      EXPECT_EQ(memory, speed) << name;
    } else {
      EXPECT_LT(memory, speed) << name;
    }
    std::cout << "[ arena    ] " << name << " cortex-m4: --optimize speed " << speed << ", memory " << memory << "\n";
  }
}

// micro_speech's first layer is a depthwise convolution of its one-channel spectrogram
// (M = 8). compile() runs it as a convolution where an optimized convolution variant takes
// it without a larger arena (cortex-m55, cortex-m0plus), and keeps the depthwise kernel
// where the variant's scratch would raise the arena (cortex-m4) or only the reference
// convolution could run it (cortex-m3). Either way the outputs are TFLM's.
TEST(SingleChannelDepthwise, RunsAsAConvolutionWhereAVariantTakesItWithinTheArena) {
  const char* name = "micro_speech_quantized";
  const TfliteModel* model = nullptr;
  for (const TfliteModel& m : tflm_golden_models())
    if (std::string(m.name) == name) model = &m;
  ASSERT_NE(model, nullptr);
  TempDir dir;
  const std::pair<const char*, const char*> expected[] = {{"cortex-m55", "conv2d_s8__mve"},
                                                          {"cortex-m0plus", "conv2d_s8__v6m"},
                                                          {"cortex-m4", "depthwise_conv2d_s8_mult__dsp"},
                                                          {"cortex-m3", "depthwise_conv2d_s8"}};
  for (const auto& [target, kernel] : expected) {
    const std::string program = dir.file(std::string(target) + ".mote");
    const CommandResult c = run_mote("compile " + shell_quote(model_path(*model)) + " -o " + shell_quote(program) +
                                     " --target " + target + " --json");
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const auto report = nlohmann::json::parse(c.out);
    ASSERT_GE(report["ops"].size(), 2u);
    EXPECT_EQ(report["ops"][1]["name"], "Relu") << target;
    EXPECT_EQ(report["ops"][1]["kernel"], kernel) << target;
    const std::string out_dir = dir.file(std::string(target) + "_out");
    const CommandResult run =
        run_mote("run " + shell_quote(program) + golden_input_args(name, 0) + " --output-dir " + shell_quote(out_dir));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    expect_identical(read_npy(out_dir + "/out0.npy"), read_npy(golden_path(name, 0, "out0")),
                     std::string(name) + " compiled for " + target);
  }
}

TEST(OptimizeMemory, UnknownValueIsOneLineNamingTheFlag) {
  const CommandResult r = run_mote("compile x.tflite -o y.mote --optimize ram");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--optimize"), std::string::npos) << r.err;
  EXPECT_LE(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
}

}  // namespace
}  // namespace mote::testing
