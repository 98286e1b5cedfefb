// SPDX-License-Identifier: MIT
#include "devicebench/small_cnn.h"

#include "layer_costs.h"

#include <cmath>
#include <stdexcept>
#include <string>

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

// The side after the three 2x2 max-pools: S / 8.
std::int64_t pooledSide(std::int64_t imageSize) {
    if (imageSize < 8 || imageSize % 8 != 0) {
        throw std::invalid_argument("small-cnn needs an image size that is a multiple of 8 (got " +
                                    std::to_string(imageSize) + ")");
    }
    return imageSize / 8;
}

} // namespace

SmallCnnImpl::SmallCnnImpl(std::int64_t imageSize)
    : m_imageSize(imageSize), m_conv1(register_module("conv1", torch::nn::Conv2d(conv(3, 32)))),
      m_conv2(register_module("conv2", torch::nn::Conv2d(conv(32, 32)))),
      m_conv3(register_module("conv3", torch::nn::Conv2d(conv(32, 64)))),
      m_pool(register_module("pool", torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)))),
      m_fc1(register_module(
          "fc1", torch::nn::Linear(64 * pooledSide(imageSize) * pooledSide(imageSize), 64))),
      m_fc2(register_module("fc2", torch::nn::Linear(64, 10))) {}

torch::Tensor SmallCnnImpl::forward(torch::Tensor x) {
    x = m_pool(m_conv1(x));
    x = m_pool(m_conv2(x));
    x = m_pool(m_conv3(x));
    x = x.flatten(/*start_dim=*/1);
    return m_fc2(m_fc1(x));
}

void SmallCnnImpl::resetParameters(std::uint64_t seed) {
    torch::NoGradGuard noGrad;
    torch::manual_seed(seed);
    resetLikePython(m_conv1->weight, m_conv1->bias);
    resetLikePython(m_conv2->weight, m_conv2->bias);
    resetLikePython(m_conv3->weight, m_conv3->bias);
    resetLikePython(m_fc1->weight, m_fc1->bias);
    resetLikePython(m_fc2->weight, m_fc2->bias);
}

std::int64_t SmallCnnImpl::multiplyAddsPerImage() const {
    std::int64_t side = m_imageSize; // each 2x2 max-pool halves the side
    std::int64_t total = 0;
    for (const auto *conv : {m_conv1.get(), m_conv2.get(), m_conv3.get()}) {
        total += detail::conv2dMultiplyAdds(*conv, side, &side);
        side = detail::outputSide(side, 2, 2, 0);
    }
    return total + detail::linearMultiplyAdds(*m_fc1) + detail::linearMultiplyAdds(*m_fc2);
}

} // namespace devicebench
