// The .npy reader/writer: round trips, the shared golden files, and one-line errors for
// each kind of malformed file.
#include <gtest/gtest.h>

#include <stdexcept>

#include "npy.h"
#include "test_util.h"

namespace mote {
namespace {

std::string error_of(const std::vector<uint8_t>& bytes) {
  try {
    parse_npy(bytes, "x.npy");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

std::vector<uint8_t> with_header(const std::string& dict, size_t payload) {
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<uint8_t>(dict.size()), 0};
  out.insert(out.end(), dict.begin(), dict.end());
  out.resize(out.size() + payload, 0);
  return out;
}

TEST(Npy, RoundTripsEveryDtypeAndRank) {
  for (DType dtype : {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32, DType::kUInt8, DType::kInt64, DType::kBool}) {
    for (std::vector<int64_t> shape : {std::vector<int64_t>{}, {7}, {2, 3}, {1, 3, 4, 5}}) {
      NpyArray a;
      a.dtype = dtype;
      a.shape = shape;
      int64_t n = 1;
      for (int64_t d : shape) n *= d;
      for (int64_t i = 0; i < n * int64_t(dtype_size(dtype)); ++i) a.data.push_back(static_cast<uint8_t>(i * 7 + 1));
      const std::vector<uint8_t> bytes = encode_npy(a);
      EXPECT_EQ((bytes.size() - a.data.size()) % 64, 0u);  // header padded to 64 bytes
      const NpyArray b = parse_npy(bytes, "t.npy");
      EXPECT_EQ(b.dtype, a.dtype);
      EXPECT_EQ(b.shape, a.shape);
      EXPECT_EQ(b.data, a.data);
    }
  }
}

TEST(Npy, ReadsSharedGoldenFile) {
  const NpyArray a = read_npy(testing::shared_models() + "/onnx/mobilenet_v2_w005_96.s0.in0.npy");
  EXPECT_EQ(a.dtype, DType::kFloat32);
  EXPECT_EQ(a.shape, (std::vector<int64_t>{1, 3, 96, 96}));
  EXPECT_EQ(a.data.size(), 3u * 96 * 96 * 4);
}

TEST(Npy, MalformedFilesGiveOneLineErrors) {
  EXPECT_EQ(error_of({1, 2, 3}), "x.npy: not a .npy file (bad magic)");
  EXPECT_EQ(error_of({0x93, 'N', 'U', 'M', 'P', 'Y', 9, 0, 0, 0}), "x.npy: unsupported .npy format version 9");
  EXPECT_EQ(error_of({0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 100, 0, '{'}), "x.npy: truncated .npy header");
  EXPECT_EQ(error_of(with_header("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8)),
            "x.npy: unsupported .npy dtype '>f4' (supported: float32, int8, int16, int32, uint8, int64, bool, little-endian)");
  EXPECT_EQ(error_of(with_header("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", 8)),
            "x.npy: Fortran-ordered .npy arrays are not supported (save with C order)");
  EXPECT_EQ(error_of(with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 20)),
            "x.npy: data size 20 bytes does not match shape [2,3] of float32 (24 bytes)");
  EXPECT_EQ(error_of(with_header("{'fortran_order': False, 'shape': (2,), }", 8)),
            "x.npy: bad .npy header: no 'descr' entry");
  EXPECT_EQ(error_of(with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (a,), }", 8)),
            "x.npy: bad .npy header: shape (a,) is not a tuple of sizes");
}

TEST(Npy, ReadMissingFileNamesIt) {
  try {
    read_npy("/nonexistent/file.npy");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/file.npy: cannot open"), std::string::npos);
  }
}

}  // namespace
}  // namespace mote
