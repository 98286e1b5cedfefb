// SPDX-License-Identifier: MIT
// `small-cnn`: the published experiment's network, exactly: three 5x5 convolutions with 2x2
// max-pools, then two linear layers, no activation functions (as published). Layers and
// counts: docs/MEASURING.md, "Models and image sizes".
#pragma once

#include "devicebench/models.h"
#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <cstdint>

namespace devicebench {

// kSmallCnnParameters and kSmallCnnMultiplyAdds (at 32 x 32): run_types.h.
inline constexpr const char *kSmallCnnName = "small-cnn";

class SmallCnnImpl : public ImageClassifierImpl {
public:
    // For images of `imageSize` pixels per side, a multiple of 8 and at least 8 (throws
    // std::invalid_argument otherwise; makeModel allows kImageSizes only).
    explicit SmallCnnImpl(std::int64_t imageSize = kDefaultImageSize);

    // x: float32 B x 3 x S x S (S the image size, pixels in [0, 1]); returns logits B x 10.
    torch::Tensor forward(torch::Tensor x) override;

    // Re-initialises every layer as PyTorch's Python modules do, after torch::manual_seed(seed),
    // so a seed gives the reference Python loop's weights exactly. Call on the CPU, before
    // moving the model. Seeds LibTorch's global CPU generator.
    void resetParameters(std::uint64_t seed) override;

    // 12,354,176 at 32 x 32 (kSmallCnnMultiplyAdds).
    std::int64_t multiplyAddsPerImage() const override;

private:
    std::int64_t m_imageSize;
    torch::nn::Conv2d m_conv1{nullptr};
    torch::nn::Conv2d m_conv2{nullptr};
    torch::nn::Conv2d m_conv3{nullptr};
    torch::nn::MaxPool2d m_pool{nullptr};
    torch::nn::Linear m_fc1{nullptr};
    torch::nn::Linear m_fc2{nullptr};
};
TORCH_MODULE(SmallCnn);

} // namespace devicebench
