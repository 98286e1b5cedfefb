// SPDX-License-Identifier: MIT
// Data-parallel training (data_parallel.h): shards, and N ranks on N threads
// of this process, each with its own real c10d Gloo process group over one c10d::HashStore
// (the same process group a launched job uses, over loopback), against one rank at the same
// global batch: parameters and losses match within float tolerance.
#include "devicebench/data_parallel.h"
#include "devicebench/trainer.h"

#include "process_group.h"

#include <gtest/gtest.h>
#include <torch/csrc/distributed/c10d/HashStore.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace devicebench;

namespace {

constexpr double kTimeoutSeconds = 20.0;

// What a run told its observer.
class Collect final : public TrainingObserver {
public:
    void onRunStarted(const RunStarted &info) override { started = info; }
    void onStepLosses(const std::vector<StepLoss> &l) override {
        losses.insert(losses.end(), l.begin(), l.end());
    }
    void onEpochFinished(const EpochResult &e) override { epochs.push_back(e); }
    void onRunEnded(const RunOutcome &o) override { outcome = o; }
    RunStarted started;
    std::vector<StepLoss> losses;
    std::vector<EpochResult> epochs;
    RunOutcome outcome;
};

RunConfig smallRun(int globalBatch, std::int64_t trainImages) {
    RunConfig c;
    c.synthetic = true;
    c.epochs = 2;
    c.warmupEpochs = 0;
    c.threads = 1;
    c.batchSize = globalBatch;
    c.trainImages = trainImages;
    c.testImages = 50;
    c.lossFetchInterval = 1;
    c.learningRate = 0.05;
    return c;
}

DeviceProbe usableProbe() {
    return [](const std::string &) {
        ProbeResult r;
        r.usable = true;
        return r;
    };
}

struct RankResult {
    Collect rank;
    Collect job;
    RunOutcome outcome;
    std::vector<torch::Tensor> parameters;
};

// Runs `config` as a job of `world` ranks on `world` threads; `stopRank` (>= 0) asks for a stop
// on that rank only, before the first step.
std::vector<std::unique_ptr<RankResult>> runJob(const RunConfig &config, int world,
                                                int stopRank = -1) {
    auto store = c10::make_intrusive<c10d::HashStore>();
    std::vector<std::unique_ptr<RankResult>> results;
    for (int r = 0; r < world; ++r)
        results.push_back(std::make_unique<RankResult>());
    std::vector<std::thread> threads;
    for (int r = 0; r < world; ++r) {
        threads.emplace_back([&, r] {
            RankResult &result = *results[static_cast<std::size_t>(r)];
            auto group =
                devicebench::detail::makeCollectives(store, r, world, "gloo", kTimeoutSeconds);
            DataParallelRun run;
            run.group = group.get();
            run.jobId = "job-under-test";
            run.localRank = r;
            run.job = r == 0 ? &result.job : nullptr;
            run.finalParameters = &result.parameters;
            std::atomic<bool> stop{r == stopRank};
            result.outcome = runDataParallelTraining(config, run, result.rank, stop, usableProbe());
        });
    }
    for (auto &t : threads)
        t.join();
    return results;
}

void expectSameTraining(const RankResult &one, const RankResult &many, double tolerance) {
    ASSERT_EQ(one.outcome.status, RunStatus::Finished) << one.outcome.reason;
    ASSERT_EQ(many.outcome.status, RunStatus::Finished) << many.outcome.reason;
    ASSERT_EQ(one.rank.losses.size(), many.rank.losses.size());
    for (std::size_t i = 0; i < one.rank.losses.size(); ++i)
        EXPECT_NEAR(one.rank.losses[i].loss, many.rank.losses[i].loss, tolerance) << "step " << i;
    ASSERT_EQ(one.rank.epochs.size(), many.rank.epochs.size());
    for (std::size_t i = 0; i < one.rank.epochs.size(); ++i) {
        EXPECT_NEAR(one.rank.epochs[i].testLoss, many.rank.epochs[i].testLoss, tolerance);
        EXPECT_NEAR(one.rank.epochs[i].testAccuracy, many.rank.epochs[i].testAccuracy, 1e-12);
    }
    ASSERT_EQ(one.parameters.size(), many.parameters.size());
    ASSERT_FALSE(one.parameters.empty());
    for (std::size_t i = 0; i < one.parameters.size(); ++i)
        EXPECT_TRUE(torch::allclose(one.parameters[i], many.parameters[i], 1e-4, tolerance))
            << "parameter " << i << " differs by "
            << (one.parameters[i] - many.parameters[i]).abs().max().item<double>();
}

} // namespace

