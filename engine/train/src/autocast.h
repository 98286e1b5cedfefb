// SPDX-License-Identifier: MIT
// Engine-internal (train): LibTorch's autocast in one small shim over its two C++ APIs.
// LibTorch 1.13 has one pair of calls per device kind (set_cpu_enabled / set_autocast_cpu_dtype
// for the CPU, set_enabled / set_autocast_gpu_dtype for CUDA); 2.4 and later take the device
// type (set_autocast_enabled(type, on), set_autocast_dtype(type, dtype)) and deprecate the old
// ones. Tested in both builds (tests/engine/precision_test.cpp).
#pragma once

#include "devicebench/run_types.h"

#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>

#include <string>

namespace devicebench::detail {

// Autocast on for `device` to `dtype` while the scope lives, as Python's `torch.autocast`:
// entering saves the thread's autocast state and increments the nesting; leaving decrements it,
// clears the cast cache when the outermost scope ends (so cast weights never outlive a step: an
// unbalanced nesting never clears it, and the cached casts pile up step after step) and
// restores the saved state.
// `cacheEnabled` false: no cast cache (a CUDA graph capture needs that).
class AutocastScope {
public:
    AutocastScope(c10::DeviceType device, c10::ScalarType dtype, bool cacheEnabled = true);
    ~AutocastScope();
    AutocastScope(const AutocastScope &) = delete;
    AutocastScope &operator=(const AutocastScope &) = delete;

private:
    c10::DeviceType m_device;
    bool m_wasEnabled;
    c10::ScalarType m_previousDtype;
    bool m_previousCache;
};

// The type autocast lowers to for `precision`: BFloat16 or Half (Float32 has none: Float).
c10::ScalarType lowerPrecisionType(Precision precision);

// Whether autocast is on for `device` on this thread now, and to which type.
bool autocastEnabled(c10::DeviceType device);
c10::ScalarType autocastDtype(c10::DeviceType device);

// "" when this LibTorch can autocast `device` to `dtype`; otherwise why not, in a sentence
// ("this LibTorch (1.13) cannot autocast the CPU to float16"). CPU: bfloat16 (float16 from
// 2.x); CUDA: bfloat16 and float16.
std::string autocastProblem(c10::DeviceType device, c10::ScalarType dtype);

} // namespace devicebench::detail
