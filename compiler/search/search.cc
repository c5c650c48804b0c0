#include "search/search.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/error.h"
#include "kernel_ids.h"
#include "kernel_registry.h"
#include "link/link.h"
#include "patching/patching.h"
#include "planner/memory_planner.h"
#include "schedule/op_order.h"

namespace mote::search {
namespace {

// Patching: how many of the ranked candidates are linked, and the least arena saving
// worth tiles with Optimize::kSpeed.
constexpr size_t kLinkedPatchCandidates = 6;
constexpr double kSpeedMinPatchSaving = 0.2;
// Variant fallback: the most candidates it tries (a patched program has hundreds of ops,
// and each candidate's plan is itself a search).
constexpr size_t kMaxFallbackCandidates = 24;

// Adds the wall-clock time from its construction to its destruction to a stage.
class StageTimer {
 public:
  explicit StageTimer(SearchStage& stage) : stage_(stage), start_(std::chrono::steady_clock::now()) {}
  ~StageTimer() {
    stage_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  SearchStage& stage_;
  std::chrono::steady_clock::time_point start_;
};

// ---------------------------------------------------------------- planner

void plan(link::Layout& layout, SearchReport& search, planner::Effort effort) {
  StageTimer timer(search.planner);
  link::plan(layout, effort);
  search.planner.candidates += layout.plans;
}

// ---------------------------------------------------------------- variant fallback

// Optimize::kMemory: an optimized variant whose scratch sets the arena peak gives way to
// the reference kernel (no scratch) when that lowers the arena. Only ops whose scratch
// could matter (live bytes at the op within their scratch of the arena) are tried,
// largest scratch first, each together with every other such op of the same kernel (the
// tiles of a patched layer all reach the peak: giving up one alone never lowers it);
// repeated until nothing improves, at most kMaxFallbackCandidates candidates. A candidate
// whose buffers cannot plan below the arena (link::arena_floor) is not planned.
void fall_back_from_variants(const link::Prepared& prepared, std::vector<lower::LoweredOp>& ops,
                             link::Layout& layout, SearchReport& search, planner::Effort effort) {
  StageTimer timer(search.variant_fallback);
  const size_t op_count = ops.size();
  size_t trials = 0;
  for (size_t round = 0; round < op_count && trials < kMaxFallbackCandidates; ++round) {
    const std::vector<uint64_t> live = planner::live_bytes_per_op(layout.buffers, kTensorAlignment);
    std::vector<size_t> candidates;
    for (size_t k = 0; k < op_count && k < live.size(); ++k) {
      const uint64_t scratch = planner::align_up(ops[k].scratch_bytes, kTensorAlignment);
      if (scratch == 0 || !kernel_is_variant(ops[k].kernel)) continue;
      if (live[k] + scratch >= layout.plan.arena_bytes) candidates.push_back(k);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](size_t a, size_t b) { return ops[a].scratch_bytes > ops[b].scratch_bytes; });
    bool improved = false;
    std::vector<bool> tried(candidates.size(), false);
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (tried[i]) continue;
      if (++trials > kMaxFallbackCandidates) break;
      ++search.variant_fallback.candidates;
      std::vector<lower::LoweredOp> trial_ops = ops;
      const KernelId kernel = ops[candidates[i]].kernel;
      for (size_t j = i; j < candidates.size(); ++j) {
        if (ops[candidates[j]].kernel != kernel) continue;
        tried[j] = true;
        const size_t k = candidates[j];
        trial_ops[k] = lower::lower_node(prepared.graph, prepared.graph.nodes[k], Target::kHost);  // the reference
      }
      link::Layout trial = link::lay_out(prepared, trial_ops);
      if (link::arena_floor(trial) >= layout.plan.arena_bytes) continue;  // cannot plan smaller
      plan(trial, search, effort);
      if (trial.plan.arena_bytes < layout.plan.arena_bytes) {
        ops = std::move(trial_ops);
        layout = std::move(trial);
        improved = true;
        break;
      }
    }
    if (!improved) break;
  }
}

// ---------------------------------------------------------------- scratch growth

// LoweredOp::scratch_growth: every op whose kernel can use more scratch asks for as many
// units as fit in its share of the bytes the arena leaves free at the op (arena - live
// bytes), all in one more plan, kept when its arena is no larger. The share starts
// whole and halves after each plan that misses (ops close to the peak leave the planner
// little to move); after a plan that fits, the ops ask again from what is left. At most
// kGrowthTrials plan searches; link::assemble then grants what still fits in the free
// runs of the plan kept.
constexpr int kGrowthTrials = 6;
void grow_scratch(const link::Prepared& prepared, std::vector<lower::LoweredOp>& ops, link::Layout& layout,
                  SearchReport& search, planner::Effort effort) {
  const uint64_t arena = layout.plan.arena_bytes;
  int share_shift = 0;  // each op asks for (free bytes at it) >> share_shift
  for (int trial_index = 0; trial_index < kGrowthTrials; ++trial_index) {
    const std::vector<uint64_t> live = planner::live_bytes_per_op(layout.buffers, kTensorAlignment);
    std::vector<lower::LoweredOp> trial_ops = ops;
    bool grown = false;
    for (size_t k = 0; k < ops.size() && k < live.size(); ++k) {
      const lower::LoweredOp::ScratchGrowth& growth = ops[k].scratch_growth;
      if (growth.max_units == 0 || growth.unit_bytes == 0 || ops[k].scratch_bytes == 0 || live[k] >= arena) continue;
      // The scratch's own aligned bytes and its share of what the arena leaves free.
      const uint64_t room =
          ((arena - live[k]) >> share_shift) + planner::align_up(ops[k].scratch_bytes, kTensorAlignment);
      uint64_t units = std::min<uint64_t>(growth.max_units, (room - ops[k].scratch_bytes) / growth.unit_bytes);
      while (units > 0 && planner::align_up(ops[k].scratch_bytes + units * growth.unit_bytes, kTensorAlignment) > room)
        --units;
      if (units == 0) continue;
      lower::grant_scratch(trial_ops[k], static_cast<uint32_t>(units));
      grown = true;
    }
    if (!grown) return;
    link::Layout trial = link::lay_out(prepared, trial_ops);
    plan(trial, search, effort);
    if (trial.plan.arena_bytes <= arena) {
      ops = std::move(trial_ops);
      layout = std::move(trial);
    } else {
      ++share_shift;
    }
  }
}

// ---------------------------------------------------------------- op order

struct Ordered {
  ir::Graph graph;
  CompileResult result;
};

// The model's order, and the order with the lowest peak of live bytes when it differs:
// the smaller arena wins.
// Some tensor has a Vela offline offset (ir::Tensor::offline_offset).
bool has_offline_offsets(const ir::Graph& graph) {
  for (const ir::Tensor& t : graph.tensors)
    if (t.offline_offset >= 0) return true;
  return false;
}

Ordered choose_order(const ir::Graph& model_graph, Target target, const KernelChoice& optimize,
                     SearchReport& search) {
  StageTimer timer(search.op_order);
  constexpr planner::Effort kGreedy = planner::Effort::kGreedy;
  Ordered chosen{model_graph, link(model_graph, target, optimize, search, kGreedy)};
  ++search.op_order.candidates;
  const uint32_t model_order_arena = chosen.result.report.arena_bytes;
  // Vela planned an Ethos-U model's NPU area for the model's order: keep it.
  const schedule::OrderResult order =
      has_offline_offsets(model_graph) ? schedule::OrderResult{} : schedule::min_peak_order(model_graph);
  bool reordered = false;
  for (size_t k = 0; k < order.order.size() && !reordered; ++k) reordered = order.order[k] != k;
  if (reordered) {
    ir::Graph trial_graph = model_graph;
    schedule::reorder(trial_graph, order.order);
    ++search.op_order.candidates;
    CompileResult trial = link(trial_graph, target, optimize, search, kGreedy);
    if (trial.report.arena_bytes < chosen.result.report.arena_bytes) {
      chosen.result = std::move(trial);
      chosen.graph = std::move(trial_graph);
    } else {
      reordered = false;
    }
  }
  if (chosen.result.report.arena_bytes > chosen.result.report.arena_lower_bound_bytes) {
    CompileResult repaired = link(chosen.graph, target, optimize, search, planner::Effort::kRepair);
    if (repaired.report.arena_bytes < chosen.result.report.arena_bytes) chosen.result = std::move(repaired);
  }
  chosen.result.report.reordered = reordered;
  chosen.result.report.model_order_arena_bytes = model_order_arena;
  return chosen;
}

// ---------------------------------------------------------------- patching

// The best of the ranked stage x grid candidates linked (patching::rank_candidates), when
// it beats `unpatched` (the program of `graph`) by enough; the report says what was found.
CompileResult choose_patching(const ir::Graph& graph, const CompileResult& unpatched, const CompileOptions& options,
                              Target target, SearchReport& search) {
  if (!(options.max_recompute >= 0.0)) {
    throw CompileError("--max-recompute must be a non-negative fraction of the model's MACs");
  }
  StageTimer timer(search.patching);
  PatchReport report;
  report.unpatched_arena_bytes = unpatched.report.arena_bytes;
  report.unpatched_lower_bound_bytes = unpatched.report.arena_lower_bound_bytes;
  report.unpatched_macs = unpatched.report.macs;
  const patching::RankedCandidates candidates = patching::rank_candidates(graph, options.max_recompute);
  search.patching.candidates += candidates.tried;

  CompileResult best = unpatched;  // its program written only when it stays best
  bool applied = false;
  const patching::Stage* best_stage = nullptr;
  for (size_t i = 0; i < candidates.ranked.size() && i < kLinkedPatchCandidates; ++i) {
    const patching::Stage& stage = candidates.ranked[i].stage;
    CompileResult trial;
    try {
      trial = link(patching::patch_stage(graph, stage), target, kernel_choice(options), search, planner::Effort::kGreedy,
                   link::Emit::kReportOnly);
    } catch (const CompileError&) {
      continue;  // a kernel refuses a tile's shape: keep the layer-by-layer program
    }
    ++report.candidates;
    const bool better = trial.report.arena_bytes < best.report.arena_bytes ||
                        (applied && trial.report.arena_bytes == best.report.arena_bytes &&
                         trial.report.macs < best.report.macs);
    if (!better) continue;
    best = std::move(trial);
    applied = true;
    best_stage = &stage;
    report.first_op = graph.nodes[stage.first].name;
    report.last_op = graph.nodes[stage.end - 1].name;
    report.stage_ops = stage.end - stage.first;
    report.rows = stage.rows;
    report.cols = stage.cols;
  }
  if (applied) report.best_patched_arena_bytes = best.report.arena_bytes;
  if (applied && options.optimize != Optimize::kMemory &&
      static_cast<double>(best.report.arena_bytes) >
          (1.0 - kSpeedMinPatchSaving) * static_cast<double>(unpatched.report.arena_bytes)) {
    best = unpatched;  // saves too little for the time it costs
    applied = false;
  }
  if (applied) {  // the winner linked again, its program written (the same plan: linking is deterministic)
    best = link(patching::patch_stage(graph, *best_stage), target, kernel_choice(options), search,
                planner::Effort::kGreedy);
  }
  best.report.reordered = unpatched.report.reordered;
  best.report.model_order_arena_bytes = unpatched.report.model_order_arena_bytes;
  report.applied = applied;
  if (applied) report.extra_macs = best.report.macs > report.unpatched_macs ? best.report.macs - report.unpatched_macs : 0;
  best.report.patching = report;
  return best;
}

// ---------------------------------------------------------------- int16 policy

// The arena of a quantized graph compiled under `options`, UINT32_MAX when it does not
// fit the budget.
uint32_t arena_within_budget(const ir::Graph& graph, const CompileOptions& options, SearchReport& search) {
  try {
    return lower_within_budget(graph, options, search).report.arena_bytes;
  } catch (const CompileError&) {
    return UINT32_MAX;
  }
}

// The last k of the int16 candidates `order` marked, per tensor of `graph`.
std::vector<bool> int16_mask(const ir::Graph& graph, const std::vector<int>& order, size_t k) {
  std::vector<bool> prefer(graph.tensors.size(), false);
  for (size_t i = order.size() - k; i < order.size(); ++i) prefer[order[i]] = true;
  return prefer;
}

struct Int16Split {
  size_t int16_count = 0;  // the last this many of ptq::int16_candidates become int16
  uint32_t int8_arena = 0;
};

// The all-int8 arena and, when `widen`, the bisection over the int16 split (search.h).
// `calibration` has its weight steps.
Int16Split choose_int16_split(const ir::Graph& graph, const ptq::Calibration& calibration,
                              const std::vector<int>& order, const ptq::Options& options, bool widen,
                              const CompileOptions& compile_options, SearchReport& search) {
  StageTimer timer(search.int16_policy);
  ptq::Options arena_options = options;
  arena_options.gptq = false;
  auto arena = [&](size_t k) {
    ++search.int16_policy.candidates;
    ptq::Report unused;
    return arena_within_budget(ptq::quantize_graph(graph, calibration, arena_options, int16_mask(graph, order, k),
                                                   &unused),
                               compile_options, search);
  };
  Int16Split split;
  split.int8_arena = arena(0);
  const uint32_t limit = options.arena_budget_bytes ? options.arena_budget_bytes : split.int8_arena;
  if (!widen) return split;
  size_t lo = 0, hi = order.size();
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (options.int16 == ptq::Int16Policy::kAll || arena(mid) <= limit) lo = mid;
    else hi = mid - 1;
  }
  split.int16_count = lo;
  return split;
}

}  // namespace

