// SPDX-License-Identifier: MIT
// The speedrun workload as a recipe (recipe.h): airbench94's training on the run's device, its
// parts in speedrun.h. The data goes to the device once as uint8 and is normalised, flipped at
// random and padded there, in epoch 1 (inside its clock, as the record script times it), with
// the whitening layer's fit; every epoch then translates, mirrors every other epoch, shuffles
// and steps; the last epoch ends the lookahead and tests with test-time augmentation.
#include "recipe.h"

#include "autocast.h"
#include "run_stop.h"
#include "speedrun.h"

#include "devicebench/models.h"
#include "devicebench/stop_cause.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace devicebench::detail {
namespace {

using namespace speedrun;

class SpeedrunRecipe final : public Recipe {
public:
    SpeedrunRecipe(const RunConfig &config, const torch::Device &device, const Cifar10 &data)
        : m_config(config), m_device(device), m_data(data),
          m_generator(at::detail::createCPUGenerator(config.seed)) {
        torch::manual_seed(config.seed); // the network's initial weights, on the CPU
        m_net = Net();
        m_net->to(device);
        m_parameters = countTrainableParameters(*m_net); // before the whitening bias freezes
        for (torch::Tensor &p : m_net->parameters())     // channels-last convolutions
            if (p.dim() == 4)
                p.set_data(p.contiguous(torch::MemoryFormat::ChannelsLast));
        m_stepsPerEpoch = data.train.labels.size(0) / config.batchSize; // whole batches only
        m_totalSteps = static_cast<std::int64_t>(
            std::ceil(static_cast<double>(m_stepsPerEpoch) * (config.epochs - kLastEpochShort)));
        if (config.precision != Precision::Float32)
            m_autocastType = lowerPrecisionType(config.precision);
    }

    std::int64_t modelParameters() const override { return m_parameters; }
    std::int64_t multiplyAddsPerImage() const override { return NetImpl::multiplyAddsPerImage(); }
    std::int64_t stepsPerEpoch() const override { return m_stepsPerEpoch; }

    void trainEpoch(int epoch, LossBuffer &losses, const std::atomic<bool> &stop) override {
        if (epoch == 1)
            prepare();
        if (epoch == kWhitenBiasEpochs + 1) { // the whitening bias is frozen from here on
            m_net->whiten->bias.set_requires_grad(false);
            m_net->whiten->bias.mutable_grad() = torch::Tensor();
        }
        torch::Tensor images = translate(m_padded, kTranslate, m_generator);
        if (epoch % 2 == 0) // every other epoch mirrors every image (alternating flip)
            images = images.flip(-1);
        images = images.contiguous(torch::MemoryFormat::ChannelsLast);
        const torch::Tensor order =
            torch::randperm(m_trainLabels.size(0), m_generator, torch::kInt64).to(m_device);
        m_net->train();
        const std::int64_t batch = m_config.batchSize;
        for (std::int64_t i = 0; i < m_stepsPerEpoch && m_step < m_totalSteps; ++i) {
            if (stop.load(std::memory_order_relaxed)) {
                losses.flush();
                throw RunStop{RunStatus::Cancelled, "stopped by " + stopCause() + " during epoch " +
                                                        std::to_string(epoch)};
            }
            const torch::Tensor chosen = order.narrow(0, i * batch, batch);
            losses.add(step(images.index_select(0, chosen), m_trainLabels.index_select(0, chosen)));
        }
        losses.flush();
    }

