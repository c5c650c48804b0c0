// What a compile reports: the program's sizes and ops, what quantization chose, what
// patching did and what every search tried. One low-level header (it needs only the
// dtype enum) that compiler.h, the link stage, patching, ptq, the searches and the CLI
// include without pulling in each other.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mote/program_format.h"

namespace mote {

namespace ptq {

enum class RangeMethod {
  kMinMax,      // the observed minimum and maximum
  kPercentile,  // the `percentile` and 100 - `percentile` quantiles of the observed values
  kMse,         // the clipping of the observed range that minimises the int8 rounding +
                // clipping error over the observed value histogram
};

struct Range {
  float min = 0;
  float max = 0;
};

struct TensorReport {
  std::string name;
  DType dtype = DType::kInt8;
  Range observed;
  Range chosen;
  float scale = 0;
  int32_t zero_point = 0;
};

struct OutputAccuracy {
  std::string name;
  double sqnr_db = 0;           // +inf when the quantized output equals the float one
  // Rows compared, 0 unless the output holds class scores: [rows, K >= 2], not an input's
  // shape, from fully_connected/batch_matmul/softmax/log_softmax (calibrate.cc).
  int64_t top1_rows = 0;
  int64_t top1_agreements = 0;  // rows whose argmax matches the float model's
};

// What post-training quantization chose (compiler/ptq/ptq.h).
struct Report {
  RangeMethod method = RangeMethod::kMinMax;
  size_t samples = 0;
  bool int8_io = false;
  // Mixed precision: int16 activations chosen (0: all int8), the all-int8 program's worst
  // output SQNR and arena for comparison.
  size_t int16_tensors = 0;
  double int8_only_sqnr_db = 0;
  uint32_t int8_only_arena_bytes = 0;
  std::vector<TensorReport> tensors;     // every int8 activation, in execution order
  std::vector<std::string> float_nodes;  // "NAME (OP): reason" for nodes kept in float32
  std::vector<OutputAccuracy> outputs;
};

}  // namespace ptq

// What patching did (CompileReport::patching, when it was tried).
struct PatchReport {
  bool applied = false;
  std::string first_op, last_op;  // the stage's first and last source nodes
  size_t stage_ops = 0;           // nodes in the stage
  int rows = 0, cols = 0;         // the tile grid over the stage output
  uint64_t extra_macs = 0;        // recomputed in the tiles' overlaps
  uint32_t unpatched_arena_bytes = 0;
  uint32_t unpatched_lower_bound_bytes = 0;
  uint64_t unpatched_macs = 0;
  size_t candidates = 0;          // stages x grids compiled to choose
  // The smallest patched arena found (0: none beat the unpatched one), also when it saved
  // too little to apply with Optimize::kSpeed (less than a fifth).
  uint32_t best_patched_arena_bytes = 0;
};

// One search of compiler/search/search.h over a whole compile: the candidates it tried
// and the wall-clock seconds spent in it, summed over every time it ran. The seconds
// include those of the searches nested in it (search.h says how they nest), so they do
// not add up to the compile time.
struct SearchStage {
  uint64_t candidates = 0;  // 0: the search did not run
  double seconds = 0;
};

struct SearchReport {
  SearchStage int16_policy;      // quantized graphs compiled to place the int16 split
  SearchStage arena_budget;      // lower_for_memory runs held to --arena-budget
  SearchStage op_order;          // op orders compiled (the model's, the lowest-peak one)
  SearchStage patching;          // stage x grid candidates ranked (some compiled)
  SearchStage variant_fallback;  // kernel choices planned under --optimize memory
  SearchStage planner;           // memory plans (sets of in-place links) placed
  double seconds = 0;            // the whole compile, import to program bytes

  // The stages with their report names, outermost first.
  std::array<std::pair<const char*, const SearchStage*>, 6> stages() const {
    return {{{"int16_policy", &int16_policy},
             {"arena_budget", &arena_budget},
             {"op_order", &op_order},
             {"patching", &patching},
             {"variant_fallback", &variant_fallback},
             {"planner", &planner}}};
  }
};

struct OpReport {
  std::string name;    // source node name
  std::string kernel;  // kernel_name() of the kernel chosen for the op
  uint64_t macs = 0;
};

// One Ethos-U NPU op (compile report, `mote inspect`): what its payload was compiled for,
// its commands and its regions (compiler/npu/ethos_u.h).
struct NpuRegionReport {
  uint32_t index = 0;
  std::string role;      // "constants", "scratch", "fast scratch", "feature map"
  uint64_t bytes = 0;
  bool read = false, written = false;  // by the command stream
  std::string port;      // the AXI port Arm's driver puts it behind by default
  // [used_begin, used_end): the bytes the stream's accesses span, checked to lie inside
  // `bytes` (both 0 when no checked access touches the region).
  uint64_t used_begin = 0, used_end = 0;
};

struct NpuOpReport {
  std::string name;
  std::string accelerator;   // "ethos-u65-256 (command stream version 0, architecture 1.0.6)"
  std::string memory_mode;   // "Dedicated_Sram", "Shared_Sram or Sram_Only"
  uint32_t commands = 0;
  std::vector<std::pair<std::string, uint32_t>> operations;  // by kind: conv, depthwise, ...
  std::vector<NpuRegionReport> regions;
  uint32_t fast_scratch_bytes = 0;  // the driver's fast scratch this op needs (0: none)
  std::string checks;        // what was checked, e.g. "payload, command set, no write to region 0"
  bool extents_checked = false;  // every access was checked against its region's size
};

struct CompileReport {
  uint32_t program_bytes = 0;
  uint32_t arena_bytes = 0;
  uint32_t arena_lower_bound_bytes = 0;
  uint32_t weights_bytes = 0;  // constant tensor bytes in the program
  uint32_t state_bytes = 0;    // of arena_bytes, those kept between runs (persistent tensors)
  uint64_t macs = 0;
  std::vector<std::string> kernels;  // distinct kernel names the program needs, sorted
  std::vector<OpReport> ops;         // in execution order
  std::optional<ptq::Report> quantization;  // with --quantize
  std::optional<PatchReport> patching;      // with Patching::kAuto
  // The ops run in another order than the model lists them (branches reordered), and the
  // arena the model's own order needed.
  bool reordered = false;
  uint32_t model_order_arena_bytes = 0;
  SearchReport search;  // filled by compile()
  // What import decided that the user should know, one line each (e.g. "input 'x':
  // symbolic batch axis 'batch' fixed to 1 (set it with --input-shape x=...)").
  std::vector<std::string> notes;
  std::vector<NpuOpReport> npu;      // Ethos-U ops, in execution order
  // --optimize size: each variant given up for its reference ("variant -> reference"), and
  // the runtime + kernel code before and after (CompileOptions::code_bytes).
  std::vector<std::string> size_choices;
  uint64_t speed_code_bytes = 0, code_bytes = 0;
  uint32_t npu_fast_scratch_bytes = 0;  // the largest fast scratch an NPU op needs
};

struct CompileResult {
  std::vector<uint8_t> program;
  CompileReport report;
  // With CompileOptions::emit_tflite: the quantized graph as a .tflite (--emit-tflite).
  std::vector<uint8_t> tflite = {};
};

}  // namespace mote
