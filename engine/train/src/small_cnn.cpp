// SPDX-License-Identifier: MIT
#include "devicebench/small_cnn.h"

#include <cmath>

namespace devicebench {
namespace {

constexpr std::int64_t kKernel = 5;  // 5x5 convolutions
constexpr std::int64_t kPadding = 2; // "same" padding for 5x5

torch::nn::Conv2dOptions conv(std::int64_t in, std::int64_t out) {
    return torch::nn::Conv2dOptions(in, out, kKernel).stride(1).padding(kPadding);
}

// PyTorch's default init for Conv2d and Linear (torch/nn/modules/conv.py, linear.py:
// reset_parameters): kaiming_uniform_(weight, a=sqrt(5)); bias ~ U(-1/sqrt(fan_in), +...).
void resetLikePython(torch::Tensor &weight, torch::Tensor &bias) {
    torch::nn::init::kaiming_uniform_(weight, /*a=*/std::sqrt(5.0));
    const auto fanIn = static_cast<double>(weight.numel() / weight.size(0));
    const double bound = 1.0 / std::sqrt(fanIn);
    torch::nn::init::uniform_(bias, -bound, bound);
}

} // namespace

SmallCnnImpl::SmallCnnImpl()
    : conv1_(register_module("conv1", torch::nn::Conv2d(conv(3, 32)))),
      conv2_(register_module("conv2", torch::nn::Conv2d(conv(32, 32)))),
      conv3_(register_module("conv3", torch::nn::Conv2d(conv(32, 64)))),
      pool_(register_module("pool", torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)))),
      fc1_(register_module("fc1", torch::nn::Linear(64 * 4 * 4, 64))),
      fc2_(register_module("fc2", torch::nn::Linear(64, 10))) {}

torch::Tensor SmallCnnImpl::forward(torch::Tensor x) {
    x = pool_(conv1_(x));
    x = pool_(conv2_(x));
    x = pool_(conv3_(x));
    x = x.flatten(/*start_dim=*/1);
    return fc2_(fc1_(x));
}

void SmallCnnImpl::resetParameters(std::uint64_t seed) {
    torch::NoGradGuard noGrad;
    torch::manual_seed(seed);
    resetLikePython(conv1_->weight, conv1_->bias);
    resetLikePython(conv2_->weight, conv2_->bias);
    resetLikePython(conv3_->weight, conv3_->bias);
    resetLikePython(fc1_->weight, fc1_->bias);
    resetLikePython(fc2_->weight, fc2_->bias);
}

std::int64_t countTrainableParameters(const torch::nn::Module &module) {
    std::int64_t count = 0;
    for (const auto &p : module.parameters()) {
        if (p.requires_grad()) {
            count += p.numel();
        }
    }
    return count;
}

} // namespace devicebench
