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

double convMultiplyAdds(const ConvLayerShape &l, std::int64_t batch) {
    return static_cast<double>(batch * l.out * l.size * l.size * l.in * kSmallCnnKernel *
                               kSmallCnnKernel);
}

std::vector<ConvTiming> measureSmallCnnConvolutions(const ConvTimingOptions &o) {
    torch::manual_seed(0);
    std::vector<ConvTiming> timings;
    const std::int64_t k = kSmallCnnKernel;
    for (const ConvLayerShape &l : smallCnnConvolutions()) {
        for (const bool channelsLast : {false, true}) {
            const auto format =
                channelsLast ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
            auto x = torch::rand({o.batch, l.in, l.size, l.size}).contiguous(format);
            x.set_requires_grad(l.inputNeedsGrad);
            auto w = (torch::rand({l.out, l.in, k, k}) - 0.5).contiguous(format);
            w.set_requires_grad(true);
            auto b = torch::zeros({l.out}).set_requires_grad(true);
            const auto gradOut = torch::ones({o.batch, l.out, l.size, l.size}).contiguous(format);
            ConvTiming t;
            t.layer = l;
            t.channelsLast = channelsLast;
            t.forwardFlop = 2.0 * convMultiplyAdds(l, o.batch);
            t.backwardFlop = t.forwardFlop * (l.inputNeedsGrad ? 2.0 : 1.0);
            if (o.timeForward) {
                t.forwardSeconds = timeRepetitions(o, [&] {
                    torch::NoGradGuard noGrad;
                    auto y = torch::conv2d(x, w, b, 1, k / 2);
                });
            }
            t.bothSeconds = timeRepetitions(o, [&] {
                auto y = torch::conv2d(x, w, b, 1, k / 2);
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
