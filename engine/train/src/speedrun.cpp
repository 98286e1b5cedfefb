// SPDX-License-Identifier: MIT
// The speedrun's parts: see speedrun.h.
#include "speedrun.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace devicebench::detail::speedrun {
namespace {

constexpr int kWhitenKernel = 2;
constexpr int kWhitenWidth = 2 * 3 * kWhitenKernel * kWhitenKernel;
constexpr int kWidths[] = {64, 256, 256};
constexpr double kHeadScale = 1.0 / 9.0;
constexpr double kNormEps = 1e-12;

// A 3 x 3 convolution without bias, 'same' padding, its first `in` filters the identity (the
// rest keep LibTorch's default initialisation).
torch::nn::Conv2d identityConv(int in, int out) {
    torch::nn::Conv2d conv(torch::nn::Conv2dOptions(in, out, 3).padding(1).bias(false));
    torch::NoGradGuard noGrad;
    torch::nn::init::dirac_(conv->weight.narrow(0, 0, in));
    return conv;
}

// Batch norm with its weight frozen at 1 and its bias trained; running statistics keep
// kBatchNormMomentum of themselves at each step.
torch::nn::BatchNorm2d frozenScaleNorm(int channels) {
    torch::nn::BatchNorm2d norm(
        torch::nn::BatchNorm2dOptions(channels).eps(kNormEps).momentum(1.0 - kBatchNormMomentum));
    norm->weight.set_requires_grad(false);
    return norm;
}

} // namespace

NetImpl::NetImpl() {
    whiten = register_module(
        "whiten", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, kWhitenWidth, kWhitenKernel)));
    whiten->weight.set_requires_grad(false); // set from the data (whiteningWeights), frozen
    {
        torch::NoGradGuard noGrad;
        whiten->bias.zero_(); // the recipe starts its bias at 0 (trained for the first epochs)
    }
    int in = kWhitenWidth;
    for (int i = 0; i < 3; ++i) {
        const int width = kWidths[i];
        const std::string name = "group" + std::to_string(i + 1);
        Group g;
        g.conv1 = register_module(name + "_conv1", identityConv(in, width));
        g.norm1 = register_module(name + "_norm1", frozenScaleNorm(width));
        g.conv2 = register_module(name + "_conv2", identityConv(width, width));
        g.norm2 = register_module(name + "_norm2", frozenScaleNorm(width));
        m_groups.push_back(g);
        in = width;
    }
    m_head =
        register_module("head", torch::nn::Linear(torch::nn::LinearOptions(in, 10).bias(false)));
}

torch::Tensor NetImpl::forward(torch::Tensor x) {
    x = torch::gelu(whiten->forward(x));
    for (Group &g : m_groups) {
        x = torch::max_pool2d(g.conv1->forward(x), 2);
        x = torch::gelu(g.norm1->forward(x));
        x = torch::gelu(g.norm2->forward(g.conv2->forward(x)));
    }
    x = torch::max_pool2d(x, 3).flatten(1);
    return m_head->forward(x) * kHeadScale;
}

std::int64_t NetImpl::multiplyAddsPerImage() {
    const auto conv = [](std::int64_t side, std::int64_t in, std::int64_t out, std::int64_t k) {
        return side * side * in * out * k * k;
    };
    std::int64_t total = conv(31, 3, kWhitenWidth, kWhitenKernel);
    std::int64_t side = 31; // 32 - 2 + 1
    std::int64_t in = kWhitenWidth;
    for (const int width : kWidths) {
        total += conv(side, in, width, 3);
        side /= 2;
        total += conv(side, width, width, 3);
        in = width;
    }
    return total + in * 10;
}

std::vector<torch::Tensor> NetImpl::normBiases() {
    std::vector<torch::Tensor> biases;
    for (Group &g : m_groups)
        for (auto *norm : {&g.norm1, &g.norm2})
            biases.push_back((*norm)->bias);
    return biases;
}

std::vector<torch::Tensor> NetImpl::otherParameters() {
    std::vector<torch::Tensor> other{whiten->bias};
    for (Group &g : m_groups)
        other.insert(other.end(), {g.conv1->weight, g.conv2->weight});
    other.push_back(m_head->weight);
    return other;
}

torch::Tensor channelMean(const torch::TensorOptions &options) {
    return torch::tensor({0.4914, 0.4822, 0.4465}, options).view({1, 3, 1, 1});
}

torch::Tensor channelStd(const torch::TensorOptions &options) {
    return torch::tensor({0.2470, 0.2435, 0.2616}, options).view({1, 3, 1, 1});
}

torch::Tensor normalise(const torch::Tensor &images) {
    const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(images.device());
    return (images.to(torch::kFloat32) / 255.0 - channelMean(options)) / channelStd(options);
}

torch::Tensor whiteningWeights(const torch::Tensor &images, int k, double eps) {
    const std::int64_t c = images.size(1);
    // Every k x k patch: N x C x H' x W' x k x k -> (N H' W') x (C k k).
    const torch::Tensor patches =
        images.to(torch::kFloat32).unfold(2, k, 1).unfold(3, k, 1).permute({0, 2, 3, 1, 4, 5});
    const torch::Tensor flat = patches.reshape({-1, c * k * k});
    const torch::Tensor covariance = flat.t().matmul(flat) / static_cast<double>(flat.size(0));
    // Ascending eigenvalues; the filters go largest first.
    auto [values, vectors] = torch::linalg_eigh(covariance, "U");
    values = values.flip(0).view({-1, 1, 1, 1});
    vectors = vectors.t().reshape({c * k * k, c, k, k}).flip(0);
    const torch::Tensor scaled = vectors / torch::sqrt(values + eps);
    return torch::cat({scaled, -scaled});
}

