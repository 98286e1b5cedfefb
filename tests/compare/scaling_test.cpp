// SPDX-License-Identifier: MIT
// Scaling with the world size (devicebench/scaling.h): the efficiency
// arithmetic, which runs make a series and its 1-rank point, and that rank records and single
// devices stay out. Job records are made from the single-process examples (job_records.h).
#include "devicebench/scaling.h"
#include "job_records.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

using namespace devicebench;
using test::exampleRecord;
using test::jobRecordFrom;
using test::rankRecordOf;

namespace {

RunSet setOf(const std::vector<RunRecord> &records) {
    RunSet set;
    for (const RunRecord &r : records)
        set.addRecord(r, r.runId + ".json");
    return set;
}

RunRecord single() { return exampleRecord("cpu-1-thread.json"); }

RunRecord renamed(RunRecord r, const std::string &runId) {
    r.runId = runId;
    return r;
}

} // namespace

TEST(Scaling, EfficiencyIsImagesPerSecondOverWorldSizeTimesTheOneRankJobs) {
    const RunSet set =
        setOf({jobRecordFrom(single(), 4, 3.2, 0.25), jobRecordFrom(single(), 1, 1.0, 0.0),
               jobRecordFrom(single(), 2, 1.8, 0.125)});
    const std::vector<ScalingSeries> series = scalingSeries(set);
    ASSERT_EQ(series.size(), 1U);
    const ScalingSeries &s = series.front();
    EXPECT_EQ(s.name, "CPU (1 thread), Gloo \u00b7 batch 64");
    EXPECT_EQ(s.deviceKind, "CPU");
    EXPECT_EQ(s.threadsPerRank, 1);
    EXPECT_EQ(s.backend, "gloo");
    ASSERT_EQ(s.points.size(), 3U);
    EXPECT_EQ(s.singleRankIndex(), 0);
    const double one = set.run(1).summary.imagesPerSecond; // the comparison's own number
    const int sizes[] = {1, 2, 4};
    const int runs[] = {1, 2, 0};
    const double efficiencies[] = {1.0, 0.9, 0.8};
    const double shares[] = {0.0, 0.125, 0.25};
    for (std::size_t i = 0; i < 3; ++i) {
        const ScalingPoint &p = s.points[i];
        EXPECT_EQ(p.worldSize, sizes[i]);
        EXPECT_EQ(p.runIndex, runs[i]);
        EXPECT_TRUE(p.jobRecord);
        EXPECT_EQ(p.otherRuns, 0);
        EXPECT_DOUBLE_EQ(p.imagesPerSecond, set.run(runs[i]).summary.imagesPerSecond);
        EXPECT_DOUBLE_EQ(p.idealImagesPerSecond, sizes[i] * one);
        EXPECT_NEAR(p.efficiency, efficiencies[i], 1e-12);
        EXPECT_NEAR(p.allReduceShare, shares[i], 1e-12);
    }
}

TEST(Scaling, ASingleProcessRunIsTheOneRankPointUnlessAOneRankJobIsThere) {
    RunSet set = setOf({single(), jobRecordFrom(single(), 2, 1.5)});
    std::vector<ScalingSeries> series = scalingSeries(set);
    ASSERT_EQ(series.size(), 1U);
    ASSERT_EQ(series[0].points.size(), 2U);
    EXPECT_EQ(series[0].points[0].runIndex, 0);
    EXPECT_FALSE(series[0].points[0].jobRecord);
    EXPECT_TRUE(std::isnan(series[0].points[0].allReduceShare)) << "no all-reduce in one process";
    EXPECT_NEAR(series[0].points[1].efficiency, 0.75, 1e-12);

    // A 1-rank job times the same code as the others: it is the 1-rank point.
    set.addRecord(jobRecordFrom(single(), 1, 0.98), "job1.json");
    series = scalingSeries(set);
    ASSERT_EQ(series[0].points.size(), 2U);
    EXPECT_EQ(series[0].points[0].runIndex, 2);
    EXPECT_TRUE(series[0].points[0].jobRecord);
    EXPECT_EQ(series[0].points[0].otherRuns, 1);
    EXPECT_NEAR(series[0].points[1].efficiency, 1.5 / 0.98 / 2.0, 1e-12);
}

