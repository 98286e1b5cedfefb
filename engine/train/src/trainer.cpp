// SPDX-License-Identifier: MIT
// The run: settings checked, device probed, data loaded, model built, then the epochs
// (epochs.cpp) in the workload's way (workload.cpp), timed here; alone or as a rank of a
// data-parallel job (run_strategy.h).
#include "devicebench/trainer.h"
#include "devicebench/stop_cause.h"

#include "data_parallel_state.h"
#include "epochs.h"
#include "loss_buffer.h"
#include "phase_step.h"
#include "recipe.h"
#include "run_setup.h"
#include "run_stop.h"
#include "run_strategy.h"
#include "workload.h"

#include "devicebench/canary.h"
#include "devicebench/cifar10.h"
#include "devicebench/contention.h"
#include "devicebench/data_parallel.h"
#include "devicebench/devices.h"
#include "devicebench/epoch_turns.h"
#include "devicebench/machine_drift.h"
#include "devicebench/models.h"
#include "devicebench/precision_support.h"
#include "devicebench/probe.h"
#include "devicebench/summary.h"
#include "devicebench/time_to_target.h"

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>

namespace devicebench {
namespace {

using detail::formatNumber;
using detail::RunStop;
using detail::synchronize;

// One run from its settings to its outcome: set up (device, data, workload, model, optimiser,
// the first canary, RunStarted), the epochs, the end; what differs between a single process and
// a rank of a data-parallel job is `strategy`'s. One of interleaved runs (epoch_turns.h) holds
// its seat's turn for the set-up, each epoch and the end.
class TrainingRun {
public:
    TrainingRun(const RunConfig &config, TrainingObserver &observer,
                const std::atomic<bool> &stopRequested, detail::RunStrategy &strategy)
        : m_config(config), m_observer(observer), m_stopRequested(stopRequested),
          m_strategy(strategy) {}

    // Takes its turns at `seat` of `turns` (the run is one of interleaved runs).
    void takeTurnsAt(TurnGate &gate) { m_gate = &gate; }

    RunOutcome run(const DeviceProbe &probe);

private:
    void takeTurn();
    void passTurn();
    void applyCudaSettings();
    std::string settingsProblem() const;
    std::string setUp(const DeviceProbe &probe);
    RunStarted describeRun() const;
    void placeData();
    detail::EpochParts parts();
    EpochResult runEpoch(int epoch);
    void tellEpoch(const EpochResult &result);
    RunOutcome end(RunOutcome outcome, int warmupEpochs);

