// SPDX-License-Identifier: MIT
// `small-cnn`: the published experiment's network, exactly (../shared/docs/MEASURING.md):
// Conv(3->32, 5x5, pad 2) . MaxPool 2 . Conv(32->32, 5x5, pad 2) . MaxPool 2 .
// Conv(32->64, 5x5, pad 2) . MaxPool 2 . Flatten . Linear(1024->64) . Linear(64->10),
// no activation functions (as published). 145,578 trainable parameters.
#pragma once

#include "devicebench/models.h"

#include <torch/torch.h>

#include <cstdint>

namespace devicebench {

inline constexpr const char *kSmallCnnName = "small-cnn";
inline constexpr std::int64_t kSmallCnnParameters = 145578;
inline constexpr std::int64_t kSmallCnnMultiplyAdds = 12354176; // forward, per 32 x 32 image

class SmallCnnImpl : public ImageClassifierImpl {
public:
    SmallCnnImpl();

    // x: float32 B x 3 x 32 x 32 (pixels in [0, 1]); returns logits B x 10.
    torch::Tensor forward(torch::Tensor x) override;

    // Re-initialises every layer the way PyTorch's Python modules do at construction, in
    // construction order, after torch::manual_seed(seed): weight kaiming_uniform_(a = sqrt(5)),
    // bias uniform in +-1/sqrt(fan_in). With the same seed this reproduces the weights of the
    // reference Python loop exactly (MEASURING.md, "Facts checked on this machine": sum of
    // |parameters| 2562.990567 for seed 0). Call on the CPU, before moving the model, so every
    // device starts from the same weights. Seeds LibTorch's global CPU generator.
    void resetParameters(std::uint64_t seed) override;

    // 12,354,176: conv1 2,457,600 + conv2 6,553,600 + conv3 3,276,800 + fc1 65,536 + fc2 640.
    std::int64_t multiplyAddsPerImage() const override;

private:
    torch::nn::Conv2d m_conv1{nullptr};
    torch::nn::Conv2d m_conv2{nullptr};
    torch::nn::Conv2d m_conv3{nullptr};
    torch::nn::MaxPool2d m_pool{nullptr};
    torch::nn::Linear m_fc1{nullptr};
    torch::nn::Linear m_fc2{nullptr};
};
TORCH_MODULE(SmallCnn);

} // namespace devicebench