TEST(Scaling, WithoutAOneRankPointThePointsAreThereAndEfficiencyAndIdealAreNaN) {
    const RunSet set = setOf({jobRecordFrom(single(), 2, 1.8), jobRecordFrom(single(), 4, 3.0)});
    const std::vector<ScalingSeries> series = scalingSeries(set);
    ASSERT_EQ(series.size(), 1U);
    EXPECT_EQ(series[0].singleRankIndex(), -1);
    ASSERT_EQ(series[0].points.size(), 2U);
    for (const ScalingPoint &p : series[0].points) {
        EXPECT_GT(p.imagesPerSecond, 0.0);
        EXPECT_TRUE(std::isnan(p.efficiency));
        EXPECT_TRUE(std::isnan(p.idealImagesPerSecond));
    }
}

TEST(Scaling, RankRecordsAndSingleDevicesWithoutAJobMakeNoSeries) {
    const RunRecord job = jobRecordFrom(single(), 2, 1.8);
    EXPECT_TRUE(scalingSeries(setOf({single(), exampleRecord("cpu-2-threads.json")})).empty())
        << "single devices are the comparison's";
    EXPECT_TRUE(scalingSeries(setOf({rankRecordOf(job, 0), rankRecordOf(job, 1)})).empty());
    const std::vector<ScalingSeries> series =
        scalingSeries(setOf({single(), rankRecordOf(job, 0), job, rankRecordOf(job, 1)}));
    ASSERT_EQ(series.size(), 1U);
    ASSERT_EQ(series[0].points.size(), 2U);
    EXPECT_EQ(series[0].points[1].runIndex, 2) << "the job record, not a rank's";
    EXPECT_EQ(series[0].points[1].otherRuns, 0);
}

TEST(Scaling, RunsThatDifferInMoreThanTheWorldSizeAreInSeparateSeries) {
    RunRecord otherBatch = renamed(jobRecordFrom(single(), 2, 1.8), "other-batch");
    otherBatch.config.batchSize = 128;
    RunRecord otherCpu = renamed(jobRecordFrom(single(), 2, 1.8), "other-cpu");
    otherCpu.fingerprint.cpuModel = "Another CPU";
    const RunRecord twoThreads = jobRecordFrom(exampleRecord("cpu-2-threads.json"), 2, 1.7);
    RunRecord gpu = renamed(single(), "gpu");
    gpu.config.device = gpu.started.device = "cuda:0";
    gpu.fingerprint.gpus = {{0, "NVIDIA H200", 9, 0, 0}};
    const RunSet set = setOf({jobRecordFrom(single(), 2, 1.8), otherBatch, otherCpu, twoThreads,
                              jobRecordFrom(gpu, 2, 1.9, 0.1, "nccl"),
                              jobRecordFrom(gpu, 2, 1.6, 0.1, "gloo"), gpu});
    const std::vector<ScalingSeries> series = scalingSeries(set);
    ASSERT_EQ(series.size(), 6U);
    EXPECT_EQ(series[1].name, "CPU (1 thread), Gloo \u00b7 batch 128");
    EXPECT_EQ(series[3].name, "CPU (2 threads), Gloo \u00b7 batch 64");
    EXPECT_EQ(series[4].name, "NVIDIA H200, NCCL \u00b7 batch 64");
    EXPECT_EQ(series[5].name, "NVIDIA H200, Gloo \u00b7 batch 64");
    // A single-process GPU run is the 1-rank point of the NCCL series, not of the Gloo one.
    ASSERT_EQ(series[4].points.size(), 2U);
    EXPECT_EQ(series[4].points[0].runIndex, 6);
    EXPECT_EQ(series[5].singleRankIndex(), -1);
    // Two CPU models with one name: each says which it is.
    EXPECT_EQ(series[0].name,
              "CPU (1 thread), Gloo \u00b7 batch 64 \u00b7 " + single().fingerprint.cpuModel);
    EXPECT_EQ(series[2].name, "CPU (1 thread), Gloo \u00b7 batch 64 \u00b7 Another CPU");
}

