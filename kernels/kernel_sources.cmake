# The kernel library's contents, in one place for every build that compiles kernels:
#   MOTE_KERNEL_SOURCES  the sources of mote_kernels, relative to kernels/
#   MOTE_KERNEL_ENTRIES  the name of every kernel's KernelEntry (k<Name>Entry), one per
#                        KernelId but kInvalid/kCount (the size probes measure each)
# Included by kernels/CMakeLists.txt (host and cross builds) and
# platforms/cortex_m/size_probe. Also the list to compile when the kernels go into
# someone else's build (README "Runtime as a list of sources").
set(MOTE_KERNEL_SOURCES
  all_kernels.cc
  kernel_names.cc
  kernel_util.cc
  activation/activation_f32.cc
  activation/activation_s8.cc
  batch_matmul/batch_matmul_f32.cc
  concat/concat.cc
  conv2d/conv2d_f32.cc
  conv2d/conv2d_s8.cc
  conv2d/conv2d_s8__dsp.cc
  conv2d/conv2d_s8_1x1__dsp.cc
  conv2d/conv2d_s8__mve.cc
  conv2d/conv2d_s8_1x1__mve.cc
  conv2d/conv2d_s16.cc
  copy/copy.cc
  depthwise_conv2d/depthwise_conv2d_f32.cc
  depthwise_conv2d/depthwise_conv2d_s8.cc
  depthwise_conv2d/depthwise_conv2d_s8__dsp.cc
  depthwise_conv2d/depthwise_conv2d_s8_3x3__dsp.cc
  depthwise_conv2d/depthwise_conv2d_s8_mult__dsp.cc
  depthwise_conv2d/depthwise_conv2d_s8__mve.cc
  depthwise_conv2d/depthwise_conv2d_s16.cc
  elementwise/binary_f32.cc
  elementwise/binary_s8.cc
  elementwise/add_s8__dsp.cc
  elementwise/add_s8_lut__dsp.cc
  elementwise/add_s8__mve.cc
  elementwise/binary_s16.cc
  elementwise/broadcast.cc
  fully_connected/fully_connected_f32.cc
  fully_connected/fully_connected_s8.cc
  fully_connected/fully_connected_s8__dsp.cc
  fully_connected/fully_connected_s8__mve.cc
  fully_connected/fully_connected_s16.cc
  leaky_relu/leaky_relu_quant.cc
  lstm/lstm_s8.cc
  mean/mean_f32.cc
  mean/mean_s8.cc
  mean/mean_s16.cc
  pad/pad.cc
  pool2d/pool2d_f32.cc
  pool2d/pool2d_s8.cc
  pool2d/avg_pool2d_s8__dsp.cc
  pool2d/avg_pool2d_s8__mve.cc
  pool2d/max_pool2d_s8__dsp.cc
  pool2d/max_pool2d_s8__mve.cc
  conv2d/conv2d_s8__v6m.cc
  depthwise_conv2d/depthwise_conv2d_s8__v6m.cc
  fully_connected/fully_connected_s8__v6m.cc
  pool2d/pool2d_s16.cc
  quant/quant_math.cc
  quantize/quantize.cc
  quantize/requantize.cc
  softmax/softmax_f32.cc
  softmax/softmax_s8.cc
  strided_slice/strided_slice.cc
  transpose/transpose.cc
  transpose_conv/transpose_conv_s16.cc
)

# Every KernelId enumerator but kInvalid names an entry k<Name>Entry (kernel_ids.h).
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/kernel_ids.h _mote_id_lines REGEX "^  k[A-Za-z0-9]+ = [0-9]+,")
set(MOTE_KERNEL_ENTRIES "")
foreach(_mote_line IN LISTS _mote_id_lines)
  string(REGEX REPLACE "^  (k[A-Za-z0-9]+) = .*" "\\1Entry" _mote_entry "${_mote_line}")
  if(NOT _mote_entry STREQUAL "kInvalidEntry")
    list(APPEND MOTE_KERNEL_ENTRIES ${_mote_entry})
  endif()
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/kernel_ids.h)
