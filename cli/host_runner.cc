#include "host_runner.h"

#include <chrono>

namespace mote {

HostRunResult run_on_host(LoadedProgram& program, const std::vector<std::vector<uint8_t>>& inputs) {
  for (uint32_t i = 0; i < inputs.size(); ++i) program.set_input(i, inputs[i]);
  using Clock = std::chrono::steady_clock;
  struct Timing {
    std::vector<double> seconds;
    Clock::time_point start;
  } timing;
  timing.seconds.assign(program.interpreter().op_count(), 0.0);
  ProfileHook hook;
  hook.user = &timing;
  hook.op_begin = [](void* user, uint32_t) { static_cast<Timing*>(user)->start = Clock::now(); };
  hook.op_end = [](void* user, uint32_t op) {
    auto* t = static_cast<Timing*>(user);
    t->seconds[op] += std::chrono::duration<double>(Clock::now() - t->start).count();  // each iteration of a loop
  };
  const auto start = Clock::now();
  program.run(&hook);
  HostRunResult result;
  result.total_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.op_seconds = std::move(timing.seconds);
  for (uint32_t i = 0; i < program.interpreter().output_count(); ++i) {
    const std::span<const uint8_t> out = program.output(i);
    result.outputs.emplace_back(out.begin(), out.end());
  }
  return result;
}

}  // namespace mote
