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

// The state fields of format 1.1: TensorDesc::flags (only kTensorPersistent, only on
// arena tensors, none in a 1.0 program) and ProgramHeader::init_op_count (<= op_count,
// zero in a 1.0 program).
std::vector<uint8_t> with_checksum(std::vector<uint8_t> bytes) {
  const uint32_t checksum = program_checksum(bytes.data(), static_cast<uint32_t>(bytes.size()));
  std::memcpy(bytes.data() + offsetof(ProgramHeader, checksum), &checksum, 4);
  return bytes;
}

size_t tensor_at(const std::vector<uint8_t>& bytes, uint32_t index) {
  return header_of(bytes).tensors_offset + index * sizeof(TensorDesc);
}

TensorDesc tensor_of(const std::vector<uint8_t>& bytes, uint32_t index) {
  TensorDesc t;
  std::memcpy(&t, bytes.data() + tensor_at(bytes, index), sizeof t);
  return t;
}

std::vector<uint8_t> with_tensor_flags(std::vector<uint8_t> bytes, uint32_t index, uint8_t flags) {
  bytes[tensor_at(bytes, index) + offsetof(TensorDesc, flags)] = flags;
  return with_checksum(std::move(bytes));
}

std::vector<uint8_t> with_header_u32(std::vector<uint8_t> bytes, size_t offset, uint32_t value) {
  std::memcpy(bytes.data() + offset, &value, 4);
  return with_checksum(std::move(bytes));
}

std::vector<uint8_t> as_version_1_0(std::vector<uint8_t> bytes) {
  const uint16_t zero = 0;
  std::memcpy(bytes.data() + offsetof(ProgramHeader, version_minor), &zero, 2);
  return with_checksum(std::move(bytes));
}

// The status of loading a copy of `bytes` that dies on return: only for refusals (a
// program that loads must outlive the interpreter).
Status load_status(const std::vector<uint8_t>& bytes, Interpreter& interp, AlignedBytes& arena) {
  AlignedBytes program(bytes);
  return interp.load(program.cspan(), arena.span(), all_kernels());
}

std::vector<uint8_t> as_version_1_1(std::vector<uint8_t> bytes) {
  const uint16_t one = 1;
  std::memcpy(bytes.data() + offsetof(ProgramHeader, version_minor), &one, 2);
  return with_checksum(std::move(bytes));
}

