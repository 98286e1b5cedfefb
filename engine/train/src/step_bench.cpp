// SPDX-License-Identifier: MIT
// One sweep cell: the run's setup (run_setup.h, as an epoch run's), then warm-up, timed and
// phase-timed training steps (step_bench.h).
#include "devicebench/step_bench.h"

#include "phase_step.h"
#include "run_setup.h"
#include "run_stop.h"
#include "workload.h"

#include "devicebench/cifar10.h"
#include "devicebench/summary.h"
#include "devicebench/trainer.h"

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace devicebench {
namespace {

using Clock = std::chrono::steady_clock;
using detail::RunStop;
using detail::synchronize;

constexpr int kMaxBatchSize = 1024; // issue 13: batch sizes 1..1024
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

} // namespace

std::string validateStepBenchConfig(const StepBenchConfig &config) {
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
        const auto setupStart = Clock::now();
        detail::RunDevice runDevice;
        if (std::string unusable = detail::startRunDevice(run, probeDevice, &runDevice);
            !unusable.empty()) {
            r.reason = std::move(unusable);
            return r;
        }
        const torch::Device device = runDevice.device;
        r.device = device.str();
        r.deviceName = device.is_cpu() ? "CPU" : "CUDA device " + device.str();
        r.threads = runDevice.threads;

        // Only the training images the steps take (and one test image: loadCifar10 needs one).
        const std::int64_t batch = run.batchSize;
        const std::int64_t stepsInAll = config.warmupSteps + config.steps + config.phaseSteps;
        const std::int64_t images = std::min<std::int64_t>(kCifarTrainImages, batch * stepsInAll);
        const Cifar10 data = detail::loadRunData(run, images, 1);
        const auto workload =
            detail::makeWorkloadStrategy(run.workload, device, batch, run.imageSize);
        ImageClassifier model = detail::buildRunModel(run, device, *workload);
        torch::optim::SGD optimizer(model->parameters(),
                                    torch::optim::SGDOptions(run.learningRate));
        if (device.is_cuda()) {
            at::globalContext().setBenchmarkCuDNN(workload->cudnnBenchmark());
        }
        detail::SplitTensors train{data.train.images, data.train.labels};
        detail::placeSplit(train, *workload, device, run.dataOnDevice);
        synchronize(device);
        workload->prepareBatches();
        synchronize(device);
        r.modelParameters = countTrainableParameters(*model);
        r.multiplyAddsPerImage = model->multiplyAddsPerImage();
        r.setupSeconds = secondsSince(setupStart);

        // Consecutive whole batches, wrapping around the images loaded.
        const std::int64_t batches = train.size() / batch;
        std::int64_t next = 0;
        const auto nextStart = [&] { return (next++ % batches) * batch; };
        const auto checkStop = [&](const char *where) {
            if (stopRequested.load(std::memory_order_relaxed)) {
                throw RunStop{RunStatus::Cancelled,
                              std::string("stopped by the user during the ") + where};
            }
        };
        const auto parameters = model->parameters();
        const auto step = [&](std::int64_t start) {
            const auto x = workload->batchImages(train.images, start, batch);
            const auto y = workload->batchLabels(train.labels, start, batch);
            workload->trainStep(model, optimizer, parameters, x, y);
        };

        const auto warmupStart = Clock::now();
        for (int i = 0; i < config.warmupSteps; ++i) {
            checkStop("warm-up steps");
            step(nextStart());
        }
        synchronize(device);
        r.warmupSeconds = secondsSince(warmupStart);

        // Timing (MEASURING.md, Rules): each clock read follows a device synchronisation.
        r.stepSeconds.reserve(static_cast<std::size_t>(config.steps));
        for (int i = 0; i < config.steps; ++i) {
            checkStop("timed steps");
            const std::int64_t start = nextStart();
            synchronize(device);
            const auto t0 = Clock::now();
            step(start);
            synchronize(device);
            r.stepSeconds.push_back(secondsSince(t0));
        }
        summarizeSteps(r, run.batchSize);

        for (int i = 0; i < config.phaseSteps; ++i) {
            checkStop("phase-timed steps");
            detail::phaseTimedTrainStep(model, *workload, optimizer, parameters, device, train,
                                        nextStart(), batch, &r.phases);
        }
        r.phaseSteps = config.phaseSteps;
        r.status = RunStatus::Finished;
        spdlog::info("step bench {} b{} {}px on {} x{}: {:.1f} images/s, setup {:.3f} s", run.model,
                     run.batchSize, run.imageSize, r.device, r.threads, r.imagesPerSecond,
                     r.setupSeconds);
    } catch (const RunStop &stop) {
        r.status = stop.status;
        r.reason = stop.reason;
    } catch (const c10::Error &e) {
        r.status = RunStatus::Failed;
        r.reason = detail::torchFailureReason(e.what_without_backtrace(), run.batchSize);
    } catch (const std::bad_alloc &) {
        r.status = RunStatus::Failed;
        r.reason = detail::torchFailureReason("", run.batchSize);
    } catch (const std::exception &e) {
        r.status = RunStatus::Failed;
        r.reason = e.what();
    }
    return r;
}

} // namespace devicebench
