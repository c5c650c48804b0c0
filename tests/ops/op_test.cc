// The per-op test harness (op_test.h).
#include "ops/op_test.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "common/error.h"
#include "compiler.h"
#include "device_runner.h"
#include "host/loaded_program.h"
#include "kernel_ids.h"
#include "import/tflite/tflite_importer.h"
#include "test_util.h"

namespace mote::testing {
namespace {

// Bytes per element of a graph output's type; 0 for a type the harness cannot compare.
size_t element_bytes(fb::TensorType type) {
  switch (type) {
    case fb::TensorType::FLOAT32:
    case fb::TensorType::INT32:
    case fb::TensorType::UINT32:
      return 4;
    case fb::TensorType::INT16:
    case fb::TensorType::UINT16:
    case fb::TensorType::FLOAT16:
      return 2;
    case fb::TensorType::INT8:
    case fb::TensorType::UINT8:
    case fb::TensorType::BOOL:
      return 1;
    case fb::TensorType::INT64:
      return 8;
    default:
      return 0;
  }
}

int64_t element_as_int(const std::vector<uint8_t>& bytes, size_t i, fb::TensorType type) {
  switch (type) {
    case fb::TensorType::INT8: return static_cast<int8_t>(bytes[i]);
    case fb::TensorType::UINT8:
    case fb::TensorType::BOOL: return bytes[i];
    case fb::TensorType::INT16: { int16_t v; std::memcpy(&v, &bytes[i * 2], 2); return v; }
    case fb::TensorType::UINT16: { uint16_t v; std::memcpy(&v, &bytes[i * 2], 2); return v; }
    case fb::TensorType::INT32: { int32_t v; std::memcpy(&v, &bytes[i * 4], 4); return v; }
    case fb::TensorType::UINT32: { uint32_t v; std::memcpy(&v, &bytes[i * 4], 4); return v; }
    case fb::TensorType::INT64: { int64_t v; std::memcpy(&v, &bytes[i * 8], 8); return v; }
    default: return 0;
  }
}

// Compares one output; reports the first few differing elements.
void expect_output(const std::string& what, fb::TensorType type, const std::vector<uint8_t>& expected,
                   const std::vector<uint8_t>& actual, FloatTolerance tolerance) {
  const size_t bytes = element_bytes(type);
  ASSERT_NE(bytes, 0u) << what << ": the harness cannot compare output type " << fb::EnumNameTensorType(type);
  ASSERT_EQ(expected.size() % bytes, 0u) << what << ": expected bytes are not whole elements";
  ASSERT_EQ(actual.size(), expected.size()) << what << ": output size";
  int reported = 0;
  for (size_t i = 0; i < expected.size() / bytes && reported < 5; ++i) {
    if (type == fb::TensorType::FLOAT32) {
      float e, a;
      std::memcpy(&e, &expected[i * 4], 4);
      std::memcpy(&a, &actual[i * 4], 4);
      const bool same_infinity = std::isinf(e) && a == e;
      const bool both_nan = std::isnan(e) && std::isnan(a);  // TFLite's result is NaN
      const double limit = tolerance.absolute + tolerance.relative * std::fabs(static_cast<double>(e));
      if (!same_infinity && !both_nan && !(std::fabs(static_cast<double>(a) - e) <= limit)) {
        ADD_FAILURE() << what << " element " << i << ": expected " << e << ", got " << a << " (limit " << limit
                      << ")";
        ++reported;
      }
    } else {
      const int64_t e = element_as_int(expected, i, type), a = element_as_int(actual, i, type);
      if (e != a) {
        ADD_FAILURE() << what << " element " << i << ": expected " << e << ", got " << a;
        ++reported;
      }
    }
  }
}

}  // namespace

// Also into $MOTE_OP_MODEL_DIR when set (tools/fuzz.sh: seeds for the .tflite importer).
std::string write_model(const TempDir& dir, const std::string& name, const ModelSpec& spec) {
  const std::string path = dir.file(name + ".tflite");
  const std::vector<uint8_t> bytes = build_model(spec);
  write_bytes(path, bytes);
  if (const char* seeds = std::getenv("MOTE_OP_MODEL_DIR"); seeds != nullptr && *seeds != '\0')
    write_bytes(std::string(seeds) + "/op_" + name + ".tflite", bytes);
  return path;
}

std::vector<uint8_t> compile_for(const std::string& model, const std::string& target) {
  CompileOptions options;
  options.model_path = model;
  options.target = target;
  return compile(options).program;
}

namespace {

std::vector<std::vector<uint8_t>> run_host(LoadedProgram& loaded, const OpSample& sample) {
  for (size_t i = 0; i < sample.inputs.size(); ++i) loaded.set_input(static_cast<uint32_t>(i), sample.inputs[i]);
  loaded.run();
  std::vector<std::vector<uint8_t>> outputs;
  for (uint32_t i = 0; i < loaded.interpreter().output_count(); ++i) {
    const std::span<const uint8_t> out = loaded.output(i);
    outputs.emplace_back(out.begin(), out.end());
  }
  return outputs;
}

// Every sample's outputs on the host: each in a freshly loaded program (the arena filled
// with garbage first), or, with `in_sequence`, all of them in order in one loaded program,
// which then runs the sequence again after reset_state() and must give the same outputs
// (the state restarts); a difference is a test failure.
std::vector<std::vector<std::vector<uint8_t>>> run_samples_on_host(const std::vector<uint8_t>& program,
                                                                   const std::vector<OpSample>& samples,
                                                                   bool in_sequence) {
  std::vector<std::vector<std::vector<uint8_t>>> outputs;
  std::optional<LoadedProgram> loaded;
  for (const OpSample& sample : samples) {
    if (!in_sequence || !loaded) loaded.emplace(program, "op test program", std::nullopt, 0x5A);
    outputs.push_back(run_host(*loaded, sample));
  }
  if (in_sequence) {
    EXPECT_EQ(loaded->interpreter().reset_state(), Status::kOk);
    for (size_t s = 0; s < samples.size(); ++s)
      EXPECT_EQ(run_host(*loaded, samples[s]), outputs[s]) << "sample " << s << " after reset_state()";
  }
  return outputs;
}

// Every node the import gives is one of the Mote ops tflite_operators() lists for the
// model's operators (what `mote compile --list-ops` reports them as).
void expect_declared_ops(const std::string& name, const std::string& model, const ModelSpec& spec) {
  std::set<ir::Op> declared;
  std::vector<OpSpec> ops = spec.ops;
  for (const SubgraphSpec& sub : spec.subgraphs) ops.insert(ops.end(), sub.ops.begin(), sub.ops.end());
  for (const OpSpec& op : ops) {
    const std::string op_name = fb::EnumNameBuiltinOperator(static_cast<fb::BuiltinOperator>(op.code));
    for (const TfliteOperator& t : tflite_operators())
      if (t.name == op_name) declared.insert(t.becomes.begin(), t.becomes.end());
  }
  for (const ir::Node& node : import_model(model).nodes)
    EXPECT_TRUE(declared.count(node.op)) << name << ": node '" << node.name << "' is " << ir::op_name(node.op)
                                         << ", which tflite_operators() does not list for its operator";
}

}  // namespace

const std::vector<std::string>& op_test_devices() {
  static const std::vector<std::string> devices = [] {
    std::vector<std::string> list;
    const char* env = std::getenv("MOTE_OP_DEVICES");
    std::istringstream in(env != nullptr ? env : "");
    for (std::string device; std::getline(in, device, ',');)
      if (!device.empty()) list.push_back(device);
    return list;
  }();
  return devices;
}

namespace {

// Compares every output of every sample of `name` on `device` with its expected bytes.
void expect_sample_outputs(const std::string& name, const std::string& device,
                           const std::vector<fb::TensorType>& output_types, const std::vector<OpSample>& samples,
                           const std::vector<std::vector<std::vector<uint8_t>>>& sample_outputs,
                           FloatTolerance tolerance) {
  ASSERT_EQ(sample_outputs.size(), samples.size()) << name << " on " << device;
  for (size_t s = 0; s < samples.size(); ++s) {
    const OpSample& sample = samples[s];
    const std::string what = name + " on " + device + " sample " + std::to_string(s);
    const std::vector<std::vector<uint8_t>>& outputs = sample_outputs[s];
    ASSERT_EQ(outputs.size(), sample.expected.size()) << what;
    for (size_t o = 0; o < outputs.size(); ++o)
      expect_output(what + " output " + std::to_string(o), output_types[o], sample.expected[o], outputs[o], tolerance);
  }
}

// A case's runs on an emulated core, made when the test ends (OpTest::TearDown): all of
// a test's cases for one core share one QEMU session (run_jobs_on_device).
struct DeviceCheck {
  std::string name;
  std::string device;
  std::shared_ptr<const TempDir> dir;  // holds the program file
  std::string program_path;
  std::vector<fb::TensorType> output_types;
  std::vector<OpSample> samples;
  FloatTolerance tolerance;
  bool in_sequence = false;
};

std::vector<DeviceCheck>& pending_device_checks() {
  static std::vector<DeviceCheck> checks;
  return checks;
}

void check_samples(const std::string& name, const ModelSpec& spec, const std::vector<OpSample>& samples,
                   FloatTolerance tolerance, bool in_sequence) {
  ASSERT_FALSE(samples.empty()) << name << ": no samples";
  const auto dir = std::make_shared<const TempDir>();
  const std::string model = write_model(*dir, name, spec);
  try {
    expect_declared_ops(name, model, spec);
  } catch (const CompileError& e) {
    FAIL() << name << ": " << e.what();
  }
  std::vector<fb::TensorType> output_types;
  for (int32_t output : spec.outputs) output_types.push_back(spec.tensors.at(static_cast<size_t>(output)).type);
  std::vector<std::string> devices = {"host"};
  for (const std::string& d : op_test_devices()) devices.push_back(d);
  for (const std::string& device : devices) {
    const std::string target = device == "host" ? "host" : device.substr(std::string("qemu-").size());
    std::vector<uint8_t> program;
    try {
      program = compile_for(model, target);
    } catch (const CompileError& e) {
      FAIL() << name << " for " << target << ": " << e.what();
    }
    const std::string program_path = dir->file(name + "-" + target + ".mote");
    write_bytes(program_path, program);
    if (device != "host") {
      pending_device_checks().push_back({name, device, dir, program_path, output_types, samples, tolerance, in_sequence});
      continue;
    }
    std::vector<std::vector<std::vector<uint8_t>>> sample_outputs;
    try {
      sample_outputs = run_samples_on_host(program, samples, in_sequence);
    } catch (const std::exception& e) {
      FAIL() << name << " on " << device << ": " << e.what();
    }
    expect_sample_outputs(name, device, output_types, samples, sample_outputs, tolerance);
  }
}

}  // namespace

void OpTest::TearDown() {
  std::vector<DeviceCheck> checks;
  checks.swap(pending_device_checks());
  std::set<std::string> devices;
  for (const DeviceCheck& check : checks) devices.insert(check.device);
  for (const std::string& device : devices) {
    // One job per sample (each in a freshly loaded program), or per sequence.
    std::vector<DeviceJob> jobs;
    std::vector<const DeviceCheck*> job_check;
    for (const DeviceCheck& check : checks) {
      if (check.device != device) continue;
      const uint32_t output_count = static_cast<uint32_t>(check.output_types.size());
      if (check.in_sequence) {
        DeviceJob job{check.program_path, {}, output_count};
        for (const OpSample& sample : check.samples) job.runs.push_back(sample.inputs);
        jobs.push_back(std::move(job));
        job_check.push_back(&check);
      } else {
        for (const OpSample& sample : check.samples) {
          jobs.push_back({check.program_path, {sample.inputs}, output_count});
          job_check.push_back(&check);
        }
      }
    }
    std::vector<DeviceJobResult> results;
    try {
      results = run_jobs_on_device(device, jobs);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "on " << device << ": " << e.what();
      continue;
    }
    // The results in job order: each check's samples, then the next check's.
    size_t next = 0;
    while (next < jobs.size()) {
      const DeviceCheck& check = *job_check[next];
      std::vector<std::vector<std::vector<uint8_t>>> sample_outputs;
      std::string error;
      for (; next < jobs.size() && job_check[next] == &check; ++next) {
        DeviceJobResult& result = results[next];
        if (!result.error.empty() && error.empty()) error = result.error;
        sample_outputs.push_back(std::move(result.result.outputs));
        for (auto& later : result.result.later_outputs) sample_outputs.push_back(std::move(later));
      }
      if (!error.empty()) {
        ADD_FAILURE() << check.name << " on " << device << ": " << error;
        continue;
      }
      expect_sample_outputs(check.name, device, check.output_types, check.samples, sample_outputs, check.tolerance);
    }
  }
}

void expect_op_outputs(const std::string& name, const ModelSpec& spec, const std::vector<OpSample>& samples,
                       FloatTolerance tolerance) {
  check_samples(name, spec, samples, tolerance, false);
}

void expect_op_sequence(const std::string& name, const ModelSpec& spec, const std::vector<OpSample>& samples,
                        FloatTolerance tolerance) {
  check_samples(name, spec, samples, tolerance, true);
}

namespace {

// The one-line error compiling `spec` with `options` (model_path set here), the temporary
// folder cut from its start; "" when it compiles.
std::string compile_error(const std::string& name, const ModelSpec& spec, CompileOptions options) {
  TempDir dir;
  options.model_path = write_model(dir, name, spec);
  try {
    compile(options);
  } catch (const CompileError& e) {
    std::string message = e.what();
    if (message.rfind(options.model_path, 0) == 0)
      message = name + ".tflite" + message.substr(options.model_path.size());
    return message;
  }
  return "";
}

}  // namespace

std::string op_error(const std::string& name, const ModelSpec& spec) {
  CompileOptions options;
  options.target = "host";
  return compile_error(name, spec, options);
}

std::string quantize_error(const std::string& name, const ModelSpec& spec, const ir::Shape& input_shape) {
  CompileOptions options;
  options.quantize = "int8";
  ptq::CalibrationInput sample;
  sample.path = "x.npy";
  sample.shape = input_shape;
  sample.data.assign(static_cast<size_t>(ir::element_count(input_shape)) * sizeof(float), 0);
  options.calibration = {sample};
  return compile_error(name, spec, options);
}

std::vector<std::string> op_kernels_run(const std::string& name, const ModelSpec& spec, const OpSample& sample) {
  TempDir dir;
  const std::vector<uint8_t> bytes = compile_for(write_model(dir, name, spec), "host");
  LoadedProgram program(bytes, name);
  for (size_t i = 0; i < sample.inputs.size(); ++i) program.set_input(static_cast<uint32_t>(i), sample.inputs[i]);
  struct Seen {
    const Interpreter* interpreter;
    std::vector<std::string> kernels;
  } seen{&program.interpreter(), {}};
  ProfileHook hook{};
  hook.user = &seen;
  hook.op_begin = [](void* user, uint32_t op) {
    auto* s = static_cast<Seen*>(user);
    s->kernels.push_back(kernel_name(static_cast<KernelId>(s->interpreter->op_desc(op)->kernel)));
  };
  program.run(&hook);
  return seen.kernels;
}

void ref_quantize_multiplier(double real, int32_t* multiplier, int32_t* shift) {
  if (real == 0) {
    *multiplier = 0;
    *shift = 0;
    return;
  }
  int exponent = 0;
  const double fraction = std::frexp(real, &exponent);
  int64_t fixed = static_cast<int64_t>(std::round(fraction * 2147483648.0));
  if (fixed == (int64_t{1} << 31)) {
    fixed /= 2;
    ++exponent;
  }
  if (exponent < -31) {
    fixed = 0;
    exponent = 0;
  }
  if (exponent > 30) {
    fixed = (int64_t{1} << 31) - 1;
    exponent = 30;
  }
  *multiplier = static_cast<int32_t>(fixed);
  *shift = exponent;
}

int32_t quantize_value(double real, double scale, int32_t zero_point, int32_t lo, int32_t hi) {
  const double q = std::round(real / scale) + zero_point;
  return static_cast<int32_t>(std::min<double>(hi, std::max<double>(lo, q)));
}

}  // namespace mote::testing
