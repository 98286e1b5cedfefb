// SPDX-License-Identifier: MIT
// `resnet18`: ResNet-18 (He et al. 2016, "Deep Residual Learning for Image Recognition") in the
// form used for CIFAR-10's 32 x 32 images (as in kuangliu/pytorch-cifar's ResNet18): the
// ImageNet stem (7x7 stride-2 convolution and max-pool) is replaced by one 3x3 convolution, so
// the first stage works at the full image size.
//   stem:   Conv(3->64, 3x3, pad 1, no bias) . BatchNorm . ReLU          (no max-pool)
//   layer1: 2 BasicBlocks, 64 channels,  stride 1
//   layer2: 2 BasicBlocks, 128 channels, first with stride 2
//   layer3: 2 BasicBlocks, 256 channels, first with stride 2
//   layer4: 2 BasicBlocks, 512 channels, first with stride 2
//   head:   global average pool . Linear(512->10)
// BasicBlock(in, out, stride): Conv(in->out, 3x3, stride, pad 1, no bias) . BN . ReLU .
// Conv(out->out, 3x3, pad 1, no bias) . BN, plus the shortcut, then ReLU; the shortcut is the
// identity, or Conv(in->out, 1x1, stride, no bias) . BN where the stride or the width changes.
// 11,173,962 trainable parameters whatever the image size (the average pool takes any side);
// forward multiply-adds per image 555,422,720 at 32 x 32, times (S/32)^2 but for the 5,120 of
// the Linear layer at other sizes S.
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
    // torch::manual_seed(seed): convolution and linear weights kaiming_uniform_(a = sqrt(5)),
    // the linear bias uniform in +-1/sqrt(fan_in) (as PyTorch's Python modules); batch-norm
    // scale 1, shift 0, running mean 0, running variance 1. Call on the CPU, before moving the
    // model, so every device starts from the same weights. Seeds LibTorch's global CPU
    // generator.
    void resetParameters(std::uint64_t seed) override;

    // Every convolution (stem, blocks, shortcuts) and the Linear layer, counted from their
    // options (layer_costs.h); batch norm, ReLU, the additions and the pool are not counted.
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
