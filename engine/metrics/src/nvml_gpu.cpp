// SPDX-License-Identifier: MIT
#include "nvml_gpu.h"

#include "devicebench/dynamic_symbol.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace devicebench::detail {
namespace {

using nvml::NVML_ERROR_INVALID_ARGUMENT;
using nvml::NVML_ERROR_NOT_FOUND;
using nvml::NVML_SUCCESS;
using nvml::nvmlReturn_t;

constexpr const char *kDefaultLibrary = "libnvidia-ml.so.1";

// "1 GPU", "2 GPUs".
std::string gpusText(unsigned int count) {
    return std::to_string(count) + (count == 1 ? " GPU" : " GPUs");
}

} // namespace

std::unique_ptr<NvmlGpu> NvmlGpu::open(const std::string &library, int index,
                                       const std::string &pciBusId, std::string *why) {
    std::unique_ptr<NvmlGpu> gpu(new NvmlGpu());
    std::string reason;
    if (!gpu->load(library, &reason) || !gpu->findDevice(index, pciBusId, &reason)) {
        if (why != nullptr)
            *why = reason;
        return nullptr; // gpu's destructor shuts NVML down and unloads it
    }
    gpu->findQuantities();
    return gpu;
}

NvmlGpu::~NvmlGpu() {
    if (m_initialised)
        m_shutdown();
    if (m_library != nullptr)
        dlclose(m_library);
}

// dlopen and nvmlInit_v2.
bool NvmlGpu::load(const std::string &library, std::string *why) {
    m_libraryName = library;
    m_library = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (m_library == nullptr) {
        const char *error = dlerror();
        const std::string text = error != nullptr ? error : "";
        *why = text.empty() || text.find("No such file") != std::string::npos
                   ? "no NVIDIA driver (" + library + " not found)"
                   : "cannot load " + library + ": " + text;
        return false;
    }
    const auto init = lookUpFunction<nvml::nvmlInit_v2_t>(m_library, "nvmlInit_v2");
    m_shutdown = lookUpFunction<nvml::nvmlShutdown_t>(m_library, "nvmlShutdown");
    m_errorString = lookUpFunction<nvml::nvmlErrorString_t>(m_library, "nvmlErrorString");
    if (init == nullptr || m_shutdown == nullptr) {
        *why = library + " has no " + (init == nullptr ? "nvmlInit_v2" : "nvmlShutdown");
        return false;
    }
    const nvmlReturn_t result = init();
    if (result != NVML_SUCCESS) {
        *why = "nvmlInit_v2 failed: " + errorText(result);
        return false;
    }
    m_initialised = true;
    return true;
}

// The device's handle, by PCI bus id or by index. An index past the count NVML reports is not
// asked for (NVML would answer INVALID_ARGUMENT).
bool NvmlGpu::findDevice(int index, const std::string &pciBusId, std::string *why) {
    const bool byBusId = !pciBusId.empty();
    const char *function =
        byBusId ? "nvmlDeviceGetHandleByPciBusId_v2" : "nvmlDeviceGetHandleByIndex_v2";
    if (dlsym(m_library, function) == nullptr) {
        *why = m_libraryName + " has no " + function;
        return false;
    }
    const auto getCount =
        lookUpFunction<nvml::nvmlDeviceGetCount_v2_t>(m_library, "nvmlDeviceGetCount_v2");
    unsigned int count = 0;
    const bool counted = getCount != nullptr && getCount(&count) == NVML_SUCCESS;
    nvmlReturn_t result = NVML_ERROR_INVALID_ARGUMENT;
    if (byBusId) {
        const auto byId =
            lookUpFunction<nvml::nvmlDeviceGetHandleByPciBusId_v2_t>(m_library, function);
        result = byId(pciBusId.c_str(), &m_device);
    } else if (index >= 0 && (!counted || static_cast<unsigned int>(index) < count)) {
        const auto byIndex =
            lookUpFunction<nvml::nvmlDeviceGetHandleByIndex_v2_t>(m_library, function);
        result = byIndex(static_cast<unsigned int>(index), &m_device);
    }
    if (result == NVML_SUCCESS)
        return true;
    const std::string which = byBusId ? "PCI bus id " + pciBusId : "index " + std::to_string(index);
    if (result == NVML_ERROR_INVALID_ARGUMENT || result == NVML_ERROR_NOT_FOUND)
        *why = "NVML finds no GPU with " + which + (counted ? " (" + gpusText(count) + ")" : "");
    else
        *why = std::string(function) + " failed for " + which + ": " + errorText(result);
    return false;
}

