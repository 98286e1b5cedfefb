// SPDX-License-Identifier: MIT
// Test support: a stand-in for libnvidia-ml.so.1 with the functions nvml_api.h names, built as a
// shared library by tests/metrics/CMakeLists.txt. What it answers: fake_nvml.h. Compile
// definitions leave functions out: FAKE_NVML_WITHOUT_ENERGY (nvmlDeviceGetTotalEnergyConsumption),
// FAKE_NVML_WITHOUT_INIT (nvmlInit_v2).
#include "fake_nvml.h"
#include "nvml_api.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

using namespace devicebench::nvml;
namespace fake = devicebench::testing::fake_nvml;

struct devicebench::nvml::nvmlDevice_st {
    unsigned int index;
};

namespace {

nvmlDevice_st gDevices[fake::kMaxGpus] = {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}};
bool gInitialised = false;

std::map<std::string, unsigned long long> &calls() {
    static std::map<std::string, unsigned long long> counts;
    return counts;
}

// FAKE_NVML_FAIL names `function`.
bool failing(const char *function) {
    const char *names = std::getenv("FAKE_NVML_FAIL");
    std::istringstream list(names != nullptr ? names : "");
    std::string name;
    while (std::getline(list, name, ','))
        if (name == function)
            return true;
    return false;
}

unsigned int gpuCount() {
    const char *count = std::getenv("FAKE_NVML_COUNT");
    const unsigned long value = count != nullptr ? std::strtoul(count, nullptr, 10) : 1;
    return value < fake::kMaxGpus ? static_cast<unsigned int>(value) : fake::kMaxGpus;
}

// Counts the call of `function` and answers what the environment asks: n, the calls before
// this one, in *n; an error, or NVML_ERROR_UNINITIALIZED outside nvmlInit_v2..nvmlShutdown.
nvmlReturn_t enter(const char *function, unsigned long long *n = nullptr) {
    const unsigned long long before = calls()[function]++;
    if (n != nullptr)
        *n = before;
    if (failing(function)) {
        const char *error = std::getenv("FAKE_NVML_ERROR");
        return static_cast<nvmlReturn_t>(error != nullptr ? std::atoi(error) : NVML_ERROR_UNKNOWN);
    }
    return gInitialised ? NVML_SUCCESS : NVML_ERROR_UNINITIALIZED;
}

} // namespace

extern "C" {

unsigned long long fakeNvmlCalls(const char *function) { return calls()[function]; }

#ifndef FAKE_NVML_WITHOUT_INIT
nvmlReturn_t nvmlInit_v2() {
    const unsigned long long shutdowns = calls()["nvmlShutdown"];
    calls().clear();
    calls()["nvmlShutdown"] = shutdowns;
    gInitialised = true; // so that enter() answers success unless FAKE_NVML_FAIL names it
    const nvmlReturn_t result = enter("nvmlInit_v2");
    gInitialised = result == NVML_SUCCESS;
    return result;
}
#endif

nvmlReturn_t nvmlShutdown() {
    const nvmlReturn_t result = enter("nvmlShutdown");
    gInitialised = false;
    return result;
}

const char *nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
    case NVML_SUCCESS:
        return "Success";
    case NVML_ERROR_UNINITIALIZED:
        return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT:
        return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED:
        return "Not Supported";
    case NVML_ERROR_NOT_FOUND:
        return "Not Found";
    case NVML_ERROR_DRIVER_NOT_LOADED:
        return "Driver Not Loaded";
    default:
        return "Unknown Error";
    }
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount) {
    const nvmlReturn_t result = enter("nvmlDeviceGetCount_v2");
    if (result == NVML_SUCCESS)
        *deviceCount = gpuCount();
    return result;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    const nvmlReturn_t result = enter("nvmlDeviceGetHandleByIndex_v2");
    if (result != NVML_SUCCESS)
        return result;
    if (index >= gpuCount())
        return NVML_ERROR_INVALID_ARGUMENT;
    *device = &gDevices[index];
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device) {
    const nvmlReturn_t result = enter("nvmlDeviceGetHandleByPciBusId_v2");
    if (result != NVML_SUCCESS)
        return result;
    for (unsigned int i = 0; i < gpuCount(); ++i) {
        if (fake::fakePciBusId(i) == pciBusId) {
            *device = &gDevices[i];
            return NVML_SUCCESS;
        }
    }
    return NVML_ERROR_NOT_FOUND;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    const nvmlReturn_t result = enter("nvmlDeviceGetName");
    if (result == NVML_SUCCESS) {
        const std::string text = "Fake GPU " + std::to_string(device->index);
        std::strncpy(name, text.c_str(), length);
        name[length - 1] = '\0';
    }
    return result;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t, nvmlUtilization_t *utilization) {
    unsigned long long n = 0;
    const nvmlReturn_t result = enter("nvmlDeviceGetUtilizationRates", &n);
    if (result == NVML_SUCCESS)
        *utilization = {fake::kUtilizationPercent + static_cast<unsigned int>(n), 0};
    return result;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t, nvmlMemory_t *memory) {
    unsigned long long n = 0;
    const nvmlReturn_t result = enter("nvmlDeviceGetMemoryInfo", &n);
    if (result == NVML_SUCCESS) {
        const unsigned long long used = fake::kMemoryUsedBytes + n * fake::kMemoryStepBytes;
        *memory = {fake::kMemoryTotalBytes, fake::kMemoryTotalBytes - used, used};
    }
    return result;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t, unsigned int *power) {
    unsigned long long n = 0;
    const nvmlReturn_t result = enter("nvmlDeviceGetPowerUsage", &n);
    if (result == NVML_SUCCESS)
        *power = fake::kPowerMilliwatts + static_cast<unsigned int>(n) * fake::kPowerStepMilliwatts;
    return result;
}

#ifndef FAKE_NVML_WITHOUT_ENERGY
nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t, unsigned long long *energy) {
    unsigned long long n = 0;
    const nvmlReturn_t result = enter("nvmlDeviceGetTotalEnergyConsumption", &n);
    if (result == NVML_SUCCESS)
        *energy = fake::kEnergyMillijoules + n * fake::kEnergyStepMillijoules;
    return result;
}
#endif

} // extern "C"
