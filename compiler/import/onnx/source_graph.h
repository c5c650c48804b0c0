// The ONNX importer's own graph: the IR's graph type (compiler/ir/graph.h) with ONNX op
// names as ops ("Conv", "Gemm", ...), ONNX semantics and layouts (NCHW). Only the
// importer's stages (onnx_importer.h) see it; legalize() turns it into an ir::Graph of
// Mote ops.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace mote::onnx_import {

using SourceGraph = ir::BasicGraph<std::string>;
using SourceNode = SourceGraph::Node;

// Drops the nodes marked in `removed` (by index), keeping the others' order, then the
// tensors nothing reads any more (remove_dead).
inline void remove_nodes(SourceGraph& graph, const std::vector<bool>& removed) {
  std::vector<SourceNode> kept;
  for (size_t k = 0; k < graph.nodes.size(); ++k)
    if (!removed[k]) kept.push_back(std::move(graph.nodes[k]));
  graph.nodes = std::move(kept);
  graph.remove_dead();
}

// What a message names the graph by: the file it was read from, else its name.
template <typename OpT>
const std::string& message_origin(const ir::BasicGraph<OpT>& graph) {
  return graph.file.empty() ? graph.name : graph.file;
}

// Throws CompileError("<graph_name>: node 'N' (Op): <what>"), the one-line form every
// source-level stage uses (graph_name: message_origin(graph)).
[[noreturn]] void fail_node(std::string_view graph_name, const SourceNode& node, const std::string& what);

}  // namespace mote::onnx_import
