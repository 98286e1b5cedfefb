// SPDX-License-Identifier: MIT
// Groups of repeated runs (run_groups.h): which runs belong together, a group's numbers and
// interval, the speed-up between groups, and the test-loss control summarised.
#include "devicebench/csv_export.h"
#include "devicebench/run_groups.h"
#include "devicebench/run_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

EpochResult epochOf(int n, double seconds, double testLoss) {
    EpochResult e;
    e.epoch = n;
    e.seconds = seconds;
    e.trainLoss = 2.0;
    e.testLoss = testLoss;
    e.testAccuracy = 0.25;
    e.imagesPerSecond = 1000.0 / seconds;
    return e;
}

// A finished CPU record; `seconds` after one warm-up epoch of 5 s. Same workload and machine
// unless changed; test losses 2.0, 1.9, ... plus `testLossOffset`.
RunRecord recordOf(const std::string &runId, const std::vector<double> &seconds, int threads = 1,
                   double testLossOffset = 0.0) {
    RunRecord r;
    r.runId = runId;
    r.config.epochs = static_cast<int>(seconds.size()) + 1;
    r.config.warmupEpochs = 1;
    r.config.threads = threads;
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = threads;
    r.started.trainImages = 900;
    r.started.testImages = 100;
    r.fingerprint.hostName = "host-a";
    r.fingerprint.cpuModel = "AMD EPYC";
    r.data = {"/data", "cifar-10-binary", 900, 100,
              std::string(kDataHashPrefix) + "0123456789abcdef0123456789abcdef"};
    std::vector<double> all = {5.0};
    all.insert(all.end(), seconds.begin(), seconds.end());
    for (std::size_t i = 0; i < all.size(); ++i)
        r.epochs.push_back(epochOf(static_cast<int>(i) + 1, all[i],
                                   2.0 - 0.1 * static_cast<double>(i) + testLossOffset));
    r.status = "finished";
    return r;
}

RunSet setOf(const std::vector<RunRecord> &records) {
    RunSet set;
    for (const RunRecord &r : records)
        set.addRecord(r, r.runId + ".json");
    return set;
}

