// Operators and tensors for the control-flow op tests (if_test.cc, while_test.cc): models
// of several subgraphs built with tflite_builder.h.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ops/tflite_builder.h"

namespace mote::testing::control_flow {

inline OpSpec op(fb::BuiltinOperator code, std::vector<int32_t> in, std::vector<int32_t> out) {
  OpSpec o;
  o.code = op_code(code);
  o.inputs = std::move(in);
  o.outputs = std::move(out);
  return o;
}

inline OpSpec if_op(std::vector<int32_t> in, std::vector<int32_t> out, int32_t then_index, int32_t else_index) {
  OpSpec o = op(fb::BuiltinOperator::IF, std::move(in), std::move(out));
  o.options_type = fb::BuiltinOptions::IfOptions;
  o.options = [then_index, else_index](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateIfOptions(b, then_index, else_index).Union();
  };
  return o;
}

inline OpSpec while_op(std::vector<int32_t> in, std::vector<int32_t> out, int32_t cond_index, int32_t body_index) {
  OpSpec o = op(fb::BuiltinOperator::WHILE, std::move(in), std::move(out));
  o.options_type = fb::BuiltinOptions::WhileOptions;
  o.options = [cond_index, body_index](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateWhileOptions(b, cond_index, body_index).Union();
  };
  return o;
}

// VAR_HANDLE of the variable `shared_name` into tensor `out`.
inline OpSpec var_handle_op(int32_t out, const std::string& shared_name) {
  OpSpec o = op(fb::BuiltinOperator::VAR_HANDLE, {}, {out});
  o.options_type = fb::BuiltinOptions::VarHandleOptions;
  o.options = [shared_name](flatbuffers::FlatBufferBuilder& b) {
    return fb::CreateVarHandleOptions(b, 0, b.CreateString(shared_name)).Union();
  };
  return o;
}

inline TensorSpec f32(const std::string& name, std::vector<int32_t> shape, std::vector<float> data = {}) {
  return TensorSpec(name, std::move(shape), fb::TensorType::FLOAT32, bytes_of(data));
}

inline TensorSpec i32(const std::string& name, std::vector<int32_t> shape, std::vector<int32_t> data = {}) {
  return TensorSpec(name, std::move(shape), fb::TensorType::INT32, bytes_of(data));
}

inline TensorSpec boolean(const std::string& name, std::vector<int32_t> shape) {
  return TensorSpec(name, std::move(shape), fb::TensorType::BOOL);
}

}  // namespace mote::testing::control_flow
