// SPDX-License-Identifier: MIT
#include "devicebench/devices.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>
#include <torch/cuda.h>

#include <atomic>
#include <stdexcept>
#include <string>

using namespace devicebench;

namespace {
std::string resolveError(const std::string &device) {
    try {
        resolveDevice(device);
    } catch (const std::invalid_argument &e) {
        return e.what();
    }
    return "<no error>";
}
} // namespace

// The count callers use instead of LibTorch's own (cli launch): GPUs exactly when CUDA is usable.
TEST(Devices, TheCudaDeviceCountIsAboveZeroExactlyWhenCudaIsUsable) {
    EXPECT_EQ(cudaDeviceCount() > 0, cudaUnavailableReason().empty()) << cudaUnavailableReason();
    EXPECT_GE(cudaDeviceCount(), 0);
}

TEST(Devices, CpuIsAlwaysListedFirstAndUsable) {
    const auto devices = listDevices();
    ASSERT_FALSE(devices.empty());
    EXPECT_EQ(devices[0].id, "cpu");
    EXPECT_TRUE(devices[0].usable);
    EXPECT_EQ(resolveDevice("cpu"), "cpu");
    EXPECT_GE(availableCores(), 1);
}

TEST(Devices, MalformedDeviceStringsNameTheValueAndWhatExists) {
    for (const std::string bad : {"gpu", "", "cuda:", "cuda:x", "cuda:-1", "CPU"}) {
        const std::string msg = resolveError(bad);
        EXPECT_NE(msg.find("'" + bad + "'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("devices that exist here: cpu"), std::string::npos) << msg;
    }
}

TEST(Devices, CudaIndexThatDoesNotExistIsAClearError) {
    const std::string msg = resolveError("cuda:7");
    EXPECT_NE(msg.find("'cuda:7'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("devices that exist here"), std::string::npos) << msg;
}

TEST(Devices, WithoutCudaTheGpuIsListedUnusableWithAReasonAndRunsFailClearly) {
    if (torch::cuda::is_available()) {
        GTEST_SKIP() << "a CUDA device is available here; this test pins the no-GPU path";
    }
    const auto devices = listDevices();
    ASSERT_EQ(devices.size(), 2u);
    EXPECT_EQ(devices[1].id, "cuda");
    EXPECT_FALSE(devices[1].usable);
    EXPECT_FALSE(devices[1].reason.empty());
    EXPECT_EQ(devices[1].reason, cudaUnavailableReason());
    EXPECT_NE(resolveError("cuda").find("not available"), std::string::npos);

    struct EndOnly : TrainingObserver {
        void onRunEnded(const RunOutcome &o) override { outcome = o; }
        RunOutcome outcome;
    } observer;
    RunConfig c;
    c.device = "cuda";
    c.synthetic = true;
    c.trainImages = 64;
    c.testImages = 64;
    std::atomic<bool> stop{false};
    const RunOutcome out = runTraining(c, observer, stop);
    EXPECT_EQ(out.status, RunStatus::Failed);
    EXPECT_NE(out.reason.find("cuda"), std::string::npos) << out.reason;
    EXPECT_TRUE(out.epochs.empty());
}

TEST(Devices, CudaOnAGpuMachineResolvesToIndexZero) {
    if (!torch::cuda::is_available()) {
        GTEST_SKIP() << "no CUDA device here: " << cudaUnavailableReason();
    }
    EXPECT_EQ(resolveDevice("cuda"), "cuda:0");
    EXPECT_TRUE(cudaUnavailableReason().empty());
}
