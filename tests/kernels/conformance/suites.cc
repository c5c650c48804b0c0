// Every conformance suite. To add one: a declaration line in the first block and an
// entry line in kSuites (plus the suite's source in sources.cmake); see conformance.h.
// Only suites listed here are built and run.
#include "conformance.h"

namespace mote::conformance {

// --- declarations: one line per suite ---
int run_conformance_self_test(Rng&, int);
int run_add_s8__dsp(Rng&, int);
int run_avg_pool2d_s8__dsp(Rng&, int);
int run_max_pool2d_s8__dsp(Rng&, int);
int run_conv2d_s8__dsp(Rng&, int);
int run_conv2d_s8_1x1__dsp(Rng&, int);
int run_conv2d_s8__mve(Rng&, int);
int run_conv2d_s8_1x1__mve(Rng&, int);
int run_fully_connected_s8__mve(Rng&, int);
int run_depthwise_conv2d_s8__dsp(Rng&, int);
int run_depthwise_conv2d_s8_3x3__dsp(Rng&, int);
int run_depthwise_conv2d_s8_mult__dsp(Rng&, int);
int run_add_s8_lut__dsp(Rng&, int);
int run_fully_connected_s8__dsp(Rng&, int);
int run_depthwise_conv2d_s8__mve(Rng&, int);
int run_add_s8__mve(Rng&, int);
int run_avg_pool2d_s8__mve(Rng&, int);
int run_max_pool2d_s8__mve(Rng&, int);
int run_conv2d_s8__v6m(Rng&, int);
int run_depthwise_conv2d_s8__v6m(Rng&, int);
int run_fully_connected_s8__v6m(Rng&, int);
// --- end of declarations ---

const Suite kSuites[] = {
    // --- suites: one line per suite ---
    {"conformance_self_test", run_conformance_self_test},
    {"add_s8__dsp", run_add_s8__dsp},
    {"avg_pool2d_s8__dsp", run_avg_pool2d_s8__dsp},
    {"max_pool2d_s8__dsp", run_max_pool2d_s8__dsp},
    {"conv2d_s8__dsp", run_conv2d_s8__dsp},
    {"conv2d_s8_1x1__dsp", run_conv2d_s8_1x1__dsp},
    {"conv2d_s8__mve", run_conv2d_s8__mve},
    {"conv2d_s8_1x1__mve", run_conv2d_s8_1x1__mve},
    {"fully_connected_s8__mve", run_fully_connected_s8__mve},
    {"depthwise_conv2d_s8__dsp", run_depthwise_conv2d_s8__dsp},
    {"depthwise_conv2d_s8_3x3__dsp", run_depthwise_conv2d_s8_3x3__dsp},
    {"depthwise_conv2d_s8_mult__dsp", run_depthwise_conv2d_s8_mult__dsp},
    {"add_s8_lut__dsp", run_add_s8_lut__dsp},
    {"fully_connected_s8__dsp", run_fully_connected_s8__dsp},
    {"depthwise_conv2d_s8__mve", run_depthwise_conv2d_s8__mve},
    {"add_s8__mve", run_add_s8__mve},
    {"avg_pool2d_s8__mve", run_avg_pool2d_s8__mve},
    {"max_pool2d_s8__mve", run_max_pool2d_s8__mve},
    {"conv2d_s8__v6m", run_conv2d_s8__v6m},
    {"depthwise_conv2d_s8__v6m", run_depthwise_conv2d_s8__v6m},
    {"fully_connected_s8__v6m", run_fully_connected_s8__v6m},
    // --- end of suites ---
};
const size_t kSuiteCount = sizeof(kSuites) / sizeof(kSuites[0]);

}  // namespace mote::conformance
