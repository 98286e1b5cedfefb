// SPDX-License-Identifier: MIT
// Engine-internal (train): what the run of trainer.cpp does differently as one process alone
// (runTraining) or as a rank of a data-parallel job (runDataParallelTraining: DataParallelState,
// data_parallel_state.h). Chosen once per run; the loop calls every hook in both cases.
#pragma once

#include "epochs.h"
#include "loss_buffer.h"
#include "phase_step.h"
#include "workload.h"

#include "devicebench/run_types.h"

#include <torch/torch.h>

#include <string>
#include <vector>

namespace devicebench::detail {

class RunStrategy {
public:
    virtual ~RunStrategy() = default;

    // Problems of `config` besides validateRunConfig's, worded as its.
    virtual std::vector<std::string> validate(const RunConfig &config) const = 0;

    // Before anything else is done with valid settings; throws std::runtime_error to refuse.
    virtual void checkSettings(const RunConfig &config) = 0;

    // Completes `started` before it is told; returns the images this process handles in an
    // epoch (training + test), for images/s.
    virtual double describe(RunStarted &started) = 0;

    // Gets the step losses.
    virtual TrainingObserver &stepObserver() = 0;

    // After the run's observer got onRunStarted(started).
    virtual void runStarted(const RunStarted &started) = 0;

    // The model's parameters, once placed (model->parameters()).
    virtual void keepModel(const std::vector<torch::Tensor> &parameters) = 0;

    // One training pass over `train` (trainEpoch, epochs.h); `phases` as there.
    virtual void trainEpoch(const EpochParts &parts, int epoch, const SplitTensors &train,
                            LossBuffer &losses, EpochPhases *phases) = 0;

    // One test pass over `test` (testEpoch, epochs.h).
    virtual TestResult testEpoch(const EpochParts &parts, int epoch, const SplitTensors &test) = 0;

    // The epoch, timed, before it is told to the observer.
    virtual void finishEpoch(EpochResult &epoch) = 0;

    // The reason of a failed run as it is told.
    virtual std::string explainFailure(const std::string &why) = 0;

    // After the run's observer got onRunEnded(outcome).
    virtual void runEnded(const RunOutcome &outcome, int warmupEpochs) = 0;
};

// A run as one process alone: the epochs of epochs.h, nothing added.
class SingleProcess final : public RunStrategy {
public:
    explicit SingleProcess(TrainingObserver &observer) : m_observer(observer) {}
    std::vector<std::string> validate(const RunConfig &) const override { return {}; }
    void checkSettings(const RunConfig &) override {}
    double describe(RunStarted &started) override {
        return static_cast<double>(started.trainImages + started.testImages);
    }
    TrainingObserver &stepObserver() override { return m_observer; }
    void runStarted(const RunStarted &) override {}
    void keepModel(const std::vector<torch::Tensor> &) override {}
    void trainEpoch(const EpochParts &parts, int epoch, const SplitTensors &train,
                    LossBuffer &losses, EpochPhases *phases) override {
        detail::trainEpoch(parts, epoch, train, losses, phases); // epochs.h's, not this
    }
    TestResult testEpoch(const EpochParts &parts, int epoch, const SplitTensors &test) override {
        return detail::testEpoch(parts, epoch, test);
    }
    void finishEpoch(EpochResult &) override {}
    std::string explainFailure(const std::string &why) override { return why; }
    void runEnded(const RunOutcome &, int) override {}

private:
    TrainingObserver &m_observer;
};

} // namespace devicebench::detail
