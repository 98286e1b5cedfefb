// SPDX-License-Identifier: MIT
#include "devicebench/probe.h"

#include "json_probe.h"

#include "devicebench/devices.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

// The text of the failure the article met on an old GPU with a new library.
const std::string kNoKernelImage = "no kernel image is available for execution on the device";

ProbeResult failingProbe(const std::string &device) {
    ProbeResult r;
    r.device = device;
    r.usable = false;
    r.error = kNoKernelImage;
    return r;
}

class CountingObserver : public TrainingObserver {
public:
    void onRunStarted(const RunStarted &) override { ++started; }
    void onStepLosses(const std::vector<StepLoss> &) override { ++stepBatches; }
    void onEpochFinished(const EpochResult &) override { ++epochs; }
    void onRunEnded(const RunOutcome &o) override {
        ++ended;
        outcome = o;
    }
    int started = 0;
    int stepBatches = 0;
    int epochs = 0;
    int ended = 0;
    RunOutcome outcome;
};

RunConfig tinyConfig() {
    RunConfig c;
    c.synthetic = true;
    c.trainImages = 64;
    c.testImages = 64;
    c.epochs = 1;
    c.warmupEpochs = 0;
    c.threads = 1;
    return c;
}

} // namespace

TEST(Probe, CpuProbeIsUsableAgreesWithItselfAndIsTimed) {
    const ProbeResult r = probeDevice("cpu");
    EXPECT_EQ(r.device, "cpu");
    EXPECT_TRUE(r.usable) << r.error;
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_LT(r.relativeError, 1e-6);
    EXPECT_GE(r.relativeError, 0.0);
    EXPECT_GT(r.seconds, 0.0);
}

TEST(Probe, RunsEvenUnderANoGradGuard) {
    torch::NoGradGuard noGrad;
    const ProbeResult r = probeDevice("cpu");
    EXPECT_TRUE(r.usable) << r.error;
}

TEST(Probe, LeavesTheGlobalRandomSequenceAlone) {
    torch::manual_seed(7);
    const auto expected = torch::rand({4});
    torch::manual_seed(7);
    ASSERT_TRUE(probeDevice("cpu").usable);
    const auto actual = torch::rand({4});
    EXPECT_TRUE(torch::equal(expected, actual));
}

TEST(Probe, CudaWithoutAUsableGpuIsUnusableWithTheReason) {
    if (torch::cuda::is_available()) {
        GTEST_SKIP() << "a CUDA device is present; this test pins the no-GPU path";
    }
    const ProbeResult r = probeDevice("cuda");
    EXPECT_FALSE(r.usable);
    EXPECT_EQ(r.device, "cuda");
    EXPECT_NE(r.error.find("'cuda'"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(cudaUnavailableReason()), std::string::npos) << r.error;
}

TEST(Probe, MalformedDeviceIsUnusableNamingTheValue) {
    const ProbeResult r = probeDevice("gpu");
    EXPECT_FALSE(r.usable);
    EXPECT_NE(r.error.find("'gpu'"), std::string::npos) << r.error;
}

TEST(Probe, EveryExistingDeviceIsProbedBeforeItIsListed) {
    std::vector<std::string> probed;
    const auto devices = listDevices([&probed](const std::string &device) {
        probed.push_back(device);
        return probeDevice(device);
    });
    ASSERT_FALSE(devices.empty());
    ASSERT_FALSE(probed.empty());
    EXPECT_EQ(probed.front(), "cpu");
    EXPECT_EQ(devices[0].id, "cpu");
    EXPECT_TRUE(devices[0].usable) << devices[0].reason;
    EXPECT_EQ(devices[0].probe.device, "cpu");
    EXPECT_GT(devices[0].probe.seconds, 0.0);
    for (const auto &d : devices) {
        if (d.id == "cuda") { // listed, but there was nothing to probe
            EXPECT_FALSE(d.usable);
            EXPECT_EQ(d.reason, cudaUnavailableReason());
        }
    }
}

TEST(Probe, InjectedFailingProbeListsTheDeviceAsUnusableWithTheMessage) {
    const auto devices = listDevices(failingProbe);
    ASSERT_FALSE(devices.empty());
    for (const auto &d : devices) {
        EXPECT_FALSE(d.usable) << d.id;
        if (d.id != "cuda") {
            EXPECT_EQ(d.reason, kNoKernelImage) << d.id;
            EXPECT_EQ(d.probe.error, kNoKernelImage) << d.id;
        }
    }
    EXPECT_EQ(devices[0].id, "cpu");
    EXPECT_EQ(devices[0].reason, kNoKernelImage);
}

TEST(Probe, AProbeThatThrowsCountsAsFailedWithItsText) {
    const auto devices = listDevices(
        [](const std::string &) -> ProbeResult { throw std::runtime_error("driver exploded"); });
    ASSERT_FALSE(devices.empty());
    EXPECT_FALSE(devices[0].usable);
    EXPECT_EQ(devices[0].reason, "driver exploded");
}

TEST(Probe, InjectedFailingProbeRefusesToRunOnTheDevice) {
    CountingObserver observer;
    std::atomic<bool> stop{false};
    std::vector<std::string> probed;
    const RunOutcome outcome =
        runTraining(tinyConfig(), observer, stop, [&probed](const std::string &device) {
            probed.push_back(device);
            return failingProbe(device);
        });
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_EQ(outcome.reason, "device cpu is unusable: " + kNoKernelImage);
    EXPECT_TRUE(outcome.epochs.empty());
    EXPECT_EQ(probed, std::vector<std::string>{"cpu"});
    EXPECT_EQ(observer.started, 0);
    EXPECT_EQ(observer.epochs, 0);
    EXPECT_EQ(observer.ended, 1);
    EXPECT_EQ(observer.outcome.reason, outcome.reason);
}

TEST(Probe, PassingProbeLetsTheRunFinish) {
    CountingObserver observer;
    std::atomic<bool> stop{false};
    int calls = 0;
    const RunOutcome outcome =
        runTraining(tinyConfig(), observer, stop, [&calls](const std::string &device) {
            ++calls;
            return probeDevice(device);
        });
    EXPECT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(outcome.epochs.size(), 1U);
}

TEST(Probe, ResultSerialisesNonFiniteErrorAsNull) {
    ProbeResult r = failingProbe("cuda:0");
    r.relativeError = std::nan("");
    const auto j = toJson(r);
    EXPECT_TRUE(j.at("relativeError").is_null());
    EXPECT_EQ(j.at("error"), kNoKernelImage);
    EXPECT_EQ(j.at("usable"), false);
}

TEST(Probe, DevicesJsonHoldsEveryDeviceAndTheFingerprint) {
    const auto devices = listDevices(failingProbe);
    const auto j = nlohmann::json::parse(devicesJson(devices, collectFingerprint()));
    ASSERT_TRUE(j.at("devices").is_array());
    ASSERT_EQ(j.at("devices").size(), devices.size());
    EXPECT_EQ(j["devices"][0].at("id"), "cpu");
    EXPECT_EQ(j["devices"][0].at("usable"), false);
    EXPECT_EQ(j["devices"][0].at("probe").at("error"), kNoKernelImage);
    EXPECT_GE(j.at("fingerprint").at("logicalCores").get<int>(), 1);
}
