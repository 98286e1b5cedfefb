// SPDX-License-Identifier: MIT
// What the parts of the training loop share (run_stop.h).
#include "run_stop.h"

#include <torch/cuda.h>
#include <torch/torch.h>

#include <sstream>
#include <string>

namespace devicebench::detail {

void synchronize(const torch::Device &device) {
    if (device.is_cuda()) {
        torch::cuda::synchronize(device.index());
    }
}

std::string formatNumber(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

} // namespace devicebench::detail