// ---------------------------------------------------------------- entry points

KernelChoice kernel_choice(const CompileOptions& options) {
  KernelChoice choice(options.optimize);
  for (const std::string& name : options.demoted_kernels) {
    const KernelId id = kernel_id_from_name(name.c_str());
    if (!kernel_is_variant(id)) throw CompileError("demoted kernel '" + name + "' is not a kernel variant");
    choice.demoted.push_back(id);
  }
  return choice;
}

std::vector<OpKernels> op_kernel_candidates(const ir::Graph& graph, Target target) {
  const link::Prepared prepared = link::prepare(graph, target);
  std::vector<OpKernels> ops;
  for (size_t k = 0; k < prepared.ops.size(); ++k) {
    std::vector<KernelId> kernels = lower::kernel_candidates(prepared.graph, prepared.graph.nodes[k], target);
    // From the kernel link() takes (it may pass a variant over: give_up_negligible_variants).
    const auto chosen = std::find(kernels.begin(), kernels.end(), prepared.ops[k].kernel);
    if (chosen != kernels.end()) kernels.erase(kernels.begin(), chosen);
    ops.push_back({std::move(kernels), prepared.ops[k].macs});
  }
  return ops;
}

CompileResult link(const ir::Graph& graph, Target target, const KernelChoice& choice, SearchReport& search,
                   planner::Effort effort, link::Emit emit) {
  const link::Prepared prepared = link::prepare(graph, target);
  std::vector<lower::LoweredOp> ops = prepared.ops;
  for (size_t k = 0; k < ops.size(); ++k) {
    if (std::find(choice.demoted.begin(), choice.demoted.end(), ops[k].kernel) != choice.demoted.end())
      ops[k] = lower::lower_node(prepared.graph, prepared.graph.nodes[k], target, choice.demoted);
  }
  link::Layout layout = link::lay_out(prepared, ops);
  plan(layout, search, effort);
  if (choice.optimize == Optimize::kMemory) fall_back_from_variants(prepared, ops, layout, search, effort);
  // The program's own link only: the candidates of the searches compare arenas, which
  // scratch growth leaves as they are.
  if (emit == link::Emit::kProgram) grow_scratch(prepared, ops, layout, search, effort);
  return link::assemble(prepared, ops, layout, emit);
}

