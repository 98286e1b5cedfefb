// SPDX-License-Identifier: MIT
// Engine-internal (train): re-initialises a model's layers the way LibTorch initialises them at
// construction, for ImageClassifierImpl::resetParameters of resnet18 and vit-tiny (models.h).
#pragma once

#include <torch/torch.h>

namespace devicebench::detail {

// Every Conv2d, Linear, BatchNorm2d and LayerNorm under `root` (not root itself), in the order
// Module::modules() lists them (depth first, in registration order, so the same for every
// build of the same model), gets its layer's own reset_parameters(): Conv2d and Linear weights
// kaiming_uniform_(a = sqrt(5)) and biases uniform in +-1/sqrt(fan_in); batch norm scale 1,
// shift 0 and running statistics reset; layer norm scale 1, shift 0. Draws from LibTorch's
// global CPU generator: seed it first (torch::manual_seed). Parameters of other modules are
// left to the caller.
inline void resetLayersToLibTorchDefaults(torch::nn::Module &root) {
    torch::NoGradGuard noGrad;
    for (const auto &module : root.modules(/*include_self=*/false)) {
        if (auto *conv = dynamic_cast<torch::nn::Conv2dImpl *>(module.get())) {
            conv->reset_parameters();
        } else if (auto *linear = dynamic_cast<torch::nn::LinearImpl *>(module.get())) {
            linear->reset_parameters();
        } else if (auto *batchNorm = dynamic_cast<torch::nn::BatchNorm2dImpl *>(module.get())) {
            batchNorm->reset_parameters();
        } else if (auto *layerNorm = dynamic_cast<torch::nn::LayerNormImpl *>(module.get())) {
            layerNorm->reset_parameters();
        }
    }
}

} // namespace devicebench::detail
