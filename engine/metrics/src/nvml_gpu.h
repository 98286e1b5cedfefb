// SPDX-License-Identifier: MIT
// Engine-internal (metrics): one NVIDIA GPU read through NVML, which is loaded at run time
// (dlopen), so that the engine builds and runs without the NVIDIA driver. What the sampler
// takes from each reading: docs/MEASURING.md, "What a run costs".
#pragma once

#include "nvml_api.h"

#include "devicebench/system_metrics.h"

#include <memory>
#include <string>
#include <vector>

namespace devicebench::detail {

// One reading of the GPU. NaN: not read.
struct GpuReading {
    double utilization = kNotSampled;  // fraction 0..1 of the last period a kernel ran
    double memoryBytes = kNotSampled;  // device memory in use, all processes
    double powerWatts = kNotSampled;   // board power
    double energyJoules = kNotSampled; // the energy counter (since the driver was loaded)
};

// The GPU of a run, open through NVML. Not thread-safe: use it from one thread (the
// sampler's); several objects may be open at once (NVML counts its initialisations).
class NvmlGpu {
public:
    // dlopen(`library`) (a file name, searched as dlopen does, or a path), nvmlInit_v2, then
    // the device: by PCI bus id ("00000000:3B:00.0") when `pciBusId` is not empty, else by
    // `index`. nullptr when any step fails, with *why a short reason, e.g. "no NVIDIA driver
    // (libnvidia-ml.so.1 not found)", "libnvidia-ml.so.1 has no nvmlInit_v2", "nvmlInit_v2
    // failed: Driver Not Loaded", "NVML finds no GPU with index 3 (2 GPUs)". The functions of
    // the quantities are optional: one that is missing is only not read. NVML numbers GPUs in
    // PCI order and ignores CUDA_VISIBLE_DEVICES, so a CUDA device is best found by its bus id.
    static std::unique_ptr<NvmlGpu> open(const std::string &library, int index,
                                         const std::string &pciBusId, std::string *why);
    ~NvmlGpu(); // nvmlShutdown, dlclose
    NvmlGpu(const NvmlGpu &) = delete;
    NvmlGpu &operator=(const NvmlGpu &) = delete;

    // The product name ("NVIDIA H100 80GB HBM3"); "" when NVML cannot tell.
    const std::string &name() const { return m_name; }

    // Whether the GPU has a working energy counter: decided by open() (its first call
    // succeeded). Without one, integrate the power readings. A later failure of the counter
    // does not change this; read() then returns NaN energy and says so in a note.
    bool hasEnergyCounter() const { return m_hasEnergyCounter; }

    // One reading. A quantity whose function is missing or whose call fails is NaN from then
    // on (its function is not called again), and one note is appended to *notes the first
    // time, e.g. "gpu power: nvmlDeviceGetPowerUsage failed: Unknown Error; no longer read".
    // Never throws.
    GpuReading read(std::vector<std::string> *notes);

private:
    // One quantity: its NVML function (nullptr once it is not read), that function's name, the
    // quantity's name in notes, and why it is not read (noted once).
    template <typename Function> struct Quantity {
        Function function = nullptr;
        const char *functionName = "";
        const char *label = "";
        std::string why;
        bool noted = false;
    };

    NvmlGpu() = default;
    bool load(const std::string &library, std::string *why);
    bool findDevice(int index, const std::string &pciBusId, std::string *why);
    void findQuantities();
    std::string errorText(nvml::nvmlReturn_t result) const;
    template <typename Function>
    void find(Quantity<Function> &quantity, const char *functionName, const char *label);
    template <typename Function>
    void stopReading(Quantity<Function> &quantity, nvml::nvmlReturn_t result, const char *then);
    template <typename Value, typename Function, typename Convert>
    double take(Quantity<Function> &quantity, Convert convert, std::vector<std::string> *notes);

    void *m_library = nullptr;
    std::string m_libraryName;
    bool m_initialised = false;
    nvml::nvmlShutdown_t m_shutdown = nullptr;
    nvml::nvmlErrorString_t m_errorString = nullptr;
    nvml::nvmlDevice_t m_device = nullptr;
    std::string m_name;
    bool m_hasEnergyCounter = false;
    Quantity<nvml::nvmlDeviceGetUtilizationRates_t> m_utilization;
    Quantity<nvml::nvmlDeviceGetMemoryInfo_t> m_memory;
    Quantity<nvml::nvmlDeviceGetPowerUsage_t> m_power;
    Quantity<nvml::nvmlDeviceGetTotalEnergyConsumption_t> m_energy;
};

// The NVML library the sampler loads: $DEVICEBENCH_NVML_LIBRARY when set and not empty (tests,
// unusual installs), else "libnvidia-ml.so.1".
std::string nvmlLibraryName();

} // namespace devicebench::detail
