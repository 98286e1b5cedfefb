// SPDX-License-Identifier: MIT
// The models a run can train, behind one interface: small-cnn (small_cnn.h), resnet18
// (resnet18.h), vit-tiny (vit_tiny.h). Their layers and counts: docs/MEASURING.md, "Models and
// image sizes".
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

    // Forward multiply-adds of one image at the model's image size, counted from its
    // convolutions, linear layers and attention products (1 multiply-add = 2 FLOP).
    virtual std::int64_t multiplyAddsPerImage() const = 0;
};
using ImageClassifier = std::shared_ptr<ImageClassifierImpl>;

// Builds model `name` (kModelNames) for `imageSize` pixels per side (kImageSizes) on the CPU,
// initialised by resetParameters(seed): the same weights whichever device then runs it. Throws
// std::invalid_argument naming the value for an unknown name or size.
ImageClassifier makeModel(const std::string &name, int imageSize, std::uint64_t seed);

// Number of trainable parameters (elements of tensors that require grad).
std::int64_t countTrainableParameters(const torch::nn::Module &module);

} // namespace devicebench