CompileResult lower_for_memory(const ir::Graph& graph, const CompileOptions& options, SearchReport& search) {
  const Target target = parse_target(options.target);
  Ordered ordered = choose_order(graph, target, kernel_choice(options), search);
  if (options.patching == Patching::kOff || has_offline_offsets(ordered.graph)) return std::move(ordered.result);
  return choose_patching(ordered.graph, ordered.result, options, target, search);
}

CompileResult lower_within_budget(const ir::Graph& graph, const CompileOptions& options, SearchReport& search) {
  if (options.arena_budget == 0) return lower_for_memory(graph, options, search);
  StageTimer timer(search.arena_budget);
  ++search.arena_budget.candidates;
  CompileResult result = lower_for_memory(graph, options, search);
  if (result.report.arena_bytes <= options.arena_budget) return result;
  if (options.optimize == Optimize::kSpeed) {
    CompileOptions memory = options;
    memory.optimize = Optimize::kMemory;
    ++search.arena_budget.candidates;
    result = lower_for_memory(graph, memory, search);
  }
  if (result.report.arena_bytes > options.arena_budget) {
    throw CompileError(options.model_path + ": the program needs an arena of " +
                       std::to_string(result.report.arena_bytes) + " bytes, over the budget of " +
                       std::to_string(options.arena_budget) + " bytes (lower bound " +
                       std::to_string(result.report.arena_lower_bound_bytes) + ")");
  }
  return result;
}

