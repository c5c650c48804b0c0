// Running a program once on the host from a test: load it with every kernel, feed one
// input, run, and return each output's bytes. The arena is filled with garbage first, so
// a kernel reading memory it did not write shows up as a mismatch.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "common/error.h"
#include "host/loaded_program.h"

namespace mote::testing {

// One input per program input, in order.
inline std::vector<std::vector<uint8_t>> run_inputs_on_host(const std::vector<uint8_t>& program,
                                                            const std::vector<std::vector<uint8_t>>& inputs) {
  try {
    LoadedProgram loaded(program, "test program", std::nullopt, 0x5A);
    for (size_t i = 0; i < inputs.size(); ++i) loaded.set_input(static_cast<uint32_t>(i), inputs[i]);
    loaded.run();
    std::vector<std::vector<uint8_t>> outputs;
    for (uint32_t i = 0; i < loaded.interpreter().output_count(); ++i) {
      const std::span<const uint8_t> out = loaded.output(i);
      outputs.emplace_back(out.begin(), out.end());
    }
    return outputs;
  } catch (const CompileError& e) {
    ADD_FAILURE() << e.what();
    return {};
  }
}

inline std::vector<std::vector<uint8_t>> run_on_host(const std::vector<uint8_t>& program,
                                                     const std::vector<uint8_t>& input) {
  return run_inputs_on_host(program, {input});
}

}  // namespace mote::testing
