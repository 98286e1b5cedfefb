// SPDX-License-Identifier: MIT
// NvmlGpu (engine/metrics/src/nvml_gpu.h) against the stand-in NVML libraries built by
// tests/metrics/CMakeLists.txt (fake_nvml.h), loaded the way the sampler loads the real one:
// nvmlLibraryName() from DEVICEBENCH_NVML_LIBRARY.
#include "fake_nvml.h"
#include "nvml_gpu.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace devicebench::detail {
namespace {

namespace fake = devicebench::testing::fake_nvml;

// An environment variable set (or unset, with nullopt) for a test's lifetime.
class ScopedVariable {
public:
    ScopedVariable(const char *name, const std::optional<std::string> &value) : m_name(name) {
        if (const char *old = std::getenv(name))
            m_old = old;
        if (value)
            ::setenv(name, value->c_str(), 1);
        else
            ::unsetenv(name);
    }
    ~ScopedVariable() {
        if (m_old)
            ::setenv(m_name, m_old->c_str(), 1);
        else
            ::unsetenv(m_name);
    }
    ScopedVariable(const ScopedVariable &) = delete;
    ScopedVariable &operator=(const ScopedVariable &) = delete;

private:
    const char *m_name;
    std::optional<std::string> m_old;
};

// The stand-in library `path` loaded beside NvmlGpu's copy (the same object), to ask how often
// a function ran (fakeNvmlCalls); also makes DEVICEBENCH_NVML_LIBRARY name it.
class FakeNvml {
public:
    explicit FakeNvml(const char *path)
        : m_variable("DEVICEBENCH_NVML_LIBRARY", std::string(path)),
          m_library(dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
        void *symbol = m_library != nullptr ? dlsym(m_library, "fakeNvmlCalls") : nullptr;
        std::memcpy(&m_calls, &symbol, sizeof m_calls);
    }
    ~FakeNvml() {
        if (m_library != nullptr)
            dlclose(m_library);
    }
    FakeNvml(const FakeNvml &) = delete;
    FakeNvml &operator=(const FakeNvml &) = delete;

    unsigned long long calls(const char *function) const {
        return m_calls != nullptr ? m_calls(function) : ~0ULL;
    }

private:
    ScopedVariable m_variable;
    void *m_library;
    unsigned long long (*m_calls)(const char *) = nullptr;
};

std::unique_ptr<NvmlGpu> openGpu(int index, std::string *why, const std::string &pciBusId = "") {
    return NvmlGpu::open(nvmlLibraryName(), index, pciBusId, why);
}

double watts(unsigned long long milliwatts) { return static_cast<double>(milliwatts) / 1000.0; }

TEST(NvmlLibraryName, IsDevicebenchNvmlLibraryWhenSetElseTheDriversLibrary) {
    {
        ScopedVariable unset("DEVICEBENCH_NVML_LIBRARY", std::nullopt);
        EXPECT_EQ(nvmlLibraryName(), "libnvidia-ml.so.1");
    }
    {
        ScopedVariable empty("DEVICEBENCH_NVML_LIBRARY", std::string());
        EXPECT_EQ(nvmlLibraryName(), "libnvidia-ml.so.1");
    }
    ScopedVariable set("DEVICEBENCH_NVML_LIBRARY", std::string("/opt/nvidia/libnvidia-ml.so"));
    EXPECT_EQ(nvmlLibraryName(), "/opt/nvidia/libnvidia-ml.so");
}

TEST(NvmlGpuOpen, AMissingLibraryMeansNoNvidiaDriver) {
    std::string why;
    EXPECT_EQ(NvmlGpu::open("libdevicebench-absent-nvml.so.1", 0, "", &why), nullptr);
    EXPECT_EQ(why, "no NVIDIA driver (libdevicebench-absent-nvml.so.1 not found)");
    EXPECT_EQ(NvmlGpu::open("/nonexistent/libnvidia-ml.so.1", 0, "", &why), nullptr);
    EXPECT_EQ(why, "no NVIDIA driver (/nonexistent/libnvidia-ml.so.1 not found)");
}

TEST(NvmlGpuOpen, ALibraryWithoutNvmlInitIsRefusedNamingTheFunction) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML_NO_INIT);
    std::string why;
    EXPECT_EQ(openGpu(0, &why), nullptr);
    EXPECT_EQ(why, std::string(DEVICEBENCH_FAKE_NVML_NO_INIT) + " has no nvmlInit_v2");
}

