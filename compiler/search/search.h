// Every search the compiler runs, in one place: what each tries, how they nest and what
// they cost. Their mechanisms live with their subject (ptq/, schedule/, patching/, link/,
// planner/); the loops that try candidates and choose among them are here, and each
// counts what it tried, and the time it took, in the SearchReport (compiler/report.h:
// `mote compile --json` "search", one line per search that ran in the text report).
//
// Outermost first; every candidate of a search runs the searches below it.
//
//   int16_policy   --quantize int8 with --int16 auto or all            quantize()
//       The largest k such that the last k activations (ptq::int16_candidates, in
//       execution order) may be int16 while the finished program's arena stays within
//       --arena-budget, or without one, the all-int8 program's: a bisection over k (the
//       arena grows with k), each candidate a quantized graph (weights rounded to
//       nearest: the arena does not depend on them) compiled through arena_budget.
//       1 + log2(activations) candidates (the first, k = 0, gives the all-int8 arena the
//       report states); --int16 all takes every activation without a compile. The int8
//       program is measured on the calibration samples first (SQNR): with --int16 auto,
//       one accurate enough (--min-sqnr) needs no split, 1 candidate (with sequential
//       compensation, which fits every layer to the split, the split comes first). The
//       split is kept when it is more accurate than int8. Weights are rounded with GPTQ
//       for the measured and shipped programs only.
//   arena_budget   --arena-budget                                       lower_within_budget()
//       lower_for_memory with --optimize as given; a fast plan over the budget is done
//       again with --optimize memory; a program still over it is refused. 1-2 candidates.
//   op_order                                                            lower_for_memory()
//       The model's order and, when it differs, the order with the lowest peak of live
//       bytes (schedule::min_peak_order: exact over the sets of ops run for small graphs,
//       greedy beyond), each linked; the smaller arena wins (the model's on a tie).
//       1-2 candidates.
//   patching       --patching auto                                      lower_for_memory()
//       patching::rank_candidates ranks every stage x grid on a skeleton of the graph
//       without lowering (hundreds of candidates, cheap: a stage that leaves out an op at
//       the unpatched peak is counted from its tile regions, never built); the best six are
//       linked, and the smallest arena is kept when it beats the unpatched program's: by
//       any amount with --optimize memory, by a fifth with speed (tiles cost crops,
//       joins and shorter loops). Linking is the cost: patched graphs have hundreds of
//       ops, and each link runs the two searches below.
//   variant_fallback  --optimize memory                                  link()
//       An optimized kernel variant whose scratch reaches the arena peak gives way to its
//       reference kernel (no scratch) when that lowers the arena: largest scratch first,
//       all ops of that kernel together (the tiles of a patched layer reach the peak
//       together), repeated until nothing improves. At most 24 candidates, each planned
//       (the planner search) unless its live bytes already reach the arena.
//   scratch_growth  the program's own link                               link()
//       Ops whose kernel can use more scratch (LoweredOp::scratch_growth: widened
//       weights of the DSP convolutions) ask for what the arena leaves free at them, all
//       in one more plan kept if its arena is no larger; a plan that misses halves what
//       each asks for, one that fits is followed by another from what is left. At most 6
//       candidates (counted as the planner's); what still fits in the free runs of the
//       plan kept is granted by link::assemble. vww_96_int8 --target cortex-m4: 6
//       link searches more (0.62 -> 0.74 s; --optimize memory, patched: 3,777 of 29,853
//       plans).
//   planner        every link                                            link(), link::plan
//       planner::plan_with_in_place_links: which in-place links to keep (at most
//       2 * links + 19 sets), each set placed by planner::plan_memory (eight greedy
//       strategies, eight more per pinned chain, O(n^2 log n) each for n buffers).
//       Candidates: memory plans made.
//
// A search's seconds include the seconds of the searches nested in it.
//
// What it costs (mote compile, user time on a 2-core x86 host):
//   vww_96_int8 --target cortex-m4: 0.55 s. Patching ranks 467 candidates and links 6;
//     596 plans: the link search stops where a plan reaches the live-bytes bound and is
//     proven optimal (3 plans for the 8x8 candidate, at most 153 for the others).
//   vww_96_int8 --target cortex-m55: 1.7 s, 1,516 plans. With the Helium kernels'
//     in-place shifts (their stream blocks) the tiles' in-place chains are rigid enough
//     that every plan's lower bound sits above the live bytes (8x8 candidate: 37,808 vs
//     37,712), so the link search never meets its early stop and spends its whole budget
//     (577 plans for that candidate's 279 links).
//   vww_96_int8 --target cortex-m4 --optimize memory: 13 s, all of it planning: the
//     variant fallback tries 42 candidates over the 7 linked programs, each a whole link
//     search (12,032 plans of up to 636 buffers).
//   Mobilenet_v3_small_quant.tflite --target cortex-m4: 0.04 s user; the patching search
//     ranks 1,082 candidates, none beats the unpatched arena, none is linked (before the
//     ranking built only the stages that can lower the peak: 0.23 s, nearly all of it there).
//   mobilenet_v2_w005_96.onnx --quantize int8 --target cortex-m0plus: 6.4 s, of which
//     the int16 policy (8 candidates) 1.3 s; calibration, GPTQ and the accuracy runs
//     are the rest.
#pragma once

