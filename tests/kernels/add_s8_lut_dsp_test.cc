// add_s8_lut__dsp (tables precomputed in its parameters) against the reference add_s8,
// bit for bit, through both kernels' check() and run(): seeded random same-shape cases
// (realistic and extreme quantization), lengths around the 4-lane loop and the table
// threshold, zero points and clamps at their limits, in-place operation over either
// input, and what check() refuses: wrong parameter sizes, corrupted tables, bad
// quantization fields, broadcasting.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "elementwise/elementwise.h"
#include "kernel_test_util.h"

namespace mote {
namespace add_s8_lut_dsp_test {

using testing::TestOp;

using Rng = std::mt19937;

int32_t uniform(Rng& rng, int32_t lo, int32_t hi) {
  return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
}

std::vector<int8_t> random_bytes(Rng& rng, size_t n) {
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(uniform(rng, -128, 127));
  return v;
}

// A multiplier as the compiler derives it (in [2^30, 2^31)) or, when `extreme`, any of
// the edge values check() still accepts.
int32_t random_multiplier(Rng& rng, bool extreme) {
  if (!extreme) return uniform(rng, 1 << 30, INT32_MAX);
  const int32_t edges[] = {INT32_MIN, INT32_MIN + 1, -(1 << 30), -1, 0, 1, 1 << 20, INT32_MAX};
  return uniform(rng, 0, 2) == 0 ? uniform(rng, INT32_MIN, INT32_MAX) : edges[uniform(rng, 0, 7)];
}

QuantAddSubParams random_params(Rng& rng, bool extreme) {
  QuantAddSubParams p{};
  p.input1_zero_point = uniform(rng, -128, 127);
  p.input2_zero_point = uniform(rng, -128, 127);
  p.output_zero_point = uniform(rng, -128, 127);
  p.input1_multiplier = random_multiplier(rng, extreme);
  p.input2_multiplier = random_multiplier(rng, extreme);
  p.output_multiplier = random_multiplier(rng, extreme);
  p.input1_shift = extreme ? uniform(rng, -31, 0) : uniform(rng, -3, 0);
  p.input2_shift = extreme ? uniform(rng, -31, 0) : uniform(rng, -3, 0);
  p.output_shift = extreme ? uniform(rng, -31, 0) : uniform(rng, -23, -14);
  p.act_min = uniform(rng, 0, 1) ? -128 : uniform(rng, -128, 127);
  p.act_max = uniform(rng, 0, 1) ? 127 : uniform(rng, p.act_min, 127);
  return p;
}

AddS8LutParams lut_params(const QuantAddSubParams& p) {
  AddS8LutParams lut;
  add_s8_lut__dsp_make_params(p, &lut);
  return lut;
}

// Runs add_s8 (reference params) or add_s8_lut__dsp (its tables made from them) on
// a, b of shape `dims`; in_place: 0 a fresh output, 1 over a, 2 over b.
std::vector<int8_t> run_add(bool lut, const QuantAddSubParams& p, const std::vector<uint32_t>& dims,
                            const std::vector<int8_t>& a, const std::vector<int8_t>& b,
                            int in_place = 0) {
  TestOp op;
  const uint32_t ta = op.add_input(DType::kInt8, dims);
  const uint32_t tb = op.add_input(DType::kInt8, dims);
  uint32_t out = in_place == 1 ? ta : tb;
  if (in_place == 0) {
    out = op.add_output(DType::kInt8, dims);
  } else {
    op.add_output_tensor(out);
  }
  if (lut) {
    op.set_params(lut_params(p));
  } else {
    op.set_params(p);
  }
  op.set_data(ta, a);
  op.set_data(tb, b);
  const KernelEntry& entry = lut ? kAddS8LutDspEntry : kAddS8Entry;
  EXPECT_EQ(op.check(entry), Status::kOk);
  op.run(entry);
  return op.data<int8_t>(out);
}

void expect_matches_reference(const QuantAddSubParams& p, const std::vector<uint32_t>& dims, Rng& rng,
                              const char* what) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  const std::vector<int8_t> a = random_bytes(rng, n);
  const std::vector<int8_t> b = random_bytes(rng, n);
  ASSERT_EQ(run_add(true, p, dims, a, b), run_add(false, p, dims, a, b))
      << what << ": " << n << " elements, zp " << p.input1_zero_point << "/" << p.input2_zero_point << "/"
      << p.output_zero_point << ", m " << p.input1_multiplier << "/" << p.input2_multiplier << "/"
      << p.output_multiplier << ", shifts " << p.input1_shift << "/" << p.input2_shift << "/" << p.output_shift;
}

TEST(AddS8LutDsp, RandomSameShapeMatchesReference) {
  Rng rng(20261130);
  for (int i = 0; i < 400; ++i) {
    std::vector<uint32_t> dims;
    const int rank = uniform(rng, 1, 4);
    for (int d = 0; d < rank; ++d) dims.push_back(static_cast<uint32_t>(uniform(rng, 1, d == 0 ? 2 : 20)));
    expect_matches_reference(random_params(rng, i % 3 == 2), dims, rng, "random");
  }
}

TEST(AddS8LutDsp, LengthsAroundTheLanesAndTheThresholdMatchReference) {
  Rng rng(5);
  const uint32_t lengths[] = {1, 2, 3, 4, 5, 7, 8, 9, 255, 256, 257, 510, 511, 512, 513, 514, 515, 4099};
  for (uint32_t n : lengths) {
    for (int k = 0; k < 4; ++k) expect_matches_reference(random_params(rng, k >= 2), {n}, rng, "length");
  }
}

TEST(AddS8LutDsp, EdgeQuantizationMatchesReference) {
  Rng rng(77);
  const int32_t zero_points[] = {-128, -1, 0, 1, 127};
  const int32_t output_shifts[] = {-31, -23, -22, -21, -1, 0};
  const int32_t multipliers[] = {INT32_MIN, -1, 0, 1, 1 << 30, INT32_MAX};
  const int32_t clamps[][2] = {{-128, 127}, {0, 127}, {-128, 0}, {-5, 5}, {7, 7}};
  int i = 0;
  for (int32_t zp : zero_points) {
    for (int32_t shift : output_shifts) {
      for (int32_t m : multipliers) {
        QuantAddSubParams p = random_params(rng, false);
        p.input1_zero_point = zp;
        p.input2_zero_point = -1 - zp;  // the other end of the range
        p.output_zero_point = zero_points[i % 5];
        p.output_shift = shift;
        p.output_multiplier = m;
        p.input1_shift = (i % 4 == 0) ? -31 : 0;
        p.act_min = clamps[i % 5][0];
        p.act_max = clamps[i % 5][1];
        expect_matches_reference(p, {static_cast<uint32_t>(509 + i % 8)}, rng, "edge");
        ++i;
      }
    }
  }
}

TEST(AddS8LutDsp, InPlaceOverEitherInputMatchesReference) {
  Rng rng(13);
  for (int i = 0; i < 30; ++i) {
    const QuantAddSubParams p = random_params(rng, i % 2 == 1);
    const std::vector<uint32_t> dims = {static_cast<uint32_t>(uniform(rng, 1, 4)),
                                        static_cast<uint32_t>(uniform(rng, 1, 700))};
    const std::vector<int8_t> a = random_bytes(rng, size_t{dims[0]} * dims[1]);
    const std::vector<int8_t> b = random_bytes(rng, a.size());
    const std::vector<int8_t> expected = run_add(false, p, dims, a, b);
    EXPECT_EQ(run_add(true, p, dims, a, b, 1), expected) << i;
    EXPECT_EQ(run_add(true, p, dims, a, b, 2), expected) << i;
  }
}

TEST(AddS8LutDsp, MakeParamsKeepsTheReferenceParamsAndNeedsNoScratch) {
  Rng rng(1);
  const QuantAddSubParams p = random_params(rng, false);
  const AddS8LutParams lut = lut_params(p);
  EXPECT_EQ(memcmp(&lut.quant, &p, sizeof(p)), 0);
  EXPECT_EQ(sizeof(AddS8LutParams), sizeof(QuantAddSubParams) + 2 * 256 * sizeof(int32_t));
  EXPECT_EQ(add_s8_lut__dsp_scratch_bytes(), 0u);
}

// A same-shape op with valid tables for `p`, to corrupt.
void setup_valid(TestOp& op, const QuantAddSubParams& p) {
  op.add_input(DType::kInt8, {4, 130});
  op.add_input(DType::kInt8, {4, 130});
  op.add_output(DType::kInt8, {4, 130});
  op.set_params(lut_params(p));
}

TEST(AddS8LutDsp, CheckRefusesCorruptedTables) {
  Rng rng(99);
  for (int i = 0; i < 200; ++i) {
    const QuantAddSubParams p = random_params(rng, i % 2 == 0);
    TestOp op;
    setup_valid(op, p);
    ASSERT_EQ(op.check(kAddS8LutDspEntry), Status::kOk);
    AddS8LutParams& lut = op.params<AddS8LutParams>();
    int32_t* table = uniform(rng, 0, 1) ? lut.input1_table : lut.input2_table;
    int32_t& entry = table[uniform(rng, 0, 255)];
    const uint32_t bits = static_cast<uint32_t>(entry);
    switch (i % 4) {
      case 0: entry = static_cast<int32_t>(bits ^ (1u << uniform(rng, 0, 31))); break;  // one flipped bit
      case 1: entry = static_cast<int32_t>(bits + 1u); break;
      case 2: entry = (i % 8 == 2) ? INT32_MAX : INT32_MIN; break;  // beyond the overflow bound
      default: entry = static_cast<int32_t>(bits + static_cast<uint32_t>(uniform(rng, 2, 1 << 20))); break;
    }
    EXPECT_EQ(op.check(kAddS8LutDspEntry), Status::kBadParams) << i;
  }
}

TEST(AddS8LutDsp, CheckRefusesTablesOfOtherQuantization) {
  // Tables valid for other params: a changed zero point, multiplier or shift in `quant`
  // after the tables were made.
  Rng rng(4);
  const QuantAddSubParams p = random_params(rng, false);
  for (int field = 0; field < 6; ++field) {
    TestOp op;
    setup_valid(op, p);
    QuantAddSubParams& q = op.params<AddS8LutParams>().quant;
    switch (field) {
      case 0: q.input1_zero_point = q.input1_zero_point == 0 ? 1 : 0; break;
      case 1: q.input2_zero_point = q.input2_zero_point == 0 ? 1 : 0; break;
      case 2: q.input1_multiplier ^= 1 << 12; break;
      case 3: q.input2_multiplier ^= 1 << 12; break;
      case 4: q.input1_shift = q.input1_shift == 0 ? -1 : 0; break;
      default: q.input2_shift = q.input2_shift == 0 ? -1 : 0; break;
    }
    EXPECT_EQ(op.check(kAddS8LutDspEntry), Status::kBadParams) << field;
  }
}

TEST(AddS8LutDsp, CheckRefusesWrongParamSizes) {
  Rng rng(8);
  const QuantAddSubParams p = random_params(rng, false);
  const uint32_t full = sizeof(AddS8LutParams);
  for (uint32_t bytes : {0u, 4u, static_cast<uint32_t>(sizeof(QuantAddSubParams)), full - 4, full - 1, full + 4}) {
    TestOp op;
    setup_valid(op, p);
    op.set_params_bytes(bytes);
    EXPECT_EQ(op.check(kAddS8LutDspEntry), Status::kBadParams) << bytes;
  }
  {
    TestOp op;  // the reference's params alone
    op.add_input(DType::kInt8, {600});
    op.add_input(DType::kInt8, {600});
    op.add_output(DType::kInt8, {600});
    op.set_params(p);
    EXPECT_EQ(op.check(kAddS8LutDspEntry), Status::kBadParams);
  }
}

TEST(AddS8LutDsp, CheckRefusesBadQuantizationAndShapes) {
  Rng rng(21);
  const QuantAddSubParams p = random_params(rng, false);
  for (int field = 0; field < 5; ++field) {
    QuantAddSubParams bad = p;
    switch (field) {
      case 0: bad.output_shift = 1; break;
      case 1: bad.input1_shift = -32; break;
      case 2: bad.input2_zero_point = 128; break;
      case 3: bad.output_zero_point = -129; break;
      default:
        bad.act_min = 10;
        bad.act_max = 9;
        break;
    }
    TestOp op;
    op.add_input(DType::kInt8, {700});
    op.add_input(DType::kInt8, {700});
    op.add_output(DType::kInt8, {700});
    // Tables of the bad params themselves, so only the field is wrong (shifts out of
    // range are not tabulated: multiply_by_quantized_multiplier needs them in range).
    AddS8LutParams lut = lut_params(p);
    lut.quant = bad;
    op.set_params(lut);
    EXPECT_EQ(op.check(kAddS8LutDspEntry), Status::kBadParams) << field;
  }
  {
    TestOp op;  // broadcast: b is [130]
    op.add_input(DType::kInt8, {4, 130});
    op.add_input(DType::kInt8, {130});
    op.add_output(DType::kInt8, {4, 130});
    op.set_params(lut_params(p));
    EXPECT_EQ(op.check(kAddS8LutDspEntry), Status::kBadParams);
  }
  {
    TestOp op;  // int16 tensors
    op.add_input(DType::kInt16, {600});
    op.add_input(DType::kInt16, {600});
    op.add_output(DType::kInt16, {600});
    op.set_params(lut_params(p));
    EXPECT_EQ(op.check(kAddS8LutDspEntry), Status::kBadParams);
  }
}

}  // namespace add_s8_lut_dsp_test
}  // namespace mote
