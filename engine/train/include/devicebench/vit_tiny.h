// SPDX-License-Identifier: MIT
// `vit-tiny`: a Vision Transformer (Dosovitskiy et al. 2021, "An Image is Worth 16x16 Words")
// of ViT-Tiny's shape (DeiT-Ti, Touvron et al. 2021: width 192, depth 12, 3 heads, MLP 768),
// with 4 x 4 patches for CIFAR-10's small images:
//   patches:  Conv(3->192, 4x4, stride 4) -> (S/4)^2 tokens of 192 features
//   tokens:   a learned class token in front, then a learned position embedding added
//             (T = (S/4)^2 + 1 tokens: 65 at 32 x 32)
//   12 pre-norm blocks, each:
//             x + Proj(Attention(LayerNorm(x)))      Attention: Linear(192->576) gives q, k, v;
//                                                    3 heads of 64; softmax(q k^T / 8) v
//             x + Linear(768->192)(GELU(Linear(192->768)(LayerNorm(x))))
//   head:     LayerNorm, then Linear(192->10) on the class token
// Layer norms with eps 1e-6 (as timm's ViT); no dropout. Attention is written with matrix
// products (not torch::nn::MultiheadAttention) so it is the same in every LibTorch.
// Trainable parameters: 5,362,762 at 32 x 32; the position embedding grows with the image:
// 5,399,626 at 64, 5,547,082 at 128. Forward multiply-adds per image at 32 x 32: 365,107,584.
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

    // After torch::manual_seed(seed): LibTorch's default initialisation of each layer in
    // construction order (the patch convolution and linear layers kaiming_uniform_(a =
    // sqrt(5)) with biases uniform in +-1/sqrt(fan_in); layer norms scale 1, shift 0), then
    // the class token and the position embedding drawn from a normal distribution with
    // standard deviation 0.02 (DeiT's trunc_normal_(std=.02), whose cut at +-2 is 100 standard
    // deviations away). Call on the CPU, before moving the model, so every device starts from
    // the same weights. Seeds LibTorch's global CPU generator.
    void resetParameters(std::uint64_t seed) override;

    // The patch convolution; per block at T tokens the q/k/v, output and two MLP linear layers
    // (each T x in x out) and attention's two matrix products (2 x T^2 x 192); the head on the
    // class token only. Layer norms, GELU, softmax and additions are not counted.
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
