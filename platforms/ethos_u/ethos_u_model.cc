#include "ethos_u_model.h"

#include <stddef.h>
#include <string.h>

#include "ethos_u/ethos_u_payload.h"
#include "mote/text_line.h"

namespace mote {
namespace {

// ---------------------------------------------------------------- opcodes and names

// cmd0 (one word, 16-bit parameter) and cmd1 (two words) opcodes of the U55/U65 command
// set (docs/design/ethos_u_facts.md 2.2).
enum : uint16_t {
  kOpStop = 0x000, kOpIrq = 0x001, kOpConv = 0x002, kOpDepthwise = 0x003, kOpPool = 0x005,
  kOpElementwise = 0x006, kOpResize = 0x007, kOpDmaStart = 0x010, kOpDmaWait = 0x011, kOpKernelWait = 0x012,
  kOpPmuMask = 0x013,
  kIfmPadTop = 0x100, kIfmPadLeft = 0x101, kIfmPadRight = 0x102, kIfmPadBottom = 0x103, kIfmDepthM1 = 0x104,
  kIfmPrecision = 0x105, kIfmUpscale = 0x107, kIfmZeroPoint = 0x109, kIfmWidth0M1 = 0x10A,
  kIfmHeight0M1 = 0x10B, kIfmHeight1M1 = 0x10C, kIfmIbEnd = 0x10D, kIfmRegion = 0x10F, kOfmWidthM1 = 0x111,
  kOfmHeightM1 = 0x112, kOfmDepthM1 = 0x113, kOfmPrecision = 0x114, kOfmBlkWidthM1 = 0x115,
  kOfmBlkHeightM1 = 0x116, kOfmBlkDepthM1 = 0x117, kOfmZeroPoint = 0x118, kOfmWidth0M1 = 0x11A,
  kOfmHeight0M1 = 0x11B, kOfmHeight1M1 = 0x11C, kOfmRegion = 0x11F, kKernelWidthM1 = 0x120,
  kKernelHeightM1 = 0x121, kKernelStride = 0x122, kParallelMode = 0x123, kAccFormat = 0x124,
  kActivation = 0x125, kActivationMin = 0x126, kActivationMax = 0x127, kWeightRegion = 0x128,
  kScaleRegion = 0x129, kAbStart = 0x12D, kBlockdep = 0x12F, kDmaSrcRegion = 0x130, kDmaDstRegion = 0x131,
  kDmaSize0 = 0x132, kDmaSize1 = 0x133, kIfm2Broadcast = 0x180, kIfm2Scalar = 0x181, kIfm2Precision = 0x185,
  kIfm2ZeroPoint = 0x189, kIfm2Width0M1 = 0x18A, kIfm2Height0M1 = 0x18B, kIfm2Height1M1 = 0x18C,
  kIfm2IbStart = 0x18D, kIfm2Region = 0x18F,
};
enum : uint16_t {
  kIfmBase0 = 0x000, kIfmStrideX = 0x004, kIfmStrideY = 0x005, kIfmStrideC = 0x006, kOfmBase0 = 0x010,
  kOfmStrideX = 0x014, kOfmStrideY = 0x015, kOfmStrideC = 0x016, kWeightBase = 0x020, kWeightLength = 0x021,
  kScaleBase = 0x022, kScaleLength = 0x023, kOfmScale = 0x024, kOpaScale = 0x025, kOpbScale = 0x026,
  kDmaSrc = 0x030, kDmaDst = 0x031, kDmaLen = 0x032, kDmaSkip0 = 0x033, kDmaSkip1 = 0x034, kIfm2Base0 = 0x080,
  kIfm2StrideX = 0x084, kIfm2StrideY = 0x085, kIfm2StrideC = 0x086, kWeight1Base = 0x090,
  kWeight1Length = 0x091, kScale1Base = 0x092, kScale1Length = 0x093,
};
// U85-only registers (facts 3).
enum : uint16_t {
  kIfmBroadcast = 0x108, kResizeXScaleNM1 = 0x12A, kResizeYScaleNM1 = 0x12B, kResizeXOffset = 0x12C,
  kResizeYOffset = 0x12D, kWeightFormat = 0x12E,
};
enum : uint16_t {
  kIfmScale = 0x025, kIfm2Scale = 0x026, kOpScalar = 0x027, kResizeX = 0x096, kResizeY = 0x097, kOpBranch = 0x100
};

struct OpcodeName {
  uint16_t opcode;
  const char* name;
};

constexpr OpcodeName kCmd0Names[] = {
    {0x000, "NPU_OP_STOP"}, {0x001, "NPU_OP_IRQ"}, {0x002, "NPU_OP_CONV"}, {0x003, "NPU_OP_DEPTHWISE"},
    {0x005, "NPU_OP_POOL"}, {0x006, "NPU_OP_ELEMENTWISE"}, {0x007, "NPU_OP_RESIZE"},
    {0x010, "NPU_OP_DMA_START"}, {0x011, "NPU_OP_DMA_WAIT"}, {0x012, "NPU_OP_KERNEL_WAIT"},
    {0x013, "NPU_OP_PMU_MASK"}, {0x100, "NPU_SET_IFM_PAD_TOP"}, {0x101, "NPU_SET_IFM_PAD_LEFT"},
    {0x102, "NPU_SET_IFM_PAD_RIGHT"}, {0x103, "NPU_SET_IFM_PAD_BOTTOM"}, {0x104, "NPU_SET_IFM_DEPTH_M1"},
    {0x105, "NPU_SET_IFM_PRECISION"}, {0x107, "NPU_SET_IFM_UPSCALE"}, {0x109, "NPU_SET_IFM_ZERO_POINT"},
    {0x10A, "NPU_SET_IFM_WIDTH0_M1"}, {0x10B, "NPU_SET_IFM_HEIGHT0_M1"}, {0x10C, "NPU_SET_IFM_HEIGHT1_M1"},
    {0x10D, "NPU_SET_IFM_IB_END"}, {0x10F, "NPU_SET_IFM_REGION"}, {0x111, "NPU_SET_OFM_WIDTH_M1"},
    {0x112, "NPU_SET_OFM_HEIGHT_M1"}, {0x113, "NPU_SET_OFM_DEPTH_M1"}, {0x114, "NPU_SET_OFM_PRECISION"},
    {0x115, "NPU_SET_OFM_BLK_WIDTH_M1"}, {0x116, "NPU_SET_OFM_BLK_HEIGHT_M1"},
    {0x117, "NPU_SET_OFM_BLK_DEPTH_M1"}, {0x118, "NPU_SET_OFM_ZERO_POINT"}, {0x11A, "NPU_SET_OFM_WIDTH0_M1"},
    {0x11B, "NPU_SET_OFM_HEIGHT0_M1"}, {0x11C, "NPU_SET_OFM_HEIGHT1_M1"}, {0x11F, "NPU_SET_OFM_REGION"},
    {0x120, "NPU_SET_KERNEL_WIDTH_M1"}, {0x121, "NPU_SET_KERNEL_HEIGHT_M1"}, {0x122, "NPU_SET_KERNEL_STRIDE"},
    {0x123, "NPU_SET_PARALLEL_MODE"}, {0x124, "NPU_SET_ACC_FORMAT"}, {0x125, "NPU_SET_ACTIVATION"},
    {0x126, "NPU_SET_ACTIVATION_MIN"}, {0x127, "NPU_SET_ACTIVATION_MAX"}, {0x128, "NPU_SET_WEIGHT_REGION"},
    {0x129, "NPU_SET_SCALE_REGION"}, {0x12D, "NPU_SET_AB_START"}, {0x12F, "NPU_SET_BLOCKDEP"},
    {0x130, "NPU_SET_DMA0_SRC_REGION"}, {0x131, "NPU_SET_DMA0_DST_REGION"}, {0x132, "NPU_SET_DMA0_SIZE0"},
    {0x133, "NPU_SET_DMA0_SIZE1"}, {0x180, "NPU_SET_IFM2_BROADCAST"}, {0x181, "NPU_SET_IFM2_SCALAR"},
    {0x185, "NPU_SET_IFM2_PRECISION"}, {0x189, "NPU_SET_IFM2_ZERO_POINT"}, {0x18A, "NPU_SET_IFM2_WIDTH0_M1"},
    {0x18B, "NPU_SET_IFM2_HEIGHT0_M1"}, {0x18C, "NPU_SET_IFM2_HEIGHT1_M1"}, {0x18D, "NPU_SET_IFM2_IB_START"},
    {0x18F, "NPU_SET_IFM2_REGION"},
};
constexpr OpcodeName kCmd1Names[] = {
    {0x000, "NPU_SET_IFM_BASE0"}, {0x001, "NPU_SET_IFM_BASE1"}, {0x002, "NPU_SET_IFM_BASE2"},
    {0x003, "NPU_SET_IFM_BASE3"}, {0x004, "NPU_SET_IFM_STRIDE_X"}, {0x005, "NPU_SET_IFM_STRIDE_Y"},
    {0x006, "NPU_SET_IFM_STRIDE_C"}, {0x010, "NPU_SET_OFM_BASE0"}, {0x011, "NPU_SET_OFM_BASE1"},
    {0x012, "NPU_SET_OFM_BASE2"}, {0x013, "NPU_SET_OFM_BASE3"}, {0x014, "NPU_SET_OFM_STRIDE_X"},
    {0x015, "NPU_SET_OFM_STRIDE_Y"}, {0x016, "NPU_SET_OFM_STRIDE_C"}, {0x020, "NPU_SET_WEIGHT_BASE"},
    {0x021, "NPU_SET_WEIGHT_LENGTH"}, {0x022, "NPU_SET_SCALE_BASE"}, {0x023, "NPU_SET_SCALE_LENGTH"},
    {0x024, "NPU_SET_OFM_SCALE"}, {0x025, "NPU_SET_OPA_SCALE"}, {0x026, "NPU_SET_OPB_SCALE"},
    {0x030, "NPU_SET_DMA0_SRC"}, {0x031, "NPU_SET_DMA0_DST"}, {0x032, "NPU_SET_DMA0_LEN"},
    {0x033, "NPU_SET_DMA0_SKIP0"}, {0x034, "NPU_SET_DMA0_SKIP1"}, {0x080, "NPU_SET_IFM2_BASE0"},
    {0x081, "NPU_SET_IFM2_BASE1"}, {0x082, "NPU_SET_IFM2_BASE2"}, {0x083, "NPU_SET_IFM2_BASE3"},
    {0x084, "NPU_SET_IFM2_STRIDE_X"}, {0x085, "NPU_SET_IFM2_STRIDE_Y"}, {0x086, "NPU_SET_IFM2_STRIDE_C"},
    {0x090, "NPU_SET_WEIGHT1_BASE"}, {0x091, "NPU_SET_WEIGHT1_LENGTH"}, {0x092, "NPU_SET_SCALE1_BASE"},
    {0x093, "NPU_SET_SCALE1_LENGTH"},
};

// The U85's opcodes whose numbers differ from U65's or are new (facts 3; D
// ethosu85_interface.h cmd0_opcode/cmd1_opcode); the rest share U65's numbers and names.
constexpr OpcodeName kCmd0NamesU85[] = {
    {0x108, "NPU_SET_IFM_BROADCAST"},       {0x12A, "NPU_SET_RESIZE_X_SCALE_N_M1"},
    {0x12B, "NPU_SET_RESIZE_Y_SCALE_N_M1"}, {0x12C, "NPU_SET_RESIZE_X_OFFSET"},
    {0x12D, "NPU_SET_RESIZE_Y_OFFSET"},     {0x12E, "NPU_SET_WEIGHT_FORMAT"},
    {0x134, "NPU_SET_DMA0_IDX_REGION"},
};
constexpr OpcodeName kCmd1NamesU85[] = {
    {0x025, "NPU_SET_IFM_SCALE"},          {0x026, "NPU_SET_IFM2_SCALE"},
    {0x027, "NPU_SET_OP_SCALAR"},          {0x033, "NPU_SET_DMA0_SRC_STRIDE0"},
    {0x034, "NPU_SET_DMA0_SRC_STRIDE1"},   {0x035, "NPU_SET_DMA0_DST_STRIDE0"},
    {0x036, "NPU_SET_DMA0_DST_STRIDE1"},   {0x037, "NPU_SET_DMA0_IDX"},
    {0x038, "NPU_SET_DMA0_IDX_MAX"},       {0x039, "NPU_SET_DMA0_IDX_SKIP1"},
    {0x092, "NPU_SET_WEIGHT2_BASE"},       {0x093, "NPU_SET_WEIGHT2_LENGTH"},
    {0x094, "NPU_SET_WEIGHT3_BASE"},       {0x095, "NPU_SET_WEIGHT3_LENGTH"},
    {0x096, "NPU_SET_RESIZE_X"},           {0x097, "NPU_SET_RESIZE_Y"},
    {0x100, "NPU_OP_BRANCH"},
};
// U65 opcodes the U85 does not have (SHRAM layout, parallel mode, the 16-bit scalar).
constexpr uint16_t kCmd0GoneOnU85[] = {0x10D, 0x123, 0x181, 0x18D};

const char* opcode_name(bool cmd1, uint16_t opcode) {
  if (cmd1) {
    for (const OpcodeName& n : kCmd1Names)
      if (n.opcode == opcode) return n.name;
  } else {
    for (const OpcodeName& n : kCmd0Names)
      if (n.opcode == opcode) return n.name;
  }
  return nullptr;
}

// The opcode's name in the U85's command set, or null.
const char* opcode_name_u85(bool cmd1, uint16_t opcode) {
  if (cmd1) {
    for (const OpcodeName& n : kCmd1NamesU85)
      if (n.opcode == opcode) return n.name;
  } else {
    for (const OpcodeName& n : kCmd0NamesU85)
      if (n.opcode == opcode) return n.name;
    for (uint16_t gone : kCmd0GoneOnU85)
      if (gone == opcode) return nullptr;
  }
  return opcode_name(cmd1, opcode);
}

const char* opcode_name(EthosUProduct product, bool cmd1, uint16_t opcode) {
  return product == EthosUProduct::kU85 ? opcode_name_u85(cmd1, opcode) : opcode_name(cmd1, opcode);
}

// Whether the product's command set has the opcode (U55: no PARALLEL_MODE, second-core
// weight/scale registers or 2-D DMA skips).
bool has_opcode(EthosUProduct product, bool cmd1, uint16_t opcode) {
  if (product == EthosUProduct::kU85) return opcode_name_u85(cmd1, opcode) != nullptr;
  if (opcode_name(cmd1, opcode) == nullptr) return false;
  if (!cmd1 && opcode == kOpResize) return false;
  if (product == EthosUProduct::kU55) {
    if (!cmd1 && opcode == kParallelMode) return false;
    if (cmd1 && (opcode == kDmaSkip0 || opcode == kDmaSkip1 || (opcode >= kWeight1Base && opcode <= kScale1Length)))
      return false;
  }
  return true;
}

const char* product_name(EthosUProduct product) {
  return product == EthosUProduct::kU55 ? "Ethos-U55" : product == EthosUProduct::kU65 ? "Ethos-U65" : "Ethos-U85";
}

// ---------------------------------------------------------------- state

struct State {
  EthosUModel* model;
  EthosUProduct product;
  uint32_t macs;
  uint32_t shram_bytes;
  const uint64_t* base;
  const uint32_t* bytes;
  uint32_t region_count;
  bool dry;       // only measure the workspace
  bool check;     // only check every access against the region sizes (no data touched)
  uint64_t need;  // workspace the stream needs (dry run)
  uint64_t work;  // what the operations run so far cost (EthosUModel::work_limit)
  EthosURegionUse use[kEthosUModelRegions];  // what the accesses checked so far span
  uint16_t r0[512];  // cmd0 registers by opcode (0x100-0x1FF used)
  uint64_t r1[256];  // cmd1 registers: payload | addr_hi << 32
  uint16_t r1_param[256];
  uint32_t command;  // index of the command being run
  uint16_t opcode;
  bool cmd1;
  TextLine* msg;
  // U85 CHAINED storage: the last chained OFM, kept in the workspace's last chain_bytes.
  bool chain_valid;
  uint32_t chain_slot, chain_h, chain_w, chain_d, chain_elem;
  uint64_t chain_bytes;
  uint64_t chain_need;  // dry run: the largest chained OFM

