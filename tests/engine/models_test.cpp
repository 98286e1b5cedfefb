// SPDX-License-Identifier: MIT
// The models behind makeModel (models.h): parameter counts, multiply-adds counted
// from the layers against the arithmetic written out here, seeding, shapes and refusals.
// Kept cheap for the sanitizer builds: one forward pass at batch 2 per model and size.
#include "devicebench/models.h"
#include "devicebench/resnet18.h"
#include "devicebench/run_types.h"
#include "devicebench/small_cnn.h"
#include "devicebench/vit_tiny.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

// Multiply-adds of a square convolution with a square output: Cout x side^2 x Cin x k^2.
std::int64_t conv(std::int64_t out, std::int64_t side, std::int64_t in, std::int64_t kernel) {
    return out * side * side * in * kernel * kernel;
}

// ResNet-18, CIFAR form (resnet18.h), layer by layer at image size s.
std::int64_t resnet18MultiplyAdds(std::int64_t s) {
    std::int64_t total = conv(64, s, 3, 3); // stem, no max-pool
    // layer1: 2 blocks of two 3x3 convolutions 64 -> 64 at s x s, identity shortcuts
    total += 4 * conv(64, s, 64, 3);
    std::int64_t in = 64;
    std::int64_t side = s;
    for (const std::int64_t out : {128, 256, 512}) { // layer2..4: first block stride 2
        side /= 2;
        total += conv(out, side, in, 3);      // block 1, conv1 (stride 2)
        total += conv(out, side, out, 3);     // block 1, conv2
        total += conv(out, side, in, 1);      // block 1, 1x1 shortcut (stride 2)
        total += 2 * conv(out, side, out, 3); // block 2
        in = out;
    }
    return total + 512 * 10; // Linear after the global average pool
}

// The ViT-Tiny-shaped transformer (vit_tiny.h) at image size s.
std::int64_t vitTinyMultiplyAdds(std::int64_t s) {
    const std::int64_t patches = (s / 4) * (s / 4);
    const std::int64_t t = patches + 1; // + class token
    const std::int64_t d = 192;
    const std::int64_t block = t * d * (3 * d) // q, k, v
                               + t * t * d     // scores q k^T, all heads
                               + t * t * d     // weights x values
                               + t * d * d     // output projection
                               + t * d * 768   // MLP up
                               + t * 768 * d;  // MLP down
    return 192 * patches * 3 * 4 * 4           // patch convolution
           + 12 * block + d * 10;              // 12 blocks, head on the class token
}

std::vector<torch::Tensor> state(const ImageClassifier &model) {
    std::vector<torch::Tensor> tensors = model->parameters();
    for (const auto &b : model->buffers()) {
        tensors.push_back(b);
    }
    return tensors;
}

} // namespace

TEST(Models, ParameterCountsArePinned) {
    EXPECT_EQ(countTrainableParameters(*makeModel("small-cnn", 32, 0)), kSmallCnnParameters);
    EXPECT_EQ(kSmallCnnParameters, 145578);
    // fc1 takes 64 x (S/8)^2 inputs.
    EXPECT_EQ(countTrainableParameters(*makeModel("small-cnn", 64, 0)), 145578 + 64 * 64 * 48);
    EXPECT_EQ(countTrainableParameters(*makeModel("small-cnn", 128, 0)), 1128618);
    EXPECT_EQ(countTrainableParameters(*makeModel("resnet18", 32, 0)), 11173962);
    EXPECT_EQ(kResNet18Parameters, 11173962);
    EXPECT_EQ(countTrainableParameters(*makeModel("vit-tiny", 32, 0)), 5362762);
    EXPECT_EQ(kVitTinyParameters, 5362762);
    // The position embedding has (S/4)^2 + 1 rows of 192.
    EXPECT_EQ(countTrainableParameters(*makeModel("vit-tiny", 64, 0)), 5362762 + 192 * 192);
}

