// SPDX-License-Identifier: MIT
// The ViT-Tiny-shaped Vision Transformer (vit_tiny.h).
#include "devicebench/vit_tiny.h"

#include "default_init.h"
#include "layer_costs.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace devicebench {
namespace {

constexpr std::int64_t kClasses = 10;
constexpr std::int64_t kPatch = 4;      // pixels per patch side
constexpr std::int64_t kWidth = 192;    // features per token
constexpr std::int64_t kDepth = 12;     // transformer blocks
constexpr std::int64_t kHeads = 3;      // attention heads, kWidth / kHeads = 64 features each
constexpr std::int64_t kMlpWidth = 768; // 4 x kWidth
constexpr double kNormEps = 1e-6;       // timm's ViT layer norms
constexpr double kTokenInitStd = 0.02;  // DeiT: class token and position embedding

torch::nn::LayerNormOptions norm() {
    return torch::nn::LayerNormOptions(std::vector<std::int64_t>{kWidth}).eps(kNormEps);
}

// One pre-norm transformer block (vit_tiny.h).
class VitBlockImpl : public torch::nn::Module {
public:
    VitBlockImpl()
        : m_norm1(register_module("norm1", torch::nn::LayerNorm(norm()))),
          m_qkv(register_module("qkv", torch::nn::Linear(kWidth, 3 * kWidth))),
          m_proj(register_module("proj", torch::nn::Linear(kWidth, kWidth))),
          m_norm2(register_module("norm2", torch::nn::LayerNorm(norm()))),
          m_fc1(register_module("fc1", torch::nn::Linear(kWidth, kMlpWidth))),
          m_fc2(register_module("fc2", torch::nn::Linear(kMlpWidth, kWidth))) {}

    // x: B x T x kWidth.
    torch::Tensor forward(const torch::Tensor &x) {
        const std::int64_t batch = x.size(0);
        const std::int64_t tokens = x.size(1);
        constexpr std::int64_t kHeadWidth = kWidth / kHeads;
        // B x T x 3 x H x Dh -> 3 x B x H x T x Dh
        const torch::Tensor qkv = m_qkv(m_norm1(x))
                                      .reshape({batch, tokens, 3, kHeads, kHeadWidth})
                                      .permute({2, 0, 3, 1, 4});
        const torch::Tensor q = qkv[0];
        const torch::Tensor k = qkv[1];
        const torch::Tensor v = qkv[2];
        const double scale = 1.0 / std::sqrt(static_cast<double>(kHeadWidth));
        const torch::Tensor weights = torch::softmax(q.matmul(k.transpose(-2, -1)) * scale, -1);
        const torch::Tensor attended =
            weights.matmul(v).transpose(1, 2).reshape({batch, tokens, kWidth});
        torch::Tensor out = x + m_proj(attended);
        return out + m_fc2(torch::gelu(m_fc1(m_norm2(out))));
    }

    std::int64_t multiplyAdds(std::int64_t tokens) const {
        return detail::linearMultiplyAdds(*m_qkv, tokens) +
               detail::attentionMultiplyAdds(tokens, kWidth) +
               detail::linearMultiplyAdds(*m_proj, tokens) +
               detail::linearMultiplyAdds(*m_fc1, tokens) +
               detail::linearMultiplyAdds(*m_fc2, tokens);
    }

private:
    torch::nn::LayerNorm m_norm1;
    torch::nn::Linear m_qkv;
    torch::nn::Linear m_proj;
    torch::nn::LayerNorm m_norm2;
    torch::nn::Linear m_fc1;
    torch::nn::Linear m_fc2;
};
TORCH_MODULE(VitBlock);

std::int64_t patchesPerSide(std::int64_t imageSize) {
    if (imageSize < kPatch || imageSize % kPatch != 0) {
        throw std::invalid_argument("vit-tiny needs an image size that is a multiple of 4 (got " +
                                    std::to_string(imageSize) + ")");
    }
    return imageSize / kPatch;
}

} // namespace

VitTinyImpl::VitTinyImpl(std::int64_t imageSize)
    : m_imageSize(imageSize),
      m_patches(register_module(
          "patches",
          torch::nn::Conv2d(torch::nn::Conv2dOptions(3, kWidth, kPatch).stride(kPatch)))),
      m_blocks(register_module("blocks", torch::nn::ModuleList())) {
    const std::int64_t side = patchesPerSide(imageSize);
    m_classToken = register_parameter("class_token", torch::zeros({1, 1, kWidth}));
    m_positions = register_parameter("positions", torch::zeros({1, side * side + 1, kWidth}));
    for (std::int64_t i = 0; i < kDepth; ++i) {
        m_blocks->push_back(VitBlock());
    }
    m_norm = register_module("norm", torch::nn::LayerNorm(norm()));
    m_head = register_module("head", torch::nn::Linear(kWidth, kClasses));
}

torch::Tensor VitTinyImpl::forward(torch::Tensor x) {
    // B x 192 x S/4 x S/4 -> B x (S/4)^2 x 192
    x = m_patches(x).flatten(/*start_dim=*/2).transpose(1, 2);
    x = torch::cat({m_classToken.expand({x.size(0), 1, kWidth}), x}, /*dim=*/1) + m_positions;
    for (const auto &block : *m_blocks) {
        x = block->as<VitBlockImpl>()->forward(x);
    }
    return m_head(m_norm(x.select(/*dim=*/1, /*index=*/0)));
}

void VitTinyImpl::resetParameters(std::uint64_t seed) {
    torch::manual_seed(seed);
    detail::resetLayersToLibTorchDefaults(*this);
    torch::NoGradGuard noGrad;
    torch::nn::init::normal_(m_classToken, 0.0, kTokenInitStd);
    torch::nn::init::normal_(m_positions, 0.0, kTokenInitStd);
}

std::int64_t VitTinyImpl::multiplyAddsPerImage() const {
    std::int64_t side = 0;
    std::int64_t total = detail::conv2dMultiplyAdds(*m_patches, m_imageSize, &side);
    const std::int64_t tokens = side * side + 1;
    for (const auto &block : m_blocks->children()) {
        total += block->as<VitBlockImpl>()->multiplyAdds(tokens);
    }
    return total + detail::linearMultiplyAdds(*m_head); // the class token only
}

} // namespace devicebench
