// Seed corpus for fuzz_npu_payload: for every NPU op of each Vela file given, its payload
// over its real region sizes with its real constant data (fuzz/npu_payload_input.h), as
// <out_dir>/<model stem>.op<k>.npu, unless the seed is larger than max_bytes (the ATU
// files' ops each carry the whole model's constants: mutating a megabyte mostly fuzzes
// weights no command reads). The accelerator (--npu) comes from the payload's CONFIG
// word; files the compiler refuses are skipped with a line.
//   make_npu_payload_seeds <out_dir> <max_bytes> model_vela.tflite...
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "compiler.h"
#include "ethos_u/ethos_u.h"
#include "ethos_u/ethos_u_payload.h"
#include "host/loaded_program.h"
#include "npu/ethos_u.h"
#include "npu_payload_input.h"

namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The --npu name of the file's first payload ("" when none): the first "COP1" word
// followed by an OPTIMIZER_CONFIG action, whose CONFIG word names the accelerator.
std::string accelerator_of(const std::vector<uint8_t>& file) {
  for (size_t at = 0; at + 12 <= file.size(); ++at) {
    const uint8_t* p = file.data() + at;
    if (mote::ethos_u_word(p, 0) == mote::kEthosUFourCC && (mote::ethos_u_word(p, 1) & 0xFF) == 1)
      return mote::npu::accelerator_name(mote::ethos_u_word(p, 2));
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s out_dir max_bytes model_vela.tflite...\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out_dir = argv[1];
  const unsigned long max_bytes = std::strtoul(argv[2], nullptr, 10);
  std::filesystem::create_directories(out_dir);
  int written = 0, too_large = 0;
  for (int i = 3; i < argc; ++i) {
    const std::string npu = accelerator_of(read_file(argv[i]));
    if (npu.empty()) {
      std::printf("  skip %s: no Ethos-U payload\n", argv[i]);
      continue;
    }
    try {
      mote::CompileOptions options;
      options.model_path = argv[i];
      options.target = "cortex-m55";
      options.npu = npu;
      const std::vector<uint8_t> program = mote::compile(options).program;
      mote::LoadedProgram loaded(program, argv[i]);
      const mote::Interpreter& interp = loaded.interpreter();
      for (uint32_t k = 0; k < interp.op_count(); ++k) {
        if (!mote::is_ethos_u_op(*interp.op_desc(k))) continue;
        const mote::OpContext ctx = interp.op_context(k);
        const auto* payload = static_cast<const uint8_t*>(ctx.input_data(0));
        const mote::EthosUParams& params = ctx.params<mote::EthosUParams>();
        // Region i: input i + 1, then the outputs (kernels/ethos_u/ethos_u.h).
        std::vector<uint32_t> regions;
        for (uint32_t r = 0; r < params.region_count; ++r) {
          const uint32_t input = r + 1;
          if (r == 2 && params.fast_scratch_bytes != 0)
            regions.push_back(params.fast_scratch_bytes);
          else if (input < ctx.input_count())
            regions.push_back(ctx.has_input(input) ? ctx.input_desc(input).bytes : 0);
          else
            regions.push_back(ctx.output_desc(input - ctx.input_count()).bytes);
        }
        std::vector<uint8_t> constants;
        if (ctx.has_input(1)) {
          const auto* c = static_cast<const uint8_t*>(ctx.input_data(1));
          constants.assign(c, c + ctx.input_desc(1).bytes);
        }
        const std::vector<uint8_t> seed = mote::fuzz::make_npu_payload_input(
            std::vector<uint8_t>(payload, payload + ctx.input_desc(0).bytes), regions, constants);
        if (seed.size() > max_bytes) {
          ++too_large;
          continue;
        }
        const std::string name =
            std::filesystem::path(argv[i]).stem().string() + ".op" + std::to_string(k) + ".npu";
        std::ofstream(out_dir / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(seed.data()), static_cast<std::streamsize>(seed.size()));
        ++written;
      }
    } catch (const std::exception& e) {
      std::printf("  skip %s: %s\n", argv[i], e.what());
    }
  }
  std::printf("  %d NPU payload seeds in %s (%d larger than %lu bytes left out)\n", written, out_dir.c_str(),
              too_large, max_bytes);
  return 0;
}
