// SPDX-License-Identifier: MIT
// `small-cnn`: the published experiment's network, exactly (../shared/docs/MEASURING.md):
// Conv(3->32, 5x5, pad 2) . MaxPool 2 . Conv(32->32, 5x5, pad 2) . MaxPool 2 .
// Conv(32->64, 5x5, pad 2) . MaxPool 2 . Flatten . Linear(1024->64) . Linear(64->10),
// no activation functions (as published). 145,578 trainable parameters at 32 x 32.
// At other image sizes S (64, 128; issue 13) the same layers, with fc1 taking 64 x (S/8)^2
// inputs (three 2x2 max-pools: S/8 pixels per side): 342,186 parameters at 64, 1,128,618 at 128.
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

    // Re-initialises every layer the way PyTorch's Python modules do at construction, in
    // construction order, after torch::manual_seed(seed): weight kaiming_uniform_(a = sqrt(5)),
    // bias uniform in +-1/sqrt(fan_in). With the same seed this reproduces the weights of the
    // reference Python loop exactly (MEASURING.md, "Facts checked on this machine": sum of
    // |parameters| 2562.990567 for seed 0). Call on the CPU, before moving the model, so every
    // device starts from the same weights. Seeds LibTorch's global CPU generator.
    void resetParameters(std::uint64_t seed) override;

    // At 32 x 32: 12,354,176 = conv1 2,457,600 + conv2 6,553,600 + conv3 3,276,800 + fc1 65,536
    // + fc2 640; at S, every term but fc2's times (S/32)^2.
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
