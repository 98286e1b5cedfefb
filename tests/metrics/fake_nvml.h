// SPDX-License-Identifier: MIT
// Test support: what the stand-in NVML library (fake_nvml.cpp; CMake targets
// devicebench_fake_nvml, devicebench_fake_nvml_no_energy) answers, for the tests that load it
// through DEVICEBENCH_NVML_LIBRARY.
//
// Read from the environment at every call:
//   FAKE_NVML_FAIL   comma-separated function names ("nvmlDeviceGetPowerUsage") that return
//                    FAKE_NVML_ERROR instead of their value
//   FAKE_NVML_ERROR  the nvmlReturn_t they return (default 999, "Unknown Error")
//   FAKE_NVML_COUNT  how many GPUs there are (default 1, at most kMaxGpus)
// GPU i is named "Fake GPU i" and sits at PCI bus id fakePciBusId(i). The n-th call (from 0) of
// a quantity's function since nvmlInit_v2 answers the values below; nvmlInit_v2 starts every
// count again. fakeNvmlCalls("name") (extern "C", found with dlsym) returns how often `name`
// ran since nvmlInit_v2 (a failing call counts; nvmlShutdown's count survives it).
#pragma once

#include <string>

namespace devicebench::testing::fake_nvml {

inline constexpr unsigned int kMaxGpus = 8;

// nvmlDeviceGetUtilizationRates: gpu kUtilizationPercent + n (percent), memory 0.
inline constexpr unsigned int kUtilizationPercent = 40;
// nvmlDeviceGetMemoryInfo: used kMemoryUsedBytes + n * kMemoryStepBytes of kMemoryTotalBytes.
inline constexpr unsigned long long kMemoryTotalBytes = 16ULL << 30;
inline constexpr unsigned long long kMemoryUsedBytes = 1ULL << 30;
inline constexpr unsigned long long kMemoryStepBytes = 1ULL << 20;
// nvmlDeviceGetPowerUsage: kPowerMilliwatts + n * kPowerStepMilliwatts.
inline constexpr unsigned int kPowerMilliwatts = 150000;
inline constexpr unsigned int kPowerStepMilliwatts = 1000;
// nvmlDeviceGetTotalEnergyConsumption: kEnergyMillijoules + n * kEnergyStepMillijoules.
inline constexpr unsigned long long kEnergyMillijoules = 7000000;
inline constexpr unsigned long long kEnergyStepMillijoules = 2500;

// "00000000:01:00.0" for GPU 0, "00000000:02:00.0" for GPU 1, ...
inline std::string fakePciBusId(unsigned int index) {
    return "00000000:0" + std::to_string(index + 1) + ":00.0";
}

} // namespace devicebench::testing::fake_nvml