TEST(NvmlGpuOpen, AFailingInitIsRefusedWithNvmlsErrorText) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML);
    ScopedVariable fail("FAKE_NVML_FAIL", std::string("nvmlInit_v2"));
    ScopedVariable error("FAKE_NVML_ERROR", std::string("9")); // NVML_ERROR_DRIVER_NOT_LOADED
    std::string why;
    EXPECT_EQ(openGpu(0, &why), nullptr);
    EXPECT_EQ(why, "nvmlInit_v2 failed: Driver Not Loaded");
    EXPECT_EQ(nvml.calls("nvmlShutdown"), 0u); // NVML was not initialised
}

TEST(NvmlGpuOpen, AnIndexPastTheLastGpuIsRefusedWithTheCountAndNvmlIsShutDown) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML);
    ScopedVariable count("FAKE_NVML_COUNT", std::string("2"));
    std::string why;
    EXPECT_EQ(openGpu(3, &why), nullptr);
    EXPECT_EQ(why, "NVML finds no GPU with index 3 (2 GPUs)");
    EXPECT_EQ(nvml.calls("nvmlShutdown"), 1u);
    EXPECT_EQ(openGpu(-1, &why), nullptr);
    EXPECT_EQ(why, "NVML finds no GPU with index -1 (2 GPUs)");
}

TEST(NvmlGpuOpen, AFailingHandleLookupIsRefusedWithNvmlsErrorText) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML);
    ScopedVariable fail("FAKE_NVML_FAIL", std::string("nvmlDeviceGetHandleByIndex_v2"));
    std::string why;
    EXPECT_EQ(openGpu(0, &why), nullptr);
    EXPECT_EQ(why, "nvmlDeviceGetHandleByIndex_v2 failed for index 0: Unknown Error");
}

TEST(NvmlGpuOpen, APciBusIdSelectsItsGpuAndAnUnknownOneIsRefused) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML);
    ScopedVariable count("FAKE_NVML_COUNT", std::string("2"));
    std::string why;
    const auto gpu = openGpu(0, &why, fake::fakePciBusId(1));
    ASSERT_NE(gpu, nullptr) << why;
    EXPECT_EQ(gpu->name(), "Fake GPU 1");
    EXPECT_EQ(openGpu(0, &why, "00000000:3B:00.0"), nullptr);
    EXPECT_EQ(why, "NVML finds no GPU with PCI bus id 00000000:3B:00.0 (2 GPUs)");
}

TEST(NvmlGpuOpen, ClosingShutsNvmlDown) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML);
    std::string why;
    auto gpu = openGpu(0, &why);
    ASSERT_NE(gpu, nullptr) << why;
    EXPECT_EQ(gpu->name(), "Fake GPU 0");
    EXPECT_EQ(nvml.calls("nvmlShutdown"), 0u);
    gpu.reset();
    EXPECT_EQ(nvml.calls("nvmlShutdown"), 1u);
}

TEST(NvmlGpuRead, AReadingHasEveryQuantityInFractionsBytesWattsAndJoules) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML);
    std::string why;
    const auto gpu = openGpu(0, &why);
    ASSERT_NE(gpu, nullptr) << why;
    EXPECT_TRUE(gpu->hasEnergyCounter());
    std::vector<std::string> notes;
    const GpuReading first = gpu->read(&notes);
    EXPECT_DOUBLE_EQ(first.utilization, fake::kUtilizationPercent / 100.0);
    EXPECT_DOUBLE_EQ(first.memoryBytes, static_cast<double>(fake::kMemoryUsedBytes));
    EXPECT_DOUBLE_EQ(first.powerWatts, watts(fake::kPowerMilliwatts));
    // open() made the counter's first call.
    EXPECT_DOUBLE_EQ(first.energyJoules,
                     static_cast<double>(fake::kEnergyMillijoules + fake::kEnergyStepMillijoules) /
                         1000.0);
    const GpuReading second = gpu->read(&notes);
    EXPECT_DOUBLE_EQ(second.utilization, (fake::kUtilizationPercent + 1) / 100.0);
    EXPECT_DOUBLE_EQ(second.memoryBytes,
                     static_cast<double>(fake::kMemoryUsedBytes + fake::kMemoryStepBytes));
    EXPECT_DOUBLE_EQ(second.powerWatts, watts(fake::kPowerMilliwatts + fake::kPowerStepMilliwatts));
    EXPECT_DOUBLE_EQ(second.energyJoules - first.energyJoules,
                     static_cast<double>(fake::kEnergyStepMillijoules) / 1000.0);
    EXPECT_TRUE(notes.empty());
}

