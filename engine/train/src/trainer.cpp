// SPDX-License-Identifier: MIT
// The run: settings checked, device probed, data loaded, model built, then the epochs
// (epochs.cpp) in the workload's way (workload.cpp), timed here.
#include "devicebench/trainer.h"

#include "data_parallel_state.h"
#include "epochs.h"
#include "loss_buffer.h"
#include "phase_step.h"
#include "run_setup.h"
#include "run_stop.h"
#include "workload.h"

#include "devicebench/cifar10.h"
#include "devicebench/contention.h"
#include "devicebench/data_parallel.h"
#include "devicebench/devices.h"
#include "devicebench/models.h"
#include "devicebench/probe.h"
#include "devicebench/summary.h"

#include <spdlog/spdlog.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

namespace devicebench {
namespace detail {

void synchronize(const torch::Device &device) {
    if (device.is_cuda()) {
        torch::cuda::synchronize(device.index());
    }
}

std::string formatNumber(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

} // namespace detail

namespace {

using detail::formatNumber;
using detail::RunStop;
using detail::synchronize;

constexpr int kMaxThreads = 1024;

class RunEnder {
public:
    RunEnder(TrainingObserver &observer, detail::DataParallelState *dp, int warmupEpochs)
        : m_observer(observer), m_dp(dp), m_warmupEpochs(warmupEpochs) {}
    RunOutcome end(RunOutcome outcome, int warmupEpochs, double imagesPerEpoch) {
        // A rank's failure: told to the other ranks, and theirs named (data_parallel.h).
        if (m_dp != nullptr && outcome.status == RunStatus::Failed)
            outcome.reason = m_dp->explainFailure(outcome.reason);
        outcome.summary = summarize(outcome.epochs, std::max(warmupEpochs, 0), imagesPerEpoch);
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
        if (m_dp != nullptr)
            m_dp->runEnded(outcome, m_warmupEpochs);
        return outcome;
    }

private:
    TrainingObserver &m_observer;
    detail::DataParallelState *m_dp;
    int m_warmupEpochs;
};

} // namespace

std::vector<std::string> validateRunConfig(const RunConfig &c) {
    std::vector<std::string> errors;
    if (c.device.empty()) {
        errors.push_back("device must not be empty (use cpu, cuda or cuda:N)");
    }
    if (c.epochs < 1) {
        errors.push_back("epochs must be at least 1 (got " + std::to_string(c.epochs) + ")");
    }
    if (c.batchSize < 1) {
        errors.push_back("batch size must be at least 1 (got " + std::to_string(c.batchSize) + ")");
    }
    if (!std::isfinite(c.learningRate) || c.learningRate <= 0.0) {
        errors.push_back("learning rate must be a finite number above 0 (got " +
                         formatNumber(c.learningRate) + ")");
    }
    if (c.warmupEpochs < 0) {
        errors.push_back("warm-up epochs must not be negative (got " +
                         std::to_string(c.warmupEpochs) + ")");
    } else if (c.epochs >= 1 && c.warmupEpochs >= c.epochs) {
        errors.push_back("warm-up epochs (" + std::to_string(c.warmupEpochs) +
                         ") must be fewer than epochs (" + std::to_string(c.epochs) +
                         "), or no epoch is left for the stable mean");
    }
    if (c.threads < 0 || c.threads > kMaxThreads) {
        errors.push_back("threads must be between 1 and 1024, or 0 for all cores (got " +
                         std::to_string(c.threads) + ")");
    }
    if (c.trainImages < 0 || c.trainImages > kCifarTrainImages) {
        errors.push_back("training images must be between 1 and 50000, or 0 for all (got " +
                         std::to_string(c.trainImages) + ")");
    }
    if (c.testImages < 0 || c.testImages > kCifarTestImages) {
        errors.push_back("test images must be between 1 and 10000, or 0 for all (got " +
                         std::to_string(c.testImages) + ")");
    }
    const std::int64_t trainSet = c.trainImages > 0 ? c.trainImages : kCifarTrainImages;
    if (c.batchSize > trainSet) {
        errors.push_back("batch size (" + std::to_string(c.batchSize) +
                         ") is larger than the training set (" + std::to_string(trainSet) +
                         " images)");
    }
    if (c.lossFetchInterval < 1) {
        errors.push_back("loss fetch interval must be at least 1 step (got " +
                         std::to_string(c.lossFetchInterval) + ")");
    }
    if (!isKnownModel(c.model)) {
        errors.push_back("model '" + c.model +
                         "' is not known (use small-cnn, resnet18 or vit-tiny)");
    }
    if (!isSupportedImageSize(c.imageSize)) {
        errors.push_back("image size must be 32, 64 or 128 pixels (got " +
                         std::to_string(c.imageSize) + ")");
    }
    if (!c.synthetic && c.dataDir.empty()) {
        errors.push_back("no data folder given (set one, or choose synthetic data)");
    }
    return errors;
}

RunOutcome runTraining(const RunConfig &config, TrainingObserver &observer,
                       const std::atomic<bool> &stopRequested) {
    return runTraining(config, observer, stopRequested, probeDevice);
}

RunOutcome runTraining(const RunConfig &config, TrainingObserver &observer,
                       const std::atomic<bool> &stopRequested, const DeviceProbe &probe) {
    return detail::runTrainingImpl(config, observer, stopRequested, probe, nullptr);
}

RunOutcome runDataParallelTraining(const RunConfig &config, DataParallelRun &run,
                                   TrainingObserver &observer,
                                   const std::atomic<bool> &stopRequested,
                                   const DeviceProbe &probe) {
    if (run.group == nullptr)
        throw std::invalid_argument("runDataParallelTraining needs a process group");
    detail::DataParallelState dp(config, run, observer);
    return detail::runTrainingImpl(config, observer, stopRequested, probe, &dp);
}

namespace detail {

RunOutcome runTrainingImpl(const RunConfig &config, TrainingObserver &observer,
                           const std::atomic<bool> &stopRequested, const DeviceProbe &probe,
                           DataParallelState *dp) {
    RunEnder ender(observer, dp, config.warmupEpochs);
    RunOutcome outcome;
    double imagesPerEpoch = 0.0;
    try {
        auto errors = validateRunConfig(config);
        if (dp != nullptr)
            for (std::string &e : dp->validate(config))
                errors.push_back(std::move(e));
        if (!errors.empty()) {
            std::string reason = "invalid settings: " + errors.front();
            for (std::size_t i = 1; i < errors.size(); ++i) {
                reason += "; " + errors[i];
            }
            outcome.reason = reason;
            return ender.end(outcome, 0, 0.0);
        }
        if (dp != nullptr)
            dp->checkSameSettings(config); // before anything else: a collective
        detail::RunDevice runDevice;
        if (const std::string unusable = detail::startRunDevice(config, probe, &runDevice);
            !unusable.empty()) {
            outcome.reason = unusable;
            return ender.end(outcome, 0, 0.0);
        }
        const torch::Device device = runDevice.device;

        const Cifar10 data = detail::loadRunData(config, config.trainImages, config.testImages);
        const std::int64_t nTrain = data.train.size();
        const std::int64_t nTest = data.test.size();
        const std::int64_t batch = config.batchSize;
        imagesPerEpoch = static_cast<double>(nTrain + nTest);

        const auto workload =
            detail::makeWorkloadStrategy(config.workload, device, batch, config.imageSize);
        ImageClassifier model = detail::buildRunModel(config, device, *workload);
        torch::optim::SGD optimizer(model->parameters(),
                                    torch::optim::SGDOptions(config.learningRate));

        RunStarted started;
        started.device = device.str();
        started.deviceName = device.is_cpu() ? "CPU" : "CUDA device " + device.str();
        started.threads = runDevice.threads;
        started.trainImages = nTrain;
        started.testImages = nTest;
        started.stepsPerEpoch = (nTrain + batch - 1) / batch;
        started.synthetic = data.synthetic;
        started.deviceInitSeconds = runDevice.initSeconds;
        started.modelParameters = countTrainableParameters(*model);
        started.multiplyAddsPerImage = model->multiplyAddsPerImage();
        started.dataDescription = data.synthetic
                                      ? "synthetic data (times are real, accuracy is meaningless)"
                                      : data.source;
        spdlog::info("run on {} ({} threads): {} at {} px ({} parameters, {} multiply-adds per "
                     "image), {} training, {} test images, batch size {}, lr {}, {} epochs",
                     started.device, started.threads, config.model, config.imageSize,
                     started.modelParameters, started.multiplyAddsPerImage, nTrain, nTest, batch,
                     config.learningRate, config.epochs);
        if (dp != nullptr)
            imagesPerEpoch = dp->describe(started); // this rank's shards; a collective
        if (device.is_cuda()) {
            // Before onRunStarted, so the run's fingerprint (cudnnBenchmark) records it.
            at::globalContext().setBenchmarkCuDNN(workload->cudnnBenchmark());
        }
        observer.onRunStarted(started);
        if (dp != nullptr)
            dp->runStarted(started);

        detail::SplitTensors train{data.train.images, data.train.labels};
        detail::SplitTensors test{data.test.images, data.test.labels};
        for (auto *split : {&train, &test}) {
            detail::placeSplit(*split, *workload, device, config.dataOnDevice);
        }
        synchronize(device);
        workload->prepareBatches();

        const auto parameters = model->parameters();
        const detail::EpochParts parts{model,  optimizer, parameters,   *workload,
                                       device, batch,     stopRequested};
        detail::LossBuffer losses(config.lossFetchInterval,
                                  dp != nullptr ? dp->stepObserver() : observer);
        if (dp != nullptr)
            dp->keepModel(parameters);
        // Timing (MEASURING.md, Rules): each clock read below follows a device synchronisation
        // (synchronize(): torch::cuda::synchronize on CUDA; CPU work is already done). Within
        // an epoch no host synchronisation is added per step (but in a phase-timed run, which
        // synchronises at every phase boundary: phase_step.h): step losses stay on the device
        // and are fetched every K steps (LossBuffer::add/flush), the test sums once at the end
        // of the test pass (testEpoch). The faithful workload's blocking host-to-device copies
        // of pageable memory (`.to(device)`, as the article's script does) make the host wait
        // for each copy; the tuned workload copies pinned memory without blocking, and with
        // dataOnDevice nothing is copied.
        // What each epoch got from the machine (contention.h): read just outside its clock.
        EpochLoadMeter meter;
        for (int epoch = 1; epoch <= config.epochs; ++epoch) {
            losses.beginEpoch(epoch);
            synchronize(device);
            meter.begin();
            const auto t0 = std::chrono::steady_clock::now();
            // Phase timing (RunConfig::phases): one clock from t0 to t1, lapped at every phase
            // boundary, so the phases add up to the epoch's seconds (PhaseTimes).
            std::optional<detail::EpochPhases> phases;
            if (config.phases)
                phases.emplace(device, t0);
            detail::TestResult tested;
            if (dp != nullptr) {
                dp->trainEpoch(parts, epoch, train, losses);
                tested = dp->testEpoch(parts, epoch, test);
            } else {
                detail::trainEpoch(parts, epoch, train, losses, phases ? &*phases : nullptr);
                tested = detail::testEpoch(parts, epoch, test);
            }
            synchronize(device);
            const auto t1 = std::chrono::steady_clock::now();
            if (phases)
                phases->times.test =
                    std::chrono::duration<double>(t1 - phases->clock.last()).count();
            const EpochLoad load = meter.end(started.threads, device.is_cpu());

            EpochResult result;
            result.epoch = epoch;
            result.seconds = std::chrono::duration<double>(t1 - t0).count();
            result.warmup = epoch <= config.warmupEpochs;
            result.trainLoss = losses.epochMean();
            result.testLoss = tested.loss;
            result.testAccuracy = tested.accuracy;
            result.imagesPerSecond = imagesPerEpoch / result.seconds;
            result.load = load;
            if (phases)
                result.phases = phases->times;
            if (dp != nullptr)
                dp->finishEpoch(result); // a collective: the slowest rank's time for the job
            outcome.epochs.push_back(result);
            spdlog::info("epoch {} seconds {:.3f} test loss {:.4f} accuracy {:.4f}{}", epoch,
                         result.seconds, tested.loss, tested.accuracy,
                         load.contended ? " contended: " + describeLoad(load, started.threads)
                                        : std::string());
            observer.onEpochFinished(result);
            if (!std::isfinite(tested.loss)) {
                throw RunStop{RunStatus::Diverged, "test loss became " + formatNumber(tested.loss) +
                                                       " in epoch " + std::to_string(epoch) +
                                                       "; lower the learning rate"};
            }
        }
        outcome.status = RunStatus::Finished;
    } catch (const RunStop &stop) {
        outcome.status = stop.status;
        outcome.reason = stop.reason;
    } catch (const c10::Error &e) {
        outcome.status = RunStatus::Failed;
        outcome.reason = detail::torchFailureReason(e.what_without_backtrace(), config.batchSize);
    } catch (const std::bad_alloc &) {
        outcome.status = RunStatus::Failed;
        outcome.reason = detail::torchFailureReason("", config.batchSize);
    } catch (const std::exception &e) {
        outcome.status = RunStatus::Failed;
        outcome.reason = e.what();
    }
    return ender.end(outcome, config.warmupEpochs, imagesPerEpoch);
}

} // namespace detail
} // namespace devicebench
