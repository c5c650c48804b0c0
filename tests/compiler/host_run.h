// Running a program once on the host from a test: load it with every kernel, feed one
// input, run, and return each output's bytes. Buffers are 16-byte aligned and filled with
// garbage first, so a kernel reading memory it did not write shows up as a mismatch.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "all_kernels.h"
#include "mote/interpreter.h"

namespace mote::testing {

inline std::vector<std::vector<uint8_t>> run_on_host(const std::vector<uint8_t>& program,
                                                     const std::vector<uint8_t>& input) {
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  auto aligned = [](size_t bytes) {
    const size_t rounded = (bytes + 16) / 16 * 16;
    std::unique_ptr<uint8_t, Free> p(static_cast<uint8_t*>(std::aligned_alloc(16, rounded)));
    std::memset(p.get(), 0x5A, rounded);
    return p;
  };
  auto image = aligned(program.size());
  std::memcpy(image.get(), program.data(), program.size());
  ProgramHeader header;
  std::memcpy(&header, program.data(), sizeof(header));
  auto arena = aligned(header.arena_bytes);
  Interpreter interp;
  const Status loaded = interp.load(Span<const uint8_t>(image.get(), program.size()),
                                    Span<uint8_t>(arena.get(), header.arena_bytes), all_kernels());
  EXPECT_EQ(loaded, Status::kOk) << status_string(loaded) << " at op " << interp.failed_op();
  if (loaded != Status::kOk) return {};
  EXPECT_EQ(interp.set_input(0, input.data(), static_cast<uint32_t>(input.size())), Status::kOk);
  EXPECT_EQ(interp.run(), Status::kOk);
  std::vector<std::vector<uint8_t>> outputs;
  for (uint32_t i = 0; i < interp.output_count(); ++i) {
    std::vector<uint8_t> out(interp.output_desc(i)->bytes);
    EXPECT_EQ(interp.get_output(i, out.data(), static_cast<uint32_t>(out.size())), Status::kOk);
    outputs.push_back(std::move(out));
  }
  return outputs;
}

}  // namespace mote::testing
