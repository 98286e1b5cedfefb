// SPDX-License-Identifier: MIT
// The speedrun's parts against PyTorch in Python: the same deterministic inputs on both sides
// (reference/speedrun_reference.py writes airbench94's code; Python with torch from CMake or
// DEVICEBENCH_TEST_PYTHON; skipped without one), and a short run on synthetic data that learns.
#include "cifar_files.h"
#include "process_support.h"
#include "python_test_support.h"
#include "speedrun.h"

#include "devicebench/trainer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

namespace sr = devicebench::detail::speedrun;
using devicebench::testing::TempDir;

namespace {

// The reference's JSON for `part`; null (and the test skipped by the caller) without a Python.
nlohmann::json reference(const std::string &part) {
    const std::string python = devicebench::testing::testPythonOr(DEVICEBENCH_TEST_PYTHON);
    if (python.empty())
        return nullptr;
    static TempDir io("devicebench-speedrun-io");
    const auto r = devicebench::testing::runProgram(python, {DEVICEBENCH_SPEEDRUN_REFERENCE, part},
                                                    io.path(), io.path());
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

// sin(step * i + phase) over the elements of `shape`, as the reference's wave().
torch::Tensor wave(std::vector<std::int64_t> shape, double phase = 0.0, double step = 0.37) {
    const std::int64_t n =
        std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
    return torch::sin(torch::arange(n, torch::kFloat64) * step + phase)
        .to(torch::kFloat32)
        .view(shape);
}

// frac(sin(12.9898 i) x 43758.5453) - 0.5, as the reference's noise(): well spread values
// (a wave's patches span too few directions for distinct eigenvectors).
torch::Tensor noise(std::vector<std::int64_t> shape) {
    const std::int64_t n =
        std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
    const torch::Tensor v = torch::sin(torch::arange(n, torch::kFloat64) * 12.9898) * 43758.5453;
    return (v - torch::floor(v) - 0.5).to(torch::kFloat32).view(shape);
}

torch::Tensor values(const nlohmann::json &list) {
    return torch::tensor(list.get<std::vector<double>>(), torch::kFloat32);
}

#define SKIP_WITHOUT_PYTHON(json)                                                                  \
    if ((json).is_null())                                                                          \
    GTEST_SKIP() << "no Python with torch for the reference (set DEVICEBENCH_TEST_PYTHON)"

} // namespace

TEST(SpeedrunParity, TheWhiteningFiltersAreTheReferencesUpToEachEigenvectorsSign) {
    const nlohmann::json ref = reference("whiten");
    SKIP_WITHOUT_PYTHON(ref);
    const torch::Tensor ours = sr::whiteningWeights(noise({4, 3, 6, 6}), 2).flatten(1);
    const torch::Tensor theirs = values(ref["weights"]).view({24, -1});
    ASSERT_EQ(ours.sizes(), theirs.sizes());
    for (std::int64_t i = 0; i < 24; ++i) { // an eigenvector's sign is the solver's choice
        const double same = (ours[i] - theirs[i]).abs().max().item<double>();
        const double flipped = (ours[i] + theirs[i]).abs().max().item<double>();
        EXPECT_LT(std::min(same, flipped), 2e-3) << "filter " << i;
    }
}

TEST(SpeedrunParity, TheScheduleAndTheLookaheadDecayAreTheReferences) {
    const nlohmann::json ref = reference("schedule");
    SKIP_WITHOUT_PYTHON(ref);
    const auto total = ref["total"].get<std::int64_t>();
    const auto steps = ref["steps"].get<std::vector<std::int64_t>>();
    for (std::size_t i = 0; i < steps.size(); ++i)
        EXPECT_NEAR(sr::learningRateFactor(steps[i], total), ref["lr"][i].get<double>(), 1e-12)
            << "step " << steps[i];
    const std::vector<std::int64_t> lookaheadSteps{5, 50, 95, 97};
    for (std::size_t i = 0; i < lookaheadSteps.size(); ++i)
        EXPECT_NEAR(sr::lookaheadDecay(lookaheadSteps[i], total), ref["decay"][i].get<double>(),
                    1e-6)
            << "step " << lookaheadSteps[i];
}

TEST(SpeedrunParity, ThreeDecoupledNesterovStepsAreTheReferences) {
    const nlohmann::json ref = reference("optimiser");
    SKIP_WITHOUT_PYTHON(ref);
    torch::Tensor bias = wave({5}, 0.1).requires_grad_();
    torch::Tensor weight = wave({3, 4}, 0.2).requires_grad_();
    const auto optimiser = sr::makeOptimiser({bias}, {weight}, 256);
    for (int k = 0; k < 3; ++k) {
        sr::setLearningRateFactor(*optimiser, sr::learningRateFactor(k, 10));
        bias.mutable_grad() = wave({5}, 1.0 + k);
        weight.mutable_grad() = wave({3, 4}, 2.0 + k);
        optimiser->step();
    }
    EXPECT_TRUE(torch::allclose(bias.detach(), values(ref["bias"]), 1e-5, 1e-6));
    EXPECT_TRUE(torch::allclose(weight.detach().flatten(), values(ref["weight"]), 1e-5, 1e-6));
}

TEST(SpeedrunParity, ALookaheadUpdateMovesTheAverageAndSetsTheNetworkToIt) {
    const nlohmann::json ref = reference("lookahead");
    SKIP_WITHOUT_PYTHON(ref);
    torch::nn::Sequential net(torch::nn::Linear(3, 2), torch::nn::BatchNorm1d(2));
    // Every float tensor of the network, tensor i set to wave(phase + per x i), as the reference.
    const auto fill = [&net](double phase, double per) {
        torch::NoGradGuard noGrad;
        std::vector<torch::Tensor> tensors = net->parameters();
        for (const torch::Tensor &b : net->buffers())
            if (b.is_floating_point())
                tensors.push_back(b);
        for (std::size_t i = 0; i < tensors.size(); ++i)
            tensors[i].copy_(wave(tensors[i].sizes().vec(), phase + per * static_cast<double>(i)));
    };
    fill(0.0, 0.5);
    sr::Lookahead lookahead(*net);
    fill(3.0, 1.0);
    lookahead.update(*net, 0.3);
    std::vector<torch::Tensor> flat;
    for (const auto &item : net->named_parameters())
        flat.push_back(item.value().flatten());
    for (const auto &item : net->named_buffers())
        if (item.value().is_floating_point())
            flat.push_back(item.value().flatten());
    EXPECT_TRUE(torch::allclose(torch::cat(flat), values(ref["values"]), 1e-5, 1e-6));
}

TEST(SpeedrunParity, TestTimeAugmentedLogitsAreTheReferencesAtEachLevel) {
    const nlohmann::json ref = reference("tta");
    SKIP_WITHOUT_PYTHON(ref);
    sr::Net net;
    {
        torch::NoGradGuard noGrad;
        const std::vector<torch::Tensor> parameters = net->parameters();
        for (std::size_t i = 0; i < parameters.size(); ++i)
            parameters[i].copy_(
                0.05 * wave(parameters[i].sizes().vec(), 0.3 * static_cast<double>(i), 0.11));
    }
    net->eval();
    torch::NoGradGuard noGrad;
    const torch::Tensor x = wave({2, 3, 32, 32}, 0.0, 0.013);
    for (int level = 0; level <= 2; ++level) {
        const torch::Tensor ours = sr::ttaLogits(net, x, level).flatten();
        const torch::Tensor theirs = values(ref["level" + std::to_string(level)]);
        EXPECT_TRUE(torch::allclose(ours, theirs, 1e-4, 1e-6))
            << "level " << level << ": " << (ours - theirs).abs().max().item<double>();
    }
}

TEST(Speedrun, TheNetworkHasTheRecipesShapeAndCost) {
    sr::Net net;
    EXPECT_EQ(net->forward(torch::zeros({2, 3, 32, 32})).sizes(),
              (std::vector<std::int64_t>{2, 10}));
    // 24 x 3 x 2 x 2 whitening (frozen) aside: its bias, six convolutions, six batch-norm
    // biases (weights frozen) and the head.
    std::int64_t trainable = 0;
    for (const torch::Tensor &p : net->parameters())
        trainable += p.requires_grad() ? p.numel() : 0;
    const std::int64_t convs = 24 * 64 * 9 + 64 * 64 * 9 + 64 * 256 * 9 + 256 * 256 * 9 * 3;
    EXPECT_EQ(trainable, 24 + convs + 2 * (64 + 256 + 256) + 256 * 10);
    EXPECT_EQ(net->whiten->bias.abs().sum().item<double>(), 0.0) << "the recipe starts it at 0";
    // The record's 0.36 PFLOP per run: 476 steps of 1024 images at 6 FLOP per multiply-add
    // (forward 2, backward 4) is about 123 M multiply-adds per image, its evaluations aside.
    EXPECT_GT(sr::NetImpl::multiplyAddsPerImage(), 110'000'000);
    EXPECT_LT(sr::NetImpl::multiplyAddsPerImage(), 125'000'000);
}

TEST(Speedrun, TranslationShiftsEachImageByAtMostTwoPixelsAndKeepsItsContent) {
    const torch::Tensor images = torch::arange(4 * 1 * 8 * 8, torch::kFloat32).view({4, 1, 8, 8});
    const torch::Tensor padded = torch::nn::functional::pad(
        images, torch::nn::functional::PadFuncOptions({2, 2, 2, 2}).mode(torch::kReflect));
    const torch::Tensor out = sr::translate(padded, 2, at::detail::createCPUGenerator(7));
    ASSERT_EQ(out.sizes(), images.sizes());
    for (std::int64_t i = 0; i < 4; ++i) { // the centre 4 x 4 is somewhere in the output
        const torch::Tensor centre = images[i][0].narrow(0, 2, 4).narrow(1, 2, 4);
        bool found = false;
        for (int dy = 0; dy <= 4 && !found; ++dy)
            for (int dx = 0; dx <= 4 && !found; ++dx)
                found = torch::equal(out[i][0].narrow(0, dy, 4).narrow(1, dx, 4), centre);
        EXPECT_TRUE(found) << "image " << i;
    }
}

namespace {

// A data folder in the CIFAR-10 layout whose classes differ in brightness (label k: bytes
// 25 k to 25 k + 9), so that a few steps can learn them.
void writeLearnableDataset(const std::filesystem::path &dir) {
    std::vector<char> record(3073);
    for (const char *name : {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin",
                             "data_batch_4.bin", "data_batch_5.bin", "test_batch.bin"}) {
        std::ofstream out(dir / name, std::ios::binary);
        for (std::int64_t i = 0; i < 10000; ++i) {
            const int label = static_cast<int>((i * 7 + (name[0] == 't' ? 3 : 0)) % 10);
            record[0] = static_cast<char>(label);
            for (std::size_t j = 1; j < record.size(); ++j)
                record[j] = static_cast<char>(
                    25 * label +
                    static_cast<int>((i * 7 + static_cast<std::int64_t>(j) * 13) % 10));
            out.write(record.data(), static_cast<std::streamsize>(record.size()));
        }
    }
}

} // namespace

TEST(Speedrun, AShortRunOnLearnableDataLearnsAndTestsWithAugmentationAtItsEnd) {
    TempDir dir;
    writeLearnableDataset(dir.path());
    devicebench::RunConfig config;
    config.workload = devicebench::Workload::Speedrun;
    config.model = "airbench94";
    config.dataDir = dir.path().string();
    config.trainImages = 512;
    config.testImages = 200;
    config.batchSize = 64;
    config.epochs = 3; // 2.9 epochs of 8 steps: 24 steps
    config.warmupEpochs = 1;
    config.threads = 2;
    struct Epochs : devicebench::TrainingObserver {
        std::vector<devicebench::EpochResult> ended;
        void onEpochFinished(const devicebench::EpochResult &e) override { ended.push_back(e); }
        void onRunEnded(const devicebench::RunOutcome &) override {}
    } observer;
    std::atomic<bool> stop{false};
    const devicebench::RunOutcome outcome = devicebench::runTraining(config, observer, stop);
    ASSERT_EQ(outcome.status, devicebench::RunStatus::Finished) << outcome.reason;
    ASSERT_EQ(outcome.epochs.size(), 3u);
    EXPECT_LT(outcome.epochs.back().trainLoss, outcome.epochs.front().trainLoss);
    EXPECT_LT(outcome.epochs.back().testLoss, outcome.epochs.front().testLoss);
    EXPECT_GT(outcome.epochs.back().testAccuracy, 0.2) << "chance is 0.1";
    EXPECT_GT(outcome.epochs.back().testSeconds, outcome.epochs.front().testSeconds)
        << "the last test pass augments: six forward passes against one";
}