TEST(Shards, SplitABatchInOrderWithoutGapsOrOverlap) {
    for (int world : {1, 2, 3, 7}) {
        for (std::int64_t count : {0, 1, 5, 64, 65}) {
            std::int64_t next = 100;
            for (int r = 0; r < world; ++r) {
                const Shard s = shardOf(100, count, r, world);
                EXPECT_EQ(s.start, next) << world << " ranks, " << count << " images, rank " << r;
                EXPECT_GE(s.count, count / world);
                EXPECT_LE(s.count, count / world + 1);
                next = s.start + s.count;
            }
            EXPECT_EQ(next, 100 + count);
        }
    }
    EXPECT_THROW(shardOf(0, 10, 2, 2), std::invalid_argument);
    EXPECT_THROW(shardOf(0, -1, 0, 2), std::invalid_argument);
}

TEST(DataParallel, TwoRanksAtTwoTimes32MatchOneRankAt64InParametersAndLosses) {
    const RunConfig config = smallRun(64, 256);
    const auto one = runJob(config, 1);
    const auto two = runJob(config, 2);
    expectSameTraining(*one[0], *two[0], 1e-5);
    expectSameTraining(*one[0], *two[1], 1e-5);
    EXPECT_EQ(two[0]->rank.started.distributed.perRankBatchSize, 32);
    EXPECT_EQ(two[1]->rank.started.distributed.ranks[1].trainImages, 128);
}

TEST(DataParallel, UnevenShardsAndAShortLastBatchStillMatchOneRank) {
    // 3 ranks over 64 images a step (21, 21, 22), and a last batch of 1 image: two ranks have
    // nothing to train on in that step and take part with zero gradients.
    const RunConfig config = smallRun(64, 193);
    const auto one = runJob(config, 1);
    const auto three = runJob(config, 3);
    expectSameTraining(*one[0], *three[2], 1e-5);
}

TEST(DataParallel, OneRankJobTrainsExactlyAsTheSingleProcessLoop) {
    const RunConfig config = smallRun(64, 256);
    const auto one = runJob(config, 1);
    Collect plain;
    std::atomic<bool> stop{false};
    const RunOutcome outcome = runTraining(config, plain, stop, usableProbe());
    ASSERT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    ASSERT_EQ(plain.losses.size(), one[0]->rank.losses.size());
    for (std::size_t i = 0; i < plain.losses.size(); ++i)
        EXPECT_NEAR(plain.losses[i].loss, one[0]->rank.losses[i].loss, 1e-6) << "step " << i;
}