ir::Graph quantize(const ir::Graph& graph, const ptq::Calibration& calibration_in, const CompileOptions& options,
                   ptq::Report* report, SearchReport& search) {
  ptq::Options q = options.quantize_options;
  if (q.arena_budget_bytes == 0) q.arena_budget_bytes = options.arena_budget;
  const std::vector<ptq::CalibrationInput>& inputs = options.calibration;
  ptq::Calibration calibration = ptq::with_weight_steps(graph, calibration_in, q);
  const std::vector<int> order = ptq::int16_candidates(graph, calibration_in);
  ir::Graph int8;
  auto quantize_int8 = [&] {
    int8 = ptq::quantize_graph(graph, calibration, q, {}, report);
    ptq::measure_accuracy(int8, inputs, calibration, q, report);
    report->int8_only_sqnr_db = ptq::worst_sqnr(*report);
  };
  // Sequential compensation fits every layer to the split, the int8 program's too; without
  // it, an int8 program accurate enough for --int16 auto needs no split.
  if (!q.sequential) quantize_int8();
  const bool widen = q.int16 == ptq::Int16Policy::kAll ||
                     (q.int16 == ptq::Int16Policy::kAuto && (q.sequential || report->int8_only_sqnr_db < q.min_sqnr_db));
  const Int16Split split = choose_int16_split(graph, calibration, order, q, widen, options, search);
  const std::vector<bool> prefer = int16_mask(graph, order, split.int16_count);
  if (q.sequential) {
    ptq::compensate_sequentially(graph, inputs, q, prefer, &calibration);
    quantize_int8();
  }
  report->int8_only_arena_bytes = split.int8_arena;
  if (q.int16 == ptq::Int16Policy::kOff || split.int16_count == 0 ||
      (q.int16 == ptq::Int16Policy::kAuto && report->int8_only_sqnr_db >= q.min_sqnr_db))
    return int8;

  ptq::Report mixed_report;
  ir::Graph mixed = ptq::quantize_graph(graph, calibration, q, prefer, &mixed_report);
  ptq::measure_accuracy(mixed, inputs, calibration, q, &mixed_report);
  if (q.int16 == ptq::Int16Policy::kAuto && ptq::worst_sqnr(mixed_report) <= report->int8_only_sqnr_db) return int8;
  mixed_report.int8_only_sqnr_db = report->int8_only_sqnr_db;
  mixed_report.int8_only_arena_bytes = report->int8_only_arena_bytes;
  for (const ptq::TensorReport& t : mixed_report.tensors) mixed_report.int16_tensors += t.dtype == DType::kInt16;
  *report = std::move(mixed_report);
  return mixed;
}

}  // namespace mote::search
