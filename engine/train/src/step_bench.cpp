// SPDX-License-Identifier: MIT
// One sweep cell: the run's setup (run_setup.h, as an epoch run's), then warm-up, timed and
// phase-timed training steps (step_bench.h).
#include "devicebench/step_bench.h"
#include "devicebench/stop_cause.h"

#include "phase_step.h"
#include "run_setup.h"
#include "run_stop.h"
#include "workload.h"

#include "devicebench/cifar10.h"
#include "devicebench/summary.h"
#include "devicebench/trainer.h"
#include "devicebench/workloads.h"

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <exception>
#include <limits>
#include <memory>

namespace devicebench {
namespace {

using Clock = std::chrono::steady_clock;
using detail::RunStop;
using detail::synchronize;

constexpr int kMaxBatchSize = 1024; // the sweep's batch sizes: 1..1024
constexpr int kMaxSteps = 1000000;  // any one of warm-up, timed and phase-timed steps
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Images/s of the timed steps: the median rate and the 95% interval of the typical step time
// (Summary's, on the log of the times) turned into rates.
void summarizeSteps(StepBenchResult &r, int batchSize) {
    std::vector<double> rates;
    rates.reserve(r.stepSeconds.size());
    for (double s : r.stepSeconds) {
        rates.push_back(s > 0.0 ? batchSize / s : kNaN);
    }
    r.imagesPerSecond = median(rates);
    const Summary s = summarize(r.stepSeconds, 0, batchSize);
    r.imagesPerSecondLow = batchSize / s.ciHigh; // NaN stays NaN
    r.imagesPerSecondHigh = batchSize / s.ciLow;
    // Training = forward + backward (2 x forward): 3 x the forward multiply-adds, 2 FLOP each.
    r.achievedGflops =
        r.imagesPerSecond * 3.0 * 2.0 * static_cast<double>(r.multiplyAddsPerImage) / 1e9;
}

// One cell's steps on consecutive whole batches of its images, wrapping around: set up, then
// the warm-up, timed and phase-timed steps, each filling its part of the result.
class StepRun {
public:
    StepRun(const StepBenchConfig &config, const std::atomic<bool> &stopRequested)
        : m_config(config), m_run(config.run), m_stopRequested(stopRequested) {}

    std::string setUp(StepBenchResult &r);
    void warmUp(StepBenchResult &r);
    void timeSteps(StepBenchResult &r);
    void timePhases(StepBenchResult &r);

private:
    std::int64_t nextStart() { return (m_next++ % m_batches) * m_run.batchSize; }
    void checkStop(const char *where) const;
    void step(std::int64_t start);