  // Starts the error line "command 12 (NPU_OP_CONV): " for the caller to finish.
  TextLine& fail() {
    msg->clear();
    msg->text("command ").number(command).text(" (");
    const char* name = opcode_name(product, cmd1, opcode);
    if (name != nullptr)
      msg->text(name);
    else
      msg->text(cmd1 ? "cmd1 " : "cmd0 ").hex(opcode);
    return msg->text("): ");
  }
  uint16_t reg(uint16_t opcode0) const { return r0[opcode0 & 0x1FF]; }
  uint64_t addr(uint16_t opcode1) const { return r1[opcode1 & 0xFF]; }
};

// ---------------------------------------------------------------- arithmetic

int64_t saturate32(int64_t v) {
  if (v > INT32_MAX) return INT32_MAX;
  if (v < INT32_MIN) return INT32_MIN;
  return v;
}

// TensorFlow Lite's SaturatingRoundingDoublingHighMul on a 64-bit product: (a*b + nudge)
// / 2^31 with C's truncating division (ties of negative products go toward zero).
int64_t doubling_high_mul(int64_t product) {
  const int64_t nudge = product >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30);
  return (product + nudge) / (int64_t{1} << 31);
}

// TensorFlow Lite's RoundingDivideByPOT: x / 2^shift rounded half away from zero.
int64_t rounding_divide_by_pot(int64_t x, uint32_t shift) {
  if (shift == 0) return x;
  if (shift > 62) return 0;
  const int64_t mask = (int64_t{1} << shift) - 1;
  const int64_t remainder = x & mask;
  const int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> shift) + (remainder > threshold ? 1 : 0);
}

enum RoundMode : uint32_t { kRoundDbl = 0, kRoundTruncate = 1, kRoundNatural = 2 };

// value * scale / 2^shift in the NPU's rounding mode (facts 2.9, 2.9a). DBL is TensorFlow
// Lite's MultiplyByQuantizedMultiplier(value, scale, 31 - shift): one rounding at 2^shift
// when shift <= 31, else a doubling high multiply then a rounding shift by shift - 31.
// The accumulator is taken as 32-bit (I32 format; a 40-bit one saturates here).
int64_t scale_value(int64_t value, uint32_t scale, uint32_t shift, uint32_t round) {
  const int64_t product = saturate32(value) * int64_t{scale};
  if (round == kRoundDbl) {
    if (shift <= 31) {
      const int64_t shifted = saturate32(value) * (int64_t{1} << (31 - shift));
      // The high multiply of the left-shifted value: product * 2^(31-shift) / 2^31.
      if (shifted == saturate32(shifted)) return doubling_high_mul(shifted * int64_t{scale});
      return rounding_divide_by_pot(product, shift);
    }
    return rounding_divide_by_pot(doubling_high_mul(product), shift - 31);
  }
  if (shift == 0) return product;
  if (shift > 62) return product < 0 && round == kRoundNatural ? -1 : 0;
  if (round == kRoundNatural) return (product + (int64_t{1} << (shift - 1))) >> shift;
  return product >= 0 ? product >> shift : -((-product) >> shift);  // TRUNCATE: toward zero
}

// ---------------------------------------------------------------- feature maps

struct FeatureMap {
  uint8_t* data;       // the region's first byte
  uint64_t base[4];    // tile addresses
  uint32_t height0, height1, width0;
  uint64_t stride_x, stride_y, stride_c;
  uint32_t elem;       // bytes per element
  bool is_signed;
  bool brick;          // NHCWB16
  int32_t zero_point;
  bool chained;        // U85 CHAINED storage: the model's chain buffer, dense NHWC
};

uint64_t channel_offset(const FeatureMap& f, uint32_t c) {
  return f.brick ? uint64_t{c >> 4} * f.stride_c + uint64_t{c & 15} * f.elem : uint64_t{c} * f.elem;
}

// Byte offset of (y, x) channel 0 in its tile (facts 2.5).
uint64_t pixel_offset(const FeatureMap& f, uint32_t y, uint32_t x) {
  int tile = 0;
  if (x >= f.width0) {
    x -= f.width0;
    tile = 1;
    if (y >= f.height1) {
      y -= f.height1;
      tile = 3;
    }
  } else if (y >= f.height0) {
    y -= f.height0;
    tile = 2;
  }
  return f.base[tile] + uint64_t{y} * f.stride_y + uint64_t{x} * f.stride_x;
}

// 64-bit: a 32-bit element minus its zero point must not overflow (fuzz/crashes).
int64_t load(const uint8_t* p, uint32_t elem, bool is_signed) {
  if (elem == 1) return is_signed ? static_cast<int8_t>(p[0]) : p[0];
  if (elem == 2) {
    const uint16_t v = static_cast<uint16_t>(p[0] | p[1] << 8);
    return is_signed ? static_cast<int16_t>(v) : v;
  }
  return static_cast<int32_t>(uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24);
}

void store(uint8_t* p, uint32_t elem, int64_t v) {
  for (uint32_t b = 0; b < elem; ++b) p[b] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * b));
}

void type_range(uint32_t elem, bool is_signed, int64_t* lo, int64_t* hi) {
  const uint32_t bits = elem * 8;
  if (is_signed) {
    *lo = -(int64_t{1} << (bits - 1));
    *hi = (int64_t{1} << (bits - 1)) - 1;
  } else {
    *lo = 0;
    *hi = bits >= 32 ? INT32_MAX : (int64_t{1} << bits) - 1;
  }
}

// The region's bytes, or null with the error set.
uint8_t* region(State& s, uint32_t r, const char* what) {
  if (r >= s.region_count || s.base[r] == 0) {
    s.fail().text(what).text(" uses region ").number(r).text(", which the op does not give (").number(s.region_count).text(
        " regions)");
    return nullptr;
  }
  return reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(s.base[r]));
}

// Checks [offset, offset + length) lies inside region r, and records it in s.use.
bool in_region(State& s, uint32_t r, uint64_t offset, uint64_t length, const char* what, bool write = false) {
  const uint64_t size = s.bytes[r];
  if (offset > size || length > size - offset) {
    s.fail().text(what).text(" [").number(offset).text(", ").number(offset + length).text(") runs past region ").number(r).text(
        " (").number(size).text(" bytes)");
    return false;
  }
  if (r < kEthosUModelRegions && length > 0) {
    EthosURegionUse& u = s.use[r];
    if (!u.read && !u.written) u.begin = offset, u.end = offset + length;
    if (offset < u.begin) u.begin = offset;
    if (offset + length > u.end) u.end = offset + length;
    (write ? u.written : u.read) = true;
  }
  return true;
}

// ---------------------------------------------------------------- U85 chained feature maps

// The bytes a chained OFM of the current registers takes (0 when the OFM is not chained).
uint64_t chained_ofm_bytes(const State& s) {
  const uint16_t precision = s.reg(kOfmPrecision);
  if (s.product != EthosUProduct::kU85 || (precision >> 14) != 2) return 0;
  const uint64_t elem = uint64_t{1} << ((precision >> 1) & 3);
  const uint64_t bytes = (s.reg(kOfmHeightM1) + 1ull) * (s.reg(kOfmWidthM1) + 1ull) * (s.reg(kOfmDepthM1) + 1ull) * elem;
  return (bytes + 7) / 8 * 8;
}

// The workspace the chain holds while the current operation runs: the OFM it chains, or
// the chain it reads.
uint64_t chain_reserve(const State& s) {
  const uint64_t ofm = chained_ofm_bytes(s);
  return ofm != 0 ? ofm : s.chain_valid ? s.chain_bytes : 0;
}

// A CHAINED feature map (facts 3): the OFM one operation passes straight to the next
// without memory (regor: a chain buffer named by the REGION field). The model keeps it
// dense NHWC at the workspace's end; an input that reads a chain must name the same
// slot, element size and fit inside its extent.
bool read_chained_map(State& s, int kind, uint16_t precision, FeatureMap* f, const char* what) {
  const uint16_t region_op = kind == 0 ? kIfmRegion : kind == 1 ? kIfm2Region : kOfmRegion;
  const uint32_t slot = s.reg(region_op) & 7;
  const uint32_t elem = 1u << (kind == 2 ? (precision >> 1) & 3 : (precision >> 2) & 3);
  if (kind == 2) {
    const uint64_t bytes = chained_ofm_bytes(s);
    if (!s.check && bytes > s.model->workspace_bytes) {
      s.fail().text("the model's workspace holds ").number(s.model->workspace_bytes).text(" bytes, the chained OFM needs ").number(bytes);
      return false;
    }
    s.chain_valid = true;
    s.chain_slot = slot;
    s.chain_h = s.reg(kOfmHeightM1) + 1u;
    s.chain_w = s.reg(kOfmWidthM1) + 1u;
    s.chain_d = s.reg(kOfmDepthM1) + 1u;
    s.chain_elem = elem;
    s.chain_bytes = bytes;
  } else if (!s.chain_valid || s.chain_slot != slot || s.chain_elem != elem) {
    s.fail().text(what).text(" reads chain buffer ").number(slot).text(" (").number(elem).text(
        "-byte elements), which no earlier operation chained");
    return false;
  }
  // The compile-time check (s.check) reads and writes nothing: no buffer then.
  f->data = s.check ? nullptr : s.model->workspace + (s.model->workspace_bytes - s.chain_bytes);
  for (uint64_t& b : f->base) b = 0;
  f->height0 = f->height1 = s.chain_h;
  f->width0 = s.chain_w;
  f->stride_x = uint64_t{s.chain_d} * elem;
  f->stride_y = f->stride_x * s.chain_w;
  f->stride_c = 0;
  f->elem = elem;
  f->is_signed = (precision & 1) != 0;
  f->brick = false;
  const uint16_t zp = s.reg(kind == 0 ? kIfmZeroPoint : kind == 1 ? kIfm2ZeroPoint : kOfmZeroPoint);
  f->zero_point = f->is_signed ? static_cast<int16_t>(zp) : zp;
  f->chained = true;
  return true;
}

