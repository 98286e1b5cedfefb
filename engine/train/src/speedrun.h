// SPDX-License-Identifier: MIT
// Engine-internal (train): the parts of the speedrun workload, the CIFAR-10 speed record's recipe
// (airbench94, Keller Jordan 2024: 94 % in under 10 epochs), written from its published
// description: the network, the whitening of its first layer, the learning-rate schedule, the
// lookahead average, the augmentation and the test-time augmentation. Each part is a function
// of its inputs, tested against PyTorch in Python (tests/engine/speedrun_test.cpp). What the
// recipe is and what DeviceBench changes: docs/SPEEDRUN.md.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace devicebench::detail::speedrun {

// The recipe's settings, as published (per 1024 examples where it says so).
inline constexpr int kBatchSize = 1024;
// The recipe trains 9.9 epochs: the last epoch of a run is this much short of a whole one.
inline constexpr double kLastEpochShort = 0.1;
inline constexpr double kLearningRate = 11.5;  // per 1024 examples
inline constexpr double kWeightDecay = 0.0153; // per 1024 examples, decoupled
inline constexpr double kMomentum = 0.85;      // Nesterov
inline constexpr double kBiasScaler = 64.0;    // batch-norm biases' learning rate x this
inline constexpr double kLabelSmoothing = 0.2;
inline constexpr int kWhitenBiasEpochs = 3;       // the whitening bias trains for this many
inline constexpr double kBatchNormMomentum = 0.6; // running stats keep 0.6 of themselves
inline constexpr int kLookaheadEvery = 5;         // steps between lookahead updates
inline constexpr int kTranslate = 2;              // pixels of random translation
inline constexpr int kWhitenPatchImages = 5000;   // training images the whitening is fitted on

// The network: a 2 x 2 whitening convolution (24 filters, frozen weights, trained bias), GELU,
// three groups (widths 64, 256, 256) of conv, max-pool 2, batch norm, GELU, conv, batch norm,
// GELU (3 x 3 convolutions without bias, the first filters initialised to the identity; batch
// norm with its weight frozen at 1), max-pool 3, a linear layer to 10 classes scaled by 1/9.
// Input: normalised images B x 3 x 32 x 32; output: logits B x 10.
class NetImpl : public torch::nn::Module {
public:
    NetImpl();
    torch::Tensor forward(torch::Tensor x);
    // Forward multiply-adds of one 32 x 32 image.
    static std::int64_t multiplyAddsPerImage();
    torch::nn::Conv2d whiten{nullptr};
    // The batch norms' biases (trained at kBiasScaler x the learning rate) and every other
    // trainable parameter, in the order of the network.
    std::vector<torch::Tensor> normBiases();
    std::vector<torch::Tensor> otherParameters();

private:
    struct Group {
        torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
        torch::nn::BatchNorm2d norm1{nullptr}, norm2{nullptr};
    };
    std::vector<Group> m_groups;
    torch::nn::Linear m_head{nullptr};
};
TORCH_MODULE(Net);

// CIFAR-10's per-channel mean and standard deviation (of [0, 1] pixels).
torch::Tensor channelMean(const torch::TensorOptions &options);
torch::Tensor channelStd(const torch::TensorOptions &options);

// uint8 images N x 3 x H x W as float32 (x / 255 - mean) / std.
torch::Tensor normalise(const torch::Tensor &images);

// The whitening filters of the k x k patches of `images` (float, N x 3 x H x W, normalised):
// the eigenvectors of the patches' covariance scaled by 1 / sqrt(eigenvalue + eps), largest
// eigenvalue first, then the same negated: 2 x (3 k k) filters of 3 x k x k.
torch::Tensor whiteningWeights(const torch::Tensor &images, int k, double eps = 5e-4);

// The learning rate's factor at `step` (from 0) of `totalSteps`: from 0.2 up to 1 over the first
// 23 % of the steps, then down to 0.07 at the end (linear pieces).
double learningRateFactor(std::int64_t step, std::int64_t totalSteps);

// Nesterov SGD over the batch norms' biases and the other parameters with the recipe's learning
// rate and weight decay per 1024 examples made independent of the momentum and, for the decay,
// of the learning rate (airbench's decoupled form, for batches of `batchSize`); the biases at
// kBiasScaler x the learning rate. setLearningRateFactor scales both groups' rates.
std::unique_ptr<torch::optim::SGD> makeOptimiser(const std::vector<torch::Tensor> &normBiases,
                                                 const std::vector<torch::Tensor> &other,
                                                 int batchSize);
void setLearningRateFactor(torch::optim::SGD &optimiser, double factor);

// The lookahead decay after `step` (from 1) of `totalSteps`: 0.95^5 x (step / totalSteps)^3.
double lookaheadDecay(std::int64_t step, std::int64_t totalSteps);

// The lookahead average: a copy of the network's floating-point parameters and buffers; each
// update moves the copy towards the network by 1 - decay and sets the network to the copy.
class Lookahead {
public:
    explicit Lookahead(torch::nn::Module &net);
    void update(torch::nn::Module &net, double decay);

private:
    std::vector<torch::Tensor> m_average;
};

// Random translation by up to `r` pixels of each image of `padded` (N x C x (S + 2r) x (S + 2r),
// padded by reflection): N x C x S x S, each image's shift drawn uniformly from
// [-r, r] x [-r, r] with `generator`.
torch::Tensor translate(const torch::Tensor &padded, int r, torch::Generator generator);

// Every image mirrored (left-right) with probability 1/2 drawn with `generator`.
torch::Tensor randomFlip(const torch::Tensor &images, torch::Generator generator);

// Test-time augmentation of `net` on `x`: level 0 the logits, 1 their mean with the mirrored
// images', 2 that mean averaged with the mean over the two one-pixel diagonal translations
// (reflect-padded) of the mirrored pair.
torch::Tensor ttaLogits(Net &net, const torch::Tensor &x, int level);

} // namespace devicebench::detail::speedrun
