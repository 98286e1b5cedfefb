// SPDX-License-Identifier: MIT
// The system readings in the run record: their JSON both ways, what is refused and how it is
// named, records written before sampling, and the summary's energy line.
#include "devicebench/run_energy.h"
#include "devicebench/run_record.h"

#include "record_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>

namespace devicebench {
namespace {

RunRecord sampledRun() {
    RunRecord r = testing::finishedCpuRun("sampled", {2.0, 1.0, 1.0});
    r.sampling.sampled = true;
    r.sampling.periodSeconds = 0.5;
    r.sampling.notes = {"gpu: no NVIDIA driver"};
    for (int i = 0; i < 9; ++i) {
        SystemSample s;
        s.seconds = 0.5 * i;
        s.processCores = i == 0 ? kNotSampled : 0.95 + 0.01 * i;
        s.machineCores = 1.25;
        s.rssBytes = 300e6 + i * 1024;
        s.cpuJoules = 12.5 * i;
        r.samples.push_back(s);
    }
    for (EpochResult &e : r.epochs) {
        e.system.sampled = true;
        e.system.samples = 2;
        e.system.processCores = {0.97, 1.0};
        e.system.rssBytes = {300e6, 300.5e6};
        e.system.cpuEnergy = {EnergyMethod::Rapl, 25.0 * e.seconds, "package-0"};
        e.system.gpuEnergy = {EnergyMethod::None, kNotSampled, "no NVIDIA driver"};
    }
    return r;
}

TEST(SystemRecordJson, SamplesAndEpochReadingsRoundTrip) {
    const RunRecord written = sampledRun();
    const RunRecord read = parseRunRecord(toJson(written), "sampled.json");
    EXPECT_TRUE(read.sampling.sampled);
    EXPECT_DOUBLE_EQ(read.sampling.periodSeconds, 0.5);
    EXPECT_EQ(read.sampling.notes, written.sampling.notes);
    ASSERT_EQ(read.samples.size(), written.samples.size());
    for (std::size_t i = 0; i < read.samples.size(); ++i) {
        EXPECT_DOUBLE_EQ(read.samples[i].seconds, written.samples[i].seconds);
        EXPECT_NEAR(read.samples[i].rssBytes, written.samples[i].rssBytes, 0.5);
        EXPECT_NEAR(read.samples[i].cpuJoules, written.samples[i].cpuJoules, 1e-3);
        EXPECT_TRUE(std::isnan(read.samples[i].gpuPowerWatts)); // never read: no column
    }
    EXPECT_TRUE(std::isnan(read.samples[0].processCores));
    EXPECT_NEAR(read.samples[3].processCores, 0.98, 1e-3);
    const EpochSystem &e = read.epochs[1].system;
    EXPECT_TRUE(e.sampled);
    EXPECT_EQ(e.samples, 2);
    EXPECT_DOUBLE_EQ(e.processCores.peak, 1.0);
    EXPECT_EQ(e.cpuEnergy.method, EnergyMethod::Rapl);
    EXPECT_DOUBLE_EQ(e.cpuEnergy.joules, 25.0);
    EXPECT_EQ(e.gpuEnergy.note, "no NVIDIA driver");
    EXPECT_FALSE(e.gpuUtilization.known());
}

TEST(SystemRecordJson, ColumnsOfQuantitiesNeverReadAreLeftOut) {
    const std::string json = toJson(sampledRun());
    EXPECT_EQ(json.find("gpuPowerWatts"), std::string::npos);
    EXPECT_NE(json.find("\"cpuJoules\""), std::string::npos);
}

TEST(SystemRecordJson, RecordsWrittenBeforeSamplingReadAsNotSampled) {
    for (const char *name : {"cpu-1-thread.json", "cpu-2-threads.json"}) {
        const RunRecord r = readRunRecord(std::string(DEVICEBENCH_EXAMPLES_DIR) + "/" + name);
        EXPECT_FALSE(r.sampling.sampled) << name;
        EXPECT_TRUE(r.samples.empty()) << name;
        for (const EpochResult &e : r.epochs)
            EXPECT_FALSE(e.system.sampled) << name;
        EXPECT_EQ(energyLine(r.epochs, r.config.warmupEpochs, r.sampling), "energy: not sampled");
    }
}

// The message of parsing `json` with `from` replaced by `to` ("" when it parses).
std::string refusal(const std::string &from, const std::string &to) {
    std::string json = toJson(sampledRun());
    const std::size_t at = json.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    json.replace(at, from.size(), to);
    try {
        parseRunRecord(json, "bad.json");
    } catch (const RecordError &e) {
        return e.what();
    }
    return "";
}

TEST(SystemRecordJson, ImpossibleReadingsAreRefusedNamingTheField) {
    EXPECT_EQ(refusal("\"method\": \"rapl\"", "\"method\": \"guess\""),
              "bad.json: field 'epochs[0].system.energy.cpu.method' must be none, "
              "nvml-energy-counter, nvml-power-integral or rapl (got 'guess')");
    EXPECT_EQ(refusal("\"peak\": 1.0", "\"peak\": 0.5"),
              "bad.json: field 'epochs[0].system.processCores.peak' must not be below the mean");
    EXPECT_EQ(refusal("\"periodSeconds\": 0.5", "\"periodSeconds\": 0"),
              "bad.json: field 'sampling.periodSeconds' must be above 0");
    EXPECT_EQ(refusal("\"cpuJoules\": [\n      0.0,", "\"cpuJoules\": [\n      -1,"),
              "bad.json: field 'samples.cpuJoules[0]' must be 0 or more, or null");
    EXPECT_EQ(refusal("\"cpuJoules\": [\n      0.0,", "\"cpuJoules\": ["),
              "bad.json: field 'samples.cpuJoules' must have as many readings as "
              "samples.seconds (8 against 9)");
    EXPECT_EQ(refusal("\"joules\": 50.0", "\"joules\": 1e308"),
              "bad.json: field 'epochs[0].system.energy.cpu.joules' must be at most 1e15 (a "
              "petajoule), or null");
    EXPECT_EQ(refusal("\"joules\": 50.0", "\"joules\": null"),
              "bad.json: field 'epochs[0].system.energy.cpu.joules' must be a number when the "
              "method is rapl");
}

TEST(EnergyLine, SaysTheStableEpochsMeanAndTotalAndHow) {
    const RunRecord r = sampledRun(); // epoch 1 warm-up (50 J), epochs 2-3 25 J each
    EXPECT_EQ(energyLine(r.epochs, r.config.warmupEpochs, r.sampling),
              "energy: 25 J per stable epoch (2 epochs, 50 J; rapl)");
    const EnergySummary s = summarizeEnergy(r.epochs, r.config.warmupEpochs);
    EXPECT_EQ(s.epochs, 2);
    EXPECT_DOUBLE_EQ(s.totalJoules, 50.0);
    EXPECT_DOUBLE_EQ(s.meanJoules, 25.0);
}

TEST(EnergyLine, OnAMachineWithoutCountersSaysWhyNot) {
    RunRecord r = sampledRun();
    for (EpochResult &e : r.epochs)
        e.system.cpuEnergy = {EnergyMethod::None, kNotSampled,
                              "no RAPL counters (/sys/class/powercap absent)"};
    EXPECT_EQ(energyLine(r.epochs, r.config.warmupEpochs, r.sampling),
              "energy: not measured: no RAPL counters (/sys/class/powercap absent); no NVIDIA "
              "driver");
}

TEST(EnergyLine, LargeEnergiesAreInKilojoulesToThreeDigits) {
    RunRecord r = sampledRun();
    for (EpochResult &e : r.epochs)
        e.system.cpuEnergy.joules = 12345.678;
    EXPECT_EQ(energyLine(r.epochs, r.config.warmupEpochs, r.sampling),
              "energy: 12.3 kJ per stable epoch (2 epochs, 24.7 kJ; rapl)");
}

} // namespace
} // namespace devicebench