// An input reading a chain reads no more than the chain holds.
bool chain_fits(State& s, int kind, uint32_t h, uint32_t w, uint32_t d, const char* what) {
  if (kind == 2 || (h <= s.chain_h && w <= s.chain_w && d <= s.chain_d)) return true;
  s.fail().text(what).text(" reads ").number(h).text("x").number(w).text("x").number(d).text(" from a chain of ").number(
      s.chain_h).text("x").number(s.chain_w).text("x").number(s.chain_d);
  return false;
}

// Reads the feature map registers: kind 0 IFM, 1 IFM2, 2 OFM.
bool read_feature_map(State& s, int kind, FeatureMap* f, const char* what) {
  const uint16_t region_op = kind == 0 ? kIfmRegion : kind == 1 ? kIfm2Region : kOfmRegion;
  const uint16_t base_op = kind == 0 ? kIfmBase0 : kind == 1 ? kIfm2Base0 : kOfmBase0;
  const uint16_t precision = s.reg(kind == 0 ? kIfmPrecision : kind == 1 ? kIfm2Precision : kOfmPrecision);
  const uint32_t bits = kind == 2 ? (precision >> 1) & 3 : (precision >> 2) & 3;
  const uint32_t format = (precision >> 6) & 3;
  if (bits == 3 || format > 1) {
    s.fail().text(what).text(": unsupported precision field ").hex(precision);
    return false;
  }
  f->chained = false;
  if (s.product == EthosUProduct::kU85 && (precision >> 14) == 2) return read_chained_map(s, kind, precision, f, what);
  f->data = region(s, s.reg(region_op) & 7, what);
  if (f->data == nullptr) return false;
  for (int t = 0; t < 4; ++t) f->base[t] = s.addr(static_cast<uint16_t>(base_op + t));
  if (kind == 0) {
    f->height0 = s.reg(kIfmHeight0M1) + 1u;
    f->height1 = s.reg(kIfmHeight1M1) + 1u;
    f->width0 = s.reg(kIfmWidth0M1) + 1u;
  } else if (kind == 1) {
    f->height0 = s.reg(kIfm2Height0M1) + 1u;
    f->height1 = s.reg(kIfm2Height1M1) + 1u;
    f->width0 = s.reg(kIfm2Width0M1) + 1u;
  } else {
    f->height0 = s.reg(kOfmHeight0M1) + 1u;
    f->height1 = s.reg(kOfmHeight1M1) + 1u;
    f->width0 = s.reg(kOfmWidth0M1) + 1u;
  }
  const uint16_t stride_op = kind == 0 ? kIfmStrideX : kind == 1 ? kIfm2StrideX : kOfmStrideX;
  f->stride_x = s.addr(stride_op);
  f->stride_y = s.addr(static_cast<uint16_t>(stride_op + 1));
  f->stride_c = s.addr(static_cast<uint16_t>(stride_op + 2));
  f->elem = 1u << bits;
  f->is_signed = (precision & 1) != 0;
  f->brick = format == 1;
  const uint16_t zp = s.reg(kind == 0 ? kIfmZeroPoint : kind == 1 ? kIfm2ZeroPoint : kOfmZeroPoint);
  f->zero_point = f->is_signed ? static_cast<int16_t>(zp) : zp;
  return true;
}

// Checks that every element of an h x w x d extent lies in the feature map's region:
// offsets grow with y, x and c inside a tile, so each tile's last element is checked
// (and, for NHCWB16, the last lane of the last full brick).
bool extent_fits(State& s, int kind, const FeatureMap& f, uint32_t h, uint32_t w, uint32_t d, const char* what) {
  if (f.chained) return chain_fits(s, kind, h, w, d, what);
  const uint16_t region_op = kind == 0 ? kIfmRegion : kind == 1 ? kIfm2Region : kOfmRegion;
  const uint32_t r = s.reg(region_op) & 7;
  if (h == 0 || w == 0 || d == 0) return true;
  uint64_t last_channel = channel_offset(f, d - 1);
  if (f.brick && d > 16) {
    const uint64_t lane = channel_offset(f, (d - 1) / 16 * 16 - 1);
    if (lane > last_channel) last_channel = lane;
  }
  struct Box {
    uint32_t y0, y1, x0, x1;  // [y0, y1) x [x0, x1) in whole-map coordinates
  };
  const uint32_t w0 = f.width0 < w ? f.width0 : w;
  const uint32_t h0 = f.height0 < h ? f.height0 : h;
  const uint32_t h1 = f.height1 < h ? f.height1 : h;
  const Box boxes[4] = {{0, h0, 0, w0}, {0, h1, w0, w}, {h0, h, 0, w0}, {h1, h, w0, w}};
  for (const Box& b : boxes) {
    if (b.y1 <= b.y0 || b.x1 <= b.x0) continue;
    const uint64_t last = pixel_offset(f, b.y1 - 1, b.x1 - 1) + last_channel;
    if (!in_region(s, r, last, f.elem, what, kind == 2)) return false;
    const uint64_t first = pixel_offset(f, b.y0, b.x0);
    if (!in_region(s, r, first, f.elem, what, kind == 2)) return false;
  }
  return true;
}

// ---------------------------------------------------------------- output stage

struct OutputStage {
  FeatureMap ofm;
  int64_t type_lo, type_hi;  // the OFM type's range
  int64_t clip_lo, clip_hi;  // ACTIVATION_MIN/MAX
  const uint8_t* lut;        // 256 entries, or null
  int64_t lut_lo;            // the LUT's index 0 value
};

bool read_output_stage(State& s, OutputStage* o) {
  if (!read_feature_map(s, 2, &o->ofm, "OFM")) return false;
  type_range(o->ofm.elem, o->ofm.is_signed, &o->type_lo, &o->type_hi);
  o->clip_lo = static_cast<int16_t>(s.reg(kActivationMin));
  o->clip_hi = static_cast<int16_t>(s.reg(kActivationMax));
  if (o->ofm.elem == 4) {  // 32-bit OFM: no 16-bit clip
    o->clip_lo = o->type_lo;
    o->clip_hi = o->type_hi;
  }
  const uint32_t function = s.reg(kActivation) & 0x1F;
  o->lut = nullptr;
  if (s.product == EthosUProduct::kU85 && ((s.reg(kActivation) >> 12) & 1u) != 0) {  // clip range NONE
    o->clip_lo = o->type_lo;
    o->clip_hi = o->type_hi;
  }
  if (function == 0) return true;
  if (function == 3 || function == 4) {
    s.fail().text("the built-in ").text(function == 3 ? "TANH" : "SIGMOID").text(" activation is not modelled");
    return false;
  }
  if (function < 16 || function > 23) {
    s.fail().text("unknown activation function ").number(function);
    return false;
  }
  if (o->ofm.elem != 1) {
    s.fail().text("a LUT activation on a 16/32-bit OFM is not modelled");
    return false;
  }
  o->lut = s.model->lut + (function - 16) * 256u;
  if (o->lut + 256 > s.model->lut + kEthosUModelLutBytes) {
    s.fail().text("LUT slot ").number(function - 16).text(" lies outside the SHRAM's LUT area");
    return false;
  }
  o->lut_lo = o->type_lo;
  return true;
}

// value (already scaled) -> + OFM zero point, LUT, clips -> stored.
inline void emit(const OutputStage& o, uint8_t* p, int64_t value) {
  int64_t v = value + o.ofm.zero_point;
  if (o.lut != nullptr) {
    v = v < o.type_lo ? o.type_lo : v > o.type_hi ? o.type_hi : v;
    const uint8_t entry = o.lut[v - o.lut_lo];
    v = o.ofm.is_signed ? static_cast<int8_t>(entry) : entry;
  }
  if (v < o.clip_lo) v = o.clip_lo;
  if (v > o.clip_hi) v = o.clip_hi;
  if (v < o.type_lo) v = o.type_lo;
  if (v > o.type_hi) v = o.type_hi;
  store(p, o.ofm.elem, v);
}

// ---------------------------------------------------------------- kernel window

struct Window {
  uint32_t oh, ow, od;  // OFM extent
  uint32_t kh, kw;      // kernel (undilated)
  uint32_t dy, dx;      // dilation
  uint32_t sy, sx;      // stride
  int32_t pad_top, pad_left;
  int64_t vh, vw;       // IFM extent as the kernel sees it (upscaled)
  uint32_t ah, aw;      // IFM extent in memory
  uint32_t upscale;     // 0 none, 1 nearest x2, 2 zeros x2
};

bool read_window(State& s, Window* w) {
  w->oh = s.reg(kOfmHeightM1) + 1u;
  w->ow = s.reg(kOfmWidthM1) + 1u;
  w->od = s.reg(kOfmDepthM1) + 1u;
  const uint16_t ks = s.reg(kKernelStride);
  w->sx = ((ks & 1u) | ((ks >> 6) & 1u) << 1) + 1;
  w->sy = (((ks >> 1) & 1u) | ((ks >> 9) & 1u) << 1) + 1;
  w->dx = ((ks >> 3) & 1u) + 1;
  w->dy = ((ks >> 4) & 1u) + 1;
  const uint32_t kw_dilated = s.reg(kKernelWidthM1) + 1u;
  const uint32_t kh_dilated = s.reg(kKernelHeightM1) + 1u;
  w->kw = (kw_dilated - 1) / w->dx + 1;
  w->kh = (kh_dilated - 1) / w->dy + 1;
  w->pad_top = s.reg(kIfmPadTop) & 0x7F;
  w->pad_left = s.reg(kIfmPadLeft) & 0x7F;
  const int32_t pad_right = s.reg(kIfmPadRight) & 0xFF;
  const int32_t pad_bottom = s.reg(kIfmPadBottom) & 0xFF;
  w->upscale = s.reg(kIfmUpscale) & 3;
  if (w->upscale == 3) {
    s.fail().text("unknown IFM upscale mode 3");
    return false;
  }
  // The IFM rows and columns the window reaches (the Linux validator's formula).
  w->vh = int64_t{w->oh - 1} * w->sy + kh_dilated - w->pad_top - pad_bottom;
  w->vw = int64_t{w->ow - 1} * w->sx + kw_dilated - w->pad_left - pad_right;
  if (w->vh <= 0 || w->vw <= 0) {
    s.fail().text("the padding leaves no IFM rows or columns");
    return false;
  }
  w->ah = static_cast<uint32_t>(w->upscale != 0 ? (w->vh + 1) / 2 : w->vh);
  w->aw = static_cast<uint32_t>(w->upscale != 0 ? (w->vw + 1) / 2 : w->vw);
  return true;
}

// Maps a kernel tap's coordinate to the IFM row/column in memory; false for padding (and
// for the inserted zeros of the ZEROS upscale).
inline bool tap(int64_t v, int64_t limit, uint32_t upscale, uint32_t* out) {
  if (v < 0 || v >= limit) return false;
  if (upscale == 2 && (v & 1) != 0) return false;
  *out = static_cast<uint32_t>(upscale != 0 ? v >> 1 : v);
  return true;
}

// ---------------------------------------------------------------- MLW weights

struct BitReader {
  const uint8_t* p;
  uint64_t bytes;
  uint64_t pos;  // next bit
  bool over;
  uint32_t get(uint32_t n) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < n; ++i, ++pos) {
      if ((pos >> 3) >= bytes) {
        over = true;
        return 0;
      }
      v |= uint32_t{(p[pos >> 3] >> (pos & 7)) & 1u} << i;
    }
    return v;
  }
};

inline constexpr uint32_t kMaxSlice = 32768;  // SLICELEN is 15 bits
inline constexpr uint64_t kMaxOpWeights = uint64_t{1} << 26;
// Multiply-accumulates (or pooling taps) one operation may ask for: a bound on the time a
// hostile stream can take (zero_dce's largest conv: 2^32).
inline constexpr uint64_t kMaxOpWork = uint64_t{1} << 36;

// Charges an operation's work to the invoke (a run, not the dry or check walks, which
// compute nothing): false, with the error set, past the model's work limit.
bool charge(State& s, uint64_t work) {
  if (s.dry || s.check) return true;
  const uint64_t limit = s.model->work_limit != 0 ? s.model->work_limit : kEthosUModelDefaultWorkLimit;
  if (work <= limit && s.work <= limit - work) {
    s.work += work;
    return true;
  }
  s.fail().text("the stream's operations exceed the model's work limit of ").number(limit).text(
      " multiply-accumulates in one invoke");
  return false;
}

bool work_fits(State& s, const Window& w, uint64_t per_tap) {
  const uint64_t work = uint64_t{w.oh} * w.ow * w.od * w.kh * w.kw * per_tap;
  if (work > kMaxOpWork) {
    s.fail().text("more than ").number(kMaxOpWork).text(" multiply-accumulates in one operation");
    return false;
  }
  return charge(s, work);
}

