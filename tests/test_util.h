// Helpers shared by the CLI, model and runtime tests.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace mote::testing {

inline std::string shared_models() { return std::string(MOTE_SHARED_DIR) + "/models"; }
inline std::string onnx_model(const std::string& stem) { return shared_models() + "/onnx/" + stem + ".onnx"; }

// A fresh directory under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "mote-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the mote CLI with `args` (already shell-quoted where needed).
inline CommandResult run_mote(const std::string& args) {
  TempDir dir;
  const std::string command = std::string("'") + MOTE_CLI_PATH + "' " + args + " >'" +
                              dir.file("out") + "' 2>'" + dir.file("err") + "' </dev/null";
  const int status = std::system(command.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_text(dir.file("out"));
  result.err = read_text(dir.file("err"));
  return result;
}

// How many outputs `mote run` wrote into `dir` (out0.npy, out1.npy, ...).
inline int written_output_count(const std::string& dir) {
  int n = 0;
  while (std::filesystem::exists(dir + "/out" + std::to_string(n) + ".npy")) ++n;
  return n;
}

inline int line_count(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

}  // namespace mote::testing
