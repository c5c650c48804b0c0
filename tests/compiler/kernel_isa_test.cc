// Every kernel the compiler picks is written for an instruction set the target has: the
// registry's isa column (kernels/kernel_registry.inc) against the variant rule's view of
// the core (compiler/lower/variants.cc, target_isa), on every target, for the MLPerf Tiny
// keyword-spotting model (int8 conv, depthwise, pooling, fully connected). Each core with
// variants must get some, so the check cannot pass on references alone.
#include <gtest/gtest.h>

#include <string>

#include "compiler.h"
#include "kernel_registry.h"
#include "lower/variants.h"

namespace mote {
namespace {

bool core_runs(const lower::TargetIsa& core, KernelIsa isa) {
  switch (isa) {
    case KernelIsa::kPortable: return true;
    case KernelIsa::kDsp: return core.dsp;
    case KernelIsa::kMve: return core.mve;
    case KernelIsa::kV6m: return core.v6m;
  }
  return false;
}

TEST(KernelIsa, EveryChosenKernelIsForItsTarget) {
  const std::string model = std::string(MOTE_SHARED_DIR) + "/models/tflite/mlperf_tiny/kws_ref_model.tflite";
  for (const std::string& target : lower::target_names()) {
    CompileOptions options;
    options.model_path = model;
    options.target = target;
    const CompileResult result = compile(options);
    const lower::TargetIsa core = lower::target_isa(lower::parse_target(target));
    bool variant = false;
    for (const std::string& name : result.report.kernels) {
      const KernelId id = kernel_id_from_name(name.c_str());
      ASSERT_NE(id, KernelId::kInvalid) << name;
      EXPECT_TRUE(core_runs(core, kernel_isa(id))) << target << ": " << name;
      variant = variant || kernel_is_variant(id);
    }
    EXPECT_EQ(variant, core.dsp || core.mve || core.v6m) << target;
  }
}

}  // namespace
}  // namespace mote