// Decodes an MLW weight stream (facts 4.1) into out[0, capacity): signed 9-bit weights in
// Vela's order. Returns null and the count, or what is wrong with the stream.
const char* decode_mlw(const uint8_t* src, uint64_t length, int16_t* out, uint64_t capacity, uint64_t* count,
                       uint16_t* w_value, uint32_t* z_value) {
  BitReader bits{src, length, 0, false};
  uint64_t n = 0;
  bool first = true;
  uint32_t previous_zdiv = 6;
  int16_t palette[32] = {};
  uint32_t palette_size = 0, palette_bits = 0, direct_offset = 0;
  for (;;) {
    uint32_t zdiv = bits.get(3);
    while (zdiv == 7 && !bits.over) {  // end of a section: byte-align, maybe end
      bits.pos = (bits.pos + 7) & ~uint64_t{7};
      first = true;
      if ((bits.pos >> 3) == length) break;
      zdiv = bits.get(3);
    }
    if (bits.over) return "the weight stream runs past WEIGHT_LENGTH";
    if ((bits.pos >> 3) == length) break;
    if (zdiv > 3 && zdiv != 6) return "bad ZDIV in the weight stream";
    const bool zero_runs = zdiv != 6;
    const uint32_t nvalues = bits.get(15) + 1;
    uint32_t wdiv = bits.get(3);
    const bool wtrunc = bits.get(1) != 0;
    const bool new_palette = bits.get(1) != 0;
    if (first && !new_palette) return "a weight stream section starts without a palette";
    first = false;
    if (!new_palette && zero_runs != (previous_zdiv != 6)) return "zero runs switched without a new palette";
    previous_zdiv = zdiv;
    if (new_palette) {
      direct_offset = bits.get(5);
      palette_size = bits.get(5);
      if (palette_size > 0) ++palette_size;
      palette_bits = bits.get(3) + 2;
      for (uint32_t i = 0; i < palette_size; ++i) palette[i] = static_cast<int16_t>(bits.get(palette_bits));
    }
    const bool uncompressed = wdiv == 7;
    if (uncompressed) {
      if (palette_size > 0) {
        wdiv = 0;
        while ((1u << wdiv) < palette_size) ++wdiv;
      } else {
        wdiv = palette_bits;
      }
    } else if (wdiv > 5) {
      return "bad WDIV in the weight stream";
    }
    // The chunks: unary parts of up to 12 weight and 12 (or 8) zero-run symbols, the
    // remainders one chunk behind.
    const uint32_t z_count = nvalues + (new_palette ? 1 : 0);
    for (uint32_t i = 0; i < z_count; ++i) z_value[i] = 0;
    const uint32_t z_unary_bits = zdiv < 3 ? 12 : 8;
    uint32_t w_pos = 0, z_pos = 0, w_done = 0, z_done = 0;
    uint32_t w_q[12] = {}, z_q[12] = {}, w_prev_q[12] = {}, z_prev_q[12] = {};
    uint32_t w_carry = 0, z_carry = 0, w_symbols = 0, z_symbols = 0, w_prev_symbols = 0, z_prev_symbols = 0;
    bool w_prev = false, z_prev = false;
    do {
      const int64_t balance = zero_runs ? int64_t{w_pos} - z_pos : 0;
      const bool w_enable = (balance < 8 || !zero_runs) && w_pos < nvalues;
      const bool z_enable = balance >= 0 && zero_runs && z_pos < z_count;
      uint32_t w_unary0 = 0;
      if (w_enable && !uncompressed) w_unary0 = bits.get(12);
      if (z_enable) {
        const uint32_t z_unary = bits.get(z_unary_bits);
        z_symbols = 0;
        uint32_t q = z_carry;
        for (uint32_t i = 0; i < z_unary_bits; ++i) {
          if ((z_unary >> i) & 1u) {
            ++q;
          } else {
            z_q[z_symbols++] = q;
            q = 0;
          }
        }
        z_carry = q;
        z_pos += z_symbols;
      }
      if (w_enable) {
        const uint32_t slots = uncompressed && wdiv > 5 ? 8 : 12;
        uint32_t ones = 0;
        for (uint32_t i = 0; i < slots; ++i) ones += (w_unary0 >> i) & 1u;
        uint32_t w_unary1 = bits.get(ones);
        w_symbols = 0;
        uint32_t q = w_carry;
        for (uint32_t i = 0; i < slots; ++i) {
          uint32_t code = 0;
          if ((w_unary0 >> i) & 1u) {
            code = 1 + (w_unary1 & 1u);
            w_unary1 >>= 1;
          }
          q += code;
          if (code < 2 || wtrunc) {
            w_q[w_symbols++] = q;
            q = 0;
          }
        }
        w_carry = q;
        w_pos += w_symbols;
      }
      if (w_prev) {
        for (uint32_t i = 0; i < w_prev_symbols && w_done < nvalues; ++i, ++w_done) {
          const uint32_t value = (w_prev_q[i] << wdiv) + bits.get(wdiv);
          if (value >= 512) return "a weight index of 512 or more";
          w_value[w_done] = static_cast<uint16_t>(value);
        }
      }
      if (z_prev) {
        for (uint32_t i = 0; i < z_prev_symbols && z_done < z_count; ++i, ++z_done)
          z_value[z_done] = (z_prev_q[i] << zdiv) + bits.get(zdiv);
      }
      if (bits.over) return "the weight stream runs past WEIGHT_LENGTH";
      w_prev = w_enable;
      w_prev_symbols = w_symbols;
      z_prev = z_enable;
      z_prev_symbols = z_symbols;
      for (int i = 0; i < 12; ++i) {
        w_prev_q[i] = w_q[i];
        z_prev_q[i] = z_q[i];
      }
    } while (w_prev || z_prev);
    if (w_done < nvalues) return "a weight slice ends early";
    // Weights with their zero runs.
    auto zeros = [&](uint32_t run) {
      if (run > capacity - n) return false;
      for (uint32_t j = 0; j < run; ++j) out[n++] = 0;
      return true;
    };
    if (new_palette && zero_runs && !zeros(z_value[0])) return "the weight stream decodes to too many weights";
    for (uint32_t i = 0; i < nvalues; ++i) {
      const uint32_t index = w_value[i];
      const uint32_t v = index < palette_size ? static_cast<uint16_t>(palette[index]) : index - palette_size + direct_offset;
      if (n >= capacity) return "the weight stream decodes to too many weights";
      const int32_t magnitude = static_cast<int32_t>(v >> 1);
      out[n++] = static_cast<int16_t>((v & 1u) != 0 ? -magnitude : magnitude);
      if (zero_runs && !zeros(z_value[i + (new_palette ? 1 : 0)]))
        return "the weight stream decodes to too many weights";
    }
  }
  *count = n;
  return nullptr;
}

struct ChannelRecord {
  int64_t bias;
  uint32_t scale;
  uint32_t shift;
};

// Decodes a U85 FWD ("fast weight decoder") stream (facts 3; R mlw_encode_fwd.cpp): a
// 256-bit header (bit 0 RAW mode, bit 1 LUT2 mode, bits 104-111 the signed zero adjust,
// bits 112-255 sixteen 9-bit LUT entries, sign in bit 0) then `count` weights of 2 bits
// (LUT2: a LUT index), 8 bits (RAW: int8 minus the zero adjust) or 4 bits (LUT4: a LUT
// index), LSB first, padded to 256 bits. Vela writes one stream per operation.
const char* decode_fwd(const uint8_t* src, uint64_t length, int16_t* out, uint64_t count, uint64_t* decoded) {
  BitReader bits{src, length, 0, false};
  const bool raw = bits.get(1) != 0, lut2 = bits.get(1) != 0;
  bits.pos = 104;
  const int32_t zero_adjust = static_cast<int8_t>(bits.get(8));
  int16_t lut[16];
  for (int16_t& entry : lut) {
    const uint32_t folded = bits.get(9);
    entry = static_cast<int16_t>((folded & 1u) != 0 ? -static_cast<int32_t>(folded >> 1) : static_cast<int32_t>(folded >> 1));
  }
  if (bits.over) return "the FWD weight stream is shorter than its 256-bit header";
  if (raw && lut2) return "an FWD weight header with both RAW and LUT2 set";
  const uint32_t width = raw ? 8 : lut2 ? 2 : 4;
  if (count > (length * 8 - 256) / width) return "the FWD weight stream runs past WEIGHT_LENGTH";
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t v = bits.get(width);
    out[i] = raw ? static_cast<int16_t>(static_cast<int8_t>(v) - zero_adjust) : lut[v];
  }
  *decoded = count;
  return nullptr;
}

// Vela's weight order (facts 4.3), walked to count the stream's values (ohwi null) or to
// scatter the decoded stream into an OHWI array (depthwise: O x H x W).
struct WeightOrder {
  uint32_t ofm_depth, kernel_h, kernel_w, ifm_depth;
  uint32_t ofm_block_depth, ifm_ublock_depth, ofm_ublock_depth;
  bool depthwise, part_kernel;
  uint32_t ifm_bits;
  uint32_t decomp_h, decomp_w;
  // Ethos-U85 only (walk_weight_order_u85).
  bool u85, sparse;
  uint32_t ifm_block_depth, stride_x, stride_y, macs;
};

uint64_t walk_weight_order_u85(const WeightOrder& w, const int16_t* decoded, uint64_t decoded_count, int16_t* ohwi);

uint64_t walk_weight_order(const WeightOrder& w, const int16_t* decoded, uint64_t decoded_count, int16_t* ohwi) {
  if (w.u85) return walk_weight_order_u85(w, decoded, decoded_count, ohwi);
  const uint32_t ifm_block_depth = w.part_kernel || w.ifm_bits == 16 ? 16 : 32;
  uint64_t n = 0;
  for (uint32_t ofm_block_z = 0; ofm_block_z < w.ofm_depth; ofm_block_z += w.ofm_block_depth) {
    const uint32_t ofm_rest = w.ofm_depth - ofm_block_z;
    const uint32_t clipped_ofm = w.ofm_block_depth < ofm_rest ? w.ofm_block_depth : ofm_rest;
    for (uint32_t ifm_block_z = 0; ifm_block_z < (w.depthwise ? 1 : w.ifm_depth); ifm_block_z += ifm_block_depth) {
      uint32_t clipped_ifm = ifm_block_depth;
      if (w.depthwise) {
        clipped_ifm = w.ifm_ublock_depth;
      } else if (w.part_kernel) {
        const uint32_t rest = w.ifm_depth - ifm_block_z;
        clipped_ifm = ifm_block_depth < rest ? ifm_block_depth : rest;
      }
      for (uint32_t sub_y = 0; sub_y < w.kernel_h; sub_y += w.decomp_h) {
        const uint32_t sub_h = w.kernel_h - sub_y < w.decomp_h ? w.kernel_h - sub_y : w.decomp_h;
        for (uint32_t sub_x = 0; sub_x < w.kernel_w; sub_x += w.decomp_w) {
          const uint32_t sub_w = w.kernel_w - sub_x < w.decomp_w ? w.kernel_w - sub_x : w.decomp_w;
          uint32_t elements = sub_w * sub_h;
          if (w.part_kernel) {
            const uint32_t multiple = w.ifm_bits == 16 ? 2 : 4;
            elements = (elements + multiple - 1) / multiple * multiple;
          } else if (w.depthwise) {
            elements = (elements + 3) / 4 * 4;
          }
          const uint32_t outer = w.part_kernel ? clipped_ifm : 1;
          const uint32_t inner = w.part_kernel ? 1 : clipped_ifm;
          const uint32_t ifm_ublock_z_end = w.depthwise ? 1 : w.ifm_ublock_depth;
          for (uint32_t ifm_outer = 0; ifm_outer < outer; ifm_outer += w.ifm_ublock_depth)
            for (uint32_t ofm_ublk = 0; ofm_ublk < clipped_ofm; ofm_ublk += w.ofm_ublock_depth)
              for (uint32_t element = 0; element < elements; ++element) {
                const uint32_t kx = element % sub_w, ky = element / sub_w;
                for (uint32_t ifm_inner = 0; ifm_inner < inner; ifm_inner += w.ifm_ublock_depth)
                  for (uint32_t ofm_ublock_z = 0; ofm_ublock_z < w.ofm_ublock_depth; ++ofm_ublock_z)
                    for (uint32_t ifm_ublock_z = 0; ifm_ublock_z < ifm_ublock_z_end; ++ifm_ublock_z, ++n) {
                      if (ohwi == nullptr || n >= decoded_count) continue;
                      const uint32_t ifm_z = ifm_block_z + ifm_inner + ifm_outer + ifm_ublock_z;
                      const uint32_t ofm_z = ofm_block_z + ofm_ublk + ofm_ublock_z;
                      if (ifm_z >= (w.depthwise ? 1 : w.ifm_depth) || ofm_z >= w.ofm_depth || ky >= sub_h) continue;
                      const uint64_t at = (uint64_t{ofm_z} * w.kernel_h + sub_y + ky) * w.kernel_w + sub_x + kx;
                      ohwi[w.depthwise ? at : at * w.ifm_depth + ifm_z] = decoded[n];
                    }
              }
        }
      }
    }
  }
  return n;
}