TEST(NvmlGpuRead, ACallThatFailsEndsOnlyItsQuantityWithOneNote) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML);
    std::string why;
    const auto gpu = openGpu(0, &why);
    ASSERT_NE(gpu, nullptr) << why;
    std::vector<std::string> notes;
    ASSERT_FALSE(std::isnan(gpu->read(&notes).powerWatts));
    {
        ScopedVariable fail("FAKE_NVML_FAIL", std::string("nvmlDeviceGetPowerUsage"));
        const GpuReading failed = gpu->read(&notes);
        EXPECT_TRUE(std::isnan(failed.powerWatts));
        EXPECT_FALSE(std::isnan(failed.utilization));
        EXPECT_FALSE(std::isnan(failed.memoryBytes));
        EXPECT_FALSE(std::isnan(failed.energyJoules));
    }
    const GpuReading after = gpu->read(&notes); // the call would succeed now
    EXPECT_TRUE(std::isnan(after.powerWatts));
    EXPECT_FALSE(std::isnan(after.utilization));
    EXPECT_EQ(nvml.calls("nvmlDeviceGetPowerUsage"), 2u);
    EXPECT_EQ(notes,
              std::vector<std::string>{
                  "gpu power: nvmlDeviceGetPowerUsage failed: Unknown Error; no longer read"});
}

TEST(NvmlGpuEnergy, ALibraryWithoutTheCounterFunctionHasNoCounter) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML_NO_ENERGY);
    std::string why;
    const auto gpu = openGpu(0, &why);
    ASSERT_NE(gpu, nullptr) << why;
    EXPECT_FALSE(gpu->hasEnergyCounter());
    std::vector<std::string> notes;
    const GpuReading reading = gpu->read(&notes);
    EXPECT_TRUE(std::isnan(reading.energyJoules));
    EXPECT_DOUBLE_EQ(reading.powerWatts, watts(fake::kPowerMilliwatts));
    gpu->read(&notes);
    EXPECT_EQ(notes, std::vector<std::string>{
                         "gpu energy: " + std::string(DEVICEBENCH_FAKE_NVML_NO_ENERGY) +
                         " has no nvmlDeviceGetTotalEnergyConsumption; "
                         "not read"});
}

TEST(NvmlGpuEnergy, ACounterThatIsNotSupportedIsNoCounterAndIsNotAskedAgain) {
    FakeNvml nvml(DEVICEBENCH_FAKE_NVML);
    ScopedVariable fail("FAKE_NVML_FAIL", std::string("nvmlDeviceGetTotalEnergyConsumption"));
    ScopedVariable error("FAKE_NVML_ERROR", std::string("3")); // NVML_ERROR_NOT_SUPPORTED
    std::string why;
    const auto gpu = openGpu(0, &why);
    ASSERT_NE(gpu, nullptr) << why;
    EXPECT_FALSE(gpu->hasEnergyCounter());
    std::vector<std::string> notes;
    const GpuReading reading = gpu->read(&notes);
    EXPECT_TRUE(std::isnan(reading.energyJoules));
    EXPECT_DOUBLE_EQ(reading.powerWatts, watts(fake::kPowerMilliwatts));
    EXPECT_EQ(nvml.calls("nvmlDeviceGetTotalEnergyConsumption"), 1u);
    EXPECT_EQ(notes,
              std::vector<std::string>{"gpu energy: nvmlDeviceGetTotalEnergyConsumption failed: "
                                       "Not Supported; not read"});
}

} // namespace
} // namespace devicebench::detail
