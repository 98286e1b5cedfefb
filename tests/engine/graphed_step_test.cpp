// SPDX-License-Identifier: MIT
// The tuned workload's training step captured as a CUDA graph (engine/train/src/graphed_step.h):
// the same training as the eager step, within float rounding. Needs a CUDA device and the CUDA
// build; elsewhere only the build's answer (no graphs without CUDA) is checked.
#include "graphed_step.h"
#include "workload.h"

#include "devicebench/small_cnn.h"

#include <gtest/gtest.h>

#include <torch/torch.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using devicebench::ImageClassifier;
using devicebench::kSmallCnnName;
using devicebench::makeModel;
using devicebench::Workload;
using devicebench::detail::makeGraphedTrainStep;
using devicebench::detail::makeWorkloadStrategy;

TEST(GraphedStep, ExistsExactlyInBuildsAgainstACudaLibTorch) {
    const bool cuda = at::show_config().find("USE_CUDA=ON") != std::string::npos;
    EXPECT_EQ(devicebench::detail::cudaGraphsCompiledIn(), cuda);
    EXPECT_EQ(makeGraphedTrainStep(64) != nullptr, cuda);
}

TEST(GraphedStep, ReplayedStepsTrainLikeTheEagerStepsWithinFloatRounding) {
    if (!devicebench::detail::cudaGraphsCompiledIn() || !torch::cuda::is_available())
        GTEST_SKIP() << "needs a CUDA device and the CUDA build (this machine: "
                     << (devicebench::detail::cudaGraphsCompiledIn() ? "no CUDA device"
                                                                     : "a build without CUDA")
                     << ")";
    const torch::Device cuda(torch::kCUDA);
    constexpr std::int64_t kBatch = 64;
    // 3 warm-up steps, the capture, 4 replays, and one partial batch (eager after capture).
    torch::manual_seed(7);
    const auto images = torch::rand({8 * kBatch + 16, 3, 32, 32}).to(cuda);
    const auto labels = torch::randint(0, 10, {8 * kBatch + 16}, torch::kInt64).to(cuda);

    struct Trained {
        std::vector<float> losses;
        std::vector<torch::Tensor> parameters;
        bool captured = false;
    };
    auto train = [&](bool graphed) {
        ImageClassifier model = makeModel(kSmallCnnName, 32, 0);
        model->to(cuda);
        auto strategy = makeWorkloadStrategy(Workload::Tuned, cuda, kBatch);
        strategy->prepareModel(model);
        torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
        const auto parameters = model->parameters();
        auto step = graphed ? makeGraphedTrainStep(kBatch) : nullptr;
        Trained t;
        for (std::int64_t start = 0; start < images.size(0); start += kBatch) {
            const std::int64_t n = std::min(kBatch, images.size(0) - start);
            const auto x = images.narrow(0, start, n).contiguous(torch::MemoryFormat::ChannelsLast);
            const auto y = labels.narrow(0, start, n);
            const auto eager = [&](const torch::Tensor &bx, const torch::Tensor &by) {
                return strategy->eagerTrainStep(model, optimizer, parameters, bx, by);
            };
            const auto loss = step ? step->step(x, y, eager) : eager(x, y);
            t.losses.push_back(loss.item<float>());
        }
        for (const auto &p : parameters)
            t.parameters.push_back(p.detach().cpu());
        t.captured = step && step->captured();
        return t;
    };
    const Trained eager = train(false);
    const Trained graphed = train(true);
    ASSERT_TRUE(graphed.captured);
    ASSERT_EQ(graphed.losses.size(), eager.losses.size());
    for (std::size_t i = 0; i < eager.losses.size(); ++i)
        EXPECT_NEAR(graphed.losses[i], eager.losses[i], 1e-4F * std::abs(eager.losses[i]) + 1e-5F)
            << "step " << i + 1;
    for (std::size_t i = 0; i < eager.parameters.size(); ++i)
        EXPECT_TRUE(torch::allclose(graphed.parameters[i], eager.parameters[i], 1e-4, 1e-5))
            << "parameter " << i;
}
