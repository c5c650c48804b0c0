// The runtime's program verifier and interpreter: valid programs run, and every kind of
// corrupted or mismatched program or arena is refused with the right status, never a
// crash. Programs come from the real compiler on the shared seed models.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

#include "all_kernels.h"
#include "compiler.h"
#include "kernel_ids.h"
#include "mote/interpreter.h"
#include "test_util.h"

namespace mote {
namespace {

// 16-aligned copy of a byte vector (plus an offset, to test misalignment).
class AlignedBytes {
 public:
  explicit AlignedBytes(size_t size, size_t misalign = 0)
      : storage_(static_cast<uint8_t*>(std::aligned_alloc(16, (size + misalign + 16) / 16 * 16 + 16))),
        data_(storage_.get() + misalign),
        size_(size) {
    std::memset(storage_.get(), 0, (size + misalign + 16) / 16 * 16 + 16);
  }
  AlignedBytes(const std::vector<uint8_t>& bytes, size_t misalign = 0) : AlignedBytes(bytes.size(), misalign) {
    if (!bytes.empty()) std::memcpy(data_, bytes.data(), bytes.size());
  }
  uint8_t* data() { return data_; }
  size_t size() const { return size_; }
  Span<const uint8_t> cspan() const { return Span<const uint8_t>(data_, size_); }
  Span<uint8_t> span() { return Span<uint8_t>(data_, size_); }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t, Free> storage_;
  uint8_t* data_;
  size_t size_;
};

std::vector<uint8_t> compile_model(const std::string& stem) {
  CompileOptions options;
  options.model_path = testing::onnx_model(stem);
  return compile(options).program;
}

ProgramHeader header_of(const std::vector<uint8_t>& program) {
  ProgramHeader h;
  std::memcpy(&h, program.data(), sizeof(h));
  return h;
}

TEST(Crc32, MatchesTheStandardCheckValue) {
  const char* text = "123456789";
  EXPECT_EQ(crc32(reinterpret_cast<const uint8_t*>(text), 9), 0xCBF43926u);
  EXPECT_EQ(crc32(nullptr, 0), 0u);
  // Continuation: the CRC of "1234" carried into "56789".
  EXPECT_EQ(crc32(reinterpret_cast<const uint8_t*>(text) + 4, 5, crc32(reinterpret_cast<const uint8_t*>(text), 4)),
            0xCBF43926u);
}

TEST(Interpreter, RunsLinearModelAndMatchesGolden) {
  const std::vector<uint8_t> bytes = compile_model("linear_4x3");
  AlignedBytes program(bytes);
  AlignedBytes arena(header_of(bytes).arena_bytes);
  Interpreter interp;
  ASSERT_EQ(interp.load(program.cspan(), arena.span(), all_kernels()), Status::kOk);
  ASSERT_EQ(interp.input_count(), 1u);
  ASSERT_EQ(interp.output_count(), 1u);
  EXPECT_EQ(interp.input_desc(0)->bytes, 16u);
  EXPECT_EQ(interp.output_desc(0)->bytes, 12u);

  // linear_4x3 sample 0 (see ../shared/models): compare with the golden .npy payload.
  const std::string in = testing::read_text(testing::shared_models() + "/onnx/linear_4x3.s0.in0.npy");
  const std::string out = testing::read_text(testing::shared_models() + "/onnx/linear_4x3.s0.out0.npy");
  ASSERT_GE(in.size(), 16u);
  ASSERT_EQ(interp.set_input(0, in.data() + in.size() - 16, 16), Status::kOk);
  ASSERT_EQ(interp.run(), Status::kOk);
  float got[3], want[3];
  ASSERT_EQ(interp.get_output(0, got, sizeof got), Status::kOk);
  std::memcpy(want, out.data() + out.size() - 12, 12);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], 1e-5f + 1e-4f * std::fabs(want[i]));

  const MemoryReport report = interp.memory_report();
  EXPECT_EQ(report.program_bytes, bytes.size());
  EXPECT_EQ(report.arena_planned_bytes, header_of(bytes).arena_bytes);
  EXPECT_EQ(report.constant_bytes, 4u * (12 + 3));  // weights [3,4] + bias [3]
}

