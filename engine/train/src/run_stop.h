// SPDX-License-Identifier: MIT
// Engine-internal (train): what the parts of the training loop share.
#pragma once

#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <string>

namespace devicebench::detail {

// Thrown inside the loop to leave it with a status other than Failed (Cancelled, Diverged);
// runTraining() turns it into the outcome.
struct RunStop {
    RunStatus status;
    std::string reason;
};

// GPU work is asynchronous: wait for it before every clock read that ends a timed region
// (MEASURING.md, Rules). A no-op on the CPU.
void synchronize(const torch::Device &device);

// `value` as the default stream formatting writes it ("0.01", "nan", "inf").
std::string formatNumber(double value);

} // namespace devicebench::detail
