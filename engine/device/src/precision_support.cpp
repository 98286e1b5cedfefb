// SPDX-License-Identifier: MIT
#include "devicebench/precision_support.h"

#include "devicebench/fingerprint.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace devicebench {

namespace {

// Every word of the "flags" lines (x86; "Features" on Arm is not read).
std::set<std::string> cpuFlags(const std::string &cpuinfoText) {
    std::set<std::string> flags;
    std::istringstream lines(cpuinfoText);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("flags", 0) != 0 || line.find(':') == std::string::npos)
            continue;
        std::istringstream words(line.substr(line.find(':') + 1));
        for (std::string word; words >> word;)
            flags.insert(word);
    }
    return flags;
}

std::string capability(int major, int minor) {
    return std::to_string(major) + "." + std::to_string(minor);
}

} // namespace

PrecisionSupport cpuPrecisionSupport(Precision precision, const std::string &cpuinfoText) {
    if (precision == Precision::Float32)
        return {};
    if (precision == Precision::Float16)
        return {false, "fp16 is not a CPU precision here (use bf16 on the CPU)"};
    const std::set<std::string> flags = cpuFlags(cpuinfoText);
    if (flags.empty())
        return {false, "bf16 support of this CPU is unknown (no flags in /proc/cpuinfo): it may "
                       "be emulated and slower than fp32"};
    std::string found;
    for (const char *flag : {"amx_bf16", "avx512_bf16"}) {
        if (flags.count(flag) != 0)
            found += (found.empty() ? "" : ", ") + std::string(flag);
    }
    if (!found.empty())
        return {true, "bf16 runs natively on this CPU (" + found + ")"};
    return {false, "bf16 is emulated on this CPU (no avx512_bf16 or amx_bf16 in /proc/cpuinfo): "
                   "expect it slower than fp32"};
}

PrecisionSupport cudaPrecisionSupport(Precision precision, int computeMajor, int computeMinor) {
    if (precision == Precision::Float32)
        return {};
    const char *name = shortName(precision);
    const int needed = precision == Precision::BFloat16 ? 8 : 7;
    if (computeMajor <= 0)
        return {false, std::string(name) + " support of this GPU is unknown (no compute "
                                           "capability): it may be emulated"};
    const std::string cc = capability(computeMajor, computeMinor);
    if (computeMajor >= needed)
        return {true,
                std::string(name) + " runs natively on this GPU (compute capability " + cc + ")"};
    return {false, std::string(name) + " is emulated on this GPU (compute capability " + cc +
                       ", native " + name + " needs " + std::to_string(needed) +
                       ".0): expect it slower than fp32"};
}

PrecisionSupport precisionSupport(Precision precision, const std::string &device) {
    if (precision == Precision::Float32)
        return {};
    if (device.rfind("cuda", 0) != 0) {
        std::ifstream in("/proc/cpuinfo");
        std::ostringstream text;
        text << in.rdbuf();
        return cpuPrecisionSupport(precision, text.str());
    }
    const std::size_t colon = device.find(':');
    const int index = colon == std::string::npos
                          ? 0
                          : static_cast<int>(std::strtol(device.c_str() + colon + 1, nullptr, 10));
    for (const GpuInfo &gpu : collectFingerprint().gpus) {
        if (gpu.index == index)
            return cudaPrecisionSupport(precision, gpu.computeMajor, gpu.computeMinor);
    }
    return cudaPrecisionSupport(precision, 0, 0);
}

Precision recipePrecision(const std::string &device) {
    if (device.rfind("cuda", 0) == 0)
        return Precision::Float16;
    return precisionSupport(Precision::BFloat16, device).native ? Precision::BFloat16
                                                                : Precision::Float32;
}

RunConfig withRecipePreset(RunConfig config) {
    const WorkloadRow &recipe = workloadRow(config.workload);
    if (!recipe.recipe())
        return config;
    config.model = recipe.recipeModel;
    config.imageSize = kDefaultImageSize;
    config.batchSize = recipe.defaultBatchSize;
    config.targetAccuracy = recipe.defaultTargetPercent;
    config.precision = recipePrecision("cpu");
    return config;
}

} // namespace devicebench
