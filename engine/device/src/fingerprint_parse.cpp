// SPDX-License-Identifier: MIT
// The text parsing behind the machine fingerprint (fingerprint_internal.h): CPU lists, cgroup
// quotas, CUDA and cuDNN version numbers. Plain C++.
#include "fingerprint_internal.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

namespace devicebench {
namespace detail {

std::string formatCpuList(std::vector<int> cpus) {
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    std::string text;
    std::size_t i = 0;
    while (i < cpus.size()) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) {
            ++j;
        }
        if (!text.empty()) {
            text += ',';
        }
        text += std::to_string(cpus[i]);
        if (j > i) {
            text += '-' + std::to_string(cpus[j]);
        }
        i = j + 1;
    }
    return text;
}

double parseCpuMax(const std::string &text) {
    std::istringstream in(text);
    std::string quota;
    std::string period;
    if (!(in >> quota >> period) || quota == "max") {
        return 0.0;
    }
    try {
        std::size_t usedQuota = 0;
        std::size_t usedPeriod = 0;
        const double q = std::stod(quota, &usedQuota);
        const double p = std::stod(period, &usedPeriod);
        if (usedQuota != quota.size() || usedPeriod != period.size() || !std::isfinite(q) ||
            !std::isfinite(p) || q <= 0.0 || p <= 0.0) {
            return 0.0;
        }
        return q / p;
    } catch (const std::exception &) {
        return 0.0;
    }
}

std::string cgroupV2Path(const std::string &procSelfCgroup) {
    std::istringstream in(procSelfCgroup);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("0::", 0) == 0) {
            return line.substr(3);
        }
    }
    return {};
}

CgroupV1Cpu cgroupV1CpuPath(const std::string &procSelfCgroup) {
    std::istringstream in(procSelfCgroup);
    std::string line;
    while (std::getline(in, line)) {
        // "<id>:<controller,controller>:<path>"
        const auto first = line.find(':');
        const auto second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos) {
            continue;
        }
        const std::string controllers = line.substr(first + 1, second - first - 1);
        std::istringstream list(controllers);
        std::string controller;
        while (std::getline(list, controller, ',')) {
            if (controller == "cpu") {
                return {controllers, line.substr(second + 1)};
            }
        }
    }
    return {};
}

std::string formatCudnnVersion(long version) {
    if (version <= 0) {
        return {};
    }
    const long majorUnit = version >= 10000 ? 10000 : 1000;
    return std::to_string(version / majorUnit) + "." + std::to_string((version % majorUnit) / 100) +
           "." + std::to_string(version % 100);
}

} // namespace detail

} // namespace devicebench