TEST(RunGroups, RepeatsOfOneConfigurationOnOneMachineAreOneGroup) {
    const RunSet set =
        setOf({recordOf("a", {1.0, 1.1}), recordOf("b", {1.2, 1.1}), recordOf("c", {0.9, 1.0})});
    const RunGroups g = groupRuns(set);
    ASSERT_EQ(g.groups.size(), 1u);
    EXPECT_EQ(g.groups[0].runs, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(g.groups[0].stats.n, 3);
    EXPECT_EQ(g.groups[0].label, "CPU x1 @ host-a");
    EXPECT_TRUE(g.groups[0].isBaseline);
    EXPECT_EQ(g.groupOfRun, (std::vector<int>{0, 0, 0}));
    EXPECT_EQ(runNumbersText(set, g.groups[0].runs), "#1-#3");
}

TEST(RunGroups, EachComparedSettingSplitsAGroupAndTheIrrelevantOnesDoNot) {
    for (const ComparisonRule &rule : comparisonRules()) {
        RunRecord other = recordOf("b", {1.0, 1.0});
        rule.vary(other);
        const RunGroups g = groupRuns(setOf({recordOf("a", {1.0, 1.0}), other}));
        const std::string field = rule.field;
        // Device and threads are the machine: another machine is another group too.
        const bool splits = rule.differs != nullptr || field == "device" || field == "threads";
        EXPECT_EQ(g.groups.size(), splits ? 2u : 1u) << field;
    }
}

TEST(RunGroups, AnotherHostOrCpuModelIsAnotherGroup) {
    RunRecord host = recordOf("b", {1.0, 1.0});
    host.fingerprint.hostName = "host-b";
    RunRecord cpu = recordOf("c", {1.0, 1.0});
    cpu.fingerprint.cpuModel = "Intel Xeon";
    const RunGroups g = groupRuns(setOf({recordOf("a", {1.0, 1.0}), host, cpu}));
    ASSERT_EQ(g.groups.size(), 3u);
    EXPECT_TRUE(g.groups[1].differences.empty()) << "another machine stays comparable";
    EXPECT_FALSE(sameGroup(recordOf("a", {1.0}), cpu));
    EXPECT_TRUE(sameGroup(recordOf("a", {1.0}), recordOf("d", {2.0})));
}

TEST(RunGroups, ARunNotComparableEvenWithItselfNeverJoinsAGroup) {
    RunRecord a = recordOf("a", {1.0, 1.0});
    RunRecord b = recordOf("b", {1.0, 1.0});
    a.precision = b.precision = "float8"; // a precision this version does not know
    const RunGroups g = groupRuns(setOf({a, b, recordOf("c", {1.0, 1.0})}));
    ASSERT_EQ(g.groups.size(), 3u);
    EXPECT_FALSE(g.groups[0].comparable);
    EXPECT_FALSE(g.groups[1].comparable);
    EXPECT_TRUE(g.groups[2].comparable);
    EXPECT_EQ(g.groups[0].runs.size(), 1u);
}

TEST(RunGroups, TheBaselineIsTheChosenRunsGroupElseTheSlowestGroup) {
    RunSet set =
        setOf({recordOf("a", {1.0, 1.0}), recordOf("b", {3.0, 3.0}, 2), recordOf("c", {1.2, 1.2})});
    RunGroups g = groupRuns(set);
    ASSERT_EQ(g.groups.size(), 2u);
    EXPECT_EQ(g.baseline, 1) << "threads 2, 3 s: the slowest group";
    EXPECT_DOUBLE_EQ(g.groups[0].speedUp.ratio, 3.0 / 1.1);
    set.setBaseline(set.run(2).id);
    g = groupRuns(set);
    EXPECT_EQ(g.baseline, 0) << "run #3 is in group 1";
    EXPECT_TRUE(g.groups[0].isBaseline);
    EXPECT_DOUBLE_EQ(g.groups[1].speedUp.ratio, 1.1 / 3.0);
}

// Three runs with equal stable epochs each (no spread within a run): e^0, e^0.1, e^0.2 s.
// Log means 0, 0.1, 0.2: mean 0.1, sample variance 0.01, se = 0.1/sqrt(3) = 0.0577350;
// t(0.975, 2) = 4.3027 (studentT975's table), half-width 0.248417:
// [e^-0.148417, e^0.348417] = [0.862072, 1.416822]. Mean of the stable means
// (1 + 1.105171 + 1.221403) / 3 = 1.108858; min 1, max 1.221403; their sample standard
// deviation sqrt((0.108858^2 + 0.003687^2 + 0.112545^2) / 2) = 0.110747.
TEST(GroupStats, IntervalOverTheRunsOnKnownNumbers) {
    const RunSet set =
        setOf({recordOf("a", {1.0, 1.0}), recordOf("b", {std::exp(0.1), std::exp(0.1)}),
               recordOf("c", {std::exp(0.2), std::exp(0.2)})});
    const RunGroups g = groupRuns(set);
    ASSERT_EQ(g.groups.size(), 1u);
    const GroupStats &s = g.groups[0].stats;
    EXPECT_EQ(s.n, 3);
    EXPECT_NEAR(s.mean, 1.108858, 1e-6);
    EXPECT_DOUBLE_EQ(s.min, 1.0);
    EXPECT_NEAR(s.max, 1.221403, 1e-6);
    EXPECT_NEAR(s.stddev, 0.110747, 1e-6);
    EXPECT_NEAR(s.logMean, 0.1, 1e-12);
    EXPECT_NEAR(s.logSe, 0.0577350, 1e-7);
    EXPECT_DOUBLE_EQ(s.degreesOfFreedom, 2.0);
    EXPECT_NEAR(s.ciLow, 0.862072, 1e-6);
    EXPECT_NEAR(s.ciHigh, 1.416822, 1e-6);
}

// Two runs with the same log mean 0 but spread epochs e^-0.1, e^0.1 (s^2 = 0.02, 2 epochs,
// within variance 0.01 each): the runs agree by chance (between variance 0), so the epochs'
// spread decides: se = sqrt(0.01 / 2) = 0.0707107, Satterthwaite df = 0.02^2 / (2 x 0.01^2 / 1)
// = 2, t = 4.3027, half-width 0.304247: [e^-0.304247, e^0.304247] = [0.737679, 1.355604].
TEST(GroupStats, TheEpochsSpreadIsTheFloorWhenRunsAgreeByChance) {
    const std::vector<double> spread = {std::exp(-0.1), std::exp(0.1)};
    const RunGroups g = groupRuns(setOf({recordOf("a", spread), recordOf("b", spread)}));
    const GroupStats &s = g.groups[0].stats;
    EXPECT_NEAR(s.logSe, 0.0707107, 1e-7);
    EXPECT_NEAR(s.degreesOfFreedom, 2.0, 1e-9);
    EXPECT_NEAR(s.ciLow, 0.737679, 1e-6);
    EXPECT_NEAR(s.ciHigh, 1.355604, 1e-6);
    EXPECT_DOUBLE_EQ(s.stddev, 0.0) << "the stable means are equal";
}

TEST(GroupStats, OneRunHasItsOwnEpochIntervalAndNoSpreadBetweenRuns) {
    const RunSet set = setOf({recordOf("a", {1.0, 1.2, 1.1})});
    const GroupStats s = groupRuns(set).groups[0].stats;
    EXPECT_EQ(s.n, 1);
    EXPECT_DOUBLE_EQ(s.mean, set.run(0).summary.stableMean);
    EXPECT_DOUBLE_EQ(s.ciLow, set.run(0).summary.ciLow);
    EXPECT_DOUBLE_EQ(s.ciHigh, set.run(0).summary.ciHigh);
    EXPECT_TRUE(std::isnan(s.stddev));
    EXPECT_DOUBLE_EQ(s.degreesOfFreedom, 2.0);
}

TEST(GroupStats, RunsWithoutAStableEpochAreMembersThatCountNowhere) {
    RunRecord cancelled = recordOf("b", {1.0, 1.0});
    cancelled.epochs.resize(1); // cancelled during its first stable epoch
    cancelled.status = "cancelled";
    const RunGroups g = groupRuns(setOf({recordOf("a", {1.0, 1.0}), cancelled}));
    ASSERT_EQ(g.groups.size(), 1u) << "same configuration: same group";
    EXPECT_EQ(g.groups[0].runs.size(), 2u);
    EXPECT_EQ(g.groups[0].stats.n, 1);
    EXPECT_DOUBLE_EQ(g.groups[0].stats.mean, 1.0);
}

// Group B (threads 2): log means 0, 0.1, 0.2; group A (threads 1, the slowest, the baseline):
// 0.6, 0.7, 0.8; equal epochs within each run. Each has se^2 = 0.01/3 with 2 df, so
// d = 0.7 - 0.1 = 0.6, se = sqrt(0.02/3) = 0.0816497, Welch-Satterthwaite
// df = (0.02/3)^2 / (2 x (0.01/3)^2 / 2) = 4, t(0.975, 4) = 2.7764, half-width 0.226692:
// [e^0.373308, e^0.826692] = [1.452531, 2.285745]. Ratio of the means: the same shape shifted by
// 0.6, e^0.6 = 1.822119.
TEST(GroupSpeedUp, IntervalCombinesBothGroupsSpreadOnKnownNumbers) {
    std::vector<RunRecord> records;
    for (int i = 0; i < 3; ++i) {
        const double slow = std::exp(0.6 + 0.1 * i);
        const double fast = std::exp(0.1 * i);
        records.push_back(recordOf("a" + std::to_string(i), {slow, slow}, 1));
        records.push_back(recordOf("b" + std::to_string(i), {fast, fast}, 2));
    }
    const RunGroups g = groupRuns(setOf(records));
    ASSERT_EQ(g.groups.size(), 2u);
    EXPECT_EQ(g.baseline, 0);
    const SpeedUp &s = g.groups[1].speedUp;
    EXPECT_NEAR(s.ratio, 1.822119, 1e-6);
    EXPECT_NEAR(s.low, 1.452531, 1e-6);
    EXPECT_NEAR(s.high, 2.285745, 1e-6);
    EXPECT_DOUBLE_EQ(g.groups[0].speedUp.ratio, 1.0);
}

TEST(GroupSpeedUp, WithoutARunWithAStableMeanThereIsNone) {
    GroupStats none;
    GroupStats one;
    one.n = 1;
    one.mean = 2.0;
    EXPECT_TRUE(std::isnan(groupSpeedUp(none, one).ratio));
    EXPECT_TRUE(std::isnan(groupSpeedUp(one, none).ratio));
    const SpeedUp noInterval = groupSpeedUp(one, one);
    EXPECT_DOUBLE_EQ(noInterval.ratio, 1.0);
    EXPECT_TRUE(std::isnan(noInterval.low)) << "no standard error: no interval";
}

// Runs 1-3 agree, run 4 is 0.05 off at every epoch, run 5 another workload (batch size) and
// 1.0 off: the largest comparable pair is #1/#4 (the first pair reaching 0.05), the pairs above
// 0.01 are exactly 1-4, 2-4 and 3-4, and run 5 pairs with nothing.
TEST(ControlSummary, NamesTheLargestPairAndListsOnlyThePairsAboveTheWarning) {
    RunRecord other = recordOf("e", {1.0, 1.0}, 1, 1.0);
    other.config.batchSize = 32;
    const RunSet set =
        setOf({recordOf("a", {1.0, 1.0}), recordOf("b", {1.0, 1.0}, 2),
               recordOf("c", {1.0, 1.0}, 1, 0.001), recordOf("d", {1.0, 1.0}, 1, 0.05), other});
    const ControlSummary c = summarizeControl(set);
    EXPECT_EQ(c.comparablePairs, 6) << "4 comparable runs";
    EXPECT_EQ(c.largest.indexA, 0);
    EXPECT_EQ(c.largest.indexB, 3);
    EXPECT_NEAR(c.largest.maxTestLossDiff, 0.05, 1e-12);
    EXPECT_TRUE(c.largest.warning);
    ASSERT_EQ(c.warnings.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(c.warnings[i].indexA, static_cast<int>(i));
        EXPECT_EQ(c.warnings[i].indexB, 3);
        EXPECT_TRUE(c.warnings[i].warning);
    }
}

TEST(ControlSummary, ADivergedRunIsAnInfiniteDifferenceAndNoComparablePairIsNone) {
    RunRecord diverged = recordOf("b", {1.0, 1.0});
    diverged.status = "diverged";
    diverged.epochs[2].testLoss = std::nan("");
    const ControlSummary c = summarizeControl(setOf({recordOf("a", {1.0, 1.0}), diverged}));
    EXPECT_TRUE(std::isinf(c.largest.maxTestLossDiff));
    EXPECT_EQ(c.warnings.size(), 1u);

    RunRecord other = recordOf("b", {1.0, 1.0});
    other.config.batchSize = 32;
    const ControlSummary none = summarizeControl(setOf({recordOf("a", {1.0, 1.0}), other}));
    EXPECT_EQ(none.comparablePairs, 0);
    EXPECT_EQ(none.largest.indexA, -1);
    EXPECT_TRUE(none.warnings.empty());
}

TEST(ControlSummary, ATestLossNotReportedDrawsNoVerdict) {
    // two finished runs of a script that reports accuracy only: their test losses are null
    RunRecord a = recordOf("a", {1.0, 1.0});
    RunRecord b = recordOf("b", {1.0, 1.0}, 1, 0.5);
    for (EpochResult &e : a.epochs)
        e.testLoss = std::nan("");
    const ControlSummary c = summarizeControl(setOf({a, b}));
    EXPECT_EQ(c.comparablePairs, 1);
    EXPECT_EQ(c.largest.indexA, -1) << "not reported: no difference";
    EXPECT_TRUE(c.warnings.empty()) << "no 'did not compute the same thing'";
    for (EpochResult &e : b.epochs)
        e.testLoss = std::nan("");
    EXPECT_TRUE(summarizeControl(setOf({a, b})).warnings.empty());
}

// The summary against every pair of RunSet::controlPairs on a mixed set: the same largest
// difference, and its warnings are exactly the pairs controlPairs warns about.
TEST(ControlSummary, AgreesWithEveryControlPairOnAMixedSet) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> offset(0.0, 0.03);
    std::vector<RunRecord> records;
    for (int i = 0; i < 40; ++i) {
        RunRecord r = recordOf("r" + std::to_string(i), {1.0, 1.1, 1.2}, 1 + i % 3, offset(random));
        if (i % 4 == 0)
            r.config.batchSize = 32;
        if (i % 7 == 0)
            r.epochs.pop_back(); // fewer epochs in common
        records.push_back(r);
    }
    const RunSet set = setOf(records);
    const std::vector<ControlPair> pairs = set.controlPairs();
    const ControlSummary c = summarizeControl(set);
    double largest = 0.0;
    std::vector<std::pair<int, int>> warned;
    for (const ControlPair &p : pairs) {
        largest = std::max(largest, p.maxTestLossDiff);
        if (p.warning)
            warned.emplace_back(p.indexA, p.indexB);
    }
    EXPECT_EQ(c.comparablePairs, static_cast<long long>(pairs.size()));
    EXPECT_DOUBLE_EQ(c.largest.maxTestLossDiff, largest);
    std::vector<std::pair<int, int>> summarised;
    for (const ControlPair &p : c.warnings)
        summarised.emplace_back(p.indexA, p.indexB);
    EXPECT_FALSE(warned.empty()) << "the set must hold warnings for this test to mean anything";
    EXPECT_EQ(summarised, warned);
}

