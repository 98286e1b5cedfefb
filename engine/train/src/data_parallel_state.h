// SPDX-License-Identifier: MIT
// Engine-internal (train): what a rank of a data-parallel job (data_parallel.h) adds to the
// run of trainer.cpp, at the few points where it differs: placements, the sharded training and
// test passes with their all-reduces, the job's epochs and end (rank 0), failures explained.
#pragma once

#include "epochs.h"
#include "loss_buffer.h"
#include "workload.h"

#include "devicebench/data_parallel.h"
#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace devicebench::detail {

class DataParallelState {
public:
    DataParallelState(const RunConfig &config, DataParallelRun &run,
                      TrainingObserver &rankObserver);
    ~DataParallelState();

    // Problems of `config` for a data-parallel run (RunConfig::phases, a global batch smaller
    // than the world size), worded as validateRunConfig's.
    std::vector<std::string> validate(const RunConfig &config) const;

    // A collective: every rank's training settings (model, image size, global batch size,
    // epochs, warm-up, learning rate, seed, images, data kind, workload, loss fetch interval,
    // data on device) against rank 0's. Throws std::runtime_error naming the first rank and
    // setting that differ, e.g. "rank 1's batch size is 32, rank 0's 64: every rank must train
    // with the same settings" (different shapes would break the all-reduce itself).
    void checkSameSettings(const RunConfig &config);

    // Fills started.distributed (every rank's placement, gathered: a collective) and returns
    // this rank's images per epoch (its training and test shards).
    double describe(RunStarted &started);

    // Gets the step losses (the global batch's) for the rank and, on rank 0, the job.
    TrainingObserver &stepObserver();

    // Rank 0: the job's onRunStarted (role "job").
    void runStarted(const RunStarted &started);

    // One sharded pass over `train` (global batches of parts.batchSize images), as trainEpoch
    // (epochs.h) but with the gradients all-reduced before each SGD step.
    void trainEpoch(const EpochParts &parts, int epoch, const SplitTensors &train,
                    LossBuffer &losses);

    // This rank's shard of `test`, then the sums all-reduced: the whole test set's result.
    TestResult testEpoch(const EpochParts &parts, int epoch, const SplitTensors &test);

    // Sets rankEpoch.allReduceSeconds (this rank's), then (a collective) takes the slowest
    // rank's seconds and all-reduce seconds; rank 0 hands the job's epoch to the job observer.
    void finishEpoch(EpochResult &rankEpoch);

    // Rank 0: the job's onRunEnded (its epochs, its summary over the job's images). Keeps the
    // final parameters when asked (DataParallelRun::finalParameters).
    void runEnded(const RunOutcome &rankOutcome, int warmupEpochs);

    // Collectives::explainFailure.
    std::string explainFailure(const std::string &what);

    // Remembers the model, for DataParallelRun::finalParameters.
    void keepModel(const std::vector<torch::Tensor> &parameters) { m_parameters = parameters; }

private:
    class StepTee;
    const RunConfig &m_config;
    DataParallelRun &m_run;
    Collectives &m_group;
    std::unique_ptr<StepTee> m_tee;
    std::vector<EpochResult> m_jobEpochs;
    double m_jobImagesPerEpoch = 0.0;
    double m_allReduceSeconds = 0.0; // this epoch's, this rank
    std::vector<torch::Tensor> m_parameters;
};

// The run of runTraining (trainer.h) and, with `dp`, of runDataParallelTraining
// (data_parallel.h): one loop for both, in trainer.cpp.
RunOutcome runTrainingImpl(const RunConfig &config, TrainingObserver &observer,
                           const std::atomic<bool> &stopRequested, const DeviceProbe &probe,
                           DataParallelState *dp);

} // namespace devicebench::detail
