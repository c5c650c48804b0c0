#include "npy.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <unistd.h>

namespace mote {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}

struct DtypeCode {
  DType dtype;
  const char* descr;
};
constexpr DtypeCode kDtypeCodes[] = {
    {DType::kFloat32, "<f4"}, {DType::kInt8, "|i1"},  {DType::kInt16, "<i2"},
    {DType::kInt32, "<i4"},   {DType::kUInt8, "|u1"}, {DType::kInt64, "<i8"},
    {DType::kBool, "|b1"},
};

bool dtype_from_descr(const std::string& descr, DType* dtype) {
  for (const auto& code : kDtypeCodes) {
    if (descr == code.descr) {
      *dtype = code.dtype;
      return true;
    }
  }
  // Single-byte types may be written with '<' or '=' instead of '|'.
  if (descr == "<i1" || descr == "=i1") return *dtype = DType::kInt8, true;
  if (descr == "<u1" || descr == "=u1") return *dtype = DType::kUInt8, true;
  return false;
}

// Value text of `key` in a Python dict literal header, e.g. 'descr': '<f4'.
std::string header_value(const std::string& header, const std::string& key,
                         const std::string& path) {
  const std::string quoted = "'" + key + "'";
  size_t pos = header.find(quoted);
  if (pos == std::string::npos) fail(path, "bad .npy header: no '" + key + "' entry");
  pos = header.find(':', pos + quoted.size());
  if (pos == std::string::npos) fail(path, "bad .npy header: no value for '" + key + "'");
  ++pos;
  while (pos < header.size() && header[pos] == ' ') ++pos;
  if (pos >= header.size()) fail(path, "bad .npy header: no value for '" + key + "'");
  size_t end;
  if (header[pos] == '\'') {
    end = header.find('\'', pos + 1);
    if (end == std::string::npos) fail(path, "bad .npy header: unterminated string");
    return header.substr(pos + 1, end - pos - 1);
  }
  if (header[pos] == '(') {
    end = header.find(')', pos);
    if (end == std::string::npos) fail(path, "bad .npy header: unterminated shape tuple");
    return header.substr(pos, end - pos + 1);
  }
  end = header.find_first_of(",}", pos);
  if (end == std::string::npos) fail(path, "bad .npy header: unterminated value");
  std::string value = header.substr(pos, end - pos);
  while (!value.empty() && value.back() == ' ') value.pop_back();
  return value;
}

std::vector<int64_t> parse_shape(const std::string& tuple, const std::string& path) {
  std::vector<int64_t> shape;
  size_t pos = 1;  // past '('
  while (pos < tuple.size()) {
    while (pos < tuple.size() && (tuple[pos] == ' ' || tuple[pos] == ',')) ++pos;
    if (pos >= tuple.size() || tuple[pos] == ')') break;
    size_t end = pos;
    while (end < tuple.size() && tuple[end] >= '0' && tuple[end] <= '9') ++end;
    if (end == pos || end - pos > 12) fail(path, "bad .npy header: shape " + tuple + " is not a tuple of sizes");
    shape.push_back(std::stoll(tuple.substr(pos, end - pos)));
    pos = end;
    while (pos < tuple.size() && tuple[pos] == 'L') ++pos;  // Python 2 long suffix
  }
  return shape;
}

}  // namespace

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return "float32";
    case DType::kInt8: return "int8";
    case DType::kInt16: return "int16";
    case DType::kInt32: return "int32";
    case DType::kUInt8: return "uint8";
    case DType::kInt64: return "int64";
    case DType::kBool: return "bool";
  }
  return "unknown";
}

std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(path, "read error");
  return bytes;
}

