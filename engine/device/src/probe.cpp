// SPDX-License-Identifier: MIT
#include "devicebench/probe.h"

#include "devicebench/devices.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <sstream>

namespace devicebench {
namespace {

// The model's first layer (Conv 3->32, 5x5, pad 2) on a batch of 8 CIFAR-shaped images.
constexpr std::int64_t kProbeBatch = 8;
constexpr std::int64_t kInChannels = 3;
constexpr std::int64_t kOutChannels = 32;
constexpr std::int64_t kKernel = 5;
constexpr std::int64_t kPadding = 2;
constexpr std::int64_t kImageSide = 32;
constexpr std::uint64_t kProbeSeed = 20240229; // any fixed value: same inputs on every device
constexpr double kTinyScale = 1e-12;           // guards the division for all-zero results

struct ConvResult {
    torch::Tensor output;     // on the CPU
    torch::Tensor weightGrad; // on the CPU
    double seconds = 0.0;     // device part only: copy in, forward, backward, synchronise
};

ConvResult runConv(const torch::Tensor &input, const torch::Tensor &weight,
                   const torch::Tensor &bias, const torch::Device &device) {
    torch::AutoGradMode gradMode(/*enabled=*/true); // the caller may be under NoGradGuard
    const auto t0 = std::chrono::steady_clock::now();
    const auto x = input.to(device);
    auto w = weight.to(device).detach().requires_grad_(true);
    const auto b = bias.to(device);
    auto out = torch::conv2d(x, w, b, /*stride=*/1, /*padding=*/kPadding);
    out.sum().backward();
    if (device.is_cuda()) {
        torch::cuda::synchronize(device.index());
    }
    const auto t1 = std::chrono::steady_clock::now();
    ConvResult result;
    result.output = out.detach().to(torch::kCPU);
    result.weightGrad = w.grad().to(torch::kCPU);
    result.seconds = std::chrono::duration<double>(t1 - t0).count();
    return result;
}

// max |d - c| / max(max |c|, tiny); NaN when d holds a NaN or an infinity.
double relativeError(const torch::Tensor &device, const torch::Tensor &cpu) {
    const auto c = cpu.to(torch::kFloat64);
    const auto d = device.to(torch::kFloat64);
    if (!torch::isfinite(d).all().item<bool>()) {
        return std::nan("");
    }
    const double diff = (d - c).abs().max().item<double>();
    const double scale = std::max(c.abs().max().item<double>(), kTinyScale);
    return diff / scale;
}

std::string formatError(double value) {
    std::ostringstream s;
    s << value;
    return s.str();
}

} // namespace

ProbeResult probeDevice(const std::string &device) {
    ProbeResult result;
    result.device = device;
    try {
        result.device = resolveDevice(device);
        const torch::Device target(result.device);

        // Inputs made on the CPU by a local generator, so the probe neither depends on nor
        // disturbs the global seed (runs seed it for their initial weights).
        auto generator = at::detail::createCPUGenerator(kProbeSeed);
        const auto options = torch::TensorOptions().dtype(torch::kFloat32);
        const auto input =
            at::rand({kProbeBatch, kInChannels, kImageSide, kImageSide}, generator, options);
        const auto weight =
            (at::rand({kOutChannels, kInChannels, kKernel, kKernel}, generator, options) - 0.5) *
            0.2;
        const auto bias = (at::rand({kOutChannels}, generator, options) - 0.5) * 0.2;

        const ConvResult onDevice = runConv(input, weight, bias, target);
        result.seconds = onDevice.seconds;
        const ConvResult onCpu = runConv(input, weight, bias, torch::Device(torch::kCPU));

        const double outputError = relativeError(onDevice.output, onCpu.output);
        const double gradError = relativeError(onDevice.weightGrad, onCpu.weightGrad);
        result.relativeError = std::isnan(outputError) || std::isnan(gradError)
                                   ? std::nan("")
                                   : std::max(outputError, gradError);
        result.usable = result.relativeError < kProbeTolerance; // false for NaN
        if (!result.usable) {
            result.error = "the convolution probe on " + result.device +
                           " disagrees with the CPU: relative error " +
                           formatError(result.relativeError) + " (output " +
                           formatError(outputError) + ", weight gradient " +
                           formatError(gradError) + "), tolerance " + formatError(kProbeTolerance);
        }
    } catch (const c10::Error &e) {
        result.usable = false;
        result.error = e.what_without_backtrace();
    } catch (const std::exception &e) {
        result.usable = false;
        result.error = e.what();
    } catch (...) {
        result.usable = false;
        result.error = "the convolution probe on " + result.device + " failed (unknown error)";
    }
    return result;
}

} // namespace devicebench
