// SPDX-License-Identifier: MIT
// makeModel(): the model registry (models.h).
#include "devicebench/models.h"

#include "devicebench/resnet18.h"
#include "devicebench/run_types.h"
#include "devicebench/small_cnn.h"
#include "devicebench/vit_tiny.h"

#include <mutex>
#include <stdexcept>

namespace devicebench {

ImageClassifier makeModel(const std::string &name, int imageSize, std::uint64_t seed) {
    if (!isKnownModel(name)) {
        throw std::invalid_argument("model '" + name +
                                    "' is not known (use small-cnn, resnet18 or vit-tiny)");
    }
    if (!isSupportedImageSize(imageSize)) {
        throw std::invalid_argument("image size " + std::to_string(imageSize) +
                                    " is not supported (use 32, 64 or 128)");
    }
    // Built on the CPU (LibTorch's default device), then initialised there from the seed.
    // Both draw from LibTorch's global CPU generator (the layers' constructors too): runs on
    // two threads at once (the ranks of an in-process data-parallel test, a dashboard run
    // beside a sweep) would interleave their draws and start from other weights.
    static std::mutex generatorMutex;
    const std::lock_guard<std::mutex> lock(generatorMutex);
    ImageClassifier model;
    if (name == kSmallCnnName) {
        model = std::make_shared<SmallCnnImpl>(imageSize);
    } else if (name == kResNet18Name) {
        model = std::make_shared<ResNet18Impl>(imageSize);
    } else {
        model = std::make_shared<VitTinyImpl>(imageSize);
    }
    model->resetParameters(seed);
    return model;
}

std::int64_t countTrainableParameters(const torch::nn::Module &module) {
    std::int64_t count = 0;
    for (const auto &p : module.parameters()) {
        if (p.requires_grad()) {
            count += p.numel();
        }
    }
    return count;
}

} // namespace devicebench
