// SPDX-License-Identifier: MIT
// An epoch's readings out of a run's samples (summarizeEpoch), and the sampler's thread on this
// machine's /proc with a fake powercap tree.
#include "devicebench/run_energy.h"
#include "devicebench/system_sampler.h"

#include "temp_tree.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

namespace devicebench {
namespace {

SystemSample reading(double seconds, double cores, double rss, double cpuJoules,
                     double gpuJoules = kNotSampled) {
    SystemSample s;
    s.seconds = seconds;
    s.processCores = cores;
    s.rssBytes = rss;
    s.cpuJoules = cpuJoules;
    s.gpuJoules = gpuJoules;
    return s;
}

EnergySources raplOnly() {
    EnergySources sources;
    sources.cpu = {EnergyMethod::Rapl, kNotSampled, "package-0"};
    sources.gpu = {EnergyMethod::None, kNotSampled, "no NVIDIA driver"};
    return sources;
}

TEST(SummarizeEpoch, MeansAndPeaksAreOverTheReadingsInsideTheEpoch) {
    const std::vector<SystemSample> samples = {
        reading(0.0, 9.0, 900, 0), reading(1.0, 1.0, 100, 10), reading(2.0, 2.0, 300, 20),
        reading(3.0, 3.0, 200, 30), reading(4.0, 9.0, 900, 40)};
    const EpochSystem e = summarizeEpoch(samples, 0.5, 3.5, raplOnly());
    EXPECT_TRUE(e.sampled);
    EXPECT_EQ(e.samples, 3);
    EXPECT_DOUBLE_EQ(e.processCores.mean, 2.0);
    EXPECT_DOUBLE_EQ(e.processCores.peak, 3.0);
    EXPECT_DOUBLE_EQ(e.rssBytes.mean, 200.0);
    EXPECT_DOUBLE_EQ(e.rssBytes.peak, 300.0);
    EXPECT_FALSE(e.gpuUtilization.known()); // never read
}

TEST(SummarizeEpoch, EnergyIsTheCounterInterpolatedAtBothEnds) {
    // 10 J a second: from 0.5 s to 3.5 s is 30 J, though no reading falls on either end.
    const std::vector<SystemSample> samples = {reading(0.0, 1, 1, 0), reading(1.0, 1, 1, 10),
                                               reading(2.0, 1, 1, 20), reading(4.0, 1, 1, 40)};
    const EpochSystem e = summarizeEpoch(samples, 0.5, 3.5, raplOnly());
    EXPECT_EQ(e.cpuEnergy.method, EnergyMethod::Rapl);
    EXPECT_NEAR(e.cpuEnergy.joules, 30.0, 1e-9);
    EXPECT_EQ(e.cpuEnergy.note, "package-0");
    EXPECT_EQ(e.gpuEnergy.method, EnergyMethod::None);
    EXPECT_EQ(e.gpuEnergy.note, "no NVIDIA driver");
    EXPECT_NEAR(epochJoules(e), 30.0, 1e-9);
    EXPECT_EQ(energyMethods(e), "rapl");
}

TEST(SummarizeEpoch, AnEpochWithoutAReadingAfterItsEndHasNoEnergy) {
    const std::vector<SystemSample> samples = {reading(0.0, 1, 1, 0), reading(1.0, 1, 1, 10)};
    const EpochSystem e = summarizeEpoch(samples, 0.5, 1.5, raplOnly());
    EXPECT_EQ(e.cpuEnergy.method, EnergyMethod::None);
    EXPECT_TRUE(std::isnan(e.cpuEnergy.joules));
    EXPECT_EQ(e.cpuEnergy.note, "no counter reading on both sides of the epoch");
    EXPECT_TRUE(std::isnan(epochJoules(e)));
    EXPECT_EQ(energyMethods(e), "none");
}

TEST(SummarizeEpoch, AnEpochShorterThanThePeriodTakesTheNearestReading) {
    const std::vector<SystemSample> samples = {reading(0.0, 1.0, 100, 0),
                                               reading(1.0, 4.0, 400, 10)};
    const EpochSystem e = summarizeEpoch(samples, 0.7, 0.9, raplOnly());
    EXPECT_EQ(e.samples, 0);
    EXPECT_DOUBLE_EQ(e.processCores.mean, 4.0);
    EXPECT_NEAR(e.cpuEnergy.joules, 2.0, 1e-9);
}

TEST(SummarizeEpoch, GpuAndCpuEnergyAddUp) {
    EnergySources sources = raplOnly();
    sources.gpu = {EnergyMethod::NvmlEnergyCounter, kNotSampled, "NVIDIA H200"};
    const std::vector<SystemSample> samples = {reading(0.0, 1, 1, 0, 0),
                                               reading(2.0, 1, 1, 100, 600)};
    const EpochSystem e = summarizeEpoch(samples, 0.0, 2.0, sources);
    EXPECT_NEAR(e.gpuEnergy.joules, 600.0, 1e-9);
    EXPECT_NEAR(epochJoules(e), 700.0, 1e-9);
    EXPECT_EQ(energyMethods(e), "nvml-energy-counter + rapl");
}

// Sampler options for this machine's /proc, a fake powercap tree and no NVIDIA driver.
SamplerOptions fastOptions(const TempTree &powercap) {
    SamplerOptions options;
    options.periodSeconds = 0.05;
    options.powercapRoot = powercap.path();
    options.nvmlLibrary = "/nonexistent/libnvidia-ml.so.1";
    return options;
}

void spin(std::chrono::milliseconds duration) {
    const auto end = std::chrono::steady_clock::now() + duration;
    volatile double x = 0.0;
    while (std::chrono::steady_clock::now() < end)
        x = x + 1.0;
}

TEST(SystemSampler, ReadsThisProcessAtItsPeriodWithoutTheTrainingThreadAsking) {
    TempTree powercap;
    powercap.write("intel-rapl:0/name", "package-0\n");
    powercap.write("intel-rapl:0/energy_uj", "1000\n");
    powercap.write("intel-rapl:0/max_energy_range_uj", "100000000\n");
    SystemSampler sampler(fastOptions(powercap));
    sampler.start();
    spin(std::chrono::milliseconds(600));
    sampler.stop();
    const std::vector<SystemSample> samples = sampler.takeNew();
    ASSERT_GE(samples.size(), 6u); // 0.6 s at 20 Hz, even on a busy machine
    for (std::size_t i = 1; i < samples.size(); ++i) {
        EXPECT_GE(samples[i].seconds, samples[i - 1].seconds);
        EXPECT_GE(samples[i].processCores, 0.0);
        EXPECT_GT(samples[i].rssBytes, 1e6); // a test binary is more than a megabyte
        EXPECT_GE(samples[i].machineCores, 0.0);
        EXPECT_DOUBLE_EQ(samples[i].cpuJoules, 0.0); // the fake counter never moved
        EXPECT_TRUE(std::isnan(samples[i].gpuUtilization));
    }
    EXPECT_TRUE(std::isnan(samples[0].processCores)); // the base of the rates
    EXPECT_TRUE(sampler.takeNew().empty());           // each reading is handed on once
    const EpochSystem e = sampler.epoch(samples[1].seconds, samples.back().seconds);
    EXPECT_EQ(e.cpuEnergy.method, EnergyMethod::Rapl);
    EXPECT_DOUBLE_EQ(e.cpuEnergy.joules, 0.0);
    EXPECT_EQ(e.gpuEnergy.note, "no NVIDIA driver");
    // The spinning thread kept about one core busy; a loaded machine gives it less.
    EXPECT_GT(e.processCores.mean, 0.2);
}

TEST(SystemSampler, FollowsTheProcessItIsGiven) {
    TempTree powercap;
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        spin(std::chrono::milliseconds(3000));
        _exit(0);
    }
    SamplerOptions options = fastOptions(powercap);
    options.process = [child] { return static_cast<int>(child); };
    SystemSampler sampler(options);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(600)); // this process idles
    sampler.readNow();
    const EpochSystem e = sampler.epoch(0.1, 0.6);
    sampler.stop();
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    EXPECT_GT(e.processCores.mean, 0.2); // the spinning child's, not this idle process's
    const SamplingInfo info = sampler.info();
    EXPECT_TRUE(info.sampled);
    EXPECT_DOUBLE_EQ(info.periodSeconds, 0.05);
}

