// Seed corpus for fuzz_program: compiles each model given on the command line into
// <out_dir>/<model stem>.mote, skipping models the compiler refuses and programs larger
// than --max-bytes (mutating a multi-megabyte input mostly fuzzes the CRC).
//   make_program_seeds <out_dir> <max_bytes> model.onnx|model.tflite...
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "compiler.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s out_dir max_bytes model...\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out_dir = argv[1];
  const unsigned long max_bytes = std::strtoul(argv[2], nullptr, 10);
  std::filesystem::create_directories(out_dir);
  int written = 0;
  for (int i = 3; i < argc; ++i) {
    mote::CompileOptions options;
    options.model_path = argv[i];
    try {
      const std::vector<uint8_t> program = mote::compile(options).program;
      if (program.size() > max_bytes) {
        std::printf("  skip %s: program is %zu bytes\n", argv[i], program.size());
        continue;
      }
      std::ofstream out(out_dir / (std::filesystem::path(argv[i]).stem().string() + ".mote"),
                        std::ios::binary);
      out.write(reinterpret_cast<const char*>(program.data()), static_cast<std::streamsize>(program.size()));
      ++written;
    } catch (const std::exception& e) {
      std::printf("  skip %s: %s\n", argv[i], e.what());
    }
  }
  std::printf("  %d program seeds in %s\n", written, out_dir.c_str());
  return 0;
}
