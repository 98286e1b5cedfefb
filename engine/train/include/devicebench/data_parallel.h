// SPDX-License-Identifier: MIT
// Data-parallel training (issue 14; docs/DISTRIBUTED.md): the same training loop as
// runTraining (trainer.h), run by every rank of a job, each on its shard of every global batch,
// with the gradients all-reduced through a process group (Collectives; c10d's Gloo or NCCL in
// engine_distributed, distributed.h) before each optimiser step. The rule it follows is
// PyTorch's DistributedDataParallel: same initial weights on every rank (same seed), gradients
// averaged over the ranks, so N ranks at N x b images per step compute what one process does at
// N x b (pinned by tests/engine/data_parallel_test.cpp).
#pragma once

#include "devicebench/probe.h"
#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace devicebench {

// Images [start, start + count) of a split.
struct Shard {
    std::int64_t start = 0;
    std::int64_t count = 0;
};

// Rank `rank`'s shard of the `count` images starting at `start` (a global batch, or the whole
// test set) among `worldSize` ranks, in the article's fixed order: images
// [start + floor(count x rank / worldSize), start + floor(count x (rank + 1) / worldSize)).
// Contiguous, disjoint, in rank order, together all `count` images; sizes differ by at most one
// (a rank's shard is empty when count < worldSize). Throws std::invalid_argument when worldSize
// < 1, rank is not in 0..worldSize-1 or count < 0.
Shard shardOf(std::int64_t start, std::int64_t count, int rank, int worldSize);

// "" when a global batch of `globalBatchSize` images gives each of `worldSize` ranks at least
// one image per step; else "global batch size (1) must be at least the world size (2): every
// rank needs an image per step". runDataParallelTraining refuses such a run; the CLI checks it
// before joining the job.
std::string globalBatchProblem(std::int64_t globalBatchSize, int worldSize);

// What a data-parallel run needs from its process group (one object per rank). Implemented
// over c10d in engine_distributed (distributed.h); every rank calls the same methods in the
// same order. A failure (a rank died, a timeout) throws std::runtime_error (or c10::Error).
class Collectives {
public:
    virtual ~Collectives() = default;
    virtual int rank() const = 0;
    virtual int worldSize() const = 0;
    virtual std::string backend() const = 0; // "gloo" or "nccl"

    // Sums each tensor over the ranks, in place. Tensors are on the run's device (CPU for
    // Gloo, the rank's CUDA device for NCCL), contiguous, float32 or float64. Returns when the
    // sums are in the tensors (on CUDA: after a device synchronisation).
    virtual void allReduceSum(std::vector<torch::Tensor> &tensors) = 0;

    // Element-wise maximum of `values` over the ranks (host numbers, e.g. epoch seconds).
    virtual std::vector<double> allReduceMax(const std::vector<double> &values) = 0;

    // Every rank's `text` in rank order (small texts: placements, the job id).
    virtual std::vector<std::string> allGather(const std::string &text) = 0;

    // After a collective threw `what` (or before this rank leaves on its own failure, with
    // `what` its reason): tells the other ranks, waits briefly for theirs, and returns a
    // message naming the rank(s) that failed or stopped answering, e.g. "rank 1 stopped
    // answering (it died, was killed or hangs): <what>". Never throws.
    virtual std::string explainFailure(const std::string &what) = 0;
};

// DDP's default gradient bucket (bucket_cap_mb = 25).
inline constexpr std::int64_t kDefaultBucketBytes = 25LL * 1024 * 1024;

// One rank's part in a data-parallel job.
struct DataParallelRun {
    Collectives *group = nullptr;    // required
    std::string jobId;               // shared by the job's records (DistributedInfo::jobId)
    int localRank = 0;               // the rank's index on its host (LOCAL_RANK)
    TrainingObserver *job = nullptr; // rank 0: gets the job's events (role "job"); else null
    bool weakScaling = false;        // DistributedInfo::weakScaling, recorded as given
    std::int64_t bucketBytes = kDefaultBucketBytes; // gradients all-reduced in buckets of at
                                                    // most this many bytes (one parameter may
                                                    // exceed it alone)
    // When not null: at the end of a run that trained, the model's parameters (CPU copies,
    // in Module::parameters() order). For tests and checks.
    std::vector<torch::Tensor> *finalParameters = nullptr;
};

// Runs `config` as one rank of `run.group`'s job, on the calling thread. config.batchSize is the
// GLOBAL batch size (images per step over all ranks; at least the world size). Per step s of
// global batch n images (the article's fixed order), this rank trains on shardOf(s x batchSize,
// n, rank, worldSize): forward, cross-entropy, backward of the loss weighted by its share of the
// batch (count / n: 1 / worldSize for equal shards), then the gradients are summed over the
// ranks in buckets (Collectives::allReduceSum; so the result is the gradient of the global
// batch's mean loss, averaged over the ranks as DDP does), then the SGD step. The step's loss is
// the global batch's (summed with the first bucket, no extra synchronisation). The test pass is
// sharded the same way and its sums all-reduced. Each epoch's clock is the rank's own; the
// job's epoch (to `run.job`) has the slowest rank's seconds and all-reduce seconds
// (allReduceMax) and the whole job's images/s. A stop request on any rank stops every rank at
// the same step (it rides with the first bucket). RunStarted::distributed holds every rank's
// placement (allGather). Errors as runTraining; a failed collective ends the run as Failed
// with Collectives::explainFailure's message. Not available with RunConfig::phases (refused:
// Failed, naming the setting).
RunOutcome runDataParallelTraining(const RunConfig &config, DataParallelRun &run,
                                   TrainingObserver &observer,
                                   const std::atomic<bool> &stopRequested,
                                   const DeviceProbe &probe);

} // namespace devicebench
