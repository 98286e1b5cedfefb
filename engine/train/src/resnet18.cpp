// SPDX-License-Identifier: MIT
// ResNet-18, CIFAR form (resnet18.h).
#include "devicebench/resnet18.h"

#include "default_init.h"
#include "layer_costs.h"

#include <stdexcept>
#include <string>

namespace devicebench {
namespace {

constexpr std::int64_t kClasses = 10;
constexpr std::int64_t kStemChannels = 64;
// Each stage: its width and the stride of its first block; two BasicBlocks per stage.
constexpr std::int64_t kStageChannels[] = {64, 128, 256, 512};
constexpr std::int64_t kStageStrides[] = {1, 2, 2, 2};
constexpr int kBlocksPerStage = 2;

torch::nn::Conv2dOptions conv3x3(std::int64_t in, std::int64_t out, std::int64_t stride) {
    return torch::nn::Conv2dOptions(in, out, /*kernel_size=*/3)
        .stride(stride)
        .padding(1)
        .bias(false);
}

// The residual block of ResNet-18 and -34 (resnet18.h).
class BasicBlockImpl : public torch::nn::Module {
public:
    BasicBlockImpl(std::int64_t in, std::int64_t out, std::int64_t stride)
        : m_conv1(register_module("conv1", torch::nn::Conv2d(conv3x3(in, out, stride)))),
          m_bn1(register_module("bn1", torch::nn::BatchNorm2d(out))),
          m_conv2(register_module("conv2", torch::nn::Conv2d(conv3x3(out, out, 1)))),
          m_bn2(register_module("bn2", torch::nn::BatchNorm2d(out))) {
        if (stride != 1 || in != out) {
            m_shortcutConv = register_module(
                "shortcut_conv",
                torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, /*kernel_size=*/1)
                                      .stride(stride)
                                      .bias(false)));
            m_shortcutBn = register_module("shortcut_bn", torch::nn::BatchNorm2d(out));
        }
    }

    torch::Tensor forward(const torch::Tensor &x) {
        torch::Tensor out = torch::relu(m_bn1(m_conv1(x)));
        out = m_bn2(m_conv2(out));
        out += m_shortcutConv ? m_shortcutBn(m_shortcutConv(x)) : x;
        return torch::relu(out);
    }

    // Multiply-adds of one image entering with `*side` pixels per side; sets *side to the
    // block's output side.
    std::int64_t multiplyAdds(std::int64_t *side) const {
        const std::int64_t in = *side;
        std::int64_t total = detail::conv2dMultiplyAdds(*m_conv1, in, side);
        total += detail::conv2dMultiplyAdds(*m_conv2, *side);
        if (m_shortcutConv) {
            total += detail::conv2dMultiplyAdds(*m_shortcutConv, in);
        }
        return total;
    }

private:
    torch::nn::Conv2d m_conv1;
    torch::nn::BatchNorm2d m_bn1;
    torch::nn::Conv2d m_conv2;
    torch::nn::BatchNorm2d m_bn2;
    torch::nn::Conv2d m_shortcutConv{nullptr}; // null: identity shortcut
    torch::nn::BatchNorm2d m_shortcutBn{nullptr};
};
TORCH_MODULE(BasicBlock);

std::int64_t checkedSize(std::int64_t imageSize) {
    if (imageSize < 8 || imageSize % 8 != 0) {
        throw std::invalid_argument("resnet18 needs an image size that is a multiple of 8 (got " +
                                    std::to_string(imageSize) + ")");
    }
    return imageSize;
}

} // namespace

ResNet18Impl::ResNet18Impl(std::int64_t imageSize)
    : m_imageSize(checkedSize(imageSize)),
      m_stem(register_module("stem", torch::nn::Conv2d(conv3x3(3, kStemChannels, 1)))),
      m_stemNorm(register_module("stem_bn", torch::nn::BatchNorm2d(kStemChannels))),
      m_blocks(register_module("blocks", torch::nn::Sequential())) {
    std::int64_t in = kStemChannels;
    for (int stage = 0; stage < 4; ++stage) {
        for (int block = 0; block < kBlocksPerStage; ++block) {
            const std::int64_t stride = block == 0 ? kStageStrides[stage] : 1;
            m_blocks->push_back(BasicBlock(in, kStageChannels[stage], stride));
            in = kStageChannels[stage];
        }
    }
    m_fc = register_module("fc", torch::nn::Linear(in, kClasses));
}

torch::Tensor ResNet18Impl::forward(torch::Tensor x) {
    x = torch::relu(m_stemNorm(m_stem(x)));
    x = m_blocks->forward(x);
    x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(/*start_dim=*/1);
    return m_fc(x);
}

void ResNet18Impl::resetParameters(std::uint64_t seed) {
    torch::manual_seed(seed);
    detail::resetLayersToLibTorchDefaults(*this);
}

std::int64_t ResNet18Impl::multiplyAddsPerImage() const {
    std::int64_t side = m_imageSize;
    std::int64_t total = detail::conv2dMultiplyAdds(*m_stem, side, &side);
    for (const auto &block : m_blocks->children()) {
        total += block->as<BasicBlockImpl>()->multiplyAdds(&side);
    }
    return total + detail::linearMultiplyAdds(*m_fc);
}

} // namespace devicebench
