// SPDX-License-Identifier: MIT
// A busy machine: the contention rule with fixed numbers, the /proc parsers, the
// meter over a /proc of the test's own, the warning texts, and the record fields (round trip,
// older records without them). The run beside a busy loop is tests/cli/busy_machine_test.cpp.
#include "devicebench/contention.h"
#include "devicebench/run_record.h"

#include "cifar_files.h"
#include "process_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::TempDir;

namespace devicebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A measured epoch load with the numbers that decide the rule.
EpochLoad loadOf(double share, double otherCpus, double steal, int cpus) {
    EpochLoad load;
    load.measured = true;
    load.cpuShare = share;
    load.otherCpus = otherCpus;
    load.stealFraction = steal;
    load.cpus = cpus;
    load.cpuSeconds = 1.0;
    load.iowaitFraction = 0.0;
    load.loadAverage = 1.0;
    return load;
}

// ---- the rule ----------------------------------------------------------------------------------

TEST(ContentionRule, ARunAloneOnItsCpusIsNotContended) {
    // Measured alone (docs/MEASURING.md): shares 0.94-0.97, others about 0.1 CPU.
    EXPECT_FALSE(judgeContention(loadOf(0.96, 0.1, 0.0, 2), 1.0, 2, true)) << "2 threads, 2 CPUs";
    EXPECT_FALSE(judgeContention(loadOf(0.94, 0.05, 0.0, 1), 1.0, 1, true)) << "1 thread, 1 CPU";
}

TEST(ContentionRule, OneThreadBesideABusyLoopOnItsOnlyCpuIsContended) {
    // taskset -c 0 with --threads 1 and a busy loop on CPU 0: about half each.
    EXPECT_TRUE(judgeContention(loadOf(0.5, 0.5, 0.0, 1), 1.0, 1, true));
}

TEST(ContentionRule, TwoThreadsWithOneOtherBusyProcessOnTwoCpusAreContended) {
    EXPECT_TRUE(judgeContention(loadOf(0.67, 0.67, 0.0, 2), 1.0, 2, true));
}

TEST(ContentionRule, AFifthOfTheCpuTakenIsContendedTheUsualBackgroundIsNot) {
    // Measured: a busy loop took a fifth of the run's CPU, epochs 25 % slower.
    EXPECT_TRUE(judgeContention(loadOf(0.794, 0.197, 0.005, 1), 2.0, 1, true));
    EXPECT_TRUE(judgeContention(loadOf(0.809, 0.184, 0.0, 1), 2.1, 1, true));
    // Measured alone: the background on the run's CPUs stays near 0.1 CPU.
    EXPECT_FALSE(judgeContention(loadOf(0.936, 0.111, 0.006, 2), 1.0, 2, true));
}

TEST(ContentionRule, OthersOnTheCpuARunLeftFreeDoNotMakeItContended) {
    // 1 thread on 2 CPUs, one other busy process on the other CPU: the run got its CPU.
    EXPECT_FALSE(judgeContention(loadOf(0.97, 1.0, 0.0, 2), 1.0, 1, true));
    // Even with a lower share (its own waiting), others within the spare CPU are not enough.
    EXPECT_FALSE(judgeContention(loadOf(0.7, 1.1, 0.0, 2), 1.0, 1, true));
    EXPECT_TRUE(judgeContention(loadOf(0.7, 1.2, 0.0, 2), 1.0, 1, true))
        << "beyond the spare CPU by the margin: contended";
}

TEST(ContentionRule, ALowShareWithoutOtherWorkIsTheRunsOwnWaitingNotContention) {
    EXPECT_FALSE(judgeContention(loadOf(0.3, 0.1, 0.0, 2), 1.0, 2, true));
}

TEST(ContentionRule, OtherWorkThatYieldedToTheRunIsNotContention) {
    // A niced build beside the run: others used the CPUs' idle moments, the run kept its share.
    EXPECT_FALSE(judgeContention(loadOf(0.95, 1.0, 0.0, 2), 1.0, 2, true));
}

TEST(ContentionRule, StealAboveTheThresholdIsContendedOnAnyDevice) {
    EXPECT_TRUE(judgeContention(loadOf(0.97, 0.0, kContendedSteal, 2), 1.0, 2, true));
    EXPECT_TRUE(judgeContention(loadOf(0.2, 0.0, 0.25, 2), 1.0, 1, false)) << "cuda";
    EXPECT_FALSE(judgeContention(loadOf(0.97, 0.0, 0.09, 2), 1.0, 2, true));
}

