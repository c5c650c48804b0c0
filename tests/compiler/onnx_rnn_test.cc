// ONNX LSTM, GRU and RNN (issue 18): the generated models of make_onnx_testdata.py
// (make_lstm_models, make_gru_models, make_rnn_models) compiled for the host, run by the
// runtime's kernels and compared with numpy's ONNX formulas in float64; the ops they
// become; the one-line refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "compiler.h"
#include "onnx_host_check.h"

namespace mote {
namespace {

using onnx_test::check_model;
using onnx_test::count_ops;
using onnx_test::error_of;
using onnx_test::testdata;

TEST(OnnxLstm, ForwardZeroStateAllOutputs) {
  const ir::Graph g = check_model("lstm_forward");
  EXPECT_EQ(count_ops(g, ir::Op::kLstm), 1);
  EXPECT_EQ(count_ops(g, ir::Op::kStridedSlice), 0);
}

TEST(OnnxLstm, ReverseReadsAndWritesTimeReversed) {
  // Constant initial state; Y only.
  const ir::Graph g = check_model("lstm_reverse_constant_state");
  EXPECT_EQ(count_ops(g, ir::Op::kLstm), 1);
  EXPECT_EQ(count_ops(g, ir::Op::kStridedSlice), 2);  // x reversed, y reversed back
  // Final states only, computed initial state.
  check_model("lstm_reverse_states");
}

TEST(OnnxLstm, BidirectionalTwoRunsConcatenated) {
  // Computed initial states sliced per direction; Y and Y_c (Y_h omitted).
  ir::Graph g = check_model("lstm_bidirectional_computed_state");
  EXPECT_EQ(count_ops(g, ir::Op::kLstm), 2);
  EXPECT_EQ(count_ops(g, ir::Op::kConcat), 2);
  // No bias, zero state, Y_h alone.
  g = check_model("lstm_bidirectional_final_state");
  EXPECT_EQ(count_ops(g, ir::Op::kLstm), 2);
}

TEST(OnnxGru, BothResetPlacementsEveryDirection) {
  ir::Graph g = check_model("gru_forward_lbr0");
  EXPECT_EQ(count_ops(g, ir::Op::kGru), 1);
  // PyTorch's form: linear_before_reset 1, constant initial state, Y only.
  g = check_model("gru_forward_lbr1_constant_state");
  ASSERT_EQ(count_ops(g, ir::Op::kGru), 1);
  for (const ir::Node& n : g.nodes)
    if (n.op == ir::Op::kGru) {
      EXPECT_EQ(n.get_int("linear_before_reset", -1), 1);
    }
  g = check_model("gru_reverse_computed_state");
  EXPECT_EQ(count_ops(g, ir::Op::kStridedSlice), 1);  // x reversed; Y not read
  g = check_model("gru_bidirectional");
  EXPECT_EQ(count_ops(g, ir::Op::kGru), 2);
}

TEST(OnnxRnn, TanhAndReluEveryDirection) {
  ir::Graph g = check_model("rnn_forward_tanh");
  ASSERT_EQ(count_ops(g, ir::Op::kRnn), 1);
  g = check_model("rnn_reverse_relu_constant_state");
  for (const ir::Node& n : g.nodes)
    if (n.op == ir::Op::kRnn) {
      EXPECT_EQ(n.get_string("activation", ""), "relu");
    }
  g = check_model("rnn_bidirectional_relu");
  EXPECT_EQ(count_ops(g, ir::Op::kRnn), 2);
}

TEST(OnnxLstmErrors, ExactMessagesNameTheFile) {
  struct Case {
    const char* file;
    std::string message;  // after "<path>: "
  };
  const Case cases[] = {
      {"lstm_layout1.onnx",
       "node 'lstm' (LSTM): attribute 'layout' value 1 not supported (batch-major X; PyTorch's batch_first "
       "exports layout 0)"},
      {"lstm_clip.onnx", "node 'lstm' (LSTM): attribute 'clip' value 3 not supported (no clipping)"},
      {"lstm_input_forget.onnx",
       "node 'lstm' (LSTM): attribute 'input_forget' value 1 not supported (coupled input and forget gates)"},
      {"lstm_activations.onnx",
       "node 'lstm' (LSTM): attribute 'activations' value [Sigmoid,Relu,Tanh] not supported (default "
       "activations only)"},
      {"lstm_sequence_lens.onnx",
       "node 'lstm' (LSTM): input 'sequence_lens' not supported (every sequence has the full length)"},
      {"rnn_sigmoid.onnx",
       "node 'rnn' (RNN): attribute 'activations' value [Sigmoid] not supported (Tanh or Relu in every direction)"},
      {"gru_clip.onnx", "node 'gru' (GRU): attribute 'clip' value 2 not supported (no clipping)"},
  };
  for (const Case& c : cases) {
    const std::string path = testdata(c.file);
    EXPECT_EQ(error_of([&] { import_model(path); }), path + ": " + c.message) << c.file;
  }
}

}  // namespace
}  // namespace mote