    TestResult testEpoch(int, const std::atomic<bool> &stop) override {
        const int level = m_step >= m_totalSteps ? 2 : 0; // the trained model: with TTA
        m_net->eval();
        torch::NoGradGuard noGrad;
        const auto autocast = autocastScope();
        torch::Tensor lossSum = torch::zeros({}, torch::TensorOptions().device(m_device));
        torch::Tensor correct = torch::zeros({}, lossSum.options().dtype(torch::kInt64));
        const std::int64_t size = m_testLabels.size(0);
        for (std::int64_t start = 0; start < size; start += 2000) {
            if (stop.load(std::memory_order_relaxed))
                throw RunStop{RunStatus::Cancelled,
                              "stopped by " + stopCause() + " during a test pass"};
            const std::int64_t n = std::min<std::int64_t>(2000, size - start);
            const torch::Tensor y = m_testLabels.narrow(0, start, n);
            const torch::Tensor logits =
                ttaLogits(m_net, m_testImages.narrow(0, start, n), level).to(torch::kFloat32);
            lossSum += torch::nn::functional::cross_entropy(
                logits, y, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
            correct += (logits.argmax(1) == y).sum();
        }
        const auto images = static_cast<double>(size);
        return {lossSum.item<double>() / images,
                static_cast<double>(correct.item<std::int64_t>()) / images};
    }

private:
    // Autocast to the run's lower precision while the scope lives; nullptr for float32.
    std::unique_ptr<AutocastScope> autocastScope() const {
        return m_autocastType ? std::make_unique<AutocastScope>(m_device.type(), *m_autocastType)
                              : nullptr;
    }

    // Epoch 1's set-up, timed with it: the data on the device, normalised, flipped at random
    // and padded; the lookahead average; the whitening layer fitted; the optimiser.
    void prepare() {
        const torch::Tensor train = normalise(m_data.train.images.to(m_device));
        m_trainLabels = m_data.train.labels.to(m_device);
        m_testImages = normalise(m_data.test.images.to(m_device))
                           .contiguous(torch::MemoryFormat::ChannelsLast);
        m_testLabels = m_data.test.labels.to(m_device);
        m_lookahead.emplace(*m_net); // the average starts from the weights before the fit
        {
            torch::NoGradGuard noGrad;
            const std::int64_t fit = std::min<std::int64_t>(kWhitenPatchImages, train.size(0));
            m_net->whiten->weight.copy_(whiteningWeights(train.narrow(0, 0, fit), 2));
        }
        m_padded = torch::nn::functional::pad(
            randomFlip(train, m_generator),
            torch::nn::functional::PadFuncOptions({kTranslate, kTranslate, kTranslate, kTranslate})
                .mode(torch::kReflect));
        m_optimizer =
            makeOptimiser(m_net->normBiases(), m_net->otherParameters(), m_config.batchSize);
    }

    // One step on (x, y): the scheduled learning rate, label-smoothed cross-entropy summed over
    // the batch, the optimiser's step, the lookahead every kLookaheadEvery steps and at the end.
    // Returns the loss per image (0-d, on the device).
    torch::Tensor step(const torch::Tensor &x, const torch::Tensor &y) {
        setLearningRateFactor(*m_optimizer, learningRateFactor(m_step, m_totalSteps));
        torch::Tensor loss;
        {
            const auto autocast = autocastScope();
            loss = torch::nn::functional::cross_entropy(
                m_net->forward(x).to(torch::kFloat32), y,
                torch::nn::functional::CrossEntropyFuncOptions()
                    .reduction(torch::kSum)
                    .label_smoothing(kLabelSmoothing));
        }
        m_optimizer->zero_grad();
        loss.backward();
        m_optimizer->step();
        ++m_step;
        if (m_step % kLookaheadEvery == 0)
            m_lookahead->update(*m_net, lookaheadDecay(m_step, m_totalSteps));
        if (m_step == m_totalSteps)
            m_lookahead->update(*m_net, 1.0); // the network becomes the average
        return loss.detach() / static_cast<double>(x.size(0));
    }

    RunConfig m_config;
    torch::Device m_device;
    const Cifar10 &m_data;
    torch::Generator m_generator; // augmentation and order, seeded by the run's seed
    Net m_net{nullptr};
    std::int64_t m_parameters = 0;
    std::int64_t m_stepsPerEpoch = 0;
    std::int64_t m_totalSteps = 0;
    std::int64_t m_step = 0; // steps taken
    std::optional<c10::ScalarType> m_autocastType;
    torch::Tensor m_padded, m_trainLabels, m_testImages, m_testLabels;
    std::unique_ptr<torch::optim::SGD> m_optimizer;
    std::optional<Lookahead> m_lookahead;
};

} // namespace

std::unique_ptr<Recipe> makeRecipe(const RunConfig &config, const torch::Device &device,
                                   const Cifar10 &data) {
    return std::make_unique<SpeedrunRecipe>(config, device, data);
}

} // namespace devicebench::detail
