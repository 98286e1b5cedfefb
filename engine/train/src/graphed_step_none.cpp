// SPDX-License-Identifier: MIT
// graphed_step.h in a build against a LibTorch without CUDA: no graphs.
#include "graphed_step.h"

#include <cstdint>
#include <memory>

namespace devicebench::detail {

bool cudaGraphsCompiledIn() { return false; }

std::unique_ptr<GraphedTrainStep> makeGraphedTrainStep(std::int64_t /*batchSize*/) {
    return nullptr;
}

} // namespace devicebench::detail