    const RunConfig &m_config;
    TrainingObserver &m_observer;
    const std::atomic<bool> &m_stopRequested;
    detail::RunStrategy &m_strategy;
    detail::RunDevice m_device;
    Cifar10 m_data;
    std::unique_ptr<detail::WorkloadStrategy> m_workload; // the engine loop's workloads
    std::unique_ptr<detail::Recipe> m_recipe;             // or a recipe of its own
    ImageClassifier m_model;
    std::unique_ptr<torch::optim::SGD> m_optimizer;
    RunStarted m_started;
    double m_imagesPerEpoch = 0.0;
    detail::SplitTensors m_train;
    detail::SplitTensors m_test;
    std::vector<torch::Tensor> m_parameters; // model->parameters(), taken once placed
    std::unique_ptr<detail::LossBuffer> m_losses;
    std::optional<EpochLoadMeter> m_meter;
    std::unique_ptr<Canary> m_canary;
    TurnGate *m_gate = nullptr; // interleaved runs only
    bool m_holdsTurn = false;
};

// With turns: waits for the seat's turn, then sets LibTorch's process-wide settings back to the
// run's (another run may have changed them); without: nothing.
void TrainingRun::takeTurn() {
    if (m_gate == nullptr || m_holdsTurn)
        return;
    m_gate->take();
    m_holdsTurn = true;
    if (m_device.threads > 0) // set up: the device is started
        at::set_num_threads(m_device.threads);
    applyCudaSettings();
}

// The run's cuDNN benchmark mode and TF32 (process-wide in LibTorch), once its workload is made.
void TrainingRun::applyCudaSettings() {
    if ((m_workload || m_recipe) && m_device.device.is_cuda()) {
        at::globalContext().setBenchmarkCuDNN(m_workload ? m_workload->cudnnBenchmark() : true);
        detail::applyTf32(m_config.tf32);
    }
}

void TrainingRun::passTurn() {
    if (m_gate == nullptr || !m_holdsTurn)
        return;
    m_holdsTurn = false;
    m_gate->pass();
}

RunOutcome TrainingRun::run(const DeviceProbe &probe) {
    RunOutcome outcome;
    try {
        takeTurn();
        if (m_gate != nullptr && m_stopRequested.load()) // stopped while it waited: no set-up
            throw RunStop{RunStatus::Cancelled,
                          "stopped by " + stopCause() +
                              " before its set-up, while waiting for its turn"};
        if (std::string problem = settingsProblem(); !problem.empty()) {
            outcome.reason = std::move(problem);
            return end(std::move(outcome), 0);
        }
        if (std::string unusable = setUp(probe); !unusable.empty()) {
            outcome.reason = std::move(unusable);
            return end(std::move(outcome), 0);
        }
        for (int epoch = 1; epoch <= m_config.epochs; ++epoch) {
            passTurn();
            takeTurn();
            if (m_gate != nullptr && m_stopRequested.load()) // stopped while it waited
                throw RunStop{RunStatus::Cancelled, "stopped by " + stopCause() + " before epoch " +
                                                        std::to_string(epoch) +
                                                        ", while waiting for its turn"};
            outcome.epochs.push_back(runEpoch(epoch));
            tellEpoch(outcome.epochs.back());
            if (m_config.targetAccuracy &&
                reachesTarget(outcome.epochs.back().testAccuracy, *m_config.targetAccuracy))
                break; // time to accuracy: the run's work is done (time_to_target.h)
        }
        outcome.status = RunStatus::Finished;
    } catch (...) {
        const RunStop stop = detail::runStopOf(std::current_exception(), m_config.batchSize);
        outcome.status = stop.status;
        outcome.reason = stop.reason;
    }
    return end(std::move(outcome), m_config.warmupEpochs);
}

// "invalid settings: <problem>; <problem>..." or "".
std::string TrainingRun::settingsProblem() const {
    if (workloadRow(m_config.workload).pythonChild())
        return "invalid settings: a Python script runs as a child Python process "
               "(runRecorded), not in the engine's training loop";
    auto errors = validateRunConfig(m_config);
    for (std::string &e : m_strategy.validate(m_config))
        errors.push_back(std::move(e));
    if (errors.empty())
        return {};
    std::string reason = "invalid settings: " + errors.front();
    for (std::size_t i = 1; i < errors.size(); ++i)
        reason += "; " + errors[i];
    return reason;
}

// Everything before the first epoch, through onRunStarted; "" or why the device cannot run.
std::string TrainingRun::setUp(const DeviceProbe &probe) {
    m_strategy.checkSettings(m_config); // before anything else: a collective
    if (std::string unusable = detail::startRunDevice(m_config, probe, &m_device);
        !unusable.empty())
        return unusable;
    const torch::Device device = m_device.device;
    m_data = detail::loadRunData(m_config, m_config.trainImages, m_config.testImages);
    m_imagesPerEpoch = static_cast<double>(m_data.train.size() + m_data.test.size());
    if (workloadRow(m_config.workload).recipe()) {
        m_recipe = detail::makeRecipe(m_config, device, m_data);
    } else {
        m_workload = detail::makeWorkloadStrategy(m_config.workload, device, m_config.batchSize,
                                                  m_config.imageSize, m_config.precision);
        m_model = detail::buildRunModel(m_config, device, *m_workload);
        m_optimizer = std::make_unique<torch::optim::SGD>(
            m_model->parameters(), torch::optim::SGDOptions(m_config.learningRate));
    }
    m_started = describeRun();
    m_imagesPerEpoch = m_strategy.describe(m_started); // a rank: its shards; a collective
    applyCudaSettings(); // before onRunStarted: the fingerprint records them
    // The first canary, what every epoch's is held against (machine_drift.h).
    m_canary = std::make_unique<Canary>(m_started.device, m_device.threads);
    m_started.canary = m_canary->measure();
    m_observer.onRunStarted(m_started);
    m_strategy.runStarted(m_started);
    placeData();
    m_losses =
        std::make_unique<detail::LossBuffer>(m_config.lossFetchInterval, m_strategy.stepObserver());
    m_strategy.keepModel(m_parameters);
    m_meter.emplace();
    return {};
}

// The run as onRunStarted tells it, and its log line.
RunStarted TrainingRun::describeRun() const {
    const torch::Device &device = m_device.device;
    const std::int64_t nTrain = m_data.train.size();
    const std::int64_t nTest = m_data.test.size();
    const std::int64_t batch = m_config.batchSize;
    RunStarted started;
    started.device = device.str();
    started.deviceName = device.is_cpu() ? "CPU" : "CUDA device " + device.str();
    started.threads = m_device.threads;
    started.trainImages = nTrain;
    started.testImages = nTest;
    started.stepsPerEpoch = m_recipe ? m_recipe->stepsPerEpoch() : (nTrain + batch - 1) / batch;
    started.synthetic = m_data.synthetic;
    started.deviceInitSeconds = m_device.initSeconds;
    started.modelParameters =
        m_recipe ? m_recipe->modelParameters() : countTrainableParameters(*m_model);
    started.multiplyAddsPerImage =
        m_recipe ? m_recipe->multiplyAddsPerImage() : m_model->multiplyAddsPerImage();
    started.dataDescription = m_data.synthetic
                                  ? "synthetic data (times are real, accuracy is meaningless)"
                                  : m_data.source;
    const PrecisionSupport support = precisionSupport(m_config.precision, started.device);
    started.precisionNative = support.native;
    started.precisionNote = support.note;
    spdlog::info("run on {} ({} threads): {} at {} px ({} parameters, {} multiply-adds per "
                 "image), {} training, {} test images, batch size {}, lr {}, {} epochs, {}",
                 started.device, started.threads, m_config.model, m_config.imageSize,
                 started.modelParameters, started.multiplyAddsPerImage, nTrain, nTest, batch,
                 m_config.learningRate, m_config.epochs, shortName(m_config.precision));
    if (!support.note.empty())
        spdlog::info("{}", support.note);
    return started;
}

// Both splits laid out and placed (placeSplit), the workload's batches prepared. A recipe
// places its data itself, in its first epoch.
void TrainingRun::placeData() {
    if (m_recipe)
        return;
    m_train = {m_data.train.images, m_data.train.labels};
    m_test = {m_data.test.images, m_data.test.labels};
    for (auto *split : {&m_train, &m_test})
        detail::placeSplit(*split, *m_workload, m_device.device, m_config.dataOnDevice);
    synchronize(m_device.device);
    m_workload->prepareBatches();
    m_parameters = m_model->parameters();
}

detail::EpochParts TrainingRun::parts() {
    return {m_model,         *m_optimizer,       m_parameters,   *m_workload,
            m_device.device, m_config.batchSize, m_stopRequested};
}

// Timing (MEASURING.md, Rules): each clock read below follows a device synchronisation
// (synchronize(): torch::cuda::synchronize on CUDA; CPU work is already done). Within an epoch
// no host synchronisation is added per step (but in a phase-timed run, which synchronises at
// every phase boundary: phase_step.h): step losses stay on the device and are fetched every K
// steps (LossBuffer::add/flush), the test sums once at the end of the test pass (testEpoch).
// The faithful workload's blocking host-to-device copies of pageable memory (`.to(device)`, as
// the article's script does) make the host wait for each copy; the tuned workload copies pinned
// memory without blocking, and with dataOnDevice nothing is copied. What each epoch got from
// the machine (contention.h) is read just outside its clock.
EpochResult TrainingRun::runEpoch(int epoch) {
    const torch::Device &device = m_device.device;
    m_losses->beginEpoch(epoch);
    synchronize(device);
    m_meter->begin();
    const auto started = std::chrono::system_clock::now();
    const auto t0 = std::chrono::steady_clock::now();
    // Phase timing (RunConfig::phases): one clock from t0 to t1, lapped at every phase
    // boundary, so the phases add up to the epoch's seconds (PhaseTimes).
    std::optional<detail::EpochPhases> phases;
    if (m_config.phases)
        phases.emplace(device, t0);
    if (m_recipe)
        m_recipe->trainEpoch(epoch, *m_losses, m_stopRequested);
    else
        m_strategy.trainEpoch(parts(), epoch, m_train, *m_losses, phases ? &*phases : nullptr);
    synchronize(device); // the evaluation's own time (time to accuracy's training time alone)
    const auto tTest = std::chrono::steady_clock::now();
    const detail::TestResult tested = m_recipe ? m_recipe->testEpoch(epoch, m_stopRequested)
                                               : m_strategy.testEpoch(parts(), epoch, m_test);
    synchronize(device);
    const auto t1 = std::chrono::steady_clock::now();
    if (phases)
        phases->times.test = std::chrono::duration<double>(t1 - phases->clock.last()).count();
    const EpochLoad load = m_meter->end(m_started.threads, device.is_cpu());

    EpochResult result;
    result.epoch = epoch;
    result.seconds = std::chrono::duration<double>(t1 - t0).count();
    result.testSeconds = std::chrono::duration<double>(t1 - tTest).count();
    result.warmup = epoch <= m_config.warmupEpochs;
    result.trainLoss = m_losses->epochMean();
    result.testLoss = tested.loss;
    result.testAccuracy = tested.accuracy;
    result.imagesPerSecond = m_imagesPerEpoch / result.seconds;
    result.load = load;
    if (phases)
        result.phases = phases->times;
    if (m_workload) { // a recipe scales no loss
        result.skippedSteps = m_workload->stepPrecision().takeSkippedSteps(); // outside the clock
        result.lossScale = m_workload->stepPrecision().lossScale();
    }
    result.startedUnixSeconds = std::chrono::duration<double>(started.time_since_epoch()).count();
    result.canary = m_canary->measure(); // outside the clock, like the load
    markSpeedChange(m_started.canary, result);
    m_strategy.finishEpoch(result); // a rank: a collective, the slowest rank's time for the job
    return result;
}

// The epoch logged and told; a test loss that is not finite, or a loss scaler that skipped
// more than half the epoch's steps, ends the run as diverged.
void TrainingRun::tellEpoch(const EpochResult &result) {
    const EpochLoad &load = result.load;
    spdlog::info(
        "epoch {} seconds {:.3f} test loss {:.4f} accuracy {:.4f}{}{}{}", result.epoch,
        result.seconds, result.testLoss, result.testAccuracy,
        load.contended ? " contended: " + describeLoad(load, m_started.threads) : std::string(),
        result.speedChanged ? " machine speed changed: " + describeCanaryChange(result.canaryChange)
                            : std::string(),
        result.skippedSteps > 0
            ? " loss scaler skipped " + std::to_string(result.skippedSteps) + " steps"
            : std::string());
    m_observer.onEpochFinished(result);
    if (!std::isfinite(result.testLoss)) {
        throw RunStop{RunStatus::Diverged, "test loss became " + formatNumber(result.testLoss) +
                                               " in epoch " + std::to_string(result.epoch) +
                                               "; lower the learning rate"};
    }
    if (result.skippedSteps * 2 > m_started.stepsPerEpoch) {
        throw RunStop{RunStatus::Diverged,
                      "the loss scaler skipped " + std::to_string(result.skippedSteps) + " of " +
                          std::to_string(m_started.stepsPerEpoch) + " steps in epoch " +
                          std::to_string(result.epoch) +
                          " (their float16 gradients were not finite at any scale, down to " +
                          formatNumber(result.lossScale) +
                          "); lower the learning rate, or use bf16"};
    }
}

// The outcome summarised, logged and told (a rank's failure is told to the other ranks and
// theirs named: data_parallel.h).
RunOutcome TrainingRun::end(RunOutcome outcome, int warmupEpochs) {
    takeTurn(); // already held, unless the run stopped between two turns
    if (outcome.status == RunStatus::Failed)
        outcome.reason = m_strategy.explainFailure(outcome.reason);
    outcome.summary = summarize(outcome.epochs, std::max(warmupEpochs, 0), m_imagesPerEpoch);
    if (outcome.status == RunStatus::Finished) {
        spdlog::info("run finished: {} epochs", outcome.epochs.size());
    } else {
        // info, not warn: the caller reports the outcome to the user (CLI, dashboard).
        spdlog::info("run {}: {}", toString(outcome.status), outcome.reason);
    }
    try {
        m_observer.onRunEnded(outcome);
    } catch (const std::exception &e) {
        spdlog::error("observer threw in onRunEnded: {}", e.what());
    }
    m_strategy.runEnded(outcome, m_config.warmupEpochs);
    if (m_gate != nullptr) {
        m_holdsTurn = false;
        m_gate->leave();
    }
    return outcome;
}

} // namespace

RunOutcome runTraining(const RunConfig &config, TrainingObserver &observer,
                       const std::atomic<bool> &stopRequested) {
    return runTraining(config, observer, stopRequested, probeDevice);
}

RunOutcome runTraining(const RunConfig &config, TrainingObserver &observer,
                       const std::atomic<bool> &stopRequested, const DeviceProbe &probe) {
    detail::SingleProcess single(observer);
    return TrainingRun(config, observer, stopRequested, single).run(probe);
}

RunOutcome runTrainingInTurns(const RunConfig &config, TrainingObserver &observer,
                              const std::atomic<bool> &stopRequested, TurnGate &gate) {
    detail::SingleProcess single(observer);
    TrainingRun run(config, observer, stopRequested, single);
    run.takeTurnsAt(gate);
    try {
        return run.run(probeDevice);
    } catch (...) {
        gate.leave(); // never leave the others waiting
        throw;
    }
}

RunOutcome runTrainingInTurns(const RunConfig &config, TrainingObserver &observer,
                              const std::atomic<bool> &stopRequested, EpochTurns &turns, int seat) {
    SeatGate gate(turns, seat);
    return runTrainingInTurns(config, observer, stopRequested, gate);
}

RunOutcome runDataParallelTraining(const RunConfig &config, DataParallelRun &run,
                                   TrainingObserver &observer,
                                   const std::atomic<bool> &stopRequested,
                                   const DeviceProbe &probe) {
    if (run.group == nullptr)
        throw std::invalid_argument("runDataParallelTraining needs a process group");
    detail::DataParallelState rank(config, run, observer);
    return TrainingRun(config, observer, stopRequested, rank).run(probe);
}

} // namespace devicebench