TEST(ContentionRule, OnCudaTheShareIsNotJudgedOnlyTheCpuLeftForTheHostThread) {
    // The host thread waits for the GPU: a low share is normal there.
    EXPECT_FALSE(judgeContention(loadOf(0.1, 0.2, 0.0, 2), 1.0, 2, false));
    EXPECT_FALSE(judgeContention(loadOf(0.1, 1.1, 0.0, 2), 1.0, 2, false)) << "0.9 CPU left";
    EXPECT_TRUE(judgeContention(loadOf(0.9, 1.2, 0.0, 2), 1.0, 2, false)) << "0.8 CPU left";
}

TEST(ContentionRule, UnmeasuredUnknownOrTooShortEpochsAreNotJudged) {
    EXPECT_FALSE(judgeContention(EpochLoad{}, 1.0, 1, true)) << "not measured";
    EXPECT_FALSE(judgeContention(loadOf(0.5, kNaN, kNaN, 1), 1.0, 1, true)) << "no /proc/stat";
    EXPECT_FALSE(judgeContention(loadOf(0.5, 0.5, 0.0, 0), 1.0, 1, true)) << "CPUs unknown";
    EXPECT_FALSE(judgeContention(loadOf(0.5, 0.5, 0.5, 1), kMinJudgedSeconds / 2, 1, true));
}

// ---- texts --------------------------------------------------------------------------------------

EpochResult epochOf(int number, bool contended) {
    EpochResult e;
    e.epoch = number;
    e.seconds = 1.0;
    e.load = loadOf(contended ? 0.5 : 0.97, contended ? 0.5 : 0.0, 0.0, 1);
    e.load.contended = contended;
    return e;
}

TEST(ContentionWarning, NamesTheContendedStableEpochsAndIgnoresWarmUpAndUnmeasured) {
    std::vector<EpochResult> epochs = {epochOf(1, true), epochOf(2, false), epochOf(3, true),
                                       epochOf(4, false), epochOf(5, true)};
    epochs[4].load.measured = false; // an unknown epoch is not counted as contended
    EXPECT_EQ(contendedStableEpochs(epochs, 1), std::vector<int>{3});
    EXPECT_EQ(contentionWarning(epochs, 1),
              "1 of 4 stable epochs (3) ran on a busy machine (contended): the stable mean "
              "includes time other work took; rerun on an idle machine before comparing");
    EXPECT_EQ(contendedStableEpochs(epochs, 0), (std::vector<int>{1, 3}));
    EXPECT_EQ(contentionWarning({epochOf(1, true), epochOf(2, false)}, 1), "")
        << "only the warm-up epoch was contended";
}

TEST(ContentionWarning, DescribesWhatTheEpochGot) {
    EpochLoad load = loadOf(0.48, 1.04, 0.0, 1);
    EXPECT_EQ(describeLoad(load, 1), "got 48 % of 1 CPU; others used 1.0 of its 1 CPU; steal 0 %");
    load.stealFraction = kNaN;
    load.cpus = 2;
    EXPECT_EQ(describeLoad(load, 4), "got 48 % of 2 CPUs; others used 1.0 of its 2 CPUs");
    EXPECT_EQ(describeLoad(EpochLoad{}, 1), "");
}

// ---- reading /proc ------------------------------------------------------------------------------

constexpr const char *kProcStat = "cpu  400 40 100 1000 20 0 10 30 0 0\n"
                                  "cpu0 100 10 50 500 10 0 5 10 0 0\n"
                                  "cpu1 300 30 50 500 10 0 5 20 0 0\n"
                                  "intr 7045666 0 0\n"
                                  "ctxt 12345\n"
                                  "procs_running 3\n";