NpyArray parse_npy(const std::vector<uint8_t>& bytes, const std::string& path) {
  static const uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0)
    fail(path, "not a .npy file (bad magic)");
  const uint8_t major = bytes[6];
  size_t header_len, header_start;
  if (major == 1) {
    header_len = bytes[8] | (bytes[9] << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(path, "truncated .npy header");
    header_len = bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (size_t(bytes[11]) << 24);
    header_start = 12;
  } else {
    fail(path, "unsupported .npy format version " + std::to_string(major));
  }
  if (header_start + header_len > bytes.size()) fail(path, "truncated .npy header");
  const std::string header(reinterpret_cast<const char*>(bytes.data() + header_start), header_len);

  NpyArray array;
  const std::string descr = header_value(header, "descr", path);
  if (!dtype_from_descr(descr, &array.dtype))
    fail(path, "unsupported .npy dtype '" + descr +
                   "' (supported: float32, int8, int16, int32, uint8, int64, bool, little-endian)");
  if (header_value(header, "fortran_order", path) != "False")
    fail(path, "Fortran-ordered .npy arrays are not supported (save with C order)");
  array.shape = parse_shape(header_value(header, "shape", path), path);

  unsigned __int128 count = 1;
  for (int64_t d : array.shape) count *= static_cast<uint64_t>(d);
  const unsigned __int128 expected = count * dtype_size(array.dtype);
  const size_t payload = bytes.size() - header_start - header_len;
  if (expected != payload)
    fail(path, "data size " + std::to_string(payload) + " bytes does not match shape " +
                   shape_string(array.shape) + " of " + dtype_name(array.dtype) + " (" +
                   std::to_string(static_cast<uint64_t>(expected)) + " bytes)");
  array.data.assign(bytes.begin() + header_start + header_len, bytes.end());
  return array;
}

NpyArray read_npy(const std::string& path) { return parse_npy(read_file(path), path); }

std::vector<uint8_t> encode_npy(const NpyArray& array) {
  const char* descr = "<f4";
  for (const auto& code : kDtypeCodes)
    if (code.dtype == array.dtype) descr = code.descr;
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i) shape += std::to_string(array.shape[i]) + ", ";
  if (array.shape.size() > 1) shape.resize(shape.size() - 2);
  if (array.shape.size() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " +
                       shape + ", }";
  // Pad so that magic(6) + version(2) + len(2) + header + '\n' is a multiple of 64.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                              static_cast<uint8_t>(header.size() & 0xFF),
                              static_cast<uint8_t>(header.size() >> 8)};
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), array.data.begin(), array.data.end());
  return out;
}

namespace {

std::string temp_name(const std::string& path) { return path + ".tmp" + std::to_string(getpid()); }

// Writes `bytes` to temp_name(path); on failure removes it and throws naming `path`.
void write_temp(const std::string& path, const std::vector<uint8_t>& bytes) {
  const std::string temp = temp_name(path);
  FILE* f = std::fopen(temp.c_str(), "wb");
  if (f == nullptr) fail(path, std::string("cannot write: ") + std::strerror(errno));
  const bool written = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    std::remove(temp.c_str());
    fail(path, "write failed (disk full?)");
  }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  write_files_atomically({path}, {&bytes});
}

void write_files_atomically(const std::vector<std::string>& paths,
                            const std::vector<const std::vector<uint8_t>*>& contents) {
  size_t written = 0;
  try {
    for (; written < paths.size(); ++written) write_temp(paths[written], *contents[written]);
  } catch (...) {
    for (size_t i = 0; i < written; ++i) std::remove(temp_name(paths[i]).c_str());
    throw;
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    if (std::rename(temp_name(paths[i]).c_str(), paths[i].c_str()) == 0) continue;
    const std::string reason = std::strerror(errno);
    for (size_t j = 0; j < i; ++j) std::remove(paths[j].c_str());
    for (size_t j = i; j < paths.size(); ++j) std::remove(temp_name(paths[j]).c_str());
    fail(paths[i], "cannot write: " + reason);
  }
}

void write_npy(const std::string& path, const NpyArray& array) {
  write_file_atomically(path, encode_npy(array));
}

}  // namespace mote
