// The ONNX importer's own graph: the IR's graph type (compiler/ir/graph.h) with ONNX op
// names as ops ("Conv", "Gemm", ...), ONNX semantics and layouts (NCHW). Only the
// importer's stages (onnx_importer.h) see it; legalize() turns it into an ir::Graph of
// Mote ops.
#pragma once

#include <string>
#include <string_view>

#include "ir/graph.h"

namespace mote::onnx_import {

using SourceGraph = ir::BasicGraph<std::string>;
using SourceNode = SourceGraph::Node;

// What a message names the graph by: the file it was read from, else its name.
template <typename OpT>
const std::string& message_origin(const ir::BasicGraph<OpT>& graph) {
  return graph.file.empty() ? graph.name : graph.file;
}

// Throws CompileError("<graph_name>: node 'N' (Op): <what>"), the one-line form every
// source-level stage uses (graph_name: message_origin(graph)).
[[noreturn]] void fail_node(std::string_view graph_name, const SourceNode& node, const std::string& what);

}  // namespace mote::onnx_import
