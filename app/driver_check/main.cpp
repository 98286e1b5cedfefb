// SPDX-License-Identifier: MIT
// devicebench-driver-check: says whether the NVIDIA driver here runs a PyTorch wheel's CUDA,
// before anything is downloaded or built (scripts/preset.sh compiles this file and
// engine/device/src/cuda_driver.cpp alone, with no CMake, and chooses the preset by its exit
// status).
//   devicebench-driver-check [--torch VERSION]    (default: the newest torch of the table)
// Prints what was found on the first line, the ways forward (when there are) on the second.
// Exit status: 0 the driver fits, 10 no NVIDIA driver, 11 a driver that cannot answer,
// 12 a driver too old for that torch's CUDA, 2 a bad argument or a torch not in the table.
#include "devicebench/cuda_driver.h"

#include <iostream>
#include <string>

using namespace devicebench;

namespace {

int statusOf(DriverFit fit) {
    switch (fit) {
    case DriverFit::Fits:
        return 0;
    case DriverFit::None:
        return 10;
    case DriverFit::Unusable:
        return 11;
    case DriverFit::TooOld:
        return 12;
    }
    return 11;
}

std::string knownTorches() {
    std::string list;
    for (const TorchCudaPin &pin : torchCudaPins())
        list += (list.empty() ? "" : ", ") + pin.torch;
    return list;
}

} // namespace

int main(int argc, char **argv) {
    std::string torch = torchCudaPins().front().torch;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--torch" && i + 1 < argc) {
            torch = argv[++i];
        } else {
            std::cerr << "devicebench-driver-check: unknown argument '" << arg
                      << "'; usage: devicebench-driver-check [--torch VERSION]\n";
            return 2;
        }
    }
    const TorchCudaPin *pin = findTorchCudaPin(torch);
    if (pin == nullptr) {
        std::cerr << "devicebench-driver-check: torch '" << torch
                  << "' is not in DeviceBench's table of PyPI wheels and their CUDA "
                     "(engine/device/src/torch_cuda_pins.inc): "
                  << knownTorches() << "\n";
        return 2;
    }
    const DriverVerdict verdict = judgeCudaDriver(readCudaDriver(), pin->torch, pin->cuda);
    std::cout << verdict.found << "\n";
    if (!verdict.advice.empty())
        std::cout << verdict.advice << "\n";
    return statusOf(verdict.fit);
}
