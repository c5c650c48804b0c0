// The shared models (../shared/models) the compiler refuses today, each with the stage
// that refuses it and the exact message:
//   Refusal::kImport   the importer's message after "<path>: "; the file does not import
//   Refusal::kCompile  the file imports; `mote compile` fails with "error: <message>"
// Tests that walk every model (TfliteImport.EveryModelImportsOrIsRefusedForItsCustomOps,
// SharedModels/ArenaAtLowerBound, TflmGoldenCoverage) accept a refusal only for a file
// listed here, only at its stage and only with this message; any other error fails, and so
// does a listed file that compiles. A file leaves the list when its operators are
// supported (issue 12: the Vela 'ethos-u' custom op); the TFLite Micro Signal custom ops
// of the audio preprocessor are out of scope.
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
      {"ethos-u/espcn_x3_quant_vela.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
      {"ethos-u/kws_micronet_m_vela_H128.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
      {"ethos-u/kws_micronet_m_vela_H256.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
      {"ethos-u/kws_micronet_m_vela_Y256.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
      {"ethos-u/kws_micronet_m_vela_Z256.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
      {"ethos-u/squeezenet_v1_1_quant_vela.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
      {"ethos-u/yolo-fastest_192_face_v4_vela_H256.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
      {"ethos-u/yolo-fastest_192_face_v4_vela_Y256.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
      {"ethos-u/yolo-fastest_192_face_v4_vela_Z256.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
      {"ethos-u/zero_dce_quant_vela.tflite", {kImport, "operator 0: custom op 'ethos-u' not supported"}},
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

}  // namespace mote::testing
