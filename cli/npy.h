// NumPy .npy files (format versions 1.0, 2.0, 3.0; little-endian, C order).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mote/program_format.h"

namespace mote {

struct NpyArray {
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // row-major, little-endian
};

// Throws std::runtime_error with one line naming the file and what is wrong
// (missing, not .npy, unsupported dtype or Fortran order, truncated data, ...).
NpyArray read_npy(const std::string& path);
NpyArray parse_npy(const std::vector<uint8_t>& bytes, const std::string& path_for_messages);

std::vector<uint8_t> encode_npy(const NpyArray& array);
// Writes to a temporary name beside `path` and renames it into place, so a failure never
// leaves a partial file. Throws std::runtime_error on failure.
void write_npy(const std::string& path, const NpyArray& array);
void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes);
// All or nothing: every file goes to a temporary name beside its path; only when all are
// written are they renamed into place, and if one rename fails the files already renamed
// are removed, so a failure leaves none of `paths` and no temporary file. Throws
// std::runtime_error naming the path that failed.
void write_files_atomically(const std::vector<std::string>& paths,
                            const std::vector<const std::vector<uint8_t>*>& contents);
std::vector<uint8_t> read_file(const std::string& path);

// "float32", "int8", ...
const char* dtype_name(DType dtype);
std::string shape_string(const std::vector<int64_t>& shape);  // "[1,3,96,96]"

}  // namespace mote
