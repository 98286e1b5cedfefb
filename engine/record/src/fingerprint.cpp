// SPDX-License-Identifier: MIT
// The fingerprint's plain-C++ part: the machine label of charts. (The collection, which reads
// LibTorch's settings, is engine_device's fingerprint_collect.cpp.)
#include "devicebench/fingerprint.h"

#include "devicebench/display_text.h"

#include <array>
#include <cstdio>
#include <string>

namespace devicebench {

std::string gpuName(const Fingerprint &fingerprint, const std::string &device) {
    int index = -1;
    if (device == "cuda") {
        index = 0;
    } else if (device.rfind("cuda:", 0) == 0 && device.size() > 5 && device.size() <= 9 &&
               device.find_first_not_of("0123456789", 5) == std::string::npos) {
        index = std::stoi(device.substr(5));
    }
    for (const auto &gpu : fingerprint.gpus) {
        if (gpu.index == index && !gpu.name.empty())
            return gpu.name;
    }
    return {};
}

std::string machineLabel(const Fingerprint &fingerprint, const std::string &device, int threads) {
    // names from another machine: isolated, never obeyed (display_text.h)
    const std::string host =
        fingerprint.hostName.empty() ? "unknown host" : displayText(fingerprint.hostName);
    if (device == "cpu") {
        return "CPU x" + std::to_string(threads) + " @ " + host;
    }
    const std::string name = gpuName(fingerprint, device);
    return displayText(name.empty() ? device : name) + " @ " + host;
}

std::string cpuQuotaText(const Fingerprint &fingerprint) {
    const std::string &raw = fingerprint.cpuQuota;
    if (raw.empty()) {
        return "none found";
    }
    const std::string v1 = " (cgroup v1)";
    const bool isV1 =
        raw.size() > v1.size() && raw.compare(raw.size() - v1.size(), v1.size(), v1) == 0;
    if (raw.rfind("max", 0) == 0 && (raw.size() == 3 || raw[3] == ' ')) {
        return isV1 ? "no limit (cgroup v1 cpu.cfs_quota_us: -1)"
                    : "no limit (cgroup v2 cpu.max: " + raw + ")";
    }
    if (fingerprint.cpuQuotaCores > 0.0) {
        std::array<char, 64> cores{};
        std::snprintf(cores.data(), cores.size(), "%.2f", fingerprint.cpuQuotaCores);
        return std::string(cores.data()) + " cores (" + raw + ")";
    }
    return raw;
}

} // namespace devicebench