TEST(SystemSampler, WithoutPowercapTheEnergyNoteSaysWhy) {
    SamplerOptions options;
    options.periodSeconds = 0.05;
    options.powercapRoot = "/nonexistent/powercap";
    options.nvmlLibrary = "/nonexistent/libnvidia-ml.so.1";
    SystemSampler sampler(options);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    sampler.readNow();
    const EpochSystem e = sampler.epoch(0.0, 0.1);
    sampler.stop();
    EXPECT_EQ(e.cpuEnergy.method, EnergyMethod::None);
    EXPECT_EQ(e.cpuEnergy.note, "no RAPL counters (/nonexistent/powercap absent)");
    EXPECT_EQ(e.gpuEnergy.note, "no NVIDIA driver");
    EpochResult epoch;
    epoch.epoch = 3;
    epoch.system = e;
    EXPECT_EQ(energyNotMeasuredReason({epoch}),
              "no RAPL counters (/nonexistent/powercap absent); no NVIDIA driver");
}

} // namespace
} // namespace devicebench

namespace devicebench {
namespace {

// A sampler of GPU 0 through the stand-in NVML library `library`, fast.
std::vector<SystemSample> sampleGpu(const char *library, EpochSystem *epoch, SamplingInfo *info) {
    SamplerOptions options;
    options.periodSeconds = 0.02;
    options.powercapRoot = "/nonexistent/powercap";
    options.nvmlLibrary = library;
    options.gpu = true;
    options.gpuIndex = 0;
    SystemSampler sampler(options);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    sampler.readNow();
    const std::vector<SystemSample> samples = sampler.takeNew();
    *epoch = sampler.epoch(samples.front().seconds, samples.back().seconds);
    sampler.stop();
    *info = sampler.info();
    return samples;
}

TEST(SystemSamplerGpu, ReadsTheGpuAndItsEnergyCounter) {
    EpochSystem epoch;
    SamplingInfo info;
    const std::vector<SystemSample> samples = sampleGpu(DEVICEBENCH_FAKE_NVML, &epoch, &info);
    ASSERT_GE(samples.size(), 3u);
    for (std::size_t i = 0; i < samples.size(); ++i) {
        EXPECT_GE(samples[i].gpuUtilization, 0.40); // 40 % and up
        EXPECT_GE(samples[i].gpuMemoryBytes, 1024.0 * 1024.0 * 1024.0);
        EXPECT_GE(samples[i].gpuPowerWatts, 150.0);
    }
    // The counter's 2.5 J per call, from 0 at the first reading.
    EXPECT_DOUBLE_EQ(samples[0].gpuJoules, 0.0);
    EXPECT_NEAR(samples[1].gpuJoules, 2.5, 1e-9);
    EXPECT_EQ(epoch.gpuEnergy.method, EnergyMethod::NvmlEnergyCounter);
    EXPECT_NEAR(epoch.gpuEnergy.joules, 2.5 * static_cast<double>(samples.size() - 1), 1e-6);
    EXPECT_EQ(epoch.gpuEnergy.note, "Fake GPU 0");
    EXPECT_TRUE(epoch.gpuUtilization.known());
    EXPECT_TRUE(info.notes.empty()) << info.notes.front();
}

TEST(SystemSamplerGpu, WithoutAnEnergyCounterPowerIsIntegratedAndTheRecordSaysSo) {
    EpochSystem epoch;
    SamplingInfo info;
    const std::vector<SystemSample> samples =
        sampleGpu(DEVICEBENCH_FAKE_NVML_NO_ENERGY, &epoch, &info);
    ASSERT_GE(samples.size(), 3u);
    double joules = 0.0; // trapezoids of the readings' power over their times
    for (std::size_t i = 1; i < samples.size(); ++i)
        joules += (samples[i - 1].gpuPowerWatts + samples[i].gpuPowerWatts) / 2.0 *
                  (samples[i].seconds - samples[i - 1].seconds);
    EXPECT_EQ(epoch.gpuEnergy.method, EnergyMethod::NvmlPowerIntegral);
    EXPECT_NEAR(epoch.gpuEnergy.joules, joules, 1e-6);
    EXPECT_GT(epoch.gpuEnergy.joules, 0.0);
    bool said = false;
    for (const std::string &note : info.notes)
        said = said || note.find("power readings are integrated") != std::string::npos;
    EXPECT_TRUE(said);
}

TEST(SystemSamplerGpu, AFailingCallEndsThatQuantityNotTheSampling) {
    setenv("FAKE_NVML_FAIL", "nvmlDeviceGetPowerUsage", 1);
    EpochSystem epoch;
    SamplingInfo info;
    const std::vector<SystemSample> samples = sampleGpu(DEVICEBENCH_FAKE_NVML, &epoch, &info);
    unsetenv("FAKE_NVML_FAIL");
    ASSERT_GE(samples.size(), 3u);
    for (const SystemSample &s : samples) {
        EXPECT_TRUE(std::isnan(s.gpuPowerWatts));
        EXPECT_GE(s.gpuUtilization, 0.40); // the other quantities go on
        EXPECT_GE(s.rssBytes, 1e6);
    }
    EXPECT_EQ(epoch.gpuEnergy.method, EnergyMethod::NvmlEnergyCounter);
    int powerNotes = 0;
    for (const std::string &note : info.notes)
        powerNotes += note.rfind("gpu power:", 0) == 0 ? 1 : 0;
    EXPECT_EQ(powerNotes, 1);
}

TEST(SystemSamplerGpu, NoDriverIsANoteAndNoGpuReadings) {
    EpochSystem epoch;
    SamplingInfo info;
    const std::vector<SystemSample> samples =
        sampleGpu("/nonexistent/libnvidia-ml.so.1", &epoch, &info);
    ASSERT_FALSE(samples.empty());
    EXPECT_TRUE(std::isnan(samples.back().gpuUtilization));
    EXPECT_EQ(epoch.gpuEnergy.method, EnergyMethod::None);
    EXPECT_NE(epoch.gpuEnergy.note.find("no NVIDIA driver"), std::string::npos)
        << epoch.gpuEnergy.note;
    ASSERT_FALSE(info.notes.empty());
    EXPECT_EQ(info.notes.front().rfind("gpu: no NVIDIA driver", 0), 0u) << info.notes.front();
}

// A CPU run's GPU note: an NVML library present (one with nvmlInit_v2) is "not the run's
// device"; a library that is not NVML (no nvmlInit_v2) is no driver.
TEST(SystemSampler, OnACpuRunOnlyARealNvmlLibraryCountsAsADriver) {
    const auto gpuNoteWith = [](const char *library) {
        TempTree powercap;
        SamplerOptions options = fastOptions(powercap);
        options.nvmlLibrary = library;
        SystemSampler sampler(options);
        sampler.start();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        sampler.readNow();
        const std::vector<SystemSample> samples = sampler.takeNew();
        sampler.stop();
        return sampler.epoch(samples.front().seconds, samples.back().seconds).gpuEnergy.note;
    };
    EXPECT_EQ(gpuNoteWith(DEVICEBENCH_FAKE_NVML), kNotTheRunsDevice);
    EXPECT_EQ(gpuNoteWith(DEVICEBENCH_FAKE_NVML_NO_INIT), "no NVIDIA driver");
}

TEST(SamplerOptions, TheDeviceChoosesTheGpuAndTheEnvironmentThePeriod) {
    EXPECT_FALSE(samplerOptionsFor("cpu", "").gpu);
    const SamplerOptions cuda = samplerOptionsFor("cuda:2", "0000:3B:00.0");
    EXPECT_TRUE(cuda.gpu);
    EXPECT_EQ(cuda.gpuIndex, 2);
    EXPECT_EQ(cuda.gpuPciBusId, "0000:3B:00.0");
    EXPECT_EQ(cudaDeviceIndex("cuda"), 0);
    EXPECT_EQ(cudaDeviceIndex("cuda:x"), -1);
    EXPECT_DOUBLE_EQ(samplerOptionsFor("cpu", "").periodSeconds, 0.5);
    setenv("DEVICEBENCH_SAMPLING_PERIOD", "0", 1);
    EXPECT_DOUBLE_EQ(samplerOptionsFor("cpu", "").periodSeconds, 0.0);
    EXPECT_TRUE(samplerOptionsFor("cpu", "").notes.empty());
    setenv("DEVICEBENCH_SAMPLING_PERIOD", "0.25", 1);
    EXPECT_DOUBLE_EQ(samplerOptionsFor("cpu", "").periodSeconds, 0.25);
    // Empty is unset, as for every DEVICEBENCH_ variable (DEVICEBENCH_PYTHON="" is python3).
    setenv("DEVICEBENCH_SAMPLING_PERIOD", "", 1);
    EXPECT_DOUBLE_EQ(samplerOptionsFor("cpu", "").periodSeconds, 0.5);
    EXPECT_TRUE(samplerOptionsFor("cpu", "").notes.empty());
    unsetenv("DEVICEBENCH_SAMPLING_PERIOD");
}

TEST(SamplerOptions, APeriodThatIsNotANumberFromAMillisecondToAMinuteIsIgnoredWithANote) {
    for (const char *bad : {"fast", "-1", "1e-10", "0.0009", "61", "nan", "inf", "0.5s"}) {
        setenv("DEVICEBENCH_SAMPLING_PERIOD", bad, 1);
        const SamplerOptions options = samplerOptionsFor("cpu", "");
        EXPECT_DOUBLE_EQ(options.periodSeconds, 0.5) << bad;
        ASSERT_EQ(options.notes.size(), 1u) << bad;
        EXPECT_EQ(options.notes[0], "DEVICEBENCH_SAMPLING_PERIOD=\"" + std::string(bad) +
                                        "\" ignored (not 0 or a number of seconds from 0.001 "
                                        "to 60): sampled every 0.5 s");
    }
    unsetenv("DEVICEBENCH_SAMPLING_PERIOD");
}

TEST(SystemSampler, APeriodBelowAMillisecondIsRaisedToOneAndTheOptionsNotesReachTheInfo) {
    TempTree powercap;
    SamplerOptions options = fastOptions(powercap);
    options.periodSeconds = 1e-12; // rounds to 0 ns: once a division by zero in the loop
    options.notes = {"a setting ignored"};
    SystemSampler sampler(options);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    sampler.stop();
    const SamplingInfo info = sampler.info();
    EXPECT_DOUBLE_EQ(info.periodSeconds, 0.001);
    EXPECT_GE(sampler.takeNew().size(), 2u) << "it sampled, at most every millisecond";
    ASSERT_FALSE(info.notes.empty());
    EXPECT_EQ(info.notes[0], "a setting ignored");
}

} // namespace
} // namespace devicebench