// Vela's Ethos-U85 weight order for one weight decoder (facts 3.1; R
// ethos_u85_weight_encoder.cpp EthosU85WeightOrdering): the IFM blocks run forward and
// backward on alternate OFM blocks, the kernel is split into <= 8x8 sub-kernels (x
// outer), part-kernel and depthwise orders also split it by stride phase, kernel rows
// snake (odd rows right to left), and OFM channels come in groups of 4 under the IFM
// micro-block. Counts (ohwi null) or scatters like walk_weight_order.
uint64_t walk_weight_order_u85(const WeightOrder& w, const int16_t* decoded, uint64_t decoded_count, int16_t* ohwi) {
  const bool ifm16 = w.ifm_bits == 16;
  uint32_t round = 1, ifm_ublock = w.ifm_block_depth, stride_x = 1, stride_y = 1;
  if (w.part_kernel) {
    round = ifm16 || w.sparse ? 10 : 5;
    ifm_ublock = ifm16 && !w.sparse ? 8 : w.ifm_block_depth;
    stride_x = w.stride_x;
    stride_y = w.stride_y;
  } else if (w.depthwise) {
    round = 10;
    ifm_ublock = 1;
    stride_x = w.stride_x;
    stride_y = w.stride_y;
  }
  const uint32_t dw_padding = w.depthwise ? (!ifm16 && w.macs <= 256 ? 0 : w.macs <= 512 ? 2 : 6) : 0;
  const uint32_t ifm_step = w.depthwise ? 1 : w.sparse ? 16 : 8;
  const uint32_t ifm_depth = w.depthwise ? 1 : w.ifm_depth;
  const uint32_t ifm_blocks = (ifm_depth + w.ifm_block_depth - 1) / w.ifm_block_depth;
  uint64_t n = 0;
  uint32_t ofm_block = 0;
  for (uint32_t ofm_block_z = 0; ofm_block_z < w.ofm_depth; ofm_block_z += w.ofm_block_depth, ++ofm_block) {
    const uint32_t clipped_ofm = w.ofm_depth - ofm_block_z < w.ofm_block_depth ? w.ofm_depth - ofm_block_z : w.ofm_block_depth;
    for (uint32_t b = 0; b < ifm_blocks; ++b) {
      const uint32_t ifm_block_z = ((ofm_block & 1) == 0 ? b : ifm_blocks - 1 - b) * w.ifm_block_depth;
      const uint32_t clipped_ifm =
          ifm_depth - ifm_block_z < w.ifm_block_depth ? ifm_depth - ifm_block_z : w.ifm_block_depth;
      for (uint32_t sub_x = 0; sub_x < w.kernel_w; sub_x += w.decomp_w) {
        const uint32_t sub_w = w.kernel_w - sub_x < w.decomp_w ? w.kernel_w - sub_x : w.decomp_w;
        for (uint32_t sub_y = 0; sub_y < w.kernel_h; sub_y += w.decomp_h) {
          const uint32_t sub_h = w.kernel_h - sub_y < w.decomp_h ? w.kernel_h - sub_y : w.decomp_h;
          for (uint32_t ifm_outer = 0; ifm_outer < (w.depthwise ? 1 : clipped_ifm); ifm_outer += ifm_ublock) {
            for (uint32_t ofm_outer = 0; ofm_outer < clipped_ofm; ofm_outer += w.ofm_ublock_depth) {
              int64_t elements = (sub_w * sub_h + round - 1) / round * round;
              for (uint32_t phase_y = 0; phase_y < stride_y; ++phase_y) {
                const uint32_t rows = (sub_h + stride_y - 1 - phase_y) / stride_y;
                for (uint32_t phase_x = 0; phase_x < stride_x; ++phase_x) {
                  const uint32_t cols = (sub_w + stride_x - 1 - phase_x) / stride_x;
                  for (uint32_t ky = 0; ky < rows; ++ky) {
                    for (uint32_t kx = 0; kx < cols; ++kx) {
                      const uint32_t x = (ky & 1) == 0 ? kx : cols - 1 - kx;
                      const uint32_t wx = sub_x + phase_x + x * stride_x, wy = sub_y + phase_y + ky * stride_y;
                      --elements;
                      for (uint32_t ifm_inner = 0; ifm_inner < ifm_ublock; ifm_inner += ifm_step)
                        for (uint32_t ofm_z4 = 0; ofm_z4 < w.ofm_ublock_depth; ofm_z4 += 4)
                          for (uint32_t ofm_lane = 0; ofm_lane < 4; ++ofm_lane)
                            for (uint32_t ifm_lane = 0; ifm_lane < ifm_step; ++ifm_lane, ++n) {
                              if (ohwi == nullptr || n >= decoded_count) continue;
                              const uint32_t ifm_z = ifm_block_z + ifm_outer + ifm_inner + ifm_lane;
                              const uint32_t ofm_z = ofm_block_z + ofm_outer + ofm_lane + ofm_z4;
                              if (ifm_z >= ifm_depth || ofm_z >= w.ofm_depth) continue;
                              const uint64_t at = (uint64_t{ofm_z} * w.kernel_h + wy) * w.kernel_w + wx;
                              ohwi[w.depthwise ? at : at * w.ifm_depth + ifm_z] = decoded[n];
                            }
                      if (w.depthwise && elements % round == 0) n += uint64_t{dw_padding} * w.ofm_ublock_depth;
                    }
                  }
                }
              }
              if (elements > 0) n += uint64_t(elements + dw_padding) * ifm_ublock * w.ofm_ublock_depth;
            }
          }
        }
      }
    }
  }
  return n;
}

// The U85 order's parameters that the command stream implies (R ethos_u85.cpp, block
// configuration): the OFM micro-block holds MACs/8 accumulators over the ACC_FORMAT
// micro-block's width x height; the IFM block depth is 16 for part-kernel order, 32 for
// 32-bit IFMs or a 16-deep micro-block on U85-128/256, 128 for 2:4 sparse 8-bit weights,
// else 64.
void set_weight_order_u85(const State& s, const Window& w, WeightOrder* o) {
  static constexpr uint32_t kMicroblockArea[8] = {1, 2, 4, 4, 8, 16, 1, 1};  // U1X1 .. U4X4
  o->u85 = true;
  o->macs = s.macs;
  o->sparse = ((s.reg(kWeightFormat) >> 4) & 1u) != 0;
  o->stride_x = w.sx;
  o->stride_y = w.sy;
  const uint32_t ifm_precision = (s.reg(kIfmPrecision) >> 2) & 3;
  o->ifm_bits = ifm_precision == 1 ? 16 : ifm_precision == 2 ? 32 : 8;
  const uint32_t area = kMicroblockArea[(s.reg(kAccFormat) >> 8) & 7];
  o->ofm_ublock_depth = s.macs / 8 / area < 4 ? 4 : s.macs / 8 / area;
  o->ifm_ublock_depth = 8;
  if (o->part_kernel)
    o->ifm_block_depth = 16;
  else if (o->ifm_bits == 32 || ((s.macs == 128 || s.macs == 256) && o->ofm_ublock_depth == 16 && !o->sparse))
    o->ifm_block_depth = 32;
  else if (o->sparse && o->ifm_bits == 8)
    o->ifm_block_depth = 128;
  else
    o->ifm_block_depth = 64;
}

// ---------------------------------------------------------------- Ethos-U85 checks

// What the model runs of a U85 operation's registers (facts 3): 32-bit accumulators reset
// per operation and written out, TILE2X2 feature maps without reverse or transpose, no
// LUT, SWD weights (dense or 2:4 sparse) read from a compressed stream, 1-D DMA between
// regions. Anything else is refused naming the field.
bool u85_op_supported(State& s, uint16_t op, uint16_t param) {
  if (op == kOpDmaStart) {
    const uint16_t src = s.reg(kDmaSrcRegion), dst = s.reg(kDmaDstRegion);
    if (((src >> 8) & 1u) != 0 || ((dst >> 8) & 1u) != 0) {
      s.fail().text("a DMA to or from the NPU's internal memory is not modelled");
      return false;
    }
    if (((src >> 11) & 1u) != 0 || ((dst >> 11) & 1u) != 0) {
      s.fail().text("gather/scatter (indexed) DMA is not modelled");
      return false;
    }
    return true;  // 2-D/3-D strides: run_dma refuses them
  }
  const uint16_t acc = s.reg(kAccFormat);
  if ((acc & 3u) != 0) {
    s.fail().text("48-bit accumulators (ACC_FORMAT I48) are not modelled");
    return false;
  }
  if (((acc >> 4) & 3u) != 0) {
    s.fail().text("accumulator input ").text(((acc >> 4) & 3u) == 1 ? "KEEP" : "IFM2").text(" is not modelled");
    return false;
  }
  if (((acc >> 6) & 1u) != 0) {
    s.fail().text("a disabled accumulator output is not modelled");
    return false;
  }
  if (((acc >> 8) & 7u) > 5) {
    s.fail().text("unknown accumulator microblock ").number((acc >> 8) & 7u);
    return false;
  }
  const uint16_t ofm = s.reg(kOfmPrecision);
  if (((ofm >> 9) & 3u) != 0 || ((ofm >> 11) & 7u) != 0) {
    s.fail().text("OFM reverse/transpose is not modelled");
    return false;
  }
  const bool two_inputs = op == kOpElementwise;
  const uint16_t storages[3] = {s.reg(kIfmPrecision), two_inputs ? s.reg(kIfm2Precision) : uint16_t{0}, ofm};
  const bool scalar[3] = {two_inputs && (s.reg(kIfmBroadcast) & 0xFu) == 8,
                          two_inputs && (s.reg(kIfm2Broadcast) & 0xFu) == 8, false};
  const char* const names[3] = {"IFM", "IFM2", "OFM"};
  for (int k = 0; k < 3; ++k) {
    const uint32_t storage = storages[k] >> 14;
    if (storage != 0 && storage != 2 && !(storage == 3 && scalar[k])) {
      static constexpr const char* kStorage[4] = {"TILE2X2", "TILE3X1", "CHAINED", "NONE"};
      s.fail().text(names[k]).text(" storage ").text(kStorage[storage]).text(" is not modelled");
      return false;
    }
  }
  if ((ofm >> 14) == 2 && ((storages[0] >> 14) == 2 || (storages[1] >> 14) == 2)) {
    s.fail().text("an operation with a chained input and a chained OFM is not modelled");
    return false;
  }
  const uint16_t activation = s.reg(kActivation);
  if ((activation & 0x1Fu) != 0) {
    s.fail().text("the U85 activation function ").number(activation & 0x1Fu).text(" (LUT) is not modelled");
    return false;
  }
  if (op != kOpElementwise && ((s.r1_param[kOfmScale] >> 6) & 31u) != 0) {
    s.fail().text("OFM_SCALE double rounding outside ELEMENTWISE is not modelled");
    return false;
  }
  if (op != kOpElementwise && (s.reg(kIfmBroadcast) & 0xFu) != 0) {
    s.fail().text("IFM broadcast outside ELEMENTWISE is not modelled");
    return false;
  }
  if (op == kOpConv && (param & 1u) != 0) {
    s.fail().text("weights from IFM2 (matmul) are not modelled");
    return false;
  }
  if (op == kOpDepthwise && (s.reg(kWeightFormat) & 1u) != 0) {
    s.fail().text("FWD (fast weight decoder) weights on a depthwise operation are not modelled");
    return false;
  }
  return true;
}

// The OFM rounding mode as scale_value takes it: U55/U65 OFM_PRECISION bits 14-15; U85
// OFM_SCALE's round_mode (0 DOUBLE_SYMMETRIC, 1 NATURAL, 4 TRUNCATE_TO_ZERO; the
// asymmetric, symmetric and to-lower modes are refused).
bool ofm_round(State& s, uint32_t* round) {
  if (s.product != EthosUProduct::kU85) {
    *round = (s.reg(kOfmPrecision) >> 14) & 3;
    return true;
  }
  const uint32_t mode = s.r1_param[kOfmScale] >> 13;
  if (mode == 0 || mode == 1 || mode == 4) {
    *round = mode == 0 ? kRoundDbl : mode == 1 ? kRoundNatural : kRoundTruncate;
    return true;
  }
  s.fail().text("OFM rounding mode ").number(mode).text(" is not modelled");
  return false;
}

// A U85 bias/scale record for a 32-bit accumulator (R EncodeBias32): int32 bias, 31-bit
// scale, 6-bit shift, a zero byte.
ChannelRecord record_u85(const uint8_t* r) {
  const uint32_t bias = uint32_t{r[0]} | uint32_t{r[1]} << 8 | uint32_t{r[2]} << 16 | uint32_t{r[3]} << 24;
  const uint32_t scale = uint32_t{r[4]} | uint32_t{r[5]} << 8 | uint32_t{r[6]} << 16 | uint32_t{r[7] & 0x7Fu} << 24;
  return {static_cast<int32_t>(bias), scale, r[8] & 63u};
}

// ---------------------------------------------------------------- workspace

inline uint64_t round8(uint64_t v) { return (v + 7) / 8 * 8; }