// The name, the quantities' functions, and whether the energy counter answers.
void NvmlGpu::findQuantities() {
    const auto getName = lookUpFunction<nvml::nvmlDeviceGetName_t>(m_library, "nvmlDeviceGetName");
    char name[nvml::kDeviceNameBufferSize] = {};
    if (getName != nullptr && getName(m_device, name, sizeof name) == NVML_SUCCESS)
        m_name.assign(name, strnlen(name, sizeof name));
    find(m_utilization, "nvmlDeviceGetUtilizationRates", "gpu utilization");
    find(m_memory, "nvmlDeviceGetMemoryInfo", "gpu memory");
    find(m_power, "nvmlDeviceGetPowerUsage", "gpu power");
    find(m_energy, "nvmlDeviceGetTotalEnergyConsumption", "gpu energy");
    if (m_energy.function != nullptr) {
        unsigned long long millijoules = 0;
        const nvmlReturn_t result = m_energy.function(m_device, &millijoules);
        m_hasEnergyCounter = result == NVML_SUCCESS;
        if (!m_hasEnergyCounter)
            stopReading(m_energy, result, "not read");
    }
}

GpuReading NvmlGpu::read(std::vector<std::string> *notes) {
    GpuReading reading;
    reading.utilization = take<nvml::nvmlUtilization_t>(
        m_utilization, [](const nvml::nvmlUtilization_t &rates) { return rates.gpu / 100.0; },
        notes);
    reading.memoryBytes = take<nvml::nvmlMemory_t>(
        m_memory, [](const nvml::nvmlMemory_t &memory) { return static_cast<double>(memory.used); },
        notes);
    reading.powerWatts = take<unsigned int>(
        m_power, [](unsigned int milliwatts) { return milliwatts / 1000.0; }, notes);
    reading.energyJoules = take<unsigned long long>(
        m_energy,
        [](unsigned long long millijoules) { return static_cast<double>(millijoules) / 1000.0; },
        notes);
    return reading;
}

// nvmlErrorString's text ("Unknown Error"); "NVML error <code>" without that function.
std::string NvmlGpu::errorText(nvmlReturn_t result) const {
    const char *text = m_errorString != nullptr ? m_errorString(result) : nullptr;
    return text != nullptr ? text : "NVML error " + std::to_string(static_cast<int>(result));
}

template <typename Function>
void NvmlGpu::find(Quantity<Function> &quantity, const char *functionName, const char *label) {
    quantity.function = lookUpFunction<Function>(m_library, functionName);
    quantity.functionName = functionName;
    quantity.label = label;
    if (quantity.function == nullptr)
        quantity.why = m_libraryName + " has no " + functionName + "; not read";
}

template <typename Function>
void NvmlGpu::stopReading(Quantity<Function> &quantity, nvmlReturn_t result, const char *then) {
    quantity.function = nullptr;
    quantity.why =
        std::string(quantity.functionName) + " failed: " + errorText(result) + "; " + then;
}

// The quantity's function called on the device with a fresh Value, converted; NaN when the
// quantity is not read, noted the first time.
template <typename Value, typename Function, typename Convert>
double NvmlGpu::take(Quantity<Function> &quantity, Convert convert,
                     std::vector<std::string> *notes) {
    double value = kNotSampled;
    if (quantity.function != nullptr) {
        Value raw{};
        const nvmlReturn_t result = quantity.function(m_device, &raw);
        if (result == NVML_SUCCESS)
            value = convert(raw);
        else
            stopReading(quantity, result, "no longer read");
    }
    if (quantity.function == nullptr && !quantity.noted) {
        quantity.noted = true;
        if (notes != nullptr)
            notes->push_back(std::string(quantity.label) + ": " + quantity.why);
    }
    return value;
}

std::string nvmlLibraryName() {
    const char *library = std::getenv("DEVICEBENCH_NVML_LIBRARY");
    return library != nullptr && *library != '\0' ? library : kDefaultLibrary;
}

} // namespace devicebench::detail
