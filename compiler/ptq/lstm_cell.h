// The cell state of an lstm node (TFLite UNIDIRECTIONAL_SEQUENCE_LSTM) under --quantize.
//
// TFLite's integer LSTM keeps its cell state in int16 with zero point 0 and a power-of-two
// scale that must cover the cell's values at every time step. Those values are not a graph
// tensor (only the state after the last step is), so calibration cannot see them by
// observing tensors: observe_lstm_cell() evaluates the node's float recurrence itself, on
// the node's actual inputs of one calibration run (x, h0, c0 as the float program computed
// them, or their constants) with its constant float weights, in the float LSTM kernel's
// arithmetic (sums in the same order, cell_clip applied), for every batch row and every
// step, whatever the direction (a reverse direction is a forward lstm over
// time-reversed x), the layout (time_major or not) or the sequence length.
#pragma once

#include <optional>

#include "ir/graph.h"
#include "report.h"

namespace mote::ptq {

// Widens `range` to every cell state value of one run of lstm `node` of `graph`: the
// initial c0 and the cell after each step. x, h0 and c0 are the node's inputs 0, 18 and 19
// as float32 values. False (range unchanged) when the node's weights or biases are not
// float32 constants or its shapes are not an lstm's.
bool observe_lstm_cell(const ir::Graph& graph, const ir::Node& node, const float* x, const float* h0,
                       const float* c0, std::optional<Range>* range);

// TFLite's post-training quantizer's cell state scale (quantize_model.cc, a state tensor
// with extend_to_power_of_two): 2^p / 32768 for the smallest p in 0..10 with 2^p >= the
// range's largest magnitude (p = 10 beyond 1024: the cell then saturates at +-1024).
float lstm_cell_scale(Range range);

}  // namespace mote::ptq
