// SPDX-License-Identifier: MIT
#include "autocast.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

// set_autocast_enabled(device_type, ...) and friends: LibTorch 2.4 and later.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
#define DEVICEBENCH_AUTOCAST_BY_DEVICE_TYPE 1
#else
#define DEVICEBENCH_AUTOCAST_BY_DEVICE_TYPE 0
#endif

namespace devicebench::detail {

namespace {

void setEnabled(c10::DeviceType device, bool enabled) {
#if DEVICEBENCH_AUTOCAST_BY_DEVICE_TYPE
    at::autocast::set_autocast_enabled(device, enabled);
#else
    if (device == c10::DeviceType::CPU)
        at::autocast::set_cpu_enabled(enabled);
    else
        at::autocast::set_enabled(enabled);
#endif
}

void setDtype(c10::DeviceType device, c10::ScalarType dtype) {
#if DEVICEBENCH_AUTOCAST_BY_DEVICE_TYPE
    at::autocast::set_autocast_dtype(device, dtype);
#else
    if (device == c10::DeviceType::CPU)
        at::autocast::set_autocast_cpu_dtype(dtype);
    else
        at::autocast::set_autocast_gpu_dtype(dtype);
#endif
}

} // namespace

c10::ScalarType lowerPrecisionType(Precision precision) {
    switch (precision) {
    case Precision::BFloat16:
        return c10::ScalarType::BFloat16;
    case Precision::Float16:
        return c10::ScalarType::Half;
    case Precision::Float32:
        break;
    }
    return c10::ScalarType::Float;
}

bool autocastEnabled(c10::DeviceType device) {
#if DEVICEBENCH_AUTOCAST_BY_DEVICE_TYPE
    return at::autocast::is_autocast_enabled(device);
#else
    return device == c10::DeviceType::CPU ? at::autocast::is_cpu_enabled()
                                          : at::autocast::is_enabled();
#endif
}

c10::ScalarType autocastDtype(c10::DeviceType device) {
#if DEVICEBENCH_AUTOCAST_BY_DEVICE_TYPE
    return at::autocast::get_autocast_dtype(device);
#else
    return device == c10::DeviceType::CPU ? at::autocast::get_autocast_cpu_dtype()
                                          : at::autocast::get_autocast_gpu_dtype();
#endif
}

std::string autocastProblem(c10::DeviceType device, c10::ScalarType dtype) {
    const std::string version =
        std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR);
    if (device != c10::DeviceType::CPU && device != c10::DeviceType::CUDA)
        return "this tool autocasts the CPU and CUDA devices only";
    if (dtype != c10::ScalarType::BFloat16 && dtype != c10::ScalarType::Half)
        return "autocast lowers to bfloat16 or float16 only";
    if (device == c10::DeviceType::CPU && dtype == c10::ScalarType::Half && TORCH_VERSION_MAJOR < 2)
        return "this LibTorch (" + version + ") cannot autocast the CPU to float16";
    return {};
}

AutocastScope::AutocastScope(c10::DeviceType device, c10::ScalarType dtype, bool cacheEnabled)
    : m_device(device), m_wasEnabled(autocastEnabled(device)),
      m_previousDtype(autocastDtype(device)),
      m_previousCache(at::autocast::is_autocast_cache_enabled()) {
    setEnabled(device, true);
    setDtype(device, dtype);
    at::autocast::set_autocast_cache_enabled(cacheEnabled);
    at::autocast::increment_nesting();
}

AutocastScope::~AutocastScope() {
    if (at::autocast::decrement_nesting() == 0)
        at::autocast::clear_cache();
    at::autocast::set_autocast_cache_enabled(m_previousCache);
    setDtype(m_device, m_previousDtype);
    setEnabled(m_device, m_wasEnabled);
}

} // namespace devicebench::detail
