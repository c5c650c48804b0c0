#include "arena_map.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "kernel_registry.h"

namespace mote {
namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string with_commas(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string named(const std::string& prefix, const char* name) {
  return name != nullptr && *name != '\0' ? prefix + " '" + name + "'" : prefix;
}

}  // namespace

std::vector<ArenaBuffer> arena_buffers(const Interpreter& interp, const ProgramHeader& h) {
  const uint32_t ops = interp.op_count();
  const auto* base = reinterpret_cast<const uint8_t*>(&h);
  const auto* tensors = reinterpret_cast<const TensorDesc*>(base + h.tensors_offset);
  const auto* pool = reinterpret_cast<const uint32_t*>(base + h.index_offset);
  std::vector<int64_t> first(h.tensor_count, -1), last(h.tensor_count, -1);
  std::vector<uint32_t> root(h.tensor_count);
  for (uint32_t t = 0; t < h.tensor_count; ++t) root[t] = t;
  for (uint32_t k = 0; k < ops; ++k) {
    const OpDesc& op = *interp.op_desc(k);
    if (kernel_placement(static_cast<KernelId>(op.kernel)) != KernelPlacement::kAlias) continue;
    const uint32_t in = pool[op.io_first], out = pool[op.io_first + 1];
    if (tensors[in].storage == tensors[out].storage && tensors[in].offset == tensors[out].offset &&
        tensors[in].bytes == tensors[out].bytes)
      root[out] = root[in];
  }
  auto touch = [&](uint32_t t, int64_t op) {
    t = root[t];
    if (first[t] < 0 || op < first[t]) first[t] = op;
    last[t] = std::max(last[t], op);
  };
  for (uint32_t i = 0; i < h.input_count; ++i) touch(pool[h.inputs_first + i], 0);
  for (uint32_t i = 0; i < h.output_count; ++i) touch(pool[h.outputs_first + i], ops ? ops - 1 : 0);
  std::vector<ArenaBuffer> buffers;
  for (uint32_t k = 0; k < ops; ++k) {
    const OpDesc& op = *interp.op_desc(k);
    for (uint32_t i = 0; i < op.input_count + op.output_count; ++i) {
      const uint32_t t = pool[op.io_first + i];
      if (t != kNoTensor) touch(t, k);
    }
    if (op.scratch_bytes != 0)
      buffers.push_back({op.scratch_offset, op.scratch_bytes, k, k,
                         named("scratch of op " + std::to_string(k), interp.op_name(k))});
  }
  std::vector<int64_t> buffer_of(h.tensor_count, -1);
  for (uint32_t t = 0; t < h.tensor_count; ++t) {
    if (tensors[t].storage == static_cast<uint8_t>(Storage::kArena) && first[t] >= 0) {
      buffer_of[t] = static_cast<int64_t>(buffers.size());
      buffers.push_back({tensors[t].offset, tensors[t].bytes, static_cast<uint32_t>(first[t]),
                         static_cast<uint32_t>(last[t]), named("tensor " + std::to_string(t), interp.tensor_name(t))});
    }
  }
  // In place: an op's output over one of its inputs whose life ends at that op.
  for (uint32_t k = 0; k < ops; ++k) {
    const OpDesc& op = *interp.op_desc(k);
    for (uint32_t o = op.input_count; o < op.input_count + op.output_count; ++o) {
      const uint32_t out = pool[op.io_first + o];
      if (out == kNoTensor || buffer_of[root[out]] < 0) continue;
      ArenaBuffer& written = buffers[static_cast<size_t>(buffer_of[root[out]])];
      for (uint32_t i = 0; i < op.input_count && written.in_place_of < 0; ++i) {
        const uint32_t in = pool[op.io_first + i];
        if (in == kNoTensor || buffer_of[root[in]] < 0 || root[in] == root[out]) continue;
        const ArenaBuffer& read = buffers[static_cast<size_t>(buffer_of[root[in]])];
        const bool overlap = read.offset < written.offset + written.bytes && written.offset < read.offset + read.bytes;
        if (overlap && read.last == k && written.first == k) written.in_place_of = buffer_of[root[in]];
      }
    }
  }
  return buffers;
}

std::vector<uint64_t> live_bytes_per_op(const std::vector<ArenaBuffer>& buffers, uint32_t op_count) {
  std::vector<uint64_t> live(op_count, 0);
  auto aligned = [](uint64_t bytes) { return (bytes + 15) / 16 * 16; };
  for (const ArenaBuffer& b : buffers) {
    for (uint32_t k = b.first; k <= b.last && k < op_count; ++k) live[k] += aligned(b.bytes);
    if (b.in_place_of >= 0 && b.first < op_count) {
      const ArenaBuffer& from = buffers[static_cast<size_t>(b.in_place_of)];
      const uint64_t lo = std::max(b.offset, from.offset);
      const uint64_t hi = std::min(b.offset + aligned(b.bytes), from.offset + aligned(from.bytes));
      live[b.first] -= hi > lo ? hi - lo : 0;
    }
  }
  return live;
}

std::string arena_svg(const Interpreter& interp, const ProgramHeader& h, const std::string& title) {
  const uint32_t ops = std::max<uint32_t>(interp.op_count(), 1);
  const std::vector<ArenaBuffer> buffers = arena_buffers(interp, h);
  const std::vector<uint64_t> live = live_bytes_per_op(buffers, interp.op_count());
  const uint32_t peak_op =
      live.empty() ? 0 : static_cast<uint32_t>(std::max_element(live.begin(), live.end()) - live.begin());
  const double arena = std::max<double>(h.arena_bytes, 1);
  const double left = 90, top = 50, plot_w = std::max(600.0, std::min(1800.0, 14.0 * ops)), plot_h = 480;
  const double col = plot_w / ops;
  const double width = left + plot_w + 30, height = top + plot_h + 60;
  auto y_of = [&](double offset) { return top + plot_h - offset / arena * plot_h; };

  std::ostringstream svg;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"sans-serif\" font-size=\"11\">\n",
                width, height, width, height);
  svg << buf;
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"" << left << "\" y=\"20\" font-size=\"14\">" << xml_escape(title) << ": arena "
      << with_commas(h.arena_bytes) << " bytes (lower bound " << with_commas(h.arena_lower_bound_bytes)
      << "), peak at op " << peak_op << (interp.op_name(peak_op)[0] ? " '" + xml_escape(interp.op_name(peak_op)) + "'" : "")
      << "</text>\n";
  // Peak column.
  std::snprintf(buf, sizeof buf, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#fde2e2\"/>\n",
                left + peak_op * col, top, col, plot_h);
  svg << buf;
  // Buffers.
  for (size_t i = 0; i < buffers.size(); ++i) {
    const ArenaBuffer& b = buffers[i];
    if (b.bytes == 0) continue;
    const bool scratch = b.what.rfind("scratch", 0) == 0;
    const int hue = static_cast<int>((i * 47) % 360);
    std::snprintf(buf, sizeof buf,
                  "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"hsl(%d,55%%,%d%%)\" "
                  "stroke=\"#333\" stroke-width=\"0.4\"><title>",
                  left + b.first * col, y_of(static_cast<double>(b.offset + b.bytes)), (b.last - b.first + 1) * col,
                  std::max(0.5, static_cast<double>(b.bytes) / arena * plot_h), scratch ? 0 : hue, scratch ? 85 : 70);
    svg << buf << xml_escape(b.what) << ": " << with_commas(b.bytes) << " bytes at offset " << with_commas(b.offset)
        << ", ops " << b.first << "-" << b.last << "</title></rect>\n";
  }
  // Axes: planned arena line, offsets, op ticks.
  std::snprintf(buf, sizeof buf,
                "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"black\"/>\n"
                "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"black\"/>\n"
                "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"black\"/>\n",
                left, top, left + plot_w, top, left, top + plot_h, left + plot_w, top + plot_h, left, top, left,
                top + plot_h);
  svg << buf;
  for (int k = 0; k <= 4; ++k) {
    const double offset = arena * k / 4;
    std::snprintf(buf, sizeof buf, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n", left - 6,
                  y_of(offset) + 4, with_commas(static_cast<uint64_t>(offset)).c_str());
    svg << buf;
  }
  const uint32_t step = std::max<uint32_t>(1, ops / 20);
  for (uint32_t k = 0; k < ops; k += step) {
    std::snprintf(buf, sizeof buf, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%u</text>\n",
                  left + (k + 0.5) * col, top + plot_h + 16, k);
    svg << buf;
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">op (execution order)</text>\n"
                "<text x=\"16\" y=\"%.2f\" transform=\"rotate(-90 16 %.2f)\" text-anchor=\"middle\">arena offset "
                "(bytes)</text>\n",
                left + plot_w / 2, top + plot_h + 40, top + plot_h / 2, top + plot_h / 2);
  svg << buf << "</svg>\n";
  return svg.str();
}

}  // namespace mote
