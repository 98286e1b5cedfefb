// SPDX-License-Identifier: MIT
#include "devicebench/trainer.h"

#include "devicebench/cifar10.h"
#include "devicebench/devices.h"
#include "devicebench/probe.h"
#include "devicebench/small_cnn.h"
#include "devicebench/summary.h"

#include <spdlog/spdlog.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#include <chrono>
#include <optional>
#include <cmath>
#include <sstream>

namespace devicebench {
namespace {

constexpr int kMaxThreads = 1024;

// GPU work is asynchronous: wait for it before every clock read that ends a timed region
// (MEASURING.md, Rules). A no-op on the CPU.
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

class RunEnder {
public:
    explicit RunEnder(TrainingObserver &observer) : observer_(observer) {}
    RunOutcome end(RunOutcome outcome, int warmupEpochs, double imagesPerEpoch) {
        outcome.summary = summarize(outcome.epochs, std::max(warmupEpochs, 0), imagesPerEpoch);
        if (outcome.status == RunStatus::Finished) {
            spdlog::info("run finished: {} epochs", outcome.epochs.size());
        } else {
            // info, not warn: the caller reports the outcome to the user (CLI, dashboard).
            spdlog::info("run {}: {}", toString(outcome.status), outcome.reason);
        }
        try {
            observer_.onRunEnded(outcome);
        } catch (const std::exception &e) {
            spdlog::error("observer threw in onRunEnded: {}", e.what());
        }
        return outcome;
    }

private:
    TrainingObserver &observer_;
};

// Thrown inside the loop to leave it with a status other than Failed.
struct RunStop {
    RunStatus status;
    std::string reason;
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
        errors.push_back("batch size must be at least 1 (got " + std::to_string(c.batchSize) +
                         ")");
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
    RunEnder ender(observer);
    RunOutcome outcome;
    double imagesPerEpoch = 0.0;
    try {
        if (const auto errors = validateRunConfig(config); !errors.empty()) {
            std::string reason = "invalid settings: " + errors.front();
            for (std::size_t i = 1; i < errors.size(); ++i) {
                reason += "; " + errors[i];
            }
            outcome.reason = reason;
            return ender.end(outcome, 0, 0.0);
        }
        const torch::Device device(resolveDevice(config.device));
        // No run starts on a device that cannot run and agree with the CPU (MEASURING.md,
        // lesson 3).
        if (const ProbeResult probed = probe(device.str()); !probed.usable) {
            outcome.status = RunStatus::Failed;
            outcome.reason = "device " + device.str() + " is unusable: " +
                             (probed.error.empty() ? std::string("the device probe failed")
                                                   : probed.error);
            return ender.end(outcome, 0, 0.0);
        }
        const int threads = config.threads > 0 ? config.threads : availableCores();
        at::set_num_threads(threads);

        const Cifar10 data =
            config.synthetic
                ? makeSyntheticCifar10(config.trainImages > 0 ? config.trainImages
                                                              : kCifarTrainImages,
                                       config.testImages > 0 ? config.testImages
                                                             : kCifarTestImages,
                                       config.seed)
                : loadCifar10(config.dataDir, config.trainImages, config.testImages);
        const std::int64_t nTrain = data.train.size();
        const std::int64_t nTest = data.test.size();
        const std::int64_t batch = config.batchSize;
        imagesPerEpoch = static_cast<double>(nTrain + nTest);

        // Same seed -> same initial weights on every device: initialise on the CPU, then move.
        SmallCnn model;
        model->resetParameters(config.seed);
        model->to(device);
        const bool tuned = config.workload == Workload::Tuned;
        const auto memoryFormat =
            tuned ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
        if (tuned) {
            // What Python's model.to(memory_format=torch.channels_last) does: 4-d weights
            // re-laid out, values unchanged.
            torch::NoGradGuard noGrad;
            for (auto &p : model->parameters()) {
                if (p.dim() == 4) {
                    p.set_data(p.contiguous(memoryFormat));
                }
            }
        }
        torch::optim::SGD optimizer(model->parameters(),
                                    torch::optim::SGDOptions(config.learningRate));

        RunStarted started;
        started.device = device.str();
        started.deviceName = device.is_cpu() ? "CPU" : "CUDA device " + device.str();
        started.threads = at::get_num_threads();
        started.trainImages = nTrain;
        started.testImages = nTest;
        started.stepsPerEpoch = (nTrain + batch - 1) / batch;
        started.synthetic = data.synthetic;
        started.dataDescription =
            data.synthetic ? "synthetic data (times are real, accuracy is meaningless)"
                           : data.source;
        spdlog::info("run on {} ({} threads): {} training, {} test images, batch size {}, "
                     "lr {}, {} epochs",
                     started.device, started.threads, nTrain, nTest, batch,
                     config.learningRate, config.epochs);
        if (device.is_cuda()) {
            // cuDNN's benchmark mode times several convolution algorithms on the first call of
            // each shape and keeps the fastest: the tuned workload's choice; off (PyTorch's
            // default) for the article's computation. Set before onRunStarted, so the run's
            // fingerprint (cudnnBenchmark) records what the run used.
            at::globalContext().setBenchmarkCuDNN(tuned);
        }
        observer.onRunStarted(started);

        // Host copies of the data. Tuned on CUDA: pinned, so copies can be non-blocking.
        torch::Tensor trainImages = data.train.images;
        torch::Tensor testImages = data.test.images;
        torch::Tensor trainLabels = data.train.labels;
        torch::Tensor testLabels = data.test.labels;
        if (tuned) {
            // Held as N x 32 x 32 x 3 bytes (channels-last), laid out once with the data, so
            // that each batch's conversion to float is a plain element-wise pass.
            trainImages = trainImages.contiguous(memoryFormat);
            testImages = testImages.contiguous(memoryFormat);
        }
        if (config.dataOnDevice && device.is_cuda()) {
            // The whole set on the device once, outside the timed epochs (RunConfig).
            trainImages = trainImages.to(device);
            testImages = testImages.to(device);
            trainLabels = trainLabels.to(device);
            testLabels = testLabels.to(device);
            synchronize(device);
        } else if (tuned && device.is_cuda()) {
            trainImages = trainImages.pin_memory();
            testImages = testImages.pin_memory();
            trainLabels = trainLabels.pin_memory();
            testLabels = testLabels.pin_memory();
        }
        const auto parameters = model->parameters();
        // Tuned: one float batch buffer in the model's memory format, filled in place.
        torch::Tensor batchBuffer;
        if (tuned) {
            batchBuffer = torch::empty({batch, 3, 32, 32},
                                       torch::TensorOptions().dtype(torch::kFloat32).device(device))
                              .contiguous(memoryFormat);
        }
        // uint8 images [start, start + n) as float in [0, 1] on the device (ToTensor's
        // conversion, inside the timed epoch in both workloads).
        auto prepare = [&](const torch::Tensor &images, std::int64_t start,
                           std::int64_t n) -> torch::Tensor {
            if (!tuned) {
                return toUnitFloat(images.narrow(0, start, n)).to(device);
            }
            auto x = batchBuffer.narrow(0, 0, n);
            x.copy_(images.narrow(0, start, n), /*non_blocking=*/true);
            return x.div_(255.0);
        };

        std::int64_t globalStep = 0;
        std::vector<torch::Tensor> pending; // step losses still on the device
        pending.reserve(static_cast<std::size_t>(config.lossFetchInterval));

        for (int epoch = 1; epoch <= config.epochs; ++epoch) {
            double lossSum = 0.0;
            std::int64_t lossCount = 0;
            // Fetches the pending step losses from the device in one copy.
            auto flush = [&]() {
                if (pending.empty()) {
                    return;
                }
                const auto values =
                    torch::stack(pending).to(torch::kCPU, torch::kFloat64).contiguous();
                const auto *v = values.data_ptr<double>();
                std::vector<StepLoss> losses(pending.size());
                const std::int64_t first = globalStep - static_cast<std::int64_t>(pending.size());
                for (std::size_t i = 0; i < pending.size(); ++i) {
                    losses[i] = {epoch, first + static_cast<std::int64_t>(i) + 1, v[i]};
                    if (!std::isfinite(v[i])) {
                        losses.resize(i + 1);
                        observer.onStepLosses(losses);
                        pending.clear();
                        throw RunStop{RunStatus::Diverged,
                                      "training loss became " + formatNumber(v[i]) +
                                          " at step " + std::to_string(losses[i].step) +
                                          " (epoch " + std::to_string(epoch) +
                                          "); lower the learning rate"};
                    }
                    lossSum += v[i];
                }
                lossCount += static_cast<std::int64_t>(pending.size());
                pending.clear();
                observer.onStepLosses(losses);
            };

            synchronize(device);
            const auto t0 = std::chrono::steady_clock::now();

            model->train();
            for (std::int64_t start = 0; start < nTrain; start += batch) {
                if (stopRequested.load(std::memory_order_relaxed)) {
                    flush();
                    throw RunStop{RunStatus::Cancelled,
                                  "stopped by the user during epoch " + std::to_string(epoch)};
                }
                const std::int64_t n = std::min(batch, nTrain - start);
                auto x = prepare(trainImages, start, n);
                auto y = trainLabels.narrow(0, start, n).to(device, /*non_blocking=*/tuned);
                auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
                if (tuned) {
                    for (auto &p : parameters) {
                        p.mutable_grad() = torch::Tensor(); // set to none: no zero-fill pass
                    }
                } else {
                    optimizer.zero_grad();
                }
                loss.backward();
                optimizer.step();
                ++globalStep;
                pending.push_back(loss.detach());
                if (static_cast<int>(pending.size()) >= config.lossFetchInterval) {
                    flush();
                }
            }
            flush();

            model->eval();
            torch::Tensor testLossSum = torch::zeros({}, torch::TensorOptions().device(device));
            torch::Tensor correct = torch::zeros({}, torch::TensorOptions()
                                                         .device(device)
                                                         .dtype(torch::kInt64));
            {
                // InferenceMode (tuned) skips autograd's version counters and views as well.
                std::optional<torch::NoGradGuard> noGrad;
                std::optional<c10::InferenceMode> inference;
                if (tuned) {
                    inference.emplace();
                } else {
                    noGrad.emplace();
                }
                for (std::int64_t start = 0; start < nTest; start += batch) {
                    if (stopRequested.load(std::memory_order_relaxed)) {
                        throw RunStop{RunStatus::Cancelled,
                                      "stopped by the user during the test pass of epoch " +
                                          std::to_string(epoch)};
                    }
                    const std::int64_t n = std::min(batch, nTest - start);
                    auto x = prepare(testImages, start, n);
                    auto y = testLabels.narrow(0, start, n).to(device, /*non_blocking=*/tuned);
                    auto out = model->forward(x);
                    testLossSum += torch::nn::functional::cross_entropy(
                        out, y,
                        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
                    correct += (out.argmax(1) == y).sum();
                }
            }
            const double testLoss = testLossSum.item<double>() / static_cast<double>(nTest);
            const double accuracy =
                static_cast<double>(correct.item<std::int64_t>()) / static_cast<double>(nTest);
            synchronize(device);
            const auto t1 = std::chrono::steady_clock::now();

            EpochResult result;
            result.epoch = epoch;
            result.seconds = std::chrono::duration<double>(t1 - t0).count();
            result.warmup = epoch <= config.warmupEpochs;
            result.trainLoss = lossCount > 0 ? lossSum / static_cast<double>(lossCount) : 0.0;
            result.testLoss = testLoss;
            result.testAccuracy = accuracy;
            result.imagesPerSecond = imagesPerEpoch / result.seconds;
            outcome.epochs.push_back(result);
            spdlog::info("epoch {} seconds {:.3f} test loss {:.4f} accuracy {:.4f}", epoch,
                         result.seconds, testLoss, accuracy);
            observer.onEpochFinished(result);
            if (!std::isfinite(testLoss)) {
                throw RunStop{RunStatus::Diverged, "test loss became " + formatNumber(testLoss) +
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
        outcome.reason = e.what_without_backtrace();
        // LibTorch's CPU ("can't allocate memory") and CUDA ("out of memory") allocation
        // failures: say what to change, keep LibTorch's text for the details.
        if (outcome.reason.find("can't allocate memory") != std::string::npos ||
            outcome.reason.find("out of memory") != std::string::npos) {
            outcome.reason = "out of memory at batch size " + std::to_string(config.batchSize) +
                             " (try a smaller batch size): " + outcome.reason;
        }
    } catch (const std::bad_alloc &) {
        outcome.status = RunStatus::Failed;
        outcome.reason = "out of memory at batch size " + std::to_string(config.batchSize) +
                         " (try a smaller batch size)";
    } catch (const std::exception &e) {
        outcome.status = RunStatus::Failed;
        outcome.reason = e.what();
    }
    return ender.end(outcome, config.warmupEpochs, imagesPerEpoch);
}

} // namespace devicebench
