// SPDX-License-Identifier: MIT
// The machine's convolution throughput on the small CNN's own layers: the CPU's peak that
// "achieved GFLOP/s" is held against (measurePeakThroughput takes the best case;
// bench/conv_throughput prints them all). LibTorch-free header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace devicebench {

// One of the small CNN's three 5x5 convolutions (padding 2, stride 1).
struct ConvLayerShape {
    std::string name;           // e.g. "conv2 32->32 @16x16"
    std::int64_t in = 0;        // input channels
    std::int64_t out = 0;       // output channels
    std::int64_t size = 0;      // input height = width (pixels)
    bool inputNeedsGrad = true; // false for the first layer: its input is the image
};
inline constexpr std::int64_t kSmallCnnKernel = 5;

// The three layers, in network order.
std::vector<ConvLayerShape> smallCnnConvolutions();

// Forward multiply-adds of `layer` for a batch of `batch` images: B x Cout x H x W x Cin x 25.
double convMultiplyAdds(const ConvLayerShape &layer, std::int64_t batch);

struct ConvTimingOptions {
    std::int64_t batch = 64;
    int warmups = 5;                // untimed repetitions first, per case
    int reps = 30;                  // timed repetitions per case (at least 1)...
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

// Times each layer in NCHW and channels-last, forward alone and forward + backward, on the CPU
// with the current intra-op threads, as a training step calls them. Seeds LibTorch's global CPU
// generator (0). Returns 6 cases: layer-major, NCHW before channels-last.
std::vector<ConvTiming> measureSmallCnnConvolutions(const ConvTimingOptions &options);

} // namespace devicebench
