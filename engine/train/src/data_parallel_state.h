// SPDX-License-Identifier: MIT
// Engine-internal (train): the run of trainer.cpp as a rank of a data-parallel job
// (data_parallel.h), at the few points where it differs (run_strategy.h): placements, the
// sharded training and test passes with their all-reduces, the job's epochs and end (rank 0),
// failures explained.
#pragma once

#include "epochs.h"
#include "loss_buffer.h"
#include "run_strategy.h"
#include "workload.h"

#include "devicebench/data_parallel.h"
#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace devicebench::detail {

class DataParallelState final : public RunStrategy {
public:
    DataParallelState(const RunConfig &config, DataParallelRun &run,
                      TrainingObserver &rankObserver);
    ~DataParallelState();

    // Problems of `config` for a data-parallel run (RunConfig::phases, a global batch smaller
    // than the world size), worded as validateRunConfig's.
    std::vector<std::string> validate(const RunConfig &config) const override;

    // checkSettings, a collective: every rank's training settings (model, image size, global batch
    // size, epochs, warm-up, learning rate, seed, images, data kind, workload, loss fetch interval,
    // data on device) against rank 0's. Throws std::runtime_error naming the first rank and
    // setting that differ, e.g. "rank 1's batch size is 32, rank 0's 64: every rank must train
    // with the same settings" (different shapes would break the all-reduce itself).
    void checkSettings(const RunConfig &config) override;

    // Fills started.distributed (every rank's placement, gathered: a collective) and returns
    // this rank's images per epoch (its training and test shards).
    double describe(RunStarted &started) override;

    // Gets the step losses (the global batch's) for the rank and, on rank 0, the job.
    TrainingObserver &stepObserver() override;

    // Rank 0: the job's onRunStarted (role "job").
    void runStarted(const RunStarted &started) override;

    // One sharded pass over `train` (global batches of parts.batchSize images), as trainEpoch
    // (epochs.h) but with the gradients all-reduced before each SGD step. `phases` is always
    // null: validate() refuses phase timing.
    void trainEpoch(const EpochParts &parts, int epoch, const SplitTensors &train,
                    LossBuffer &losses, EpochPhases *phases) override;

    // This rank's shard of `test`, then the sums all-reduced: the whole test set's result.
    TestResult testEpoch(const EpochParts &parts, int epoch, const SplitTensors &test) override;

    // Sets rankEpoch.allReduceSeconds (this rank's), then (a collective) takes the slowest
    // rank's seconds and all-reduce seconds; rank 0 hands the job's epoch to the job observer.
    void finishEpoch(EpochResult &rankEpoch) override;

    // Rank 0: the job's onRunEnded (its epochs, its summary over the job's images). Keeps the
    // final parameters when asked (DataParallelRun::finalParameters).
    void runEnded(const RunOutcome &rankOutcome, int warmupEpochs) override;

    // Collectives::explainFailure.
    std::string explainFailure(const std::string &what) override;

    // Remembers the model, for DataParallelRun::finalParameters.
    void keepModel(const std::vector<torch::Tensor> &parameters) override {
        m_parameters = parameters;
    }

private:
    class StepTee;
    // What a step's all-reduce brings back besides the gradients.
    struct ReducedStep {
        torch::Tensor loss; // the global batch's mean loss (0-d, on the device)
        bool stop = false;  // some rank was asked to stop
    };
    // This rank's shard of the global batch [start, start + n) of `train`: forward, loss
    // weighted by the shard's share, backward. Returns the weighted loss (0 for an empty shard).
    torch::Tensor shardBackward(const EpochParts &parts, const SplitTensors &train,
                                std::int64_t start, std::int64_t n);
    // The step's gradients summed over the ranks, in buckets of at most
    // DataParallelRun::bucketBytes, with the weighted loss and `stop` in the first bucket.
    ReducedStep allReduceStep(const EpochParts &parts, const torch::Tensor &weightedLoss,
                              bool stop);
    // `pieces` concatenated and summed over the ranks (a collective, timed).
    torch::Tensor allReduceFlat(const std::vector<torch::Tensor> &pieces,
                                const torch::Device &device);

    const RunConfig &m_config;
    DataParallelRun &m_run;
    Collectives &m_group;
    std::unique_ptr<StepTee> m_tee;
    std::vector<EpochResult> m_jobEpochs;
    double m_jobImagesPerEpoch = 0.0;
    double m_allReduceSeconds = 0.0; // this epoch's, this rank
    std::vector<torch::Tensor> m_parameters;
};

} // namespace devicebench::detail