TEST(Scaling, RunsWithoutAStableMeanAreOnNoSeries) {
    RunRecord unfinished = jobRecordFrom(single(), 4, 3.0);
    unfinished.epochs.resize(1); // only the warm-up epoch
    const std::vector<ScalingSeries> series =
        scalingSeries(setOf({single(), jobRecordFrom(single(), 2, 1.8), unfinished}));
    ASSERT_EQ(series.size(), 1U);
    ASSERT_EQ(series[0].points.size(), 2U);
    EXPECT_EQ(series[0].points.back().worldSize, 2);
}

TEST(Scaling, TheComparisonsWarmUpSettingIsTheOneTheImagesPerSecondUse) {
    RunSet set = setOf({single(), jobRecordFrom(single(), 2, 1.8)});
    set.setWarmupEpochs(3);
    const std::vector<ScalingSeries> series = scalingSeries(set);
    ASSERT_EQ(series.size(), 1U);
    EXPECT_DOUBLE_EQ(series[0].points[0].imagesPerSecond, set.run(0).summary.imagesPerSecond);
    EXPECT_NEAR(series[0].points[1].efficiency, 0.9, 1e-12);
}

// A weak-scaling job (no --global-batch-size): `worldSize` ranks of `base`'s batch each.
RunRecord weakJob(const RunRecord &base, int worldSize, double speedUp) {
    RunRecord r = jobRecordFrom(base, worldSize, speedUp);
    r.config.batchSize = base.config.batchSize * worldSize;
    r.started.distributed.perRankBatchSize = base.config.batchSize;
    r.started.distributed.weakScaling = true;
    r.started.stepsPerEpoch = (r.started.trainImages + r.config.batchSize - 1) / r.config.batchSize;
    return r;
}

TEST(Scaling, WeakScalingJobsKeepThePerRankBatchAndStrongOnesTheGlobalBatch) {
    // One rank at 64; two ranks at 64 each (global 128, weak); two ranks at 32 each (global 64,
    // strong): the 1-rank job is the reference of both series, and the two 2-rank jobs are in
    // different series.
    const RunSet set = setOf({jobRecordFrom(single(), 1, 1.0), weakJob(single(), 2, 1.8),
                              jobRecordFrom(single(), 2, 1.5)});
    const std::vector<ScalingSeries> series = scalingSeries(set);
    ASSERT_EQ(series.size(), 2U);
    const ScalingSeries &weak =
        series[0].name.find("weak") != std::string::npos ? series[0] : series[1];
    const ScalingSeries &strong = &weak == &series[0] ? series[1] : series[0];
    EXPECT_EQ(weak.name, "CPU (1 thread), Gloo \u00b7 64 per rank (weak scaling)");
    EXPECT_EQ(strong.name, "CPU (1 thread), Gloo \u00b7 batch 64");
    ASSERT_EQ(weak.points.size(), 2U);
    ASSERT_EQ(strong.points.size(), 2U);
    EXPECT_EQ(weak.points[0].runIndex, 0);
    EXPECT_EQ(strong.points[0].runIndex, 0);
    EXPECT_EQ(weak.points[1].runIndex, 1);
    EXPECT_EQ(strong.points[1].runIndex, 2);
    EXPECT_NEAR(weak.points[1].efficiency, 0.9, 1e-12);
    EXPECT_NEAR(strong.points[1].efficiency, 0.75, 1e-12);
}
