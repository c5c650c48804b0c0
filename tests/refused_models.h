// The shared models (../shared/models) the compiler refuses today, each with the exact
// reason: the importer's message after "<path>: ". Tests that walk every model
// (TfliteImport.EveryModelImportsOrIsRefusedForItsCustomOps, SharedModels/ArenaAtLowerBound,
// TflmGoldenCoverage) accept a refusal only for a file listed here and only with this
// reason; any other error fails, and so does a listed file that imports. A file leaves the
// list when its operators are supported (issue 10: TRANSPOSE, RESIZE_NEAREST_NEIGHBOR,
// HARD_SWISH; issue 12: the Vela 'ethos-u' custom op); the TFLite Micro Signal custom ops
// of the audio preprocessor are out of scope.
#pragma once

#include <map>
#include <string>

namespace mote::testing {

// Path relative to ../shared/models -> the reason it is refused.
inline const std::map<std::string, std::string>& refused_models() {
  static const std::map<std::string, std::string> refusals = {
      {"ethos-u/espcn_x3_quant.tflite", "operator 5: op code 39 (TRANSPOSE) not supported"},
      {"ethos-u/espcn_x3_quant_vela.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"ethos-u/kws_micronet_m_vela_H128.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"ethos-u/kws_micronet_m_vela_H256.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"ethos-u/kws_micronet_m_vela_Y256.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"ethos-u/kws_micronet_m_vela_Z256.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"ethos-u/squeezenet_v1_1_quant.tflite", "operator 1: op code 39 (TRANSPOSE) not supported"},
      {"ethos-u/squeezenet_v1_1_quant_vela.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"ethos-u/yolo-fastest_192_face_v4.tflite",
       "operator 106: op code 97 (RESIZE_NEAREST_NEIGHBOR) not supported"},
      {"ethos-u/yolo-fastest_192_face_v4_vela_H256.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"ethos-u/yolo-fastest_192_face_v4_vela_Y256.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"ethos-u/yolo-fastest_192_face_v4_vela_Z256.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"ethos-u/zero_dce_quant.tflite", "operator 4: op code 39 (TRANSPOSE) not supported"},
      {"ethos-u/zero_dce_quant_vela.tflite", "operator 0: custom op 'ethos-u' not supported"},
      {"realworld/Mobilenet_v3_small_quant.tflite", "operator 4: op code 117 (HARD_SWISH) not supported"},
      {"realworld/dncnn_color_blind_quant.tflite", "operator 2: op code 39 (TRANSPOSE) not supported"},
      {"realworld/zero_dce_pp_quant.tflite", "operator 4: op code 39 (TRANSPOSE) not supported"},
      {"tflite/tflm/audio_preprocessor_float.tflite", "operator 0: custom op 'SignalWindow' not supported"},
      {"tflite/tflm/audio_preprocessor_int8.tflite", "operator 0: custom op 'SignalWindow' not supported"},
  };
  return refusals;
}

// The reason `relative` (a path under ../shared/models) is refused, or nullptr when it is
// expected to compile.
inline const std::string* refusal_of(const std::string& relative) {
  const auto it = refused_models().find(relative);
  return it == refused_models().end() ? nullptr : &it->second;
}

}  // namespace mote::testing