TEST(Interpreter, VerifiesTheStateFlagsAndInitOpCount) {
  // The compiler writes 1.0 for a program without state; the fields need 1.1.
  const std::vector<uint8_t> stateless = compile_model("linear_4x3");
  ASSERT_EQ(header_of(stateless).version_minor, 0u);
  const std::vector<uint8_t> bytes = as_version_1_1(stateless);
  const ProgramHeader h = header_of(bytes);
  ASSERT_EQ(h.init_op_count, 0u);
  uint32_t arena_tensor = kNoOffset, constant_tensor = kNoOffset;
  for (uint32_t i = 0; i < h.tensor_count; ++i) {
    const TensorDesc t = tensor_of(bytes, i);
    ASSERT_EQ(t.flags, 0u) << "tensor " << i;
    if (t.storage == static_cast<uint8_t>(Storage::kArena) && arena_tensor == kNoOffset) arena_tensor = i;
    if (t.storage == static_cast<uint8_t>(Storage::kConstant) && constant_tensor == kNoOffset) constant_tensor = i;
  }
  ASSERT_NE(arena_tensor, kNoOffset);
  ASSERT_NE(constant_tensor, kNoOffset);
  AlignedBytes arena(h.arena_bytes);
  Interpreter interp;

  // Flags: unknown bits, state in the constant blob, state in a 1.0 program.
  EXPECT_EQ(load_status(with_tensor_flags(bytes, arena_tensor, 0x02), interp, arena), Status::kBadTensor);
  EXPECT_EQ(interp.failed_tensor(), arena_tensor);
  EXPECT_EQ(load_status(with_tensor_flags(bytes, arena_tensor, 0x80 | kTensorPersistent), interp, arena),
            Status::kBadTensor);
  EXPECT_EQ(load_status(with_tensor_flags(bytes, constant_tensor, kTensorPersistent), interp, arena),
            Status::kBadTensor);
  EXPECT_EQ(interp.failed_tensor(), constant_tensor);
  std::vector<uint8_t> old_with_flag = bytes;
  old_with_flag[tensor_at(old_with_flag, arena_tensor) + offsetof(TensorDesc, flags)] = kTensorPersistent;
  EXPECT_EQ(load_status(as_version_1_0(old_with_flag), interp, arena), Status::kBadTensor);

  // init_op_count: past op_count, or set in a 1.0 program.
  const size_t init_field = offsetof(ProgramHeader, init_op_count);
  EXPECT_EQ(load_status(with_header_u32(bytes, init_field, h.op_count + 1), interp, arena), Status::kBadSection);
  EXPECT_EQ(load_status(with_header_u32(bytes, init_field, 0xFFFFFFFFu), interp, arena), Status::kBadSection);
  EXPECT_EQ(load_status(as_version_1_0(with_header_u32(bytes, init_field, 1)), interp, arena), Status::kBadSection);
  EXPECT_FALSE(interp.loaded());

  // A 1.0 program (both fields zero) still loads; so does state on an arena tensor, which
  // the memory report counts. load() writes no arena byte: the state's initial value is
  // the init ops' work (the compiler's fill_bytes nodes).
  AlignedBytes old_program(as_version_1_0(bytes));
  ASSERT_EQ(interp.load(old_program.cspan(), arena.span(), all_kernels()), Status::kOk);
  EXPECT_EQ(interp.memory_report().arena_state_bytes, 0u);
  std::memset(arena.data(), 0xEE, arena.size());
  AlignedBytes stateful(with_tensor_flags(bytes, arena_tensor, kTensorPersistent));
  ASSERT_EQ(interp.load(stateful.cspan(), arena.span(), all_kernels()), Status::kOk);
  const TensorDesc state = tensor_of(bytes, arena_tensor);
  EXPECT_EQ(interp.memory_report().arena_state_bytes, state.bytes);
  for (uint32_t b = 0; b < arena.size(); ++b) ASSERT_EQ(arena.data()[b], 0xEE) << "byte " << b;
}

// Ops [0, init_op_count) run on the first run after load() or reset_state() only: with
// every op an init op, a second run leaves the outputs as the first made them.
TEST(Interpreter, RunsInitOpsOnceUntilResetState) {
  const std::vector<uint8_t> bytes = as_version_1_1(compile_model("linear_4x3"));
  AlignedBytes program(with_header_u32(bytes, offsetof(ProgramHeader, init_op_count), header_of(bytes).op_count));
  AlignedBytes arena(header_of(bytes).arena_bytes);
  Interpreter interp;
  ASSERT_EQ(interp.load(program.cspan(), arena.span(), all_kernels()), Status::kOk);
  const float ones[4] = {1, 1, 1, 1}, twos[4] = {2, 2, 2, 2};
  float first[3], again[3], after_reset[3];
  ASSERT_EQ(interp.set_input(0, ones, sizeof ones), Status::kOk);
  ASSERT_EQ(interp.run(), Status::kOk);
  ASSERT_EQ(interp.get_output(0, first, sizeof first), Status::kOk);
  ASSERT_EQ(interp.set_input(0, twos, sizeof twos), Status::kOk);
  ASSERT_EQ(interp.run(), Status::kOk);  // no op runs
  ASSERT_EQ(interp.get_output(0, again, sizeof again), Status::kOk);
  EXPECT_EQ(std::memcmp(first, again, sizeof first), 0);
  ASSERT_EQ(interp.reset_state(), Status::kOk);
  ASSERT_EQ(interp.run(), Status::kOk);  // every op again, on the new input
  ASSERT_EQ(interp.get_output(0, after_reset, sizeof after_reset), Status::kOk);
  EXPECT_NE(std::memcmp(first, after_reset, sizeof first), 0);
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
