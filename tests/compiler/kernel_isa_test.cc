// Every kernel the compiler picks is written for an instruction set the target has: the
// registry's isa column (kernels/kernel_registry.inc) against the target table's view of
// the core (compiler/target/target.h), on every target, for the MLPerf Tiny
// keyword-spotting model (int8 conv, depthwise, pooling, fully connected). Each core with
// variants must get some, so the check cannot pass on references alone.
#include <gtest/gtest.h>

#include <string>

#include "compiler.h"
#include "kernel_registry.h"
#include "target/target.h"

namespace mote {
namespace kernel_isa_test {

bool core_runs(const TargetIsa& core, KernelIsa isa) {
  switch (isa) {
    case KernelIsa::kPortable: return true;
    case KernelIsa::kDsp: return core.dsp;
    case KernelIsa::kMve: return core.mve;
    case KernelIsa::kV6m: return core.v6m;
    case KernelIsa::kFpu: return core.fpu;
  }
  return false;
}

TEST(KernelIsa, EveryChosenKernelIsForItsTarget) {
  const std::string model = std::string(MOTE_SHARED_DIR) + "/models/tflite/mlperf_tiny/kws_ref_model.tflite";
  for (const TargetInfo& info : targets()) {
    const std::string target = info.name;
    CompileOptions options;
    options.model_path = model;
    options.target = target;
    const CompileResult result = compile(options);
    const TargetIsa& core = info.isa;
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

}  // namespace kernel_isa_test
}  // namespace mote
