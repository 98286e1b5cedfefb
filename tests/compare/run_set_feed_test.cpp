// SPDX-License-Identifier: MIT
// RunSetFeed: a live run behind its recorder goes into a RunSet as the events come, and its end
// is the final record, as written, whatever the route by which the run ended.
#include "devicebench/run_set_feed.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace devicebench {
namespace {

RunConfig syntheticConfig() {
    RunConfig config;
    config.device = "cpu";
    config.synthetic = true;
    config.epochs = 3;
    config.warmupEpochs = 1;
    return config;
}

RunStarted startedOn(const std::string &device) {
    RunStarted info;
    info.device = device;
    info.deviceName = "CPU";
    info.threads = 2;
    info.trainImages = 640;
    info.testImages = 64;
    info.stepsPerEpoch = 10;
    return info;
}

EpochResult epochOf(int n, double seconds) {
    EpochResult e;
    e.epoch = n;
    e.seconds = seconds;
    e.warmup = n == 1;
    e.trainLoss = 2.0;
    e.testLoss = 1.9;
    e.testAccuracy = 0.2;
    e.imagesPerSecond = 640.0 / seconds;
    return e;
}

// A run of `epochs` epochs told to a recorder with `feed` behind it, ending with `status`.
RecordedRun recordRun(RunSetFeed &feed, int epochs, RunStatus status) {
    RunRecorder recorder(syntheticConfig(), /*path=*/{}, &feed, "run-7", FingerprintSource());
    recorder.onRunStarted(startedOn("cpu"));
    RunOutcome outcome;
    for (int e = 1; e <= epochs; ++e) {
        recorder.onStepLosses({{e, 10 * e - 5, 2.0}, {e, 10 * e, 1.9}});
        recorder.onEpochFinished(epochOf(e, 4.0 + e));
        outcome.epochs.push_back(epochOf(e, 4.0 + e));
    }
    outcome.status = status;
    outcome.reason = status == RunStatus::Cancelled ? "stopped" : "";
    recorder.onRunEnded(outcome);
    return RecordedRun{outcome, recorder.record(), {}, {}, {}, {}};
}

TEST(RunSetFeed, TheSetHoldsTheRecordAsWrittenOnceTheRunIsFinished) {
    RunSet set;
    std::vector<RunSetFeed::Change> changes;
    RunSetFeed feed(set, 7, [&](RunSetFeed::Change c) { changes.push_back(c); });
    const RecordedRun run = recordRun(feed, 3, RunStatus::Finished);
    ASSERT_EQ(set.runCount(), 1);
    EXPECT_EQ(set.run(0).state, RunState::Running) << "going until finish";
    EXPECT_EQ(set.run(0).record.steps.size(), 6U) << "the steps as they came";
    EXPECT_TRUE(feed.going());

    ASSERT_TRUE(feed.finish(run));
    EXPECT_FALSE(feed.going());
    EXPECT_EQ(set.run(0).id, 7);
    EXPECT_EQ(set.run(0).state, RunState::Finished);
    EXPECT_EQ(toJson(set.run(0).record), toJson(run.record)) << "the final record, as written";
    EXPECT_DOUBLE_EQ(set.run(0).summary.stableMean, 6.5);
    // Added, 3 x (steps, epoch), finished: the start, each epoch and the end re-derive.
    const std::vector<RunSetFeed::Change> expected{
        RunSetFeed::Change::Rederived, RunSetFeed::Change::Appended,  RunSetFeed::Change::Rederived,
        RunSetFeed::Change::Appended,  RunSetFeed::Change::Rederived, RunSetFeed::Change::Appended,
        RunSetFeed::Change::Rederived, RunSetFeed::Change::Rederived};
    EXPECT_EQ(changes, expected);
}

TEST(RunSetFeed, AStoppedRunEndsCancelledWithItsReasonAndItsEpochs) {
    RunSet set;
    RunSetFeed feed(set, 3);
    const RecordedRun run = recordRun(feed, 2, RunStatus::Cancelled);
    ASSERT_TRUE(feed.finish(run));
    EXPECT_EQ(set.run(0).state, RunState::Cancelled);
    EXPECT_EQ(set.run(0).reason, "stopped");
    EXPECT_EQ(set.run(0).record.epochs.size(), 2U);
}

TEST(RunSetFeed, ARunThatEndedBeforeItStartedLeavesTheSetAsItWas) {
    RunSet set;
    RunSetFeed feed(set, 4);
    RunRecorder recorder(syntheticConfig(), {}, &feed, "run-4", FingerprintSource());
    RunOutcome failed;
    failed.status = RunStatus::Failed;
    failed.reason = "no CIFAR-10 files in /nowhere";
    recorder.onRunEnded(failed); // before onRunStarted: no record went to the set
    EXPECT_FALSE(feed.finish(RecordedRun{failed, recorder.record(), {}, {}, {}, {}}));
    EXPECT_EQ(set.runCount(), 0);
    EXPECT_FALSE(feed.going());

    RunSetFeed never(set, 5); // a run of a stopped set that never started: no record at all
    RecordedRun cancelled;
    cancelled.outcome.status = RunStatus::Cancelled;
    EXPECT_FALSE(never.finish(cancelled));
    EXPECT_EQ(set.runCount(), 0);
}

} // namespace
} // namespace devicebench
