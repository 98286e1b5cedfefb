// SPDX-License-Identifier: MIT
// Every recorded run is sampled (system_sampler.h through runRecorded): its record holds the
// readings and each epoch's means, peaks and energy, the observers get the readings as they
// come, and the summary says why energy was not measured where the machine cannot count it.
#include "devicebench/recorded_run.h"
#include "devicebench/run_energy.h"

#include "cifar_files.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

using devicebench::testing::TempDir;
using namespace devicebench;

namespace {

// A few seconds of synthetic training at one thread, sampled every 50 ms.
RunConfig shortRun() {
    RunConfig c;
    c.synthetic = true;
    c.epochs = 3;
    c.warmupEpochs = 1;
    c.threads = 1;
    c.batchSize = 32;
    c.trainImages = 1024;
    c.testImages = 256;
    c.lossFetchInterval = 4;
    return c;
}

class SamplePeriod {
public:
    explicit SamplePeriod(const char *seconds) {
        setenv("DEVICEBENCH_SAMPLING_PERIOD", seconds, 1);
    }
    ~SamplePeriod() { unsetenv("DEVICEBENCH_SAMPLING_PERIOD"); }
};

class CollectSamples : public RecordObserver {
public:
    void onSystemSamples(const std::vector<SystemSample> &samples) override {
        received.insert(received.end(), samples.begin(), samples.end());
    }
    void onRunEnded(const RunOutcome &) override {}
    std::vector<SystemSample> received;
};

} // namespace

TEST(SampledRun, TheRecordHoldsTheReadingsAndEachEpochItsOwn) {
    const SamplePeriod period("0.05");
    TempDir dir;
    RunRequest request;
    request.config = shortRun();
    request.recordFile = (dir.path() / "run.json").string();
    CollectSamples observer;
    const std::atomic<bool> stop{false};
    const RecordedRun run = runRecorded(request, &observer, stop);
    ASSERT_EQ(run.outcome.status, RunStatus::Finished) << run.outcome.reason;

    EXPECT_TRUE(run.record.sampling.sampled);
    EXPECT_DOUBLE_EQ(run.record.sampling.periodSeconds, 0.05);
    ASSERT_GE(run.record.samples.size(), 3u);
    // Handed on as they came, each once, in the recorder's time order.
    ASSERT_EQ(observer.received.size(), run.record.samples.size());
    for (std::size_t i = 1; i < run.record.samples.size(); ++i)
        EXPECT_GE(run.record.samples[i].seconds, run.record.samples[i - 1].seconds);
    ASSERT_EQ(run.record.epochs.size(), 3u);
    for (const EpochResult &e : run.record.epochs) {
        EXPECT_TRUE(e.system.sampled) << "epoch " << e.epoch;
        EXPECT_GT(e.system.rssBytes.peak, 10e6) << "epoch " << e.epoch; // LibTorch is loaded
        EXPECT_GE(e.system.rssBytes.peak, e.system.rssBytes.mean);
        EXPECT_TRUE(e.system.processCores.known()) << "epoch " << e.epoch;
    }
    // The outcome's epochs are the record's, readings included.
    EXPECT_TRUE(run.outcome.epochs.back().system.sampled);
    // And the file says the same.
    const RunRecord read = readRunRecord(request.recordFile);
    EXPECT_EQ(read.samples.size(), run.record.samples.size());
    EXPECT_TRUE(read.epochs.back().system.sampled);
}

TEST(SampledRun, OnAMachineWithoutCountersTheSummarySaysWhyEnergyWasNotMeasured) {
    std::error_code ec;
    void *nvml = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (nvml != nullptr)
        dlclose(nvml);
    if (std::filesystem::exists("/sys/class/powercap", ec) || nvml != nullptr)
        GTEST_SKIP() << "this machine has powercap or an NVIDIA driver: the line differs";
    const SamplePeriod period("0.05");
    RunRequest request;
    request.config = shortRun();
    const std::atomic<bool> stop{false};
    const RecordedRun run = runRecorded(request, nullptr, stop);
    ASSERT_EQ(run.outcome.status, RunStatus::Finished) << run.outcome.reason;
    EXPECT_EQ(energyLine(run.record.epochs, 1, run.record.sampling),
              "energy: not measured: no RAPL counters (/sys/class/powercap absent); no NVIDIA "
              "driver");
    const EpochSystem &last = run.record.epochs.back().system;
    EXPECT_EQ(last.cpuEnergy.method, EnergyMethod::None);
    EXPECT_EQ(last.gpuEnergy.method, EnergyMethod::None);
}

TEST(SampledRun, APeriodOfZeroTurnsSamplingOff) {
    const SamplePeriod period("0");
    RunRequest request;
    request.config = shortRun();
    request.config.epochs = 2;
    const std::atomic<bool> stop{false};
    const RecordedRun run = runRecorded(request, nullptr, stop);
    ASSERT_EQ(run.outcome.status, RunStatus::Finished) << run.outcome.reason;
    EXPECT_FALSE(run.record.sampling.sampled);
    EXPECT_TRUE(run.record.samples.empty());
    EXPECT_FALSE(run.record.epochs.back().system.sampled);
    EXPECT_EQ(energyLine(run.record.epochs, 1, run.record.sampling), "energy: not sampled");
}
