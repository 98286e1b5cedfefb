// SPDX-License-Identifier: MIT
// Data-parallel training: runTraining's loop run by every rank of a job on its shard of each
// global batch, gradients all-reduced through a process group (Collectives) before each step.
// As PyTorch's DistributedDataParallel: N ranks at N x b images per step compute what one
// process does at N x b. What each step does: docs/DISTRIBUTED.md.
#pragma once

#include "devicebench/probe.h"
#include "devicebench/run_types.h"

// Only the tensor type: LibTorch's umbrella header <torch/torch.h> is a quarter of a minute of
// every compile that includes it (the CLI's and the launcher's include this header through
// distributed.h), <ATen/core/Tensor.h> under 2 s. at::Tensor is torch::Tensor.
#include <ATen/core/Tensor.h>

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

// Rank `rank`'s shard of the `count` images from `start` among `worldSize` ranks: images
// [start + floor(count x rank / worldSize), start + floor(count x (rank + 1) / worldSize)).
// Throws std::invalid_argument when worldSize < 1, rank is not in 0..worldSize-1 or count < 0.
Shard shardOf(std::int64_t start, std::int64_t count, int rank, int worldSize);

// "" when a global batch of `globalBatchSize` images gives each of `worldSize` ranks an image
// per step, else "global batch size (1) must be at least the world size (2): ...".
std::string globalBatchProblem(std::int64_t globalBatchSize, int worldSize);

// What a data-parallel run needs from its process group (one per rank; c10d's in
// distributed.h). Every rank calls the same methods in the same order. A failure (a rank died,
// a timeout) throws std::runtime_error (or c10::Error).
class Collectives {
public:
    virtual ~Collectives() = default;
    virtual int rank() const = 0;
    virtual int worldSize() const = 0;
    virtual std::string backend() const = 0; // "gloo" or "nccl"

    // Sums each tensor over the ranks, in place. Tensors are on the run's device (CPU for
    // Gloo, the rank's CUDA device for NCCL), contiguous, float32 or float64. Returns when the
    // sums are in the tensors (on CUDA: after a device synchronisation).
    virtual void allReduceSum(std::vector<at::Tensor> &tensors) = 0;

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
    std::vector<at::Tensor> *finalParameters = nullptr;
};

// Runs `config` as one rank of `run.group`'s job, on the calling thread; config.batchSize is
// the GLOBAL batch (images per step over all ranks). The job's epoch (to `run.job`) has the
// slowest rank's seconds and the whole job's images/s; a stop on any rank stops every rank at
// the same step. Errors as runTraining; a failed collective ends as Failed with
// explainFailure's message; RunConfig::phases is refused (Failed, naming the setting).
RunOutcome runDataParallelTraining(const RunConfig &config, DataParallelRun &run,
                                   TrainingObserver &observer,
                                   const std::atomic<bool> &stopRequested,
                                   const DeviceProbe &probe);

} // namespace devicebench