// Records written by an older version (schema 1 without the whole-file hash, the load or the
// canary) group like new ones: two runs of the example record are one group, and the same run
// rewritten by this version (toJson, read back) joins them.
TEST(RunGroups, RecordsOfOlderVersionsAreGroupedLikeNewOnes) {
    const std::string dir = DEVICEBENCH_EXAMPLES_DIR;
    const RunRecord old = readRunRecord(dir + "/cpu-1-thread.json");
    RunRecord again = old;
    again.runId += "-again";
    for (EpochResult &e : again.epochs)
        e.seconds *= 1.1;
    RunRecord rewritten = parseRunRecord(toJson(old), "rewritten.json");
    rewritten.runId += "-rewritten";
    const RunRecord twoThreads = readRunRecord(dir + "/cpu-2-threads.json");
    const RunSet set = setOf({old, again, rewritten, twoThreads});
    const RunGroups g = groupRuns(set);
    ASSERT_EQ(g.groups.size(), 2u);
    EXPECT_EQ(g.groups[0].runs, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(g.groups[0].stats.n, 3);
    EXPECT_NEAR(g.groups[0].stats.max / g.groups[0].stats.min, 1.1, 1e-9);
    EXPECT_TRUE(g.groups[1].differences.empty()) << "2 threads: another machine, comparable";
    EXPECT_EQ(summarizeControl(set).comparablePairs, 6);
}

// The groups CSV: its header in full, one line per group, the group's numbers in its cells.
TEST(GroupsCsv, OneLinePerGroupWithItsRunsNMeanIntervalAndSpeedUp) {
    RunSet set = setOf({recordOf("a", {2.0, 2.0}), recordOf("b", {1.0, 1.0}, 2),
                        recordOf("c", {2.0, 2.0}), recordOf("d", {1.0, 1.0}, 2)});
    const std::string csv = groupsCsv(set);
    const std::string header =
        "group,label,runs,n,members,device,host,threads,cpu_model,model,image_size,batch_size,"
        "precision,workload,epochs,mean_s,stddev_s,min_s,max_s,ci95_low_s,ci95_high_s,"
        "interval_from,speedup,speedup_low,speedup_high,baseline,comparable,differences,"
        "max_test_loss_diff\n";
    ASSERT_EQ(csv.substr(0, header.size()), header);
    EXPECT_EQ(std::count(header.begin(), header.end(), ','), groupsCsvColumnCount() - 1);
    const std::string rows = csv.substr(header.size());
    EXPECT_EQ(rows, "1,CPU x1 @ host-a,\"#1, #3\",2,2,cpu,host-a,1,AMD EPYC,small-cnn,32,64,fp32,"
                    "faithful,3,2.0000,0.0000,2.0000,2.0000,2.0000,2.0000,runs,1.0000,1.0000,"
                    "1.0000,CPU x1 @ host-a (group 1),1,,0.000000\n"
                    "2,CPU x2 @ host-a,\"#2, #4\",2,2,cpu,host-a,2,AMD EPYC,small-cnn,32,64,fp32,"
                    "faithful,3,1.0000,0.0000,1.0000,1.0000,1.0000,1.0000,runs,2.0000,2.0000,"
                    "2.0000,CPU x1 @ host-a (group 1),1,,0.000000\n");
    EXPECT_EQ(groupsCsvPath("x/out.CSV"), "x/out-groups.csv");
}

} // namespace
} // namespace devicebench