TEST(DataParallel, JobRecordTakesTheSlowestRanksSecondsAndTheWholeJobsImages) {
    const auto two = runJob(smallRun(64, 256), 2);
    const Collect &job = two[0]->job;
    ASSERT_EQ(job.epochs.size(), 2U);
    EXPECT_EQ(job.started.distributed.role, "job");
    EXPECT_EQ(two[1]->rank.started.distributed.role, "rank");
    EXPECT_EQ(job.started.distributed.worldSize, 2);
    EXPECT_EQ(job.started.distributed.backend, "gloo");
    for (std::size_t i = 0; i < job.epochs.size(); ++i) {
        const double slowest =
            std::max(two[0]->rank.epochs[i].seconds, two[1]->rank.epochs[i].seconds);
        EXPECT_DOUBLE_EQ(job.epochs[i].seconds, slowest);
        EXPECT_DOUBLE_EQ(job.epochs[i].imagesPerSecond, (256.0 + 50.0) / slowest);
        EXPECT_GE(job.epochs[i].allReduceSeconds, 0.0);
        EXPECT_LT(job.epochs[i].allReduceSeconds, job.epochs[i].seconds);
        EXPECT_DOUBLE_EQ(two[1]->rank.epochs[i].imagesPerSecond,
                         (128.0 + 25.0) / two[1]->rank.epochs[i].seconds);
    }
    EXPECT_EQ(job.outcome.status, RunStatus::Finished);
    EXPECT_EQ(job.outcome.summary.epochSeconds.size(), 2U);
}

TEST(DataParallel, AStopOnOneRankStopsEveryRankAtTheSameStep) {
    const auto two = runJob(smallRun(64, 256), 2, /*stopRank=*/1);
    for (const auto &r : two) {
        EXPECT_EQ(r->outcome.status, RunStatus::Cancelled) << r->outcome.reason;
        EXPECT_EQ(r->rank.losses.size(), 1U) << "both stop after the first step";
    }
}

TEST(DataParallel, ARankThatLeavesEndsTheOthersRunNamingIt) {
    auto store = c10::make_intrusive<c10d::HashStore>();
    Collect rank0;
    RunOutcome outcome;
    std::thread leaver([&] {
        // Joins the process group, then goes away without training.
        auto group = devicebench::detail::makeCollectives(store, 1, 2, "gloo", 3.0);
    });
    std::thread trainer([&] {
        auto group = devicebench::detail::makeCollectives(store, 0, 2, "gloo", 3.0);
        DataParallelRun run;
        run.group = group.get();
        std::atomic<bool> stop{false};
        outcome = runDataParallelTraining(smallRun(64, 256), run, rank0, stop, usableProbe());
    });
    leaver.join();
    trainer.join();
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_NE(outcome.reason.find("rank 1 stopped answering"), std::string::npos) << outcome.reason;
}

TEST(DataParallel, PhaseTimingIsRefusedNamingTheSetting) {
    RunConfig config = smallRun(64, 256);
    config.phases = true;
    const auto one = runJob(config, 1);
    EXPECT_EQ(one[0]->outcome.status, RunStatus::Failed);
    EXPECT_NE(one[0]->outcome.reason.find("phase timing is not available"), std::string::npos);
}

TEST(DataParallel, RanksWithOtherSettingsAreRefusedNamingTheRankAndTheSetting) {
    // Two hosts' commands typed differently: their tensors would not even have one shape.
    auto store = c10::make_intrusive<c10d::HashStore>();
    std::vector<RunOutcome> outcomes(2);
    std::vector<std::thread> threads;
    for (int r = 0; r < 2; ++r) {
        threads.emplace_back([&, r] {
            auto group = devicebench::detail::makeCollectives(store, r, 2, "gloo", kTimeoutSeconds);
            RunConfig config = smallRun(64, 256);
            config.seed = r == 0 ? 1 : 2;
            DataParallelRun run;
            run.group = group.get();
            Collect observer;
            std::atomic<bool> stop{false};
            outcomes[static_cast<std::size_t>(r)] =
                runDataParallelTraining(config, run, observer, stop, usableProbe());
        });
    }
    for (auto &t : threads)
        t.join();
    for (const RunOutcome &o : outcomes) {
        EXPECT_EQ(o.status, RunStatus::Failed);
        EXPECT_EQ(o.reason, "rank 1's seed is 2, rank 0's 1: every rank of a job must train with "
                            "the same settings");
        EXPECT_TRUE(o.epochs.empty());
    }
}
