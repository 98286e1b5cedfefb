// SPDX-License-Identifier: MIT
// The engine's comparison model: numbering and labels, states (Interrupted included), the
// warm-up override, the baseline, speed-ups with intervals, comparability and control pairs.
#include "devicebench/run_set.h"
#include "devicebench/summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace devicebench {
namespace {

EpochResult epochOf(int n, double seconds, double testLoss = 1.9) {
    EpochResult e;
    e.epoch = n;
    e.seconds = seconds;
    e.trainLoss = 2.0;
    e.testLoss = testLoss;
    e.testAccuracy = 0.25;
    e.imagesPerSecond = 1000.0 / seconds;
    return e;
}

// A finished record as another machine would write it; same workload unless changed.
RunRecord recordOf(const std::string &host, int threads, const std::vector<double> &seconds,
                   int warmup, int batchSize = 64, double testLossOffset = 0.0) {
    RunRecord r;
    r.runId = host + "-" + std::to_string(threads) + "-" + std::to_string(batchSize) + "-" +
              std::to_string(testLossOffset);
    r.config.epochs = static_cast<int>(seconds.size());
    r.config.warmupEpochs = warmup;
    r.config.batchSize = batchSize;
    r.config.threads = threads;
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = threads;
    r.started.trainImages = 900;
    r.started.testImages = 100;
    r.fingerprint.hostName = host;
    r.data = {"/data", "cifar-10-binary", 900, 100, "0123456789abcdef"};
    for (std::size_t i = 0; i < seconds.size(); ++i)
        r.epochs.push_back(
            epochOf(static_cast<int>(i) + 1, seconds[i], 2.0 - 0.1 * double(i) + testLossOffset));
    r.status = "finished";
    return r;
}

TEST(RunSet, NumbersRunsInOrderAndLabelsThemWithTheMachine) {
    RunSet set;
    EXPECT_EQ(set.addRecord(recordOf("host-a", 8, {2.0}, 0), "a.json"), 0);
    RunRecord live = recordOf("host-b", 2, {}, 0);
    live.status = "finished"; // a live run is Running whatever the record says
    EXPECT_EQ(set.addRun(5, live), 1);
    EXPECT_EQ(set.run(0).label, "#1 CPU x8 @ host-a");
    EXPECT_EQ(set.run(1).label, "#2 CPU x2 @ host-b");
    EXPECT_EQ(set.run(0).origin, "a.json");
    EXPECT_EQ(set.run(1).origin, "live");
    EXPECT_EQ(set.run(1).state, RunState::Running);
    EXPECT_EQ(set.run(1).record.status, "running");
    EXPECT_LT(set.run(0).id, 0) << "imported ids never clash with the caller's";

    // The same live id again: replaced in place, same number.
    EXPECT_EQ(set.addRun(5, recordOf("host-c", 4, {}, 0)), 1);
    EXPECT_EQ(set.runCount(), 2);
    EXPECT_EQ(set.findRun(5)->label, "#2 CPU x4 @ host-c");
    set.setLabel(5, "mine");
    EXPECT_EQ(set.findRun(5)->label, "mine");
    EXPECT_THROW(static_cast<void>(set.run(2)), std::out_of_range);
}

TEST(RunSet, ARecordLeftRunningIsInterruptedWithTheEpochItStoppedIn) {
    RunRecord r = recordOf("a", 1, {3.0, 2.0}, 1);
    r.status = "running";
    RunSet set;
    EXPECT_EQ(set.addRecord(r, "x.json"), 0);
    EXPECT_EQ(set.addRecord(r, "y.json"), 0) << "same runId: added once";
    ASSERT_EQ(set.runCount(), 1);
    EXPECT_EQ(set.run(0).state, RunState::Interrupted);
    EXPECT_STREQ(toString(set.run(0).state), "interrupted");
    EXPECT_EQ(set.run(0).reason, "the process that ran it ended during epoch 3");
}

TEST(RunSet, LiveEventsFillTheRecordAndTheFinalRecordEndsIt) {
    RunSet set;
    set.addRun(7, recordOf("h", 1, {}, 1));
    set.appendSteps(7, {{1, 1, 2.3, 0.5}, {1, 2, 2.2, 0.5}});
    set.addEpoch(7, epochOf(1, 9.0));
    set.addEpoch(7, epochOf(2, 4.0));
    set.addEpoch(99, epochOf(1, 1.0)); // unknown: ignored
    EXPECT_EQ(set.findRun(7)->record.steps.size(), 2U);
    EXPECT_EQ(set.findRun(7)->record.steps[1].seconds, 0.5) << "the time given, not a clock's";
    EXPECT_DOUBLE_EQ(set.findRun(7)->summary.stableMean, 4.0);
    EXPECT_EQ(set.findRun(7)->state, RunState::Running);

    // The recorder's final record replaces it, state and reason from its status.
    RunRecord final = set.findRun(7)->record;
    final.status = "cancelled";
    final.reason = "stopped";
    EXPECT_TRUE(set.replaceRecord(7, final));
    EXPECT_EQ(set.findRun(7)->state, RunState::Cancelled);
    EXPECT_EQ(set.findRun(7)->reason, "stopped");
    EXPECT_EQ(set.findRun(7)->record.epochs.size(), 2U);
    final.status = "diverged";
    final.reason = "loss became NaN";
    EXPECT_TRUE(set.replaceRecord(7, final));
    EXPECT_EQ(set.findRun(7)->state, RunState::Diverged);
    EXPECT_EQ(set.findRun(7)->reason, "loss became NaN");
    EXPECT_FALSE(set.replaceRecord(99, final));
}

TEST(RunSet, WarmupOverrideReDerivesEverySummary) {
    RunSet set;
    set.addRecord(recordOf("h", 1, {10.0, 4.0, 5.0, 6.0}, 1), "a");
    EXPECT_EQ(set.run(0).warmupEpochs, 1);
    EXPECT_DOUBLE_EQ(set.run(0).summary.stableMean,
                     summarize(set.run(0).record.epochs, 1, 1000.0).stableMean);
    EXPECT_TRUE(set.setWarmupEpochs(2));
    EXPECT_FALSE(set.setWarmupEpochs(2)) << "unchanged";
    EXPECT_DOUBLE_EQ(set.run(0).summary.stableMean,
                     summarize(set.run(0).record.epochs, 2, 1000.0).stableMean);
    EXPECT_TRUE(set.run(0).isWarmup(2));
    EXPECT_FALSE(set.run(0).isWarmup(3));
    EXPECT_TRUE(set.setWarmupEpochs(-5));
    EXPECT_EQ(set.warmupEpochs(), -1) << "below -1 counts as -1: each run's own";
    EXPECT_EQ(set.run(0).warmupEpochs, 1);
}

TEST(RunSet, BaselineIsTheSlowestStableRunUnlessChosenAndSpeedUpsCarryIntervals) {
    RunSet set;
    set.addRecord(recordOf("fast", 2, {20.0, 4.0, 5.0, 6.0}, 1), "fast");
    set.addRecord(recordOf("slow", 1, {20.0, 8.0, 10.0, 12.0}, 1), "slow");
    set.addRecord(recordOf("none", 1, {20.0}, 1), "no stable epoch");
    EXPECT_EQ(set.baselineIndex(), 1);
    const SpeedUp expected = speedUp(set.run(1).summary, set.run(0).summary);
    EXPECT_DOUBLE_EQ(set.run(0).speedUp.ratio, expected.ratio);
    EXPECT_DOUBLE_EQ(set.run(0).speedUp.low, expected.low);
    EXPECT_DOUBLE_EQ(set.run(0).speedUp.high, expected.high);
    EXPECT_GT(set.run(0).speedUp.ratio, 1.0);
    EXPECT_TRUE(std::isnan(set.run(2).speedUp.ratio)) << "no stable mean, no speed-up";
    EXPECT_TRUE(std::isnan(set.run(1).maxTestLossDiff)) << "none for the baseline itself";

    EXPECT_TRUE(set.setBaseline(set.run(0).id));
    EXPECT_EQ(set.baselineIndex(), 0);
    EXPECT_DOUBLE_EQ(set.run(1).speedUp.ratio,
                     set.run(0).summary.stableMean / set.run(1).summary.stableMean);
    EXPECT_TRUE(set.setBaseline(12345)) << "an id not in the set";
    EXPECT_EQ(set.baselineIndex(), 1) << "falls back to the slowest";

    // Removing the baseline re-chooses it; numbers stay.
    EXPECT_TRUE(set.removeRun(set.run(1).id));
    EXPECT_FALSE(set.removeRun(set.run(1).id - 1000));
    EXPECT_EQ(set.runCount(), 2);
    EXPECT_EQ(set.baselineIndex(), 0);
    EXPECT_EQ(set.run(1).number, 3);
}

TEST(RunSet, DifferencesNameTheFieldAndControlPairsWarnOnDisagreeingTestLosses) {
    RunSet set;
    set.addRecord(recordOf("a", 1, {3.0, 2.0, 2.0}, 1), "a");
    set.addRecord(recordOf("a", 2, {2.0, 1.0, 1.0}, 1, 64, 1e-7), "b");
    set.addRecord(recordOf("b", 4, {2.0, 1.0, 1.1}, 1, 64, 0.25), "c");
    set.addRecord(recordOf("b", 1, {2.0, 1.0, 1.1}, 1, 32), "d");
    EXPECT_TRUE(set.run(1).comparable());
    EXPECT_EQ(set.run(3).differences, std::vector<std::string>{"batch size"});
    const std::vector<ControlPair> pairs = set.controlPairs();
    ASSERT_EQ(pairs.size(), 3U) << "run d differs in batch size: in no pair";
    EXPECT_EQ(pairs[0].indexA, 0);
    EXPECT_EQ(pairs[0].indexB, 1);
    EXPECT_DOUBLE_EQ(pairs[0].maxTestLossDiff,
                     maxTestLossDifference(set.run(0).record, set.run(1).record));
    EXPECT_FALSE(pairs[0].warning);
    EXPECT_TRUE(pairs[1].warning) << pairs[1].maxTestLossDiff;
    EXPECT_GT(pairs[1].maxTestLossDiff, kTestLossWarning);
}

TEST(RunSet, AnySyntheticSeesARunOnGeneratedData) {
    RunSet set;
    set.addRecord(recordOf("a", 1, {1.0}, 0), "a");
    EXPECT_FALSE(set.anySynthetic());
    RunRecord synthetic = recordOf("b", 1, {1.0}, 0);
    synthetic.data.variant = "synthetic";
    set.addRecord(synthetic, "b");
    EXPECT_TRUE(set.anySynthetic());
    EXPECT_NE(set.run(1).label.find("[synthetic]"), std::string::npos);
    set.clear();
    EXPECT_EQ(set.runCount(), 0);
    EXPECT_EQ(set.baselineIndex(), -1);
    EXPECT_EQ(set.addRecord(recordOf("c", 1, {1.0}, 0), "c"), 0);
    EXPECT_EQ(set.run(0).number, 1) << "numbering starts again";
}

} // namespace
} // namespace devicebench