double learningRateFactor(std::int64_t step, std::int64_t totalSteps) {
    const auto warmup = static_cast<std::int64_t>(static_cast<double>(totalSteps) * 0.23);
    if (step < warmup) {
        const double frac = static_cast<double>(step) / static_cast<double>(warmup);
        return 0.2 * (1.0 - frac) + 1.0 * frac;
    }
    const double frac =
        static_cast<double>(step - warmup) / static_cast<double>(totalSteps - warmup);
    return 1.0 * (1.0 - frac) + 0.07 * frac;
}

namespace {

// The recipe's learning rate per example, scaled for Nesterov momentum's larger steps.
double baseLearningRate() { return kLearningRate / (1024.0 * (1.0 + 1.0 / (1.0 - kMomentum))); }

} // namespace

std::unique_ptr<torch::optim::SGD> makeOptimiser(const std::vector<torch::Tensor> &normBiases,
                                                 const std::vector<torch::Tensor> &other,
                                                 int batchSize) {
    const double lr = baseLearningRate();
    const double decay = kWeightDecay * static_cast<double>(batchSize) / (kLearningRate / lr);
    const auto options = [decay](double groupLr) {
        return std::make_unique<torch::optim::SGDOptions>(
            torch::optim::SGDOptions(groupLr).momentum(kMomentum).nesterov(true).weight_decay(
                decay / groupLr));
    };
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(normBiases, options(lr * kBiasScaler));
    groups.emplace_back(other, options(lr));
    return std::make_unique<torch::optim::SGD>(groups, torch::optim::SGDOptions(lr));
}

void setLearningRateFactor(torch::optim::SGD &optimiser, double factor) {
    const double lr = baseLearningRate() * factor;
    auto &groups = optimiser.param_groups();
    static_cast<torch::optim::SGDOptions &>(groups.at(0).options()).lr(lr * kBiasScaler);
    static_cast<torch::optim::SGDOptions &>(groups.at(1).options()).lr(lr);
}

double lookaheadDecay(std::int64_t step, std::int64_t totalSteps) {
    return std::pow(0.95, 5) *
           std::pow(static_cast<double>(step) / static_cast<double>(totalSteps), 3);
}

namespace {

// The floating-point parameters and buffers of `net`, in registration order.
std::vector<torch::Tensor> averagedTensors(torch::nn::Module &net) {
    std::vector<torch::Tensor> tensors;
    for (const torch::Tensor &p : net.parameters())
        tensors.push_back(p);
    for (const torch::Tensor &b : net.buffers())
        if (b.is_floating_point())
            tensors.push_back(b);
    return tensors;
}

} // namespace

Lookahead::Lookahead(torch::nn::Module &net) {
    torch::NoGradGuard noGrad;
    for (const torch::Tensor &t : averagedTensors(net))
        m_average.push_back(t.detach().clone());
}

void Lookahead::update(torch::nn::Module &net, double decay) {
    torch::NoGradGuard noGrad;
    const std::vector<torch::Tensor> current = averagedTensors(net);
    for (std::size_t i = 0; i < current.size(); ++i) {
        m_average[i].lerp_(current[i], 1.0 - decay);
        current[i].copy_(m_average[i]);
    }
}

torch::Tensor translate(const torch::Tensor &padded, int r, torch::Generator generator) {
    const std::int64_t n = padded.size(0);
    const std::int64_t side = padded.size(-1) - 2 * r;
    const auto longs = torch::TensorOptions().dtype(torch::kInt64);
    const torch::Tensor shifts = torch::randint(-r, r + 1, {n, 2}, generator, longs);
    torch::Tensor out = torch::empty({n, padded.size(1), side, side}, padded.options());
    // One copy per shift: the images drawn for it, cut at their offset.
    for (int sy = -r; sy <= r; ++sy) {
        for (int sx = -r; sx <= r; ++sx) {
            const torch::Tensor chosen =
                torch::nonzero((shifts.select(1, 0) == sy) & (shifts.select(1, 1) == sx))
                    .flatten()
                    .to(padded.device());
            if (chosen.numel() == 0)
                continue;
            const torch::Tensor cut =
                padded.index_select(0, chosen).narrow(2, r + sy, side).narrow(3, r + sx, side);
            out.index_copy_(0, chosen, cut);
        }
    }
    return out;
}

torch::Tensor randomFlip(const torch::Tensor &images, torch::Generator generator) {
    const torch::Tensor flip =
        (torch::rand({images.size(0)}, generator, torch::TensorOptions()) < 0.5)
            .to(images.device())
            .view({-1, 1, 1, 1});
    return torch::where(flip, images.flip(-1), images);
}

torch::Tensor ttaLogits(Net &net, const torch::Tensor &x, int level) {
    const auto mirrored = [&net](const torch::Tensor &in) {
        return 0.5 * net->forward(in) + 0.5 * net->forward(in.flip(-1));
    };
    if (level <= 0)
        return net->forward(x);
    const torch::Tensor logits = mirrored(x);
    if (level == 1)
        return logits;
    const std::int64_t side = x.size(-1);
    const torch::Tensor padded = torch::nn::functional::pad(
        x, torch::nn::functional::PadFuncOptions({1, 1, 1, 1}).mode(torch::kReflect));
    const torch::Tensor up = padded.narrow(2, 0, side).narrow(3, 0, side);
    const torch::Tensor down = padded.narrow(2, 2, side).narrow(3, 2, side);
    const torch::Tensor translated = 0.5 * (mirrored(up) + mirrored(down));
    return 0.5 * logits + 0.5 * translated;
}

} // namespace devicebench::detail::speedrun