TEST(Interpreter, RefusesRunAndIoBeforeLoad) {
  Interpreter interp;
  EXPECT_EQ(interp.run(), Status::kNotLoaded);
  float x = 0;
  EXPECT_EQ(interp.set_input(0, &x, 4), Status::kNotLoaded);
  EXPECT_EQ(interp.input_desc(0), nullptr);
  EXPECT_EQ(interp.output_data(0), nullptr);
}

TEST(Interpreter, FailedLoadLeavesAnObjectThatRefusesToRun) {
  std::vector<uint8_t> bytes = compile_model("add_1x5");
  AlignedBytes program(bytes);
  AlignedBytes arena(header_of(bytes).arena_bytes);
  Interpreter interp;
  ASSERT_EQ(interp.load(program.cspan(), arena.span(), all_kernels()), Status::kOk);
  // A second load with an arena that is 1 byte short must unload it.
  EXPECT_EQ(interp.load(program.cspan(), Span<uint8_t>(arena.data(), arena.size() - 1), all_kernels()),
            Status::kArenaTooSmall);
  EXPECT_FALSE(interp.loaded());
  EXPECT_EQ(interp.run(), Status::kNotLoaded);
}

TEST(Interpreter, ChecksIoIndicesAndSizes) {
  std::vector<uint8_t> bytes = compile_model("add_1x5");
  AlignedBytes program(bytes);
  AlignedBytes arena(header_of(bytes).arena_bytes);
  Interpreter interp;
  ASSERT_EQ(interp.load(program.cspan(), arena.span(), all_kernels()), Status::kOk);
  float x[5] = {};
  EXPECT_EQ(interp.set_input(2, x, sizeof x), Status::kIndexOutOfRange);
  EXPECT_EQ(interp.set_input(0, x, 16), Status::kSizeMismatch);
  EXPECT_EQ(interp.set_input(0, nullptr, 20), Status::kInvalidArgument);
  EXPECT_EQ(interp.set_input(1, x, sizeof x), Status::kOk);
  EXPECT_EQ(interp.get_output(1, x, sizeof x), Status::kIndexOutOfRange);
  EXPECT_EQ(interp.get_output(0, x, 4), Status::kSizeMismatch);
}

TEST(Interpreter, RefusesMisalignedProgramAndArena) {
  std::vector<uint8_t> bytes = compile_model("softmax_1x4");
  AlignedBytes misaligned_program(bytes, 4);
  AlignedBytes program(bytes);
  AlignedBytes arena(header_of(bytes).arena_bytes + 16);
  Interpreter interp;
  EXPECT_EQ(interp.load(misaligned_program.cspan(), arena.span(), all_kernels()),
            Status::kProgramMisaligned);
  EXPECT_EQ(interp.load(program.cspan(), Span<uint8_t>(arena.data() + 8, arena.size() - 8), all_kernels()),
            Status::kArenaMisaligned);
  EXPECT_EQ(interp.load(program.cspan(), arena.span(), all_kernels()), Status::kOk);
}

TEST(Interpreter, RefusesWrongMagicAndNewerVersion) {
  std::vector<uint8_t> bytes = compile_model("softmax_1x4");
  AlignedBytes arena(header_of(bytes).arena_bytes);
  Interpreter interp;

  std::vector<uint8_t> bad_magic = bytes;
  bad_magic[0] ^= 0xFF;
  AlignedBytes p1(bad_magic);
  EXPECT_EQ(interp.load(p1.cspan(), arena.span(), all_kernels()), Status::kBadMagic);

  std::vector<uint8_t> newer = bytes;
  const uint16_t major = kFormatVersionMajor + 1;
  std::memcpy(newer.data() + offsetof(ProgramHeader, version_major), &major, 2);
  const uint32_t newer_checksum = program_checksum(newer.data(), static_cast<uint32_t>(newer.size()));
  std::memcpy(newer.data() + offsetof(ProgramHeader, checksum), &newer_checksum, 4);
  AlignedBytes p2(newer);
  EXPECT_EQ(interp.load(p2.cspan(), arena.span(), all_kernels()), Status::kUnsupportedVersion);

  // A newer minor version is additive: accepted once the checksum is updated with it.
  std::vector<uint8_t> minor = bytes;
  const uint16_t minor_version = kFormatVersionMinor + 1;
  std::memcpy(minor.data() + offsetof(ProgramHeader, version_minor), &minor_version, 2);
  const uint32_t checksum = program_checksum(minor.data(), static_cast<uint32_t>(minor.size()));
  std::memcpy(minor.data() + offsetof(ProgramHeader, checksum), &checksum, 4);
  AlignedBytes p3(minor);
  EXPECT_EQ(interp.load(p3.cspan(), arena.span(), all_kernels()), Status::kOk);
}

