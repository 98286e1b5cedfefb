// SPDX-License-Identifier: MIT
// `resnet18`: ResNet-18 in its CIFAR form (a 3x3 stem without max-pool, so the first stage
// works at the full image size). Layers and counts: docs/MEASURING.md.
#pragma once

#include "devicebench/models.h"

#include <torch/torch.h>

#include <cstdint>

namespace devicebench {

inline constexpr std::int64_t kResNet18Parameters = 11173962;

class ResNet18Impl : public ImageClassifierImpl {
public:
    // For images of `imageSize` pixels per side, a multiple of 8 and at least 8 (three stride-2
    // stages; throws std::invalid_argument otherwise; makeModel allows kImageSizes only).
    explicit ResNet18Impl(std::int64_t imageSize);

    // x: float32 B x 3 x S x S (pixels in [0, 1]); returns logits B x 10. Batch-norm layers use
    // the batch's statistics in train() mode and their running statistics in eval() mode.
    torch::Tensor forward(torch::Tensor x) override;

    // LibTorch's default initialisation of each layer, in construction order, after
    // torch::manual_seed(seed). Call on the CPU, before moving the model, so every device starts
    // from the same weights. Seeds LibTorch's global CPU generator.
    void resetParameters(std::uint64_t seed) override;

    // Every convolution (stem, blocks, shortcuts) and the Linear layer.
    std::int64_t multiplyAddsPerImage() const override;

private:
    std::int64_t m_imageSize;
    torch::nn::Conv2d m_stem{nullptr};
    torch::nn::BatchNorm2d m_stemNorm{nullptr};
    torch::nn::Sequential m_blocks{nullptr}; // layer1..layer4, 8 BasicBlocks
    torch::nn::Linear m_fc{nullptr};
};
TORCH_MODULE(ResNet18);

} // namespace devicebench
