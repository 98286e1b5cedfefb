// SPDX-License-Identifier: MIT
#include "devicebench/devices.h"

#include "devicebench/cuda_driver.h"

#include "fingerprint_internal.h"

#include <ATen/Version.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/cuda.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <sched.h>

#include <chrono>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace devicebench {

bool detail::builtWithCuda() {
    // at::show_config() lists the build settings of this LibTorch ("USE_CUDA=ON" or "OFF");
    // it exists in 1.13 and 2.x alike and never touches a device.
    return at::show_config().find("USE_CUDA=ON") != std::string::npos;
}

namespace {

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos && colon + 2 <= line.size()) {
                return line.substr(colon + 2);
            }
        }
    }
    return "unknown CPU";
}

std::string existingDevicesText() {
    std::string text = "devices that exist here: cpu";
    if (torch::cuda::is_available()) {
        const auto count = static_cast<int>(torch::cuda::device_count());
        for (int i = 0; i < count; ++i) {
            text += ", cuda:" + std::to_string(i);
        }
    } else {
        text += " (no CUDA: " + cudaUnavailableReason() + ")";
    }
    return text;
}

// The CUDA this LibTorch was built for (1000 * major + 10 * minor): its runtime's answer, else
// the table of PyPI wheels; 0 when neither knows. Only asked of a CUDA build.
int libtorchCuda() {
    try {
        const long version = at::detail::getCUDAHooks().versionCUDART();
        if (version > 0)
            return static_cast<int>(version);
    } catch (const std::exception &) {
    }
    const TorchCudaPin *pin = findTorchCudaPin(TORCH_VERSION);
    return pin != nullptr ? pin->cuda : 0;
}

} // namespace

int cudaDeviceCount() {
    return torch::cuda::is_available() ? static_cast<int>(torch::cuda::device_count()) : 0;
}

double startDevice(const std::string &id) {
    const torch::Device device(id);
    if (!device.is_cuda()) {
        return 0.0;
    }
    const auto t0 = std::chrono::steady_clock::now();
    try {
        // The allocation makes the device current and creates its context; the fill kernel
        // loads the module; the synchronisation waits for both.
        const auto one = torch::zeros({1}, torch::TensorOptions().device(device));
        torch::cuda::synchronize(device.index());
    } catch (const c10::Error &e) {
        throw std::runtime_error(e.what_without_backtrace());
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int availableCores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        const int count = CPU_COUNT(&set);
        if (count > 0) {
            return count;
        }
    }
    const unsigned hw = std::thread::hardware_concurrency();
    return hw > 0 ? static_cast<int>(hw) : 1;
}

std::string cudaUnavailableReason() {
    if (torch::cuda::is_available()) {
        return {};
    }
    if (!detail::builtWithCuda()) {
        return std::string("this LibTorch (") + TORCH_VERSION +
               ") was built without CUDA; the GPU build of DeviceBench: DEVICEBENCH_PRESET=cuda "
               "scripts/run.sh (docs/GPU.md)";
    }
    return cudaBuildUnusableReason(TORCH_VERSION, libtorchCuda(), readCudaDriver());
}

std::vector<DeviceInfo> listDevices() { return listDevices(probeDevice); }

std::vector<DeviceInfo> listDevices(const DeviceProbe &probe) {
    // A device is offered only after its probe passed (MEASURING.md, lesson 3).
    auto probed = [&probe](const std::string &id, std::string name) {
        DeviceInfo info;
        info.id = id;
        info.name = std::move(name);
        try {
            info.probe = probe(id);
        } catch (const c10::Error &e) {
            info.probe = ProbeResult{};
            info.probe.error = e.what_without_backtrace();
        } catch (const std::exception &e) {
            info.probe = ProbeResult{};
            info.probe.error = e.what();
        }
        info.probe.device = id;
        info.usable = info.probe.usable;
        if (!info.usable) {
            info.reason = info.probe.error.empty() ? "the device probe failed without a message"
                                                   : info.probe.error;
        }
        return info;
    };
    std::vector<DeviceInfo> devices;
    devices.push_back(probed("cpu", "CPU (" + cpuModel() + ")"));
    if (torch::cuda::is_available()) {
        // GPU names come from the CUDA driver (the fingerprint), as LibTorch's C++ API has
        // none; the device probe (run on the device) is what proves a GPU usable.
        const Fingerprint fingerprint = collectFingerprint();
        const auto count = static_cast<int>(torch::cuda::device_count());
        for (int i = 0; i < count; ++i) {
            std::string name = "CUDA device " + std::to_string(i);
            for (const auto &gpu : fingerprint.gpus) {
                if (gpu.index == i && !gpu.name.empty()) {
                    name = gpu.name;
                }
            }
            devices.push_back(probed("cuda:" + std::to_string(i), std::move(name)));
        }
    } else {
        DeviceInfo cuda;
        cuda.id = "cuda";
        cuda.name = "CUDA";
        cuda.usable = false;
        cuda.reason = cudaUnavailableReason();
        devices.push_back(cuda);
    }
    return devices;
}

std::string resolveDevice(const std::string &device) {
    if (device == "cpu") {
        return "cpu";
    }
    std::string index;
    if (device == "cuda") {
        index = "0";
    } else if (device.rfind("cuda:", 0) == 0) {
        index = device.substr(5);
    } else {
        throw std::invalid_argument("unknown device '" + device + "': use cpu, cuda or cuda:N; " +
                                    existingDevicesText());
    }
    if (index.empty() || index.size() > 4 ||
        index.find_first_not_of("0123456789") != std::string::npos) {
        throw std::invalid_argument("unknown device '" + device + "': use cpu, cuda or cuda:N; " +
                                    existingDevicesText());
    }
    if (!torch::cuda::is_available()) {
        throw std::invalid_argument("device '" + device + "' is not available: " +
                                    cudaUnavailableReason() + "; devices that exist here: cpu");
    }
    const int n = std::stoi(index);
    if (n >= static_cast<int>(torch::cuda::device_count())) {
        throw std::invalid_argument("device '" + device + "' does not exist; " +
                                    existingDevicesText());
    }
    return "cuda:" + std::to_string(n);
}

} // namespace devicebench
