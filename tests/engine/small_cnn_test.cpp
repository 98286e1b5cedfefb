// SPDX-License-Identifier: MIT
#include "devicebench/small_cnn.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

using namespace devicebench;

TEST(SmallCnn, HasTheArticlesParameterCount) {
    SmallCnn model;
    EXPECT_EQ(countTrainableParameters(*model), 145578);
    EXPECT_EQ(countTrainableParameters(*model), kSmallCnnParameters);
}

TEST(SmallCnn, MapsABatchOfImagesToTenLogits) {
    SmallCnn model;
    auto out = model->forward(torch::rand({5, 3, 32, 32}));
    EXPECT_EQ(out.sizes(), (std::vector<std::int64_t>{5, 10}));
}

// MEASURING.md, "Facts checked on this machine": Python's torch.manual_seed(0) + module
// construction gives sum |params| = 2562.990567 and first weight -0.000864503.
TEST(SmallCnn, ReproducesPythonsInitialWeightsForSeedZero) {
    SmallCnn model;
    model->resetParameters(0);
    double sum = 0.0;
    for (const auto &p : model->parameters()) {
        sum += p.abs().sum().item<double>();
    }
    EXPECT_NEAR(sum, 2562.990567, 1e-3);
    const float first = model->parameters()[0].flatten()[0].item<float>();
    EXPECT_NEAR(first, -0.000864503f, 1e-8);
}

TEST(SmallCnn, SameSeedGivesIdenticalWeightsAndDifferentSeedsDiffer) {
    SmallCnn a, b, c;
    a->resetParameters(3);
    b->resetParameters(3);
    c->resetParameters(4);
    const auto pa = a->parameters(), pb = b->parameters(), pc = c->parameters();
    for (std::size_t i = 0; i < pa.size(); ++i) {
        EXPECT_TRUE(torch::equal(pa[i], pb[i])) << "parameter " << i;
    }
    EXPECT_FALSE(torch::equal(pa[0], pc[0]));
}

TEST(SmallCnn, AFewSgdStepsLowerTheLossOnAFixedBatch) {
    torch::manual_seed(1);
    SmallCnn model;
    model->resetParameters(0);
    auto x = torch::rand({32, 3, 32, 32});
    auto y = torch::randint(0, 10, {32}, torch::kInt64);
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(/*lr=*/0.05));
    const double before = torch::nn::functional::cross_entropy(model->forward(x), y).item<double>();
    for (int i = 0; i < 30; ++i) {
        auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
        sgd.zero_grad();
        loss.backward();
        sgd.step();
    }
    const double after = torch::nn::functional::cross_entropy(model->forward(x), y).item<double>();
    EXPECT_LT(after, before - 0.1) << "before " << before << " after " << after;
}
