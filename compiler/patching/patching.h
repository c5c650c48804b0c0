// Patch-based execution (MCUNetV2): the memory-heavy first stages of a CNN run tile by
// tile instead of layer by layer.
//
// A stage is a run of consecutive nodes [first, end) in execution order that reads one
// activation from outside (its input) and leaves one behind (its output), every node a
// spatial op over NHWC tensors: convolution, depthwise convolution, pooling, or an
// elementwise op (activations, quantize/dequantize, add/sub/mul/div of same-shape
// activations or of constants that do not vary over rows and columns), or the NCHW->NHWC
// transpose legalization puts after a channels-first model input (the stage input and
// the elementwise ops before that transpose are then cropped channels-first). The stage
// output is cut into a grid of tiles; walking the stage backwards gives, per tile, the
// region of every stage tensor the tile needs (a convolution's receptive field: the halo that
// neighbouring tiles compute again). Each tile then runs the stage's nodes on those
// regions only: its first node reads a strided_slice of the stage input, every spatial
// op gets the padding of the region's place in the full tensor (real padding at the
// borders, none inside), and the tiles are joined by concat. Every output element is
// computed by the same arithmetic on the same input elements as the unpatched program,
// so the outputs are identical, bit for bit, in every dtype.
//
// The graph stays an ordinary Mote graph: lowering, kernel choice and memory planning
// see tiles as small tensors, so the arena holds the stage input, one tile's tensors and
// the finished tiles instead of the stage's largest full tensors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace mote::patching {

struct Stage {
  size_t first = 0;  // first node of the stage (index into graph.nodes)
  size_t end = 0;    // one past its last node
  int rows = 1;      // tiles over the stage output's height
  int cols = 1;      // and width
};

// Why node k cannot run on a tile of its output ("" when it can).
std::string node_problem(const ir::Graph& graph, size_t k);

// Why nodes [first, end) cannot run patch by patch ("" when they can): names the node
// or tensor in the way.
std::string stage_problem(const ir::Graph& graph, size_t first, size_t end);

// The graph with `stage` run tile by tile (see above). Throws CompileError when the stage
// is not patchable (stage_problem), the grid does not fit the output (more tiles than
// rows or columns), or a tile would need an empty region of some tensor.
ir::Graph patch_stage(const ir::Graph& graph, const Stage& stage);

// The multiply-accumulates of a convolution or depthwise convolution node producing
// `output_elements` output values (0 for any other op): what patching repeats in halos.
uint64_t conv_macs(const ir::Graph& graph, const ir::Node& node, int64_t output_elements);

// The convolution MACs of the stage's nodes over all its tiles (halos included): what
// patch_stage's graph runs in their place, counted without building it. Throws
// CompileError where patch_stage would.
uint64_t tile_conv_macs(const ir::Graph& graph, const Stage& stage);

// The patching search's candidates (compiler/search/search.h links the best few): every
// patchable stage starting at the head of a run of patchable nodes (or up to two nodes
// later, to leave leading elementwise ops such as the input's quantize whole), on every
// tile grid from 2x1 to 8x8 whose convolutions recompute at most max_recompute of the
// model's convolution MACs in their halos. They are ranked without lowering, on a
// skeleton of the graph (constants without payload): by the peak of simultaneously live
// activation bytes in execution order (an elementwise op that may write over its dying
// input counted once), then by MACs; only those whose peak is below the unpatched
// graph's are kept. Cost: per stage and grid tried, its tiles' regions (tile_conv_macs,
// for the recompute cap); one patch_stage of the skeleton only where the peak can fall
// below the unpatched graph's: the live bytes at every op outside the stage are the
// unpatched graph's, so a stage that leaves out an op at the unpatched peak cannot, and
// is dropped without building it.
struct Candidate {
  Stage stage;
  uint64_t peak = 0;  // live activation bytes at the worst op
  uint64_t macs = 0;  // convolution MACs, halos included
};

struct RankedCandidates {
  std::vector<Candidate> ranked;  // best first
  size_t tried = 0;               // stages x grids patched on the skeleton
};

RankedCandidates rank_candidates(const ir::Graph& graph, double max_recompute);

}  // namespace mote::patching
