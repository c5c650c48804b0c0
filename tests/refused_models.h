// The shared models (../shared/models) the compiler refuses today, each with the stage
// that refuses it and the exact message:
//   Refusal::kImport   the importer's message after "<path>: "; the file does not import
//   Refusal::kCompile  the file imports; `mote compile` fails with "error: <message>"
// Tests that walk every model (TfliteImport.EveryModelImportsOrIsRefusedForItsCustomOps,
// SharedModels/ArenaAtLowerBound, TflmGoldenCoverage) accept a refusal only for a file
// listed here, only at its stage and only with this message; any other error fails, and so
// does a listed file that compiles. A file leaves the list when its operators are
// supported; the TFLite Micro Signal custom ops of the audio preprocessor are out of scope.
// The Vela-compiled files compile with the --npu they were compiled for (npu_of()).
#pragma once

#include <map>
#include <string>

namespace mote::testing {

// Path relative to ../shared/models -> the stage that refuses it and its message.
struct Refusal {
  enum Stage { kImport, kCompile };
  Stage stage;
  std::string message;
};

inline const std::map<std::string, Refusal>& refused_models() {
  constexpr Refusal::Stage kImport = Refusal::kImport;
  static const std::map<std::string, Refusal> refusals = {
      {"tflite/tflm/audio_preprocessor_float.tflite", {kImport, "operator 0: custom op 'SignalWindow' not supported"}},
      {"tflite/tflm/audio_preprocessor_int8.tflite", {kImport, "operator 0: custom op 'SignalWindow' not supported"}},
  };
  return refusals;
}

// The reason `relative` (a path under ../shared/models) is refused, or nullptr when it is
// expected to compile.
inline const Refusal* refusal_of(const std::string& relative) {
  const auto it = refused_models().find(relative);
  return it == refused_models().end() ? nullptr : &it->second;
}

// The --npu a Vela-compiled model of ../shared/models/ethos-u was compiled for (its
// README: H = Ethos-U55, Y = U65, Z = U85; the ATU files are U65-256), "" for any other
// model. The tests that compile every model pass it (` --npu <it>`).
inline std::string npu_of(const std::string& relative) {
  static const std::map<std::string, std::string> npus = {
      {"ethos-u/espcn_x3_quant_vela.tflite", "ethos-u65-256"},
      {"ethos-u/kws_micronet_m_vela_H128.tflite", "ethos-u55-128"},
      {"ethos-u/kws_micronet_m_vela_H256.tflite", "ethos-u55-256"},
      {"ethos-u/kws_micronet_m_vela_Y256.tflite", "ethos-u65-256"},
      {"ethos-u/kws_micronet_m_vela_Z256.tflite", "ethos-u85-256"},
      {"ethos-u/squeezenet_v1_1_quant_vela.tflite", "ethos-u65-256"},
      {"ethos-u/yolo-fastest_192_face_v4_vela_H256.tflite", "ethos-u55-256"},
      {"ethos-u/yolo-fastest_192_face_v4_vela_Y256.tflite", "ethos-u65-256"},
      {"ethos-u/yolo-fastest_192_face_v4_vela_Z256.tflite", "ethos-u85-256"},
      {"ethos-u/zero_dce_quant_vela.tflite", "ethos-u65-256"},
  };
  const auto it = npus.find(relative);
  return it == npus.end() ? "" : it->second;
}

}  // namespace mote::testing