struct ConvLayout {
  WeightOrder order;
  uint64_t stream_values;  // values in Vela's order
  uint64_t decoded_at, ohwi_at, w_value_at, z_value_at, input_at, acc_at, records_at, total;
};

ConvLayout conv_layout(const State& s, bool depthwise, const Window& w) {
  ConvLayout l{};
  WeightOrder& o = l.order;
  o.ofm_depth = w.od;
  o.kernel_h = w.kh;
  o.kernel_w = w.kw;
  o.ifm_depth = depthwise ? 1 : s.reg(kIfmDepthM1) + 1u;
  o.ofm_block_depth = s.reg(kOfmBlkDepthM1) + 1u;
  o.ifm_ublock_depth = 8;
  o.ofm_ublock_depth = s.macs == 32 ? 4 : 8;
  o.depthwise = depthwise;
  o.part_kernel = ((s.reg(kKernelStride) >> 2) & 1u) != 0;
  o.ifm_bits = ((s.reg(kIfmPrecision) >> 2) & 3) == 1 ? 16 : 8;
  o.decomp_h = 8 / w.dy;
  o.decomp_w = 8 / w.dx;
  if (s.product == EthosUProduct::kU85) set_weight_order_u85(s, w, &o);
  l.stream_values = walk_weight_order(o, nullptr, 0, nullptr);
  const uint64_t ifm_depth = s.reg(kIfmDepthM1) + 1u;
  uint64_t at = 0;
  l.decoded_at = at;
  at += round8(l.stream_values * 2);
  l.ohwi_at = at;
  at += round8(uint64_t{o.ofm_depth} * o.kernel_h * o.kernel_w * o.ifm_depth * 2);
  l.w_value_at = at;
  at += round8(kMaxSlice * 2);
  l.z_value_at = at;
  at += round8((kMaxSlice + 1) * 4);
  l.input_at = at;
  at += round8(ifm_depth * 4);
  l.acc_at = at;
  at += uint64_t{o.ofm_depth} * 8;
  l.records_at = at;
  at += uint64_t{o.ofm_depth} * sizeof(ChannelRecord);
  l.total = at;
  return l;
}

// ---------------------------------------------------------------- operations

int32_t run_conv(State& s, bool depthwise) {
  Window w;
  if (!read_window(s, &w)) return kEthosUModelBadCommand;
  if (s.macs > 256) {
    s.fail().text(s.product == EthosUProduct::kU85 ? "U85-512 and larger (several weight decoders) are not modelled"
                                                   : "dual-core (U65-512) weight streams are not modelled");
    return kEthosUModelUnsupported;
  }
  // Bounds the weight-order walk of a hostile stream (Vela's largest here: 512 K weights).
  const uint64_t ifm_channels = depthwise ? 1 : s.reg(kIfmDepthM1) + 1u;
  if (uint64_t{w.od} * w.kh * w.kw * ifm_channels > kMaxOpWeights) {
    s.fail().text("more than ").number(kMaxOpWeights).text(" weights in one operation");
    return kEthosUModelUnsupported;
  }
  if (!work_fits(s, w, ifm_channels)) return kEthosUModelUnsupported;
  const ConvLayout l = conv_layout(s, depthwise, w);
  if (s.dry) {
    if (l.total > s.need) s.need = l.total;
    return 0;
  }
  const uint64_t chain = chain_reserve(s);
  if (!s.check && (chain > s.model->workspace_bytes || l.total > s.model->workspace_bytes - chain)) {
    s.fail().text("the model's workspace holds ").number(s.model->workspace_bytes).text(" bytes, this operation needs ").number(
        l.total);
    return kEthosUModelWorkspace;
  }
  FeatureMap ifm;
  OutputStage out;
  if (!read_feature_map(s, 0, &ifm, "IFM") || !read_output_stage(s, &out)) return kEthosUModelBadCommand;
  const uint32_t ifm_depth = s.reg(kIfmDepthM1) + 1u;
  if (depthwise && ifm_depth < w.od) {
    s.fail().text("depthwise OFM depth ").number(w.od).text(" exceeds the IFM depth ").number(ifm_depth);
    return kEthosUModelBadCommand;
  }
  if (!extent_fits(s, 0, ifm, w.ah, w.aw, ifm_depth, "IFM") ||
      !extent_fits(s, 2, out.ofm, w.oh, w.ow, w.od, "OFM"))
    return kEthosUModelOutOfRegion;

  // Weights and scales: their byte ranges first.
  const uint32_t weight_region = s.reg(kWeightRegion) & 7;
  const uint8_t* weights = region(s, weight_region, "weights");
  if (weights == nullptr) return kEthosUModelBadCommand;
  const uint64_t weight_base = s.addr(kWeightBase), weight_length = s.r1[kWeightLength] & 0xFFFFFFFFu;
  if (!in_region(s, weight_region, weight_base, weight_length, "weights")) return kEthosUModelOutOfRegion;
  const uint16_t ofm_precision = s.reg(kOfmPrecision);
  const bool global = ((ofm_precision >> 8) & 1u) != 0;
  uint32_t round;
  if (!ofm_round(s, &round)) return kEthosUModelUnsupported;
  const uint8_t* scales = nullptr;
  uint64_t scale_base = 0;
  if (!global) {
    const uint32_t scale_region = s.reg(kScaleRegion) & 7;
    scales = region(s, scale_region, "scales");
    if (scales == nullptr) return kEthosUModelBadCommand;
    scale_base = s.addr(kScaleBase);
    const uint64_t scale_length = s.r1[kScaleLength] & 0xFFFFFu;
    if (scale_length < uint64_t{w.od} * 10) {
      s.fail().text("SCALE_LENGTH ").number(scale_length).text(" holds fewer than ").number(w.od).text(" 10-byte records");
      return kEthosUModelBadCommand;
    }
    if (!in_region(s, scale_region, scale_base, uint64_t{w.od} * 10, "scales")) return kEthosUModelOutOfRegion;
  }
  if (s.check) return 0;

  uint8_t* ws = s.model->workspace;
  auto* decoded = reinterpret_cast<int16_t*>(ws + l.decoded_at);
  auto* ohwi = reinterpret_cast<int16_t*>(ws + l.ohwi_at);
  auto* input = reinterpret_cast<int32_t*>(ws + l.input_at);
  auto* acc = reinterpret_cast<int64_t*>(ws + l.acc_at);
  auto* records = reinterpret_cast<ChannelRecord*>(ws + l.records_at);

  // Weights: decode, then undo Vela's order.
  uint64_t decoded_count = 0;
  const bool fwd = s.product == EthosUProduct::kU85 && (s.reg(kWeightFormat) & 1u) != 0;
  const char* bad = fwd ? decode_fwd(weights + weight_base, weight_length, decoded, l.stream_values, &decoded_count)
                        : decode_mlw(weights + weight_base, weight_length, decoded, l.stream_values, &decoded_count,
                                     reinterpret_cast<uint16_t*>(ws + l.w_value_at),
                                     reinterpret_cast<uint32_t*>(ws + l.z_value_at));
  if (bad != nullptr) {
    s.fail().text(bad);
    return kEthosUModelBadCommand;
  }
  if (decoded_count != l.stream_values) {
    s.fail().text("the weight stream holds ").number(decoded_count).text(" weights, the operation's order ").number(
        l.stream_values);
    return kEthosUModelBadCommand;
  }
  const uint64_t ohwi_count = uint64_t{l.order.ofm_depth} * l.order.kernel_h * l.order.kernel_w * l.order.ifm_depth;
  for (uint64_t i = 0; i < ohwi_count; ++i) ohwi[i] = 0;
  walk_weight_order(l.order, decoded, decoded_count, ohwi);

  // Bias and scale: 10-byte records per OFM channel, or the global OFM_SCALE.
  if (global) {
    for (uint32_t o = 0; o < w.od; ++o)
      records[o] = {0, static_cast<uint32_t>(s.r1[kOfmScale]), s.r1_param[kOfmScale] & 63u};
  } else {
    for (uint32_t o = 0; o < w.od; ++o) {
      const uint8_t* r = scales + scale_base + o * 10u;
      if (s.product == EthosUProduct::kU85) {
        records[o] = record_u85(r);
        continue;
      }
      uint64_t bias = 0;
      for (int b = 0; b < 5; ++b) bias |= uint64_t{r[b]} << (8 * b);
      if (bias & (uint64_t{1} << 39)) bias |= ~((uint64_t{1} << 40) - 1);  // sign-extend 40 bits
      records[o].bias = static_cast<int64_t>(bias);
      records[o].scale = uint32_t{r[5]} | uint32_t{r[6]} << 8 | uint32_t{r[7]} << 16 | uint32_t{r[8]} << 24;
      records[o].shift = r[9] & 63u;
    }
  }

  const uint32_t kh = w.kh, kw = w.kw, id = l.order.ifm_depth;
  for (uint32_t oy = 0; oy < w.oh; ++oy) {
    for (uint32_t ox = 0; ox < w.ow; ++ox) {
      for (uint32_t o = 0; o < w.od; ++o) acc[o] = records[o].bias;
      for (uint32_t ky = 0; ky < kh; ++ky) {
        uint32_t ay;
        if (!tap(int64_t{oy} * w.sy - w.pad_top + int64_t{ky} * w.dy, w.vh, w.upscale, &ay)) continue;
        for (uint32_t kx = 0; kx < kw; ++kx) {
          uint32_t ax;
          if (!tap(int64_t{ox} * w.sx - w.pad_left + int64_t{kx} * w.dx, w.vw, w.upscale, &ax)) continue;
          const uint8_t* pixel = ifm.data + pixel_offset(ifm, ay, ax);
          if (depthwise) {
            for (uint32_t c = 0; c < w.od; ++c) {
              const int64_t x = load(pixel + channel_offset(ifm, c), ifm.elem, ifm.is_signed) - ifm.zero_point;
              acc[c] += int64_t{x} * ohwi[(uint64_t{c} * kh + ky) * kw + kx];
            }
          } else {
            for (uint32_t i = 0; i < id; ++i)
              input[i] = load(pixel + channel_offset(ifm, i), ifm.elem, ifm.is_signed) - ifm.zero_point;
            for (uint32_t o = 0; o < w.od; ++o) {
              const int16_t* row = ohwi + ((uint64_t{o} * kh + ky) * kw + kx) * id;
              int64_t sum = 0;
              for (uint32_t i = 0; i < id; ++i) sum += int64_t{input[i]} * row[i];
              acc[o] += sum;
            }
          }
        }
      }
      uint8_t* pixel = out.ofm.data + pixel_offset(out.ofm, oy, ox);
      for (uint32_t o = 0; o < w.od; ++o)
        emit(out, pixel + channel_offset(out.ofm, o), scale_value(acc[o], records[o].scale, records[o].shift, round));
    }
  }
  return 0;
}

int32_t run_pool(State& s, uint32_t mode) {
  if (mode > 2) {
    s.fail().text("unknown pooling mode ").number(mode);
    return kEthosUModelBadCommand;
  }
  Window w;
  if (!read_window(s, &w)) return kEthosUModelBadCommand;
  if (!work_fits(s, w, 1)) return kEthosUModelUnsupported;
  if (s.dry) return 0;
  FeatureMap ifm;
  OutputStage out;
  if (!read_feature_map(s, 0, &ifm, "IFM") || !read_output_stage(s, &out)) return kEthosUModelBadCommand;
  if (!extent_fits(s, 0, ifm, w.ah, w.aw, w.od, "IFM") || !extent_fits(s, 2, out.ofm, w.oh, w.ow, w.od, "OFM"))
    return kEthosUModelOutOfRegion;
  if (s.check) return 0;
  const uint16_t ofm_precision = s.reg(kOfmPrecision);
  const bool global = ((ofm_precision >> 8) & 1u) != 0;
  uint32_t round;
  if (!ofm_round(s, &round)) return kEthosUModelUnsupported;
  const uint32_t scale = static_cast<uint32_t>(s.r1[kOfmScale]), shift = s.r1_param[kOfmScale] & 63u;
  for (uint32_t oy = 0; oy < w.oh; ++oy) {
    for (uint32_t ox = 0; ox < w.ow; ++ox) {
      uint8_t* dst = out.ofm.data + pixel_offset(out.ofm, oy, ox);
      for (uint32_t c = 0; c < w.od; ++c) {
        int64_t sum = 0, best = INT64_MIN, taps = 0;
        for (uint32_t ky = 0; ky < w.kh; ++ky) {
          uint32_t ay;
          if (!tap(int64_t{oy} * w.sy - w.pad_top + int64_t{ky} * w.dy, w.vh, w.upscale, &ay)) continue;
          for (uint32_t kx = 0; kx < w.kw; ++kx) {
            uint32_t ax;
            if (!tap(int64_t{ox} * w.sx - w.pad_left + int64_t{kx} * w.dx, w.vw, w.upscale, &ax)) continue;
            const int64_t x =
                load(ifm.data + pixel_offset(ifm, ay, ax) + channel_offset(ifm, c), ifm.elem, ifm.is_signed) -
                ifm.zero_point;
            sum += x;
            if (x > best) best = x;
            ++taps;
          }
        }
        int64_t v;
        if (mode == 0) {  // MAX over the taps inside the IFM
          v = taps == 0 ? 0 : best;
          if (global) v = scale_value(v, scale, shift, round);
        } else if (global) {  // AVERAGE or REDUCE_SUM with the global scale
          v = scale_value(sum, scale, shift, round);
        } else if (mode == 1) {  // AVERAGE with padding: divide by the taps inside (UNCONFIRMED)
          v = taps == 0 ? 0 : (sum >= 0 ? (sum + taps / 2) / taps : (sum - taps / 2) / taps);
        } else {
          v = sum;
        }
        emit(out, dst + channel_offset(out.ofm, c), v);
      }
    }
  }
  return 0;
}