TEST(ProcStat, SumsTheRunsCpusInSecondsAndSkipsTheMachineTotal) {
    const CpuTimes cpu1 = parseProcStat(kProcStat, {1}, 100.0);
    ASSERT_TRUE(cpu1.valid);
    EXPECT_DOUBLE_EQ(cpu1.busy, (300 + 30 + 50 + 0 + 5) / 100.0);
    EXPECT_DOUBLE_EQ(cpu1.idle, 5.0);
    EXPECT_DOUBLE_EQ(cpu1.iowait, 0.1);
    EXPECT_DOUBLE_EQ(cpu1.steal, 0.2);
    const CpuTimes both = parseProcStat(kProcStat, {}, 100.0);
    EXPECT_DOUBLE_EQ(both.steal, 0.3) << "every CPU line, not the total line on top of them";
    EXPECT_FALSE(parseProcStat(kProcStat, {7}, 100.0).valid) << "a CPU not listed";
    EXPECT_FALSE(parseProcStat("", {}, 100.0).valid);
    EXPECT_FALSE(parseProcStat("cpu0 1 2\ngarbage\n", {}, 100.0).valid) << "too few fields";
}

TEST(ProcStat, LoadAverageIsTheFirstNumberOfLoadavg) {
    EXPECT_DOUBLE_EQ(parseLoadAverage("1.54 1.31 1.73 3/97 17304\n"), 1.54);
    EXPECT_TRUE(std::isnan(parseLoadAverage("")));
    EXPECT_TRUE(std::isnan(parseLoadAverage("-1 0 0")));
}

TEST(ProcStat, TheProcessMayRunOnSomeCpuAndCountsItsOwnCpuTime) {
    EXPECT_FALSE(allowedCpus().empty());
    const double before = processCpuSeconds();
    volatile double sink = 0.0;
    for (int i = 0; i < 2000000; ++i)
        sink = sink + 1.0;
    EXPECT_GT(processCpuSeconds(), before);
}

// Writes a /proc/stat listing every CPU the process may use, each with `ticks` of each kind
// except steal, which has `steal`.
void writeStat(const fs::path &dir, long ticks, long steal) {
    std::ofstream out(dir / "stat");
    out << "cpu  0 0 0 0 0 0 0 0 0 0\n";
    for (int cpu : allowedCpus())
        out << "cpu" << cpu << " " << ticks << " 0 0 " << ticks << " " << ticks << " 0 0 " << steal
            << " 0 0\n";
}

TEST(EpochLoadMeter, MeasuresStealAndIowaitBetweenBeginAndEndAndFlagsHighSteal) {
    TempDir dir;
    std::ofstream(dir.path() / "loadavg") << "2.50 1.00 0.50 1/100 42\n";
    writeStat(dir.path(), 100, 0);
    EpochLoadMeter meter(dir.path().string());
    meter.begin();
    // Each CPU: 100 ticks more of user, idle and iowait, 100 of steal: 1/4 of the time stolen.
    writeStat(dir.path(), 200, 100);
    std::this_thread::sleep_for(std::chrono::duration<double>(kMinJudgedSeconds * 1.5));
    const EpochLoad load = meter.end(1, true);
    ASSERT_TRUE(load.measured);
    EXPECT_EQ(load.cpus, static_cast<int>(allowedCpus().size()));
    EXPECT_DOUBLE_EQ(load.stealFraction, 0.25);
    EXPECT_DOUBLE_EQ(load.iowaitFraction, 0.25);
    EXPECT_DOUBLE_EQ(load.loadAverage, 2.5);
    EXPECT_GE(load.cpuSeconds, 0.0);
    EXPECT_GE(load.otherCpus, 0.0);
    EXPECT_TRUE(load.contended) << "steal 25 % >= 10 %";
}

TEST(EpochLoadMeter, WithoutProcStatOnlyTheProcessCpuIsKnownAndNothingIsFlagged) {
    TempDir dir; // no stat, no loadavg
    EpochLoadMeter meter(dir.path().string());
    meter.begin();
    std::this_thread::sleep_for(std::chrono::duration<double>(kMinJudgedSeconds * 1.5));
    const EpochLoad load = meter.end(1, true);
    ASSERT_TRUE(load.measured);
    EXPECT_TRUE(std::isfinite(load.cpuShare));
    EXPECT_TRUE(std::isnan(load.otherCpus));
    EXPECT_TRUE(std::isnan(load.stealFraction));
    EXPECT_TRUE(std::isnan(load.loadAverage));
    EXPECT_FALSE(load.contended);
}

// ---- the record ---------------------------------------------------------------------------------

