// SPDX-License-Identifier: MIT
// The machine's measured peak (step_bench.h, measurePeakThroughput) and the small CNN's
// convolution throughput it is made of on the CPU (conv_throughput.h).
#include "devicebench/conv_throughput.h"
#include "devicebench/devices.h"
#include "devicebench/step_bench.h"

#include "run_stop.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace devicebench {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// `f` repeated as the options say; the seconds of each timed repetition.
template <class F> std::vector<double> timeRepetitions(const ConvTimingOptions &o, F &&f) {
    const auto start = Clock::now();
    for (int i = 0; i < o.warmups; ++i) {
        f();
    }
    std::vector<double> seconds;
    for (int i = 0; i < std::max(o.reps, 1); ++i) {
        if (o.maxSecondsPerCase > 0.0 && seconds.size() >= 2 &&
            secondsSince(start) >= o.maxSecondsPerCase) {
            break;
        }
        const auto t0 = Clock::now();
        f();
        seconds.push_back(secondsSince(t0));
    }
    return seconds;
}

// The CPU's peak: the best forward + backward rate over the small CNN's convolutions, within
// about a second.
PeakThroughput cpuPeak() {
    ConvTimingOptions options;
    options.warmups = 1;
    options.reps = 20;
    options.maxSecondsPerCase = 0.15; // 6 cases: about 1 s in all
    options.timeForward = false;
    PeakThroughput peak;
    for (const ConvTiming &t : measureSmallCnnConvolutions(options)) {
        const double best = *std::min_element(t.bothSeconds.begin(), t.bothSeconds.end());
        const double gflops = (t.forwardFlop + t.backwardFlop) / best / 1e9;
        if (gflops > peak.gflops) {
            peak.gflops = gflops;
            peak.method = "conv " + t.layer.name.substr(t.layer.name.find(' ') + 1) +
                          " 5x5 batch " + std::to_string(options.batch) + ", " +
                          (t.channelsLast ? "channels-last" : "NCHW") + ", forward + backward, " +
                          std::to_string(at::get_num_threads()) +
                          (at::get_num_threads() == 1 ? " thread" : " threads");
        }
    }
    return peak;
}

// A GPU's peak: the best of a 4096 x 4096 float32 matrix product, within about a second.
PeakThroughput gpuPeak(const torch::Device &device) {
    constexpr std::int64_t n = 4096;
    const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    const auto a = torch::rand({n, n}, options);
    const auto b = torch::rand({n, n}, options);
    auto c = torch::empty({n, n}, options);
    for (int i = 0; i < 3; ++i) {
        torch::mm_out(c, a, b);
    }
    detail::synchronize(device);
    double best = 0.0;
    const auto start = Clock::now();
    for (int i = 0; i < 200 && (i < 3 || secondsSince(start) < 0.8); ++i) {
        const auto t0 = Clock::now();
        torch::mm_out(c, a, b);
        detail::synchronize(device);
        const double s = secondsSince(t0);
        best = best == 0.0 ? s : std::min(best, s);
    }
    PeakThroughput peak;
    peak.gflops = 2.0 * static_cast<double>(n) * n * n / best / 1e9;
    peak.method = "float32 matrix product 4096 x 4096 on " + device.str();
    return peak;
}

} // namespace

std::vector<ConvLayerShape> smallCnnConvolutions() {
    return {{"conv1 3->32 @32x32", 3, 32, 32, false},
            {"conv2 32->32 @16x16", 32, 32, 16, true},
            {"conv3 32->64 @8x8", 32, 64, 8, true}};
}

std::vector<ConvLayerShape> speedrunConvolutions() {
    // whitening 32 -> 31 px; each group's first convolution, then a 2x2 max-pool
    return {{"block1a 24->64 @31x31", 24, 64, 31, false, 3, 1},
            {"block1b 64->64 @15x15", 64, 64, 15, true, 3, 1},
            {"block2a 64->256 @15x15", 64, 256, 15, true, 3, 1},
            {"block2b 256->256 @7x7", 256, 256, 7, true, 3, 1},
            {"block3a 256->256 @7x7", 256, 256, 7, true, 3, 1},
            {"block3b 256->256 @3x3", 256, 256, 3, true, 3, 1}};
}

double convMultiplyAdds(const ConvLayerShape &l, std::int64_t batch) {
    const std::int64_t outSize = l.size + 2 * l.padding - l.kernel + 1;
    return static_cast<double>(batch * l.out * outSize * outSize * l.in * l.kernel * l.kernel);
}

std::vector<ConvTiming> measureConvolutions(const std::vector<ConvLayerShape> &layers,
                                            const ConvTimingOptions &o) {
    if (o.precision == Precision::Float16)
        throw std::invalid_argument("convolution timing: float16 is not a CPU precision here");
    const auto dtype = o.precision == Precision::BFloat16 ? torch::kBFloat16 : torch::kFloat32;
    torch::manual_seed(0);
    std::vector<ConvTiming> timings;
    for (const ConvLayerShape &l : layers) {
        for (const bool channelsLast : {false, true}) {
            const auto format =
                channelsLast ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
            auto x = torch::rand({o.batch, l.in, l.size, l.size}).to(dtype).contiguous(format);
            x.set_requires_grad(l.inputNeedsGrad);
            auto w = (torch::rand({l.out, l.in, l.kernel, l.kernel}) - 0.5)
                         .to(dtype)
                         .contiguous(format)
                         .set_requires_grad(true);
            auto b = torch::zeros({l.out}, dtype).set_requires_grad(true);
            const std::int64_t outSize = l.size + 2 * l.padding - l.kernel + 1;
            const auto gradOut =
                torch::ones({o.batch, l.out, outSize, outSize}, dtype).contiguous(format);
            ConvTiming t;
            t.layer = l;
            t.channelsLast = channelsLast;
            t.forwardFlop = 2.0 * convMultiplyAdds(l, o.batch);
            t.backwardFlop = t.forwardFlop * (l.inputNeedsGrad ? 2.0 : 1.0);
            if (o.timeForward) {
                t.forwardSeconds = timeRepetitions(o, [&] {
                    torch::NoGradGuard noGrad;
                    auto y = torch::conv2d(x, w, b, 1, l.padding);
                });
            }
            t.bothSeconds = timeRepetitions(o, [&] {
                auto y = torch::conv2d(x, w, b, 1, l.padding);
                y.backward(gradOut);
                w.mutable_grad() = torch::Tensor();
                b.mutable_grad() = torch::Tensor();
                if (l.inputNeedsGrad) {
                    x.mutable_grad() = torch::Tensor();
                }
            });
            timings.push_back(std::move(t));
        }
    }
    return timings;
}

std::vector<ConvTiming> measureSmallCnnConvolutions(const ConvTimingOptions &o) {
    return measureConvolutions(smallCnnConvolutions(), o);
}

PeakThroughput measurePeakThroughput(const std::string &device, int threads) {
    std::string canonical;
    try {
        canonical = resolveDevice(device);
        startDevice(canonical);
        at::set_num_threads(threads > 0 ? threads : availableCores());
        const torch::Device d(canonical);
        return d.is_cpu() ? cpuPeak() : gpuPeak(d);
    } catch (const c10::Error &e) {
        throw std::runtime_error("cannot measure the peak of " +
                                 (canonical.empty() ? device : canonical) + ": " +
                                 e.what_without_backtrace());
    } catch (const std::exception &e) {
        throw std::runtime_error("cannot measure the peak of " +
                                 (canonical.empty() ? device : canonical) + ": " + e.what());
    }
}

} // namespace devicebench
