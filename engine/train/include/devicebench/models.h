// SPDX-License-Identifier: MIT
// The models a run can train (issue 13), behind one interface: the article's small-cnn (the
// default, small_cnn.h), ResNet-18 in its CIFAR form (resnet18.h) and a ViT-Tiny-shaped Vision
// Transformer (vit_tiny.h); each header lists its layers, parameter count and multiply-adds.
// Names and image sizes: run_types.h (kModelNames, kImageSizes).
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>

namespace devicebench {

inline constexpr const char *kResNet18Name = "resnet18";
inline constexpr const char *kVitTinyName = "vit-tiny";

// An image classifier for CIFAR-10's 10 classes.
class ImageClassifierImpl : public torch::nn::Module {
public:
    // x: float32 B x 3 x S x S with S the model's image size, pixels in [0, 1];
    // returns logits B x 10.
    virtual torch::Tensor forward(torch::Tensor x) = 0;

    // Re-initialises every parameter (and buffer such as batch-norm statistics) after
    // torch::manual_seed(seed), on the CPU, so that every device starts from the same weights.
    // Seeds LibTorch's global CPU generator.
    virtual void resetParameters(std::uint64_t seed) = 0;

    // Forward multiply-adds of one image at the model's image size, counted from its layers:
    // convolutions (Cout x Hout x Wout x Cin x Kh x Kw), linear layers (in x out per token)
    // and attention's two matrix products (tokens^2 x width each); normalisation, activations,
    // pooling and additions are not counted (the convention of the papers' "FLOPs" tables,
    // 1 multiply-add = 2 FLOP). small-cnn at 32 x 32: 12,354,176.
    virtual std::int64_t multiplyAddsPerImage() const = 0;
};
using ImageClassifier = std::shared_ptr<ImageClassifierImpl>;

// Builds model `name` (kModelNames) for images of `imageSize` pixels per side
// (kImageSizes), on the CPU, initialised by resetParameters(seed): the same weights for the
// same name, size and seed, whichever device the run then uses. Throws std::invalid_argument naming
// the value for an unknown name or an unsupported size.
ImageClassifier makeModel(const std::string &name, int imageSize, std::uint64_t seed);

// Number of trainable parameters (elements of tensors that require grad).
std::int64_t countTrainableParameters(const torch::nn::Module &module);

} // namespace devicebench
