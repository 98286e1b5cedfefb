// SPDX-License-Identifier: MIT
// Data-parallel records in the comparison: a job record is labelled as its
// ranks' machine ("2 x CPU (1 thread), Gloo @ host-a"), a rank record as a rank of its job, and
// a job compares with a single-process run (or a job of another world size) of the same global
// batch as two devices do.
#include "devicebench/comparison.h"
#include "devicebench/run_set.h"
#include "job_records.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace devicebench;
using test::exampleRecord;
using test::jobRecordFrom;
using test::rankRecordOf;

namespace {

RunRecord gpuRecord() {
    RunRecord r = exampleRecord("cpu-1-thread.json");
    r.config.device = r.started.device = "cuda:0";
    r.started.deviceName = "NVIDIA H200";
    r.fingerprint.gpus = {{0, "NVIDIA H200", 9, 0, 0}, {1, "NVIDIA H200", 9, 0, 0}};
    return r;
}

} // namespace

TEST(DistributedLabel, AJobRecordIsItsWorldSizeTimesTheDeviceWithThreadsBackEndAndHost) {
    const RunRecord single = exampleRecord("cpu-1-thread.json");
    EXPECT_EQ(runLabel(jobRecordFrom(single, 2, 1.8)), "2 x CPU (1 thread), Gloo @ host-a");
    EXPECT_EQ(runLabel(jobRecordFrom(exampleRecord("cpu-2-threads.json"), 4, 3.0)),
              "4 x CPU (2 threads), Gloo @ host-a");
    EXPECT_EQ(runLabel(jobRecordFrom(gpuRecord(), 8, 7.0, 0.1, "nccl", {"node-1"})),
              "8 x NVIDIA H200, NCCL @ node-1");
}

TEST(DistributedLabel, AJobOnSeveralHostsCountsThemAndRanksWithOtherThreadsShowTheRange) {
    const RunRecord single = exampleRecord("cpu-1-thread.json");
    EXPECT_EQ(runLabel(jobRecordFrom(gpuRecord(), 64, 50.0, 0.2, "nccl",
                                     {"node-1", "node-2", "node-3", "node-4"})),
              "64 x NVIDIA H200, NCCL @ 4 hosts");
    RunRecord mixed = jobRecordFrom(single, 2, 1.5);
    mixed.started.distributed.ranks[1].threads = 2;
    EXPECT_EQ(runLabel(mixed), "2 x CPU (1\u20132 threads), Gloo @ host-a");
}

TEST(DistributedLabel, ARankRecordIsNamedAsARankOfItsJobBeforeItsMachine) {
    const RunRecord job = jobRecordFrom(exampleRecord("cpu-1-thread.json"), 2, 1.8);
    EXPECT_EQ(runLabel(rankRecordOf(job, 1)), "rank 1 of 2: CPU x1 @ host-a");
    EXPECT_EQ(runLabel(rankRecordOf(job, 0)), "rank 0 of 2: CPU x1 @ host-a");
}

TEST(DistributedLabel, ModelWorkloadAndSyntheticTagsFollowTheJobsMachineAsForAnyRun) {
    RunRecord r = jobRecordFrom(exampleRecord("cpu-1-thread.json"), 2, 1.8);
    r.model = "resnet18";
    r.workload = "tuned";
    r.data.variant = "synthetic";
    EXPECT_EQ(runLabel(r), "2 x CPU (1 thread), Gloo @ host-a \u00b7 resnet18 (tuned) [synthetic]");
}

TEST(DistributedLabel, ASingleProcessRunKeepsItsMachineLabel) {
    const RunRecord single = exampleRecord("cpu-1-thread.json");
    EXPECT_EQ(runLabel(single), machineLabel(single.fingerprint, "cpu", 1));
    EXPECT_EQ(jobMachineLabel(single), runLabel(single));
    EXPECT_EQ(deviceKind(single), "CPU");
    EXPECT_EQ(deviceKind(gpuRecord()), "NVIDIA H200");
    EXPECT_EQ(backendLabel("nccl"), "NCCL");
    EXPECT_EQ(backendLabel("mpi"), "mpi");
}

TEST(DistributedComparison, AJobComparesWithASingleProcessRunAndOtherWorldSizesOfOneGlobalBatch) {
    const RunRecord single = exampleRecord("cpu-1-thread.json");
    const RunRecord two = jobRecordFrom(single, 2, 1.8);
    const RunRecord four = jobRecordFrom(single, 4, 3.2);
    EXPECT_TRUE(workloadDifferences(single, two).empty());
    EXPECT_TRUE(workloadDifferences(two, four).empty());
    EXPECT_TRUE(workloadDifferences(jobRecordFrom(single, 1, 1.0), two).empty());

    // Another global batch is another workload, whatever the world size.
    RunRecord otherBatch = two;
    otherBatch.config.batchSize *= 2;
    EXPECT_EQ(workloadDifferences(single, otherBatch), std::vector<std::string>{"batch size"});

    // In a run set the job gets a speed-up against the single-process run like a device.
    RunSet set;
    set.addRecord(single, "single.json");
    set.addRecord(two, "job.json");
    set.addRecord(rankRecordOf(two, 1), "rank1.json");
    ASSERT_EQ(set.baselineIndex(), 0);
    EXPECT_TRUE(set.run(1).comparable());
    EXPECT_NEAR(set.run(1).speedUp.ratio, 1.8, 1e-9);
    EXPECT_EQ(set.run(1).label, "#2 2 x CPU (1 thread), Gloo @ host-a");
    EXPECT_EQ(set.run(2).label, "#3 rank 1 of 2: CPU x1 @ host-a");
}
