// SPDX-License-Identifier: MIT
// Which devices this LibTorch build can train on. LibTorch-free header.
// CUDA calls are made only after torch::cuda::is_available() says yes, so the same code
// builds and runs against CPU-only and CUDA builds of LibTorch.
#pragma once

#include <string>
#include <vector>

namespace devicebench {

struct DeviceInfo {
    std::string id;          // canonical: "cpu", "cuda:0", ...
    std::string name;        // "CPU (Intel Xeon ...)" or the GPU's name
    bool usable = false;     // can a run start on it
    std::string reason;      // why not, when !usable
};

// Every device a run could ask for: the CPU first, then each CUDA device. When CUDA is not
// usable, the list holds one entry with id "cuda", usable = false and the reason
// (see cudaUnavailableReason()).
std::vector<DeviceInfo> listDevices();

// Empty when at least one CUDA device is usable; otherwise a sentence saying why not
// (e.g. "this LibTorch was built without CUDA (CPU-only build, LibTorch 1.13.1)").
std::string cudaUnavailableReason();

// Normalises a device string: "cpu" -> "cpu", "cuda" -> "cuda:0", "cuda:N" -> "cuda:N".
// Throws std::invalid_argument naming the value and listing the devices that exist when the
// string is malformed (e.g. "gpu", ""), CUDA is unavailable, or index N does not exist.
std::string resolveDevice(const std::string &device);

// Number of cores this process may run on (sched_getaffinity), at least 1.
int availableCores();

} // namespace devicebench