#include <utility>
#include <vector>

#include "compiler.h"
#include "ir/graph.h"
#include "kernel_ids.h"
#include "link/link.h"
#include "planner/memory_planner.h"
#include "ptq/ptq.h"
#include "report.h"
#include "target/target.h"

namespace mote::search {

// int16_policy: the quantized graph of a calibrated float graph under
// options.quantize_options (its int16 policy; arena budget: options.arena_budget when
// the policy gives none); fills *report (tensors, float nodes, accuracy).
ir::Graph quantize(const ir::Graph& graph, const ptq::Calibration& calibration, const CompileOptions& options,
                   ptq::Report* report, SearchReport& search);

// arena_budget: lower_for_memory held to options.arena_budget (0: no budget). Throws
// CompileError naming both sizes when the program cannot fit.
CompileResult lower_within_budget(const ir::Graph& graph, const CompileOptions& options, SearchReport& search);

// op_order, then with Patching::kAuto patching (CompileReport::reordered, ::patching).
CompileResult lower_for_memory(const ir::Graph& graph, const CompileOptions& options, SearchReport& search);

// How link() picks each op's kernel: the target's fastest variant, given up under
// Optimize::kMemory where its scratch sets the arena (variant_fallback); the variants in
// `demoted` are passed over, so their ops take their next variant or their reference
// kernel (Optimize::kSize: compile() picks them from op_kernel_candidates()).
struct KernelChoice {
  KernelChoice(Optimize optimize_ = Optimize::kSpeed, std::vector<KernelId> demoted_ = {})  // NOLINT: from Optimize
      : optimize(optimize_), demoted(std::move(demoted_)) {}
  Optimize optimize;
  std::vector<KernelId> demoted;
};

// The choice CompileOptions asks for (its optimize and demoted_kernels).
KernelChoice kernel_choice(const CompileOptions& options);

// Per op of the graph as link() prepares it for the target (output copies included): the
// kernels that can run it from the one link() takes on, in link()'s order of preference
// with the reference last (lower::kernel_candidates), and its MACs.
struct OpKernels {
  std::vector<KernelId> kernels;
  uint64_t macs = 0;
};
std::vector<OpKernels> op_kernel_candidates(const ir::Graph& graph, Target target);

// variant_fallback (with Optimize::kMemory) and planner: the graph in its order, linked
// (compiler/link/link.h). The op-order and patching searches link their candidates with
// planner::Effort::kGreedy; the op-order search links the order it keeps again with
// kRepair when its plan misses its lower bound (patched candidates stay greedy: their
// plans come within 1% of the bound, and repairing each would cost seconds). The patching
// search links its candidates with link::Emit::kReportOnly and the winner again in full.
CompileResult link(const ir::Graph& graph, Target target, const KernelChoice& choice, SearchReport& search,
                   planner::Effort effort = planner::Effort::kRepair, link::Emit emit = link::Emit::kProgram);

}  // namespace mote::search
