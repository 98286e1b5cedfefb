// SPDX-License-Identifier: MIT
// The machine's convolution throughput on a network's own layers: the CPU's peak that
// "achieved GFLOP/s" is held against (measurePeakThroughput takes the small CNN's best case;
// bench/conv_throughput prints them all, for the small CNN or the speedrun's network).
// LibTorch-free header.
#pragma once

#include "devicebench/run_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace devicebench {

// One convolution of a network: square kernel, stride 1.
struct ConvLayerShape {
    std::string name;           // e.g. "conv2 32->32 @16x16"
    std::int64_t in = 0;        // input channels
    std::int64_t out = 0;       // output channels
    std::int64_t size = 0;      // input height = width (pixels)
    bool inputNeedsGrad = true; // false where the input needs no gradient (the image's layer)
    std::int64_t kernel = 5;    // kernel height = width
    std::int64_t padding = 2;   // each side; output size = size + 2 x padding - kernel + 1
};
inline constexpr std::int64_t kSmallCnnKernel = 5;

// The small CNN's three 5x5 convolutions (padding 2), in network order.
std::vector<ConvLayerShape> smallCnnConvolutions();

// The speedrun's network (airbench94, docs/SPEEDRUN.md) at 32 px: its six 3x3 convolutions
// (padding 1) as a training step computes them once the whitening layer's bias is frozen
// (epoch 4 on: no gradient reaches the image-side layers). The whitening convolution (2x2, 3->24,
// frozen, 0.1 % of the arithmetic) is left out.
std::vector<ConvLayerShape> speedrunConvolutions();

// Forward multiply-adds of `layer` for a batch of `batch` images:
// B x Cout x Hout x Wout x Cin x kernel x kernel.
double convMultiplyAdds(const ConvLayerShape &layer, std::int64_t batch);

struct ConvTimingOptions {
    std::int64_t batch = 64;
    Precision precision = Precision::Float32; // the tensors' type: float32 or bfloat16
    int warmups = 5;                          // untimed repetitions first, per case
    int reps = 30;                            // timed repetitions per case (at least 1)...
    double maxSecondsPerCase = 0.0; // ...unless > 0 and this many seconds (warm-up included)
                                    // have gone by: then stop after at least 2 timed ones
    bool timeForward = true;        // also time the forward pass alone
};

// One layer in one memory format.
struct ConvTiming {
    ConvLayerShape layer;
    bool channelsLast = false;          // false: NCHW
    double forwardFlop = 0.0;           // 2 x multiply-adds of the batch
    double backwardFlop = 0.0;          // input gradient + weight gradient: 2 x forward, or 1 x for
                                        // the first layer (no input gradient)
    std::vector<double> forwardSeconds; // each timed forward pass (empty: not timed)
    std::vector<double> bothSeconds;    // each timed forward + backward pass
};

// Times each of `layers` in NCHW and channels-last, forward alone and forward + backward, on the
// CPU with the current intra-op threads, as a training step calls them. Seeds LibTorch's global
// CPU generator (0). Returns 2 cases per layer: layer-major, NCHW before channels-last. Throws
// std::invalid_argument for float16 (not a CPU precision here).
std::vector<ConvTiming> measureConvolutions(const std::vector<ConvLayerShape> &layers,
                                            const ConvTimingOptions &options);

// measureConvolutions(smallCnnConvolutions(), options): 6 cases.
std::vector<ConvTiming> measureSmallCnnConvolutions(const ConvTimingOptions &options);

} // namespace devicebench
