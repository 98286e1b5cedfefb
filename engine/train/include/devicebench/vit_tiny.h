// SPDX-License-Identifier: MIT
// `vit-tiny`: a Vision Transformer of ViT-Tiny's shape (width 192, depth 12, 3 heads, MLP 768)
// with 4 x 4 patches for CIFAR-10's small images. Attention is written with matrix products,
// not torch::nn::MultiheadAttention, so it is the same in every LibTorch. Layers and counts:
// docs/MEASURING.md, "Models and image sizes".
#pragma once

#include "devicebench/models.h"

#include <torch/torch.h>

#include <cstdint>

namespace devicebench {

inline constexpr std::int64_t kVitTinyParameters = 5362762; // at 32 x 32

class VitTinyImpl : public ImageClassifierImpl {
public:
    // For images of `imageSize` pixels per side, a multiple of the patch side 4 (throws
    // std::invalid_argument otherwise; makeModel allows kImageSizes only).
    explicit VitTinyImpl(std::int64_t imageSize);

    // x: float32 B x 3 x S x S (pixels in [0, 1]); returns logits B x 10.
    torch::Tensor forward(torch::Tensor x) override;

    // After torch::manual_seed(seed): LibTorch's default initialisation of each layer, then the
    // class token and position embedding from a normal distribution of standard deviation 0.02
    // (as DeiT). Call on the CPU, before moving the model. Seeds LibTorch's global CPU generator.
    void resetParameters(std::uint64_t seed) override;

    // The patch convolution, each block's four linear layers and two attention products, and
    // the head on the class token.
    std::int64_t multiplyAddsPerImage() const override;

private:
    std::int64_t m_imageSize;
    torch::nn::Conv2d m_patches{nullptr};
    torch::Tensor m_classToken; // 1 x 1 x 192
    torch::Tensor m_positions;  // 1 x T x 192
    torch::nn::ModuleList m_blocks{nullptr};
    torch::nn::LayerNorm m_norm{nullptr};
    torch::nn::Linear m_head{nullptr};
};
TORCH_MODULE(VitTiny);

} // namespace devicebench
