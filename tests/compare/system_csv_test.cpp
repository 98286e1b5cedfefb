// SPDX-License-Identifier: MIT
// The system sampler's columns of the comparison CSVs: each epoch's readings and energy, each
// run's stable means and energy, and what an older record or an unmeasured energy leaves there.
#include "devicebench/csv_export.h"
#include "devicebench/run_set.h"

#include "csv_lines.h"
#include "record_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace devicebench {
namespace {

using testing::fieldsOf;
using testing::splitLines;

// A CPU run whose epochs were sampled: 1.5 cores, 300 MB, RAPL 40 J an epoch (epoch 1: 80 J).
RunRecord sampledRun(const std::string &id) {
    RunRecord r = testing::finishedCpuRun(id, {2.0, 1.0, 1.0});
    r.sampling.sampled = true;
    r.sampling.periodSeconds = 0.5;
    for (EpochResult &e : r.epochs) {
        e.system.sampled = true;
        e.system.samples = 2;
        e.system.processCores = {1.5, 1.75};
        e.system.machineCores = {1.9, 2.0};
        e.system.rssBytes = {300e6, 310e6 + e.epoch};
        e.system.cpuEnergy = {EnergyMethod::Rapl, 40.0 * e.seconds, "package-0"};
        e.system.gpuEnergy = {EnergyMethod::None, kNotSampled, "no NVIDIA driver"};
    }
    return r;
}

// The cells of `csv`'s row `row` (from 1) by column name.
std::map<std::string, std::string> cellsOf(const std::string &csv, std::size_t row) {
    const auto lines = splitLines(csv);
    const auto header = fieldsOf(lines.at(0));
    const auto cells = fieldsOf(lines.at(row));
    std::map<std::string, std::string> byName;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i)
        byName[header[i]] = cells[i];
    return byName;
}

TEST(SystemCsv, EachEpochHasItsReadingsAndEnergy) {
    RunSet set;
    set.addRecord(sampledRun("a"), "a.json");
    const auto epoch2 = cellsOf(epochCsv(set), 2);
    EXPECT_EQ(epoch2.at("process_cores"), "1.500");
    EXPECT_EQ(epoch2.at("machine_cores"), "1.900");
    EXPECT_EQ(epoch2.at("peak_rss_bytes"), "310000002");
    EXPECT_EQ(epoch2.at("gpu_utilization"), "");
    EXPECT_EQ(epoch2.at("energy_j"), "40.0");
    EXPECT_EQ(epoch2.at("energy_method"), "rapl");
}

TEST(SystemCsv, EachRunHasItsStableEpochsMeansAndEnergy) {
    RunSet set;
    set.addRecord(sampledRun("a"), "a.json");
    const auto run = cellsOf(summaryCsv(set), 1);
    EXPECT_EQ(run.at("mean_process_cores"), "1.500");
    EXPECT_EQ(run.at("peak_rss_bytes"), "310000003");       // epoch 3's peak, the largest
    EXPECT_EQ(run.at("energy_j_per_stable_epoch"), "40.0"); // epochs 2 and 3, not the warm-up
    EXPECT_EQ(run.at("energy_j_stable_total"), "80.0");
    EXPECT_EQ(run.at("energy_method"), "rapl");
}

TEST(SystemCsv, UnmeasuredEnergySaysWhyAndOlderRecordsSayNotSampled) {
    RunRecord vm = sampledRun("vm");
    for (EpochResult &e : vm.epochs)
        e.system.cpuEnergy = {EnergyMethod::None, kNotSampled,
                              "no RAPL counters (/sys/class/powercap absent)"};
    RunSet set;
    set.addRecord(vm, "vm.json");
    set.addRecord(testing::finishedCpuRun("old", {2.0, 1.0, 1.0}), "old.json");
    const std::string summary = summaryCsv(set);
    const auto measuredNot = cellsOf(summary, 1);
    EXPECT_EQ(measuredNot.at("energy_j_per_stable_epoch"), "n/a");
    EXPECT_EQ(measuredNot.at("energy_method"),
              "none: no RAPL counters (/sys/class/powercap absent); no NVIDIA driver");
    const auto old = cellsOf(summary, 2);
    EXPECT_EQ(old.at("energy_method"), "not sampled");
    EXPECT_EQ(old.at("mean_process_cores"), "");
    const auto oldEpoch = cellsOf(epochCsv(set), 4);
    EXPECT_EQ(oldEpoch.at("energy_j"), "");
    EXPECT_EQ(oldEpoch.at("energy_method"), "");
}

} // namespace
} // namespace devicebench