RunRecord recordWithLoads() {
    RunRecord r;
    r.runId = "20261130T120000Z-host-0badc0de";
    r.createdUtc = "2026-11-30T12:00:00Z";
    r.status = "finished";
    r.config.epochs = 3; // a finished record holds all its epochs (record_checks)
    r.started.device = "cpu";
    r.started.threads = 1;
    for (int i = 1; i <= 3; ++i) {
        EpochResult e = epochOf(i, i == 3);
        e.testAccuracy = 0.1;
        e.load.cpuSeconds = 0.5 + i;
        e.load.iowaitFraction = 0.01;
        e.load.loadAverage = 2.25;
        r.epochs.push_back(e);
    }
    r.epochs[1].load.stealFraction = kNaN; // unknown parts stay unknown
    return r;
}

TEST(RunRecordLoad, RoundTripKeepsEveryLoadFieldAndTheContendedFlag) {
    const RunRecord original = recordWithLoads();
    const std::string json = toJson(original);
    EXPECT_NE(json.find("\"contended\": true"), std::string::npos) << json;
    const RunRecord back = parseRunRecord(json, "mem.json");
    ASSERT_EQ(back.epochs.size(), original.epochs.size());
    for (std::size_t i = 0; i < back.epochs.size(); ++i) {
        const EpochLoad &a = original.epochs[i].load;
        const EpochLoad &b = back.epochs[i].load;
        EXPECT_TRUE(b.measured);
        EXPECT_EQ(b.contended, a.contended) << i;
        EXPECT_DOUBLE_EQ(b.cpuSeconds, a.cpuSeconds);
        EXPECT_DOUBLE_EQ(b.cpuShare, a.cpuShare);
        EXPECT_DOUBLE_EQ(b.otherCpus, a.otherCpus);
        EXPECT_DOUBLE_EQ(b.iowaitFraction, a.iowaitFraction);
        EXPECT_DOUBLE_EQ(b.loadAverage, a.loadAverage);
        EXPECT_EQ(b.cpus, a.cpus);
        EXPECT_EQ(std::isnan(b.stealFraction), std::isnan(a.stealFraction)) << i;
    }
}

TEST(RunRecordLoad, AnEpochWithoutLoadFieldsReadsAsNotMeasured) {
    RunRecord original = recordWithLoads();
    original.epochs[0].load = EpochLoad{};
    const std::string json = toJson(original);
    const RunRecord back = parseRunRecord(json, "mem.json");
    EXPECT_FALSE(back.epochs[0].load.measured);
    EXPECT_FALSE(back.epochs[0].load.contended);
    EXPECT_TRUE(back.epochs[2].load.contended);
}

TEST(RunRecordLoad, RecordsWrittenBeforeTheLoadWasMeasuredStillReadAsUnknown) {
    for (const char *name : {"cpu-1-thread.json", "cpu-2-threads.json"}) {
        const RunRecord r = readRunRecord((fs::path(DEVICEBENCH_EXAMPLES_DIR) / name).string());
        ASSERT_FALSE(r.epochs.empty()) << name;
        for (const EpochResult &e : r.epochs) {
            EXPECT_FALSE(e.load.measured) << name;
            EXPECT_FALSE(e.load.contended) << name;
        }
        EXPECT_EQ(contentionWarning(r.epochs, r.config.warmupEpochs), "") << name;
    }
}

TEST(RunRecordLoad, AFractionAboveOneOrANegativeShareIsRefusedNamingTheField) {
    const std::string json = toJson(recordWithLoads());
    const auto refuse = [&json](const std::string &from, const std::string &to,
                                const std::string &message) {
        std::string bad = json;
        const auto at = bad.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        bad.replace(at, from.size(), to);
        try {
            parseRunRecord(bad, "bad.json");
            ADD_FAILURE() << "accepted " << to;
        } catch (const RecordError &e) {
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    };
    refuse("\"iowaitFraction\": 0.01", "\"iowaitFraction\": 1.5",
           "bad.json: field 'epochs[0].iowaitFraction' is out of range (1.5)");
    refuse("\"cpuShare\": 0.97", "\"cpuShare\": -0.5",
           "bad.json: field 'epochs[0].cpuShare' is out of range (-0.5)");
    refuse("\"contended\": false", "\"contended\": 0",
           "bad.json: field 'epochs[0].contended' must be true or false");
}

} // namespace
} // namespace devicebench