int32_t run_elementwise(State& s, uint32_t mode) {
  if (mode > 9) {
    s.fail().text("unknown elementwise mode ").number(mode);
    return kEthosUModelBadCommand;
  }
  if (s.dry) return 0;
  const bool unary = mode == 5 || mode == 6 || mode == 7;  // LRELU, ABS, CLZ
  const uint32_t oh = s.reg(kOfmHeightM1) + 1u, ow = s.reg(kOfmWidthM1) + 1u, od = s.reg(kOfmDepthM1) + 1u;
  if (!charge(s, uint64_t{oh} * ow * od)) return kEthosUModelUnsupported;
  FeatureMap ifm, ifm2{};
  OutputStage out;
  if (!read_feature_map(s, 0, &ifm, "IFM") || !read_output_stage(s, &out)) return kEthosUModelBadCommand;
  if (!extent_fits(s, 0, ifm, oh, ow, od, "IFM") || !extent_fits(s, 2, out.ofm, oh, ow, od, "OFM"))
    return kEthosUModelOutOfRegion;
  const uint16_t broadcast = s.reg(kIfm2Broadcast);
  const bool bh = broadcast & 1u, bw = (broadcast >> 1) & 1u, bc = (broadcast >> 2) & 1u;
  const bool reversed = (broadcast >> 6) & 1u, scalar = (broadcast >> 7) & 1u;
  int32_t scalar_value = 0;
  if (!unary) {
    if (scalar) {
      const uint16_t p2 = s.reg(kIfm2Precision);
      const uint16_t raw = s.reg(kIfm2Scalar);
      const int32_t zp = (p2 & 1u) ? static_cast<int16_t>(s.reg(kIfm2ZeroPoint)) : s.reg(kIfm2ZeroPoint);
      scalar_value = ((p2 & 1u) ? static_cast<int16_t>(raw) : raw) - zp;
    } else {
      if (!read_feature_map(s, 1, &ifm2, "IFM2")) return kEthosUModelBadCommand;
      if (!extent_fits(s, 1, ifm2, bh ? 1 : oh, bw ? 1 : ow, bc ? 1 : od, "IFM2")) return kEthosUModelOutOfRegion;
    }
  }
  if (s.check) return 0;
  const uint16_t ifm_precision = s.reg(kIfmPrecision), ofm_precision = s.reg(kOfmPrecision);
  const uint32_t scale_mode = (ifm_precision >> 8) & 3, ifm_round = (ifm_precision >> 14) & 3;
  const bool global = ((ofm_precision >> 8) & 1u) != 0;
  const uint32_t round = (ofm_precision >> 14) & 3;
  const uint32_t ofm_scale = static_cast<uint32_t>(s.r1[kOfmScale]), ofm_shift = s.r1_param[kOfmScale] & 63u;
  const uint32_t opa_scale = static_cast<uint32_t>(s.r1[kOpaScale]), opa_shift = s.r1_param[kOpaScale] & 63u;
  const uint32_t opb_scale = static_cast<uint32_t>(s.r1[kOpbScale]) & 0xFFFFu;
  // The unscaled operand of an advanced ADD/SUB keeps 2^(input shift - 1) (8-bit: 19, confirmed on yolo).
  const uint32_t unscaled_shift = ifm.elem == 1 ? 19 : ifm.elem == 2 ? 14 : 0;
  for (uint32_t y = 0; y < oh; ++y) {
    for (uint32_t x = 0; x < ow; ++x) {
      const uint8_t* p1 = ifm.data + pixel_offset(ifm, y, x);
      const uint8_t* p2 = (unary || scalar) ? nullptr : ifm2.data + pixel_offset(ifm2, bh ? 0 : y, bw ? 0 : x);
      uint8_t* dst = out.ofm.data + pixel_offset(out.ofm, y, x);
      for (uint32_t c = 0; c < od; ++c) {
        const int64_t v1 = load(p1 + channel_offset(ifm, c), ifm.elem, ifm.is_signed) - ifm.zero_point;
        int64_t v2 = scalar_value;
        if (p2 != nullptr) v2 = load(p2 + channel_offset(ifm2, bc ? 0 : c), ifm2.elem, ifm2.is_signed) - ifm2.zero_point;
        const int64_t a = reversed ? v2 : v1, b = reversed ? v1 : v2;
        int64_t r = 0;
        bool scaled = global;
        switch (mode) {
          case 0: r = a * b; break;  // MUL
          case 1:                    // ADD
          case 2: {                  // SUB
            int64_t sa, sb;
            if (scale_mode == 1) {
              sa = scale_value(a, opa_scale, opa_shift, ifm_round);
              sb = b * (int64_t{1} << unscaled_shift);
            } else if (scale_mode == 2) {
              sa = a * (int64_t{1} << unscaled_shift);
              sb = scale_value(b, opa_scale, opa_shift, ifm_round);
            } else {  // OPA_OPB_16: both 16-bit scales (UNCONFIRMED)
              sa = scale_value(a, opa_scale & 0xFFFFu, opa_shift, ifm_round);
              sb = b * opb_scale;
            }
            r = mode == 1 ? sa + sb : sa - sb;
            break;
          }
          case 3: r = a < b ? a : b; break;  // MIN
          case 4: r = a > b ? a : b; break;  // MAX
          case 5:                            // LRELU: negatives times OFM_SCALE (UNCONFIRMED)
            r = a < 0 ? scale_value(a, ofm_scale, ofm_shift, round) : a;
            scaled = false;
            break;
          case 6: r = a < 0 ? -a : a; break;  // ABS
          case 7: {                            // CLZ
            uint32_t u = static_cast<uint32_t>(a), n = 0;
            while (n < 32 && (u & 0x80000000u) == 0) {
              u <<= 1;
              ++n;
            }
            r = n;
            break;
          }
          case 8: {  // SHR by b (0..31), rounding per the OFM round mode
            const uint32_t k = b < 0 ? 0 : b > 31 ? 31 : static_cast<uint32_t>(b);
            r = scale_value(a, 1, k, round == kRoundDbl ? kRoundNatural : round);
            break;
          }
          default: {  // SHL by b (0..31)
            const uint32_t k = b < 0 ? 0 : b > 31 ? 31 : static_cast<uint32_t>(b);
            r = saturate32(a * (int64_t{1} << k));
            break;
          }
        }
        if (scaled) r = scale_value(r, ofm_scale, ofm_shift, round);
        emit(out, dst + channel_offset(out.ofm, c), r);
      }
    }
  }
  return 0;
}

// A U85 IFM/IFM2/OFM_SCALE applied to a value (facts 3): value * scale / 2^shift, rounded
// NATURAL (half up) or DOUBLE_SYMMETRIC; with a double-rounding shift k the first rounding
// is TensorFlow Lite's doubling high multiply of (value << k) and the second a rounding
// shift by the rest (TFLite's ADD/SUB: inputs shifted left by 20 then scaled).
int64_t scale_u85(int64_t value, uint32_t scale, uint32_t shift, uint32_t double_round, uint32_t round) {
  if (round != kRoundDbl || double_round == 0 || double_round > 31 || shift < 31 - double_round)
    return scale_value(value, scale, shift, round);
  const int64_t product = saturate32(value) * int64_t{scale};
  const uint32_t first = 31 - double_round;
  const int64_t nudge = first == 0 ? 0 : product >= 0 ? (int64_t{1} << (first - 1)) : 1 - (int64_t{1} << (first - 1));
  return rounding_divide_by_pot((product + nudge) / (int64_t{1} << first), shift - first);
}

struct ScaleU85 {
  uint32_t scale, shift, double_round, round;
};

ScaleU85 read_scale_u85(const State& s, uint16_t opcode, bool ofm) {
  const uint16_t param = s.r1_param[opcode];
  const uint32_t mode = ofm ? param >> 13 : (param >> 13) & 1u;
  const uint32_t round = mode == 1 ? kRoundNatural : mode == 4 ? kRoundTruncate : kRoundDbl;
  return {static_cast<uint32_t>(s.r1[opcode]) & 0x7FFFFFFFu, param & 63u, (param >> 6) & 31u, round};
}

// NPU_OP_ELEMENTWISE on the U85: each input is scaled by its IFM/IFM2_SCALE, combined,
// then scaled by OFM_SCALE (facts 3; ADD confirmed on yolo Z256, SUB by symmetry; MUL,
// MIN and MAX read the same way but are UNCONFIRMED). Broadcast is a 4-bit mode per input
// (H, W, C bits; 8 = the 32-bit OP_SCALAR). Other modes are refused.
int32_t run_elementwise_u85(State& s, uint32_t mode) {
  if (mode > 4) {
    s.fail().text("U85 elementwise mode ").number(mode).text(" is not modelled");
    return kEthosUModelUnsupported;
  }
  if (s.dry) return 0;
  const uint32_t oh = s.reg(kOfmHeightM1) + 1u, ow = s.reg(kOfmWidthM1) + 1u, od = s.reg(kOfmDepthM1) + 1u;
  if (!charge(s, uint64_t{oh} * ow * od)) return kEthosUModelUnsupported;
  const uint16_t broadcast[2] = {static_cast<uint16_t>(s.reg(kIfmBroadcast) & 0xFu),
                                 static_cast<uint16_t>(s.reg(kIfm2Broadcast) & 0xFu)};
  FeatureMap in[2] = {};
  int32_t scalar[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    const char* what = k == 0 ? "IFM" : "IFM2";
    if (broadcast[k] > 8) {
      s.fail().text(what).text(": unknown broadcast mode ").number(broadcast[k]);
      return kEthosUModelBadCommand;
    }
    if (broadcast[k] == 8) {
      const uint16_t zp = s.reg(k == 0 ? kIfmZeroPoint : kIfm2ZeroPoint);
      const bool is_signed = (s.reg(k == 0 ? kIfmPrecision : kIfm2Precision) & 1u) != 0;
      scalar[k] = static_cast<int32_t>(s.r1[kOpScalar]) - (is_signed ? static_cast<int16_t>(zp) : zp);
      continue;
    }
    if (!read_feature_map(s, k, &in[k], what)) return kEthosUModelBadCommand;
    if (!extent_fits(s, k, in[k], (broadcast[k] & 1u) ? 1 : oh, (broadcast[k] & 2u) ? 1 : ow, (broadcast[k] & 4u) ? 1 : od,
                     what))
      return kEthosUModelOutOfRegion;
  }
  OutputStage out;
  if (!read_output_stage(s, &out)) return kEthosUModelBadCommand;
  if (!extent_fits(s, 2, out.ofm, oh, ow, od, "OFM")) return kEthosUModelOutOfRegion;
  uint32_t round;
  if (!ofm_round(s, &round)) return kEthosUModelUnsupported;
  if (s.check) return 0;
  const ScaleU85 scales[2] = {read_scale_u85(s, kIfmScale, false), read_scale_u85(s, kIfm2Scale, false)};
  const ScaleU85 ofm_scale = read_scale_u85(s, kOfmScale, true);
  for (uint32_t y = 0; y < oh; ++y) {
    for (uint32_t x = 0; x < ow; ++x) {
      uint8_t* dst = out.ofm.data + pixel_offset(out.ofm, y, x);
      for (uint32_t c = 0; c < od; ++c) {
        int64_t v[2];
        for (int k = 0; k < 2; ++k) {
          int64_t raw = scalar[k];
          if (broadcast[k] != 8) {
            const FeatureMap& f = in[k];
            const uint8_t* p = f.data + pixel_offset(f, (broadcast[k] & 1u) ? 0 : y, (broadcast[k] & 2u) ? 0 : x) +
                               channel_offset(f, (broadcast[k] & 4u) ? 0 : c);
            raw = load(p, f.elem, f.is_signed) - f.zero_point;
          }
          v[k] = scale_u85(raw, scales[k].scale, scales[k].shift, scales[k].double_round, scales[k].round);
        }
        int64_t r;
        switch (mode) {
          case 0: r = v[0] * v[1]; break;        // MUL
          case 1: r = v[0] + v[1]; break;        // ADD
          case 2: r = v[0] - v[1]; break;        // SUB
          case 3: r = v[0] < v[1] ? v[0] : v[1]; break;  // MIN
          default: r = v[0] > v[1] ? v[0] : v[1]; break;  // MAX
        }
        emit(out, dst + channel_offset(out.ofm, c),
             scale_u85(r, ofm_scale.scale, ofm_scale.shift, ofm_scale.double_round, round));
      }
    }
  }
  return 0;
}