TEST(Interpreter, RefusesMissingKernelAndNamesTheOp) {
  std::vector<uint8_t> bytes = compile_model("softmax_1x4");
  AlignedBytes program(bytes);
  AlignedBytes arena(header_of(bytes).arena_bytes);
  // A firmware-style table holding no kernel at all.
  const KernelEntry* entries[kKernelCount] = {};
  const KernelTable empty{entries, kKernelCount};
  Interpreter interp;
  EXPECT_EQ(interp.load(program.cspan(), arena.span(), empty), Status::kMissingKernel);
  EXPECT_EQ(interp.failed_op(), 0u);
  EXPECT_EQ(interp.run(), Status::kNotLoaded);
}

// Every truncation of a real program is refused.
TEST(Interpreter, RefusesEveryTruncation) {
  std::vector<uint8_t> bytes = compile_model("linear_4x3");
  AlignedBytes arena(header_of(bytes).arena_bytes);
  for (size_t size = 0; size < bytes.size(); ++size) {
    AlignedBytes program(std::vector<uint8_t>(bytes.begin(), bytes.begin() + size));
    Interpreter interp;
    const Status status = interp.load(program.cspan(), arena.span(), all_kernels());
    EXPECT_NE(status, Status::kOk) << "truncated to " << size << " bytes";
  }
}

// Every single-bit flip of a real program is refused (the CRC catches what the
// structural checks would let through, e.g. a flipped weight).
TEST(Interpreter, RefusesEverySingleBitFlip) {
  std::vector<uint8_t> bytes = compile_model("linear_4x3");
  AlignedBytes arena(header_of(bytes).arena_bytes);
  for (size_t bit = 0; bit < bytes.size() * 8; ++bit) {
    std::vector<uint8_t> flipped = bytes;
    flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    AlignedBytes program(flipped);
    Interpreter interp;
    EXPECT_NE(interp.load(program.cspan(), arena.span(), all_kernels()), Status::kOk) << "bit " << bit;
  }
}

// With the checksum skipped, structural verification alone must keep every access in
// bounds: random multi-byte corruptions either fail to load or load and run without
// touching memory outside the spans (run under ASan in the sanitizer build).
TEST(Interpreter, StructuralVerificationSurvivesCorruptionWithoutChecksum) {
  std::vector<uint8_t> bytes = compile_model("lenet5_28");
  const uint32_t arena_bytes = header_of(bytes).arena_bytes;
  std::mt19937 rng(1234);
  LoadOptions options;
  options.verify_checksum = false;
  int loaded = 0;
  const size_t metadata_end = std::min<size_t>(bytes.size(), header_of(bytes).data_offset);
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> corrupt = bytes;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      // Aim at the header, tables and params, where a flip changes structure.
      const size_t at = rng() % metadata_end;
      corrupt[at] = (trial % 2) ? static_cast<uint8_t>(rng()) : corrupt[at] ^ (1u << (rng() % 8));
    }
    AlignedBytes program(corrupt);
    AlignedBytes arena(arena_bytes);
    Interpreter interp;
    if (interp.load(program.cspan(), arena.span(), all_kernels(), options) == Status::kOk) {
      ++loaded;
      EXPECT_EQ(interp.run(), Status::kOk);
    }
  }
  // Most corruptions must be caught structurally; some (a flipped name byte, a changed
  // activation bound) are legitimately still valid programs.
  EXPECT_LT(loaded, 3000);
}

}  // namespace
}  // namespace mote