    const StepBenchConfig &m_config;
    const RunConfig &m_run;
    const std::atomic<bool> &m_stopRequested;
    detail::RunDevice m_device;
    std::unique_ptr<detail::WorkloadStrategy> m_workload;
    ImageClassifier m_model;
    std::unique_ptr<torch::optim::SGD> m_optimizer;
    detail::SplitTensors m_train;
    std::vector<torch::Tensor> m_parameters; // model->parameters(), taken once
    std::int64_t m_batches = 0;              // whole batches in m_train
    std::int64_t m_next = 0;                 // steps taken so far
};

// Everything before the first step, timed as setupSeconds; "" or why the device cannot run.
std::string StepRun::setUp(StepBenchResult &r) {
    const auto setupStart = Clock::now();
    if (std::string unusable = detail::startRunDevice(m_run, probeDevice, &m_device);
        !unusable.empty())
        return unusable;
    const torch::Device device = m_device.device;
    r.device = device.str();
    r.deviceName = device.is_cpu() ? "CPU" : "CUDA device " + device.str();
    r.threads = m_device.threads;
    // Only the training images the steps take (and one test image: loadCifar10 needs one).
    const std::int64_t batch = m_run.batchSize;
    const std::int64_t stepsInAll = m_config.warmupSteps + m_config.steps + m_config.phaseSteps;
    const std::int64_t images = std::min<std::int64_t>(kCifarTrainImages, batch * stepsInAll);
    const Cifar10 data = detail::loadRunData(m_run, images, 1);
    m_workload = detail::makeWorkloadStrategy(m_run.workload, device, batch, m_run.imageSize,
                                              m_run.precision);
    m_model = detail::buildRunModel(m_run, device, *m_workload);
    m_optimizer = std::make_unique<torch::optim::SGD>(m_model->parameters(),
                                                      torch::optim::SGDOptions(m_run.learningRate));
    if (device.is_cuda()) {
        at::globalContext().setBenchmarkCuDNN(m_workload->cudnnBenchmark());
        detail::applyTf32(m_run.tf32);
    }
    m_train = {data.train.images, data.train.labels};
    detail::placeSplit(m_train, *m_workload, device, m_run.dataOnDevice);
    synchronize(device);
    m_workload->prepareBatches();
    synchronize(device);
    r.modelParameters = countTrainableParameters(*m_model);
    r.multiplyAddsPerImage = m_model->multiplyAddsPerImage();
    r.setupSeconds = secondsSince(setupStart);
    m_batches = m_train.size() / batch;
    m_parameters = m_model->parameters();
    return {};
}

void StepRun::warmUp(StepBenchResult &r) {
    const auto warmupStart = Clock::now();
    for (int i = 0; i < m_config.warmupSteps; ++i) {
        checkStop("warm-up steps");
        step(nextStart());
    }
    synchronize(m_device.device);
    r.warmupSeconds = secondsSince(warmupStart);
}

// Timing (MEASURING.md, Rules): each clock read follows a device synchronisation.
void StepRun::timeSteps(StepBenchResult &r) {
    r.stepSeconds.reserve(static_cast<std::size_t>(m_config.steps));
    for (int i = 0; i < m_config.steps; ++i) {
        checkStop("timed steps");
        const std::int64_t start = nextStart();
        synchronize(m_device.device);
        const auto t0 = Clock::now();
        step(start);
        synchronize(m_device.device);
        r.stepSeconds.push_back(secondsSince(t0));
    }
    summarizeSteps(r, m_run.batchSize);
}

void StepRun::timePhases(StepBenchResult &r) {
    for (int i = 0; i < m_config.phaseSteps; ++i) {
        checkStop("phase-timed steps");
        detail::phaseTimedTrainStep(m_model, *m_workload, *m_optimizer, m_parameters,
                                    m_device.device, m_train, nextStart(), m_run.batchSize,
                                    &r.phases);
    }
    r.phaseSteps = m_config.phaseSteps;
}

void StepRun::checkStop(const char *where) const {
    if (m_stopRequested.load(std::memory_order_relaxed)) {
        throw RunStop{RunStatus::Cancelled, "stopped by " + stopCause() + " during the " + where};
    }
}

void StepRun::step(std::int64_t start) {
    const auto x = m_workload->batchImages(m_train.images, start, m_run.batchSize);
    const auto y = m_workload->batchLabels(m_train.labels, start, m_run.batchSize);
    m_workload->trainStep(m_model, *m_optimizer, m_parameters, x, y);
}

} // namespace

std::string validateStepBenchConfig(const StepBenchConfig &config) {
    if (const WorkloadRow &row = workloadRow(config.run.workload); !trainsInEngineLoop(row))
        return "workload " + std::string(row.name) + " is not timed by steps: " +
               (row.recipe() ? "it is swept as whole runs to its target (devicebench-cli sweep "
                               "--workload " +
                                   std::string(row.name) + ")"
                             : "it trains outside the engine's loop");
    // The epoch settings do not apply: checked at values that always pass.
    RunConfig run = config.run;
    run.epochs = 1;
    run.warmupEpochs = 0;
    run.trainImages = 0;
    run.testImages = 0;
    if (const auto errors = validateRunConfig(run); !errors.empty()) {
        return errors.front();
    }
    if (run.batchSize > kMaxBatchSize) {
        return "batch size " + std::to_string(run.batchSize) + " is not in 1..1024";
    }
    if (config.steps < 2 || config.steps > kMaxSteps) {
        return "steps must be between 2 and 1000000 (got " + std::to_string(config.steps) +
               "): the interval needs two timed steps";
    }
    if (config.warmupSteps < 0 || config.warmupSteps > kMaxSteps) {
        return "warm-up steps must be between 0 and 1000000 (got " +
               std::to_string(config.warmupSteps) + ")";
    }
    if (config.phaseSteps < 0 || config.phaseSteps > kMaxSteps) {
        return "phase steps must be between 0 and 1000000 (got " +
               std::to_string(config.phaseSteps) + ")";
    }
    return {};
}

StepBenchResult runStepBench(const StepBenchConfig &config,
                             const std::atomic<bool> &stopRequested) {
    const RunConfig &run = config.run;
    StepBenchResult r;
    r.device = run.device;
    r.threads = run.threads;
    r.imagesPerSecond = r.imagesPerSecondLow = r.imagesPerSecondHigh = r.achievedGflops = kNaN;
    try {
        if (const std::string problem = validateStepBenchConfig(config); !problem.empty()) {
            r.reason = "invalid settings: " + problem;
            return r;
        }
        StepRun steps(config, stopRequested);
        if (std::string unusable = steps.setUp(r); !unusable.empty()) {
            r.reason = std::move(unusable);
            return r;
        }
        steps.warmUp(r);
        steps.timeSteps(r);
        steps.timePhases(r);
        r.status = RunStatus::Finished;
        spdlog::info("step bench {} b{} {}px on {} x{}: {:.1f} images/s, setup {:.3f} s", run.model,
                     run.batchSize, run.imageSize, r.device, r.threads, r.imagesPerSecond,
                     r.setupSeconds);
    } catch (...) {
        const RunStop stop = detail::runStopOf(std::current_exception(), run.batchSize);
        r.status = stop.status;
        r.reason = stop.reason;
    }
    return r;
}

} // namespace devicebench