// NPU_OP_RESIZE (U85), NEAREST only: TOSA RESIZE's geometry (facts 3; R
// GenerateResizeOp). Output x samples x * d + offset in 1/n IFM pixels: the IFM column
// floor((x * d + offset) / n), plus one when the remainder is at least n / 2, clamped to
// [0, KERNEL_WIDTH_M1] (regor puts the IFM extent in the kernel registers); y likewise.
// n - 1 is RESIZE_X/Y_SCALE_N_M1, offset the 12-bit RESIZE_X/Y_OFFSET, d is
// one_step_int * n + one_step_mod of RESIZE_X/Y. The value is (IFM - zero point) << 16,
// then OFM_SCALE with SYMMETRIC rounding (half away from zero).
int32_t run_resize(State& s, uint32_t mode) {
  if (mode != 2) {
    s.fail().text("resize mode ").text(mode == 0 ? "BILINEAR" : mode == 1 ? "REPLICATE" : "3").text(" is not modelled");
    return kEthosUModelUnsupported;
  }
  if (s.dry) return 0;
  const uint32_t oh = s.reg(kOfmHeightM1) + 1u, ow = s.reg(kOfmWidthM1) + 1u, od = s.reg(kOfmDepthM1) + 1u;
  if (!charge(s, uint64_t{oh} * ow * od)) return kEthosUModelUnsupported;
  const uint32_t ih = s.reg(kKernelHeightM1) + 1u, iw = s.reg(kKernelWidthM1) + 1u;
  struct Axis {
    int64_t n, d, offset;
    uint32_t limit;
    uint32_t at(uint32_t o) const {
      const int64_t pos = int64_t{o} * d + offset;
      int64_t i = pos >= 0 ? pos / n : -((-pos + n - 1) / n);
      if (pos - i * n >= n / 2) ++i;
      return static_cast<uint32_t>(i < 0 ? 0 : i >= limit ? limit - 1 : i);
    }
  };
  auto axis = [&](uint16_t scale_op, uint16_t offset_op, uint16_t step_op, uint32_t limit) {
    const int64_t n = (s.reg(scale_op) & 0x7FFu) + 1;
    const int64_t raw = s.reg(offset_op) & 0xFFFu, offset = raw >= 0x800 ? raw - 0x1000 : raw;  // 12-bit signed
    const int64_t d = (s.r1_param[step_op] & 0xFu) * n + (s.r1[step_op] & 0x7FFu);
    return Axis{n, d, offset, limit};
  };
  const Axis ax = axis(kResizeXScaleNM1, kResizeXOffset, kResizeX, iw);
  const Axis ay = axis(kResizeYScaleNM1, kResizeYOffset, kResizeY, ih);
  const uint32_t round = s.r1_param[kOfmScale] >> 13;
  if (round != 3) {
    s.fail().text("resize with OFM rounding mode ").number(round).text(" is not modelled (only SYMMETRIC)");
    return kEthosUModelUnsupported;
  }
  FeatureMap ifm;
  OutputStage out;
  if (!read_feature_map(s, 0, &ifm, "IFM") || !read_output_stage(s, &out)) return kEthosUModelBadCommand;
  if (ifm.elem == 4) {
    s.fail().text("a resize of a 32-bit IFM is not modelled");
    return kEthosUModelUnsupported;
  }
  if (!extent_fits(s, 0, ifm, ih, iw, od, "IFM") || !extent_fits(s, 2, out.ofm, oh, ow, od, "OFM"))
    return kEthosUModelOutOfRegion;
  if (s.check) return 0;
  const ScaleU85 scale = read_scale_u85(s, kOfmScale, true);
  for (uint32_t y = 0; y < oh; ++y) {
    for (uint32_t x = 0; x < ow; ++x) {
      const uint8_t* src = ifm.data + pixel_offset(ifm, ay.at(y), ax.at(x));
      uint8_t* dst = out.ofm.data + pixel_offset(out.ofm, y, x);
      for (uint32_t c = 0; c < od; ++c) {
        const int64_t v = int64_t{load(src + channel_offset(ifm, c), ifm.elem, ifm.is_signed) - ifm.zero_point} * 65536;
        emit(out, dst + channel_offset(out.ofm, c), rounding_divide_by_pot(v * scale.scale, scale.shift));
      }
    }
  }
  return 0;
}

int32_t run_dma(State& s) {
  if (s.dry) return 0;
  const uint16_t src_param = s.reg(kDmaSrcRegion), dst_param = s.reg(kDmaDstRegion);
  if (((src_param >> 9) & 3u) != 0 || ((dst_param >> 9) & 3u) != 0) {
    s.fail().text("2-D/3-D DMA is not modelled");
    return kEthosUModelUnsupported;
  }
  if ((src_param >> 8) & 1u) {
    s.fail().text("a DMA from the SHRAM is not modelled");
    return kEthosUModelUnsupported;
  }
  const uint32_t src_region = src_param & 7;
  const uint64_t src = s.addr(kDmaSrc), dst = s.addr(kDmaDst), length = s.addr(kDmaLen);
  const uint8_t* from = region(s, src_region, "DMA source");
  if (from == nullptr) return kEthosUModelBadCommand;
  if (!in_region(s, src_region, src, length, "DMA source")) return kEthosUModelOutOfRegion;
  if ((dst_param >> 8) & 1u) {  // into the SHRAM: only its LUT area is modelled
    const uint64_t lut_start = s.shram_bytes >= kEthosUModelLutBytes ? s.shram_bytes - kEthosUModelLutBytes : 0;
    if (dst < lut_start || dst > s.shram_bytes || length > s.shram_bytes - dst || s.shram_bytes < kEthosUModelLutBytes) {
      s.fail().text("DMA to SHRAM [").number(dst).text(", ").number(dst + length).text(") is outside its LUT area [").number(
          lut_start).text(", ").number(s.shram_bytes).text(")");
      return kEthosUModelOutOfRegion;
    }
    if (!s.check) memcpy(s.model->lut + (dst - lut_start), from + src, length);
    return 0;
  }
  const uint32_t dst_region = dst_param & 7;
  uint8_t* to = region(s, dst_region, "DMA destination");
  if (to == nullptr) return kEthosUModelBadCommand;
  if (!in_region(s, dst_region, dst, length, "DMA destination", true)) return kEthosUModelOutOfRegion;
  if (!s.check) memmove(to + dst, from + src, length);
  return 0;
}

int32_t run_stream(State& s, const uint8_t* payload, uint32_t payload_bytes) {
  EthosUPayload parsed;
  const EthosUPayloadError e = parse_ethos_u_payload(payload, payload_bytes, &parsed);
  if (e != EthosUPayloadError::kOk) {
    s.msg->text("payload: ").text(ethos_u_payload_error_string(e));
    return kEthosUModelBadPayload;
  }
  const EthosUConfig config = decode_ethos_u_config(parsed.config_word, parsed.id_word);
  s.product = static_cast<EthosUProduct>(config.product);
  s.macs = config.macs;
  s.shram_bytes = config.shram_kib * 1024u;
  if (config.product > 2) {
    s.msg->text("payload: unknown product ").number(config.product);
    return kEthosUModelBadPayload;
  }
  const uint8_t* words = payload + parsed.stream_offset;
  for (uint32_t w = 0; w < parsed.stream_words; ++s.command) {
    const uint32_t header = ethos_u_word(words, w);
    const uint32_t control = (header >> 14) & 3;
    s.opcode = static_cast<uint16_t>(header & 0x3FF);
    s.cmd1 = control == 1;
    uint16_t param = static_cast<uint16_t>(header >> 16);
    if (control > 1) {
      s.fail().text("reserved control bits");
      return kEthosUModelBadCommand;
    }
    if (s.cmd1 && w + 1 >= parsed.stream_words) {
      s.fail().text("the payload word is missing");
      return kEthosUModelBadCommand;
    }
    const uint32_t value = s.cmd1 ? ethos_u_word(words, w + 1) : 0;
    w += s.cmd1 ? 2 : 1;
    if (!has_opcode(s.product, s.cmd1, s.opcode)) {
      s.fail().text("unknown opcode for ").text(product_name(s.product));
      return kEthosUModelBadCommand;
    }
    if (s.cmd1 && s.opcode == kOpBranch) {
      s.fail().text("control flow in the stream is not modelled");
      return kEthosUModelUnsupported;
    }
    if (s.cmd1) {
      const uint64_t hi = s.product != EthosUProduct::kU55 ? uint64_t{param & 0xFFu} << 32 : 0;
      s.r1[s.opcode] = value | hi;
      s.r1_param[s.opcode] = param;
      continue;
    }
    if (s.opcode >= 0x100) {
      s.r0[s.opcode & 0x1FF] = param;
      continue;
    }
    int32_t rc = 0;
    if (s.product == EthosUProduct::kU85 && s.opcode != kOpStop && s.opcode != kOpIrq && s.opcode < kOpDmaWait) {
      if (!u85_op_supported(s, s.opcode, param) && !s.dry) return kEthosUModelUnsupported;
      if (s.dry && chained_ofm_bytes(s) > s.chain_need) s.chain_need = chained_ofm_bytes(s);
      if (s.opcode == kOpPool) {  // U85 pooling modes: MAX 0, AVERAGE 1, SUM 3 run here
        const uint32_t mode = param & 7u;
        if (mode != 0 && mode != 1 && mode != 3) {
          s.fail().text("U85 pooling mode ").number(mode).text(" is not modelled");
          return kEthosUModelUnsupported;
        }
        param = static_cast<uint16_t>(mode == 3 ? 2 : mode);  // SUM: the window sum of mode 2 here
      }
    }
    switch (s.opcode) {
      case kOpStop: return 0;
      case kOpConv: rc = run_conv(s, false); break;
      case kOpDepthwise: rc = run_conv(s, true); break;
      case kOpPool: rc = run_pool(s, param & 7u); break;
      case kOpElementwise:
        rc = s.product == EthosUProduct::kU85 ? run_elementwise_u85(s, param & 0x3Fu) : run_elementwise(s, param & 0x3Fu);
        break;
      case kOpResize: rc = run_resize(s, param & 3u); break;
      case kOpDmaStart: rc = run_dma(s); break;
      default: break;  // IRQ, waits, PMU: nothing to compute
    }
    // The workspace measure runs on past what invoke will refuse (invoke names it).
    if (rc != 0 && !(s.dry && rc == kEthosUModelUnsupported)) return rc;
  }
  s.fail().text("the stream ends without NPU_OP_STOP");
  return kEthosUModelBadCommand;
}

void reset(State& s, EthosUModel* model, const uint64_t* base, const uint32_t* bytes, uint32_t regions, bool dry) {
  memset(&s, 0, sizeof s);
  s.model = model;
  s.base = base;
  s.bytes = bytes;
  s.region_count = regions;
  s.dry = dry;
}

}  // namespace

uint64_t ethos_u_model_workspace_bytes(const uint8_t* payload, uint32_t payload_bytes) {
  static_assert(sizeof(State) < 4096, "State lives on the stack");
  EthosUModel scratch;
  State s;
  reset(s, &scratch, nullptr, nullptr, 0, true);
  TextLine msg(scratch.error, kEthosUModelErrorBytes);
  s.msg = &msg;
  if (run_stream(s, payload, payload_bytes) != 0) return 0;
  return s.need + s.chain_need;
}

int32_t ethos_u_model_check(const uint8_t* payload, uint32_t payload_bytes, const uint32_t* region_bytes,
                            uint32_t region_count, EthosUModelCheck* result) {
  // Non-zero stand-in base addresses: region() tells a given region from an absent one by
  // them, and nothing is read or written in check mode.
  uint64_t base[kEthosUModelRegions] = {};
  if (region_count > kEthosUModelRegions) region_count = kEthosUModelRegions;
  for (uint32_t r = 0; r < region_count; ++r) base[r] = region_bytes[r] != 0 ? 16 : 0;
  static_assert(sizeof(EthosUModel) < 4096, "EthosUModel lives on the stack here");
  EthosUModel scratch;
  State s;
  reset(s, &scratch, base, region_bytes, region_count, false);
  s.check = true;
  TextLine msg(result->error, kEthosUModelErrorBytes);
  s.msg = &msg;
  result->error[0] = '\0';
  const int32_t rc = run_stream(s, payload, payload_bytes);
  for (uint32_t r = 0; r < kEthosUModelRegions; ++r) result->regions[r] = s.use[r];
  result->commands = s.command;
  return rc;
}

int32_t ethos_u_model_invoke(void* user, const uint8_t* payload, uint32_t payload_bytes,
                             const uint64_t* base_addresses, const uint32_t* base_bytes, uint32_t region_count) {
  auto* model = static_cast<EthosUModel*>(user);
  model->error[0] = '\0';
  State s;
  reset(s, model, base_addresses, base_bytes, region_count, false);
  TextLine msg(model->error, kEthosUModelErrorBytes);
  s.msg = &msg;
  return run_stream(s, payload, payload_bytes);
}

}  // namespace mote
