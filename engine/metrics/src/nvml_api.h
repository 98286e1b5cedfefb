// SPDX-License-Identifier: MIT
// Engine-internal (metrics): the few NVML types and functions the sampler uses, declared here
// so that no NVML header is needed to build; the library itself is loaded at run time
// (nvml_gpu.h). Names, values, layouts and signatures are NVML's own, as in nvml.h of the CUDA
// toolkit and the NVML API Reference (https://docs.nvidia.com/deploy/nvml-api/): "Device
// Structs" (nvmlUtilization_t, nvmlMemory_t: the v1 struct that nvmlDeviceGetMemoryInfo
// fills), "Error reporting" (nvmlReturn_t), "Initialization and Cleanup", "Device Queries".
// They sit in a namespace so that they cannot clash with a real nvml.h.
#pragma once

namespace devicebench::nvml {

// A C enum in nvml.h, so int-sized; only the values this project names are listed.
enum nvmlReturn_t : int {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_UNKNOWN = 999,
};

// Opaque device handle (nvml.h: typedef struct nvmlDevice_st *nvmlDevice_t).
struct nvmlDevice_st;
using nvmlDevice_t = nvmlDevice_st *;

// Percent of the last sample period (1/6 s to 1 s, by product) during which a kernel ran (gpu)
// or device memory was read or written (memory).
struct nvmlUtilization_t {
    unsigned int gpu;
    unsigned int memory;
};

// Device memory in bytes; used includes what the driver sets aside.
struct nvmlMemory_t {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};

// nvmlDeviceGetName's buffer size that always suffices (NVML_DEVICE_NAME_V2_BUFFER_SIZE).
inline constexpr unsigned int kDeviceNameBufferSize = 96;

// The functions, as pointers to what dlsym finds under the name after `nvml`.
using nvmlInit_v2_t = nvmlReturn_t (*)();
using nvmlShutdown_t = nvmlReturn_t (*)();
using nvmlErrorString_t = const char *(*)(nvmlReturn_t result);
using nvmlDeviceGetCount_v2_t = nvmlReturn_t (*)(unsigned int *deviceCount);
using nvmlDeviceGetHandleByIndex_v2_t = nvmlReturn_t (*)(unsigned int index, nvmlDevice_t *device);
// pciBusId: hexadecimal "domain:bus:device.function" ("00000000:3B:00.0"; CUDA's "0000:3b:00.0"
// reads too), "domain:bus:device" or "bus:device.function".
using nvmlDeviceGetHandleByPciBusId_v2_t = nvmlReturn_t (*)(const char *pciBusId,
                                                            nvmlDevice_t *device);
using nvmlDeviceGetName_t = nvmlReturn_t (*)(nvmlDevice_t device, char *name, unsigned int length);
using nvmlDeviceGetUtilizationRates_t = nvmlReturn_t (*)(nvmlDevice_t device,
                                                         nvmlUtilization_t *utilization);
using nvmlDeviceGetMemoryInfo_t = nvmlReturn_t (*)(nvmlDevice_t device, nvmlMemory_t *memory);
// Board power in milliwatts (averaged over 1 s on Ampere and later but GA100).
using nvmlDeviceGetPowerUsage_t = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int *power);
// Energy in millijoules since the driver was last loaded; Volta and later (NOT_SUPPORTED before).
using nvmlDeviceGetTotalEnergyConsumption_t = nvmlReturn_t (*)(nvmlDevice_t device,
                                                               unsigned long long *energy);

} // namespace devicebench::nvml
