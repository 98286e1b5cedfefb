// SPDX-License-Identifier: MIT
// Test support: a stand-in for the NVIDIA driver library libcuda.so.1, built as shared libraries
// by tests/device/CMakeLists.txt. FAKE_CUDA_VERSION (a compile definition, 1000 * major + 10 *
// minor) is what cuDriverGetVersion answers; FAKE_CUDA_WITHOUT_VERSION leaves that function out.
// At run time FAKE_CUDA_FAIL=N makes it return CUresult N.
#include <cstdlib>

extern "C" {

#ifndef FAKE_CUDA_WITHOUT_VERSION
__attribute__((visibility("default"))) int cuDriverGetVersion(int *version) {
    const char *fail = std::getenv("FAKE_CUDA_FAIL");
    if (fail != nullptr && *fail != '\0')
        return std::atoi(fail);
    *version = FAKE_CUDA_VERSION;
    return 0;
}
#endif

// Always there, so that the library without cuDriverGetVersion still loads like a driver.
__attribute__((visibility("default"))) int cuInit(unsigned int /*flags*/) { return 0; }
}
