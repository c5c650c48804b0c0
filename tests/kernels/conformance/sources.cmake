# The conformance suites that exist, one source per line (relative to this directory).
# Included by tests/kernels/conformance/CMakeLists.txt (host) and by
# platforms/cortex_m/conformance/CMakeLists.txt (firmware). Also list the suite in
# suites.cc (see conformance.h).
set(MOTE_CONFORMANCE_SUITES
  self_test.cc
  depthwise_conv2d_s8__mve.cc
  add_s8__mve.cc
  avg_pool2d_s8__mve.cc
  max_pool2d_s8__mve.cc
  add_s8__dsp.cc
  avg_pool2d_s8__dsp.cc
  max_pool2d_s8__dsp.cc
  conv2d_s8__dsp.cc
  conv2d_s8_1x1__dsp.cc
  conv2d_s8__mve.cc
  conv2d_s8_1x1__mve.cc
  fully_connected_s8__mve.cc
  depthwise_conv2d_s8__dsp.cc
  depthwise_conv2d_s8_3x3__dsp.cc
  depthwise_conv2d_s8_mult__dsp.cc
  add_s8_lut__dsp.cc
  fully_connected_s8__dsp.cc
  conv2d_s8__v6m.cc
  depthwise_conv2d_s8__v6m.cc
  fully_connected_s8__v6m.cc
)
# The harness itself (not suites).
set(MOTE_CONFORMANCE_COMMON
  conformance.cc
  conformance_main.cc
  suites.cc
)