TEST(Models, SmallCnnForwardMultiplyAddsArePinned) {
    EXPECT_EQ(makeModel("small-cnn", 32, 0)->multiplyAddsPerImage(), 12354176);
    EXPECT_EQ(kSmallCnnMultiplyAdds, 12354176);
    // conv1 + conv2 + conv3 + fc1 grow with the pixels, fc2 does not.
    EXPECT_EQ(makeModel("small-cnn", 64, 0)->multiplyAddsPerImage(), (12354176 - 640) * 4 + 640);
}

TEST(Models, ResNet18MultiplyAddsMatchTheLayerByLayerArithmetic) {
    EXPECT_EQ(resnet18MultiplyAdds(32), 555422720);
    for (const int size : kImageSizes) {
        EXPECT_EQ(makeModel("resnet18", size, 0)->multiplyAddsPerImage(),
                  resnet18MultiplyAdds(size))
            << "image size " << size;
    }
}

TEST(Models, VitTinyMultiplyAddsMatchTheLayerByLayerArithmetic) {
    EXPECT_EQ(vitTinyMultiplyAdds(32), 365107584);
    for (const int size : kImageSizes) {
        EXPECT_EQ(makeModel("vit-tiny", size, 0)->multiplyAddsPerImage(), vitTinyMultiplyAdds(size))
            << "image size " << size;
    }
}

TEST(Models, SameSeedGivesIdenticalWeightsAndAnotherSeedDiffers) {
    for (const char *name : kModelNames) {
        const ImageClassifier a = makeModel(name, 32, 7);
        const ImageClassifier b = makeModel(name, 32, 7);
        const auto sa = state(a);
        const auto sb = state(b);
        ASSERT_EQ(sa.size(), sb.size()) << name;
        for (std::size_t i = 0; i < sa.size(); ++i) {
            EXPECT_TRUE(torch::equal(sa[i], sb[i])) << name << " tensor " << i;
        }
        b->resetParameters(8);
        bool anyDiffers = false;
        for (std::size_t i = 0; i < sa.size(); ++i) {
            anyDiffers = anyDiffers || !torch::equal(sa[i], sb[i]);
        }
        EXPECT_TRUE(anyDiffers) << name << ": seeds 7 and 8 gave the same weights";
    }
}

TEST(Models, SmallCnnKeepsTheArticlesWeightsWhenBuiltByName) {
    SmallCnn direct;
    direct->resetParameters(0);
    const auto byName = makeModel("small-cnn", 32, 0)->parameters();
    const auto own = direct->parameters();
    ASSERT_EQ(byName.size(), own.size());
    for (std::size_t i = 0; i < own.size(); ++i) {
        EXPECT_TRUE(torch::equal(byName[i], own[i])) << "parameter " << i;
    }
}

TEST(Models, EachModelMapsABatchOfImagesToTenLogitsAtEachSize) {
    torch::NoGradGuard noGrad;
    for (const char *name : kModelNames) {
        for (const std::int64_t size : {32, 64}) {
            const ImageClassifier model = makeModel(name, static_cast<int>(size), 0);
            model->eval();
            const torch::Tensor out = model->forward(torch::rand({2, 3, size, size}));
            EXPECT_EQ(out.sizes(), (std::vector<std::int64_t>{2, 10})) << name << " at " << size;
            EXPECT_TRUE(torch::isfinite(out).all().item<bool>()) << name << " at " << size;
        }
    }
}

TEST(Models, MakeModelRefusesAnUnknownNameOrSizeNamingTheValue) {
    try {
        makeModel("resnet50", 32, 0);
        FAIL() << "resnet50 was built";
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("'resnet50'"), std::string::npos) << e.what();
    }
    try {
        makeModel("vit-tiny", 48, 0);
        FAIL() << "image size 48 was accepted";
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("48"), std::string::npos) << e.what();
    }
}
