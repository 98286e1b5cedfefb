// SPDX-License-Identifier: MIT
// Helpers shared by the controller and ui tests: a scratch folder, a synthetic config, waiting
// on the event loop with a timeout, and a fake trainer.
#pragma once

#include "devicebench/run_types.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QThread>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace devicebench::test {

// A new empty folder for a window's run records, removed when the test program ends, so that
// no test writes into the user's data location or sees another test's runs.
inline QString scratchRunsFolder() {
    static std::vector<std::unique_ptr<QTemporaryDir>> folders;
    folders.push_back(std::make_unique<QTemporaryDir>());
    return folders.back()->path();
}

// A run config on synthetic data (what the tests' fake and tiny real runs use): `epochs`
// epochs, the first `warmupEpochs` of them warm-up; every other field at its default.
inline RunConfig syntheticConfig(int epochs, int warmupEpochs) {
    RunConfig config;
    config.synthetic = true;
    config.epochs = epochs;
    config.warmupEpochs = warmupEpochs;
    return config;
}

// Processes events until `done()` is true or `timeoutMs` passed; returns done().
inline bool waitUntil(const std::function<bool()> &done, int timeoutMs = 5000) {
    QDeadlineTimer deadline(timeoutMs);
    while (!done() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    return done();
}

// A stand-in for runTraining: `epochs` epochs of `stepsPerEpoch` steps, reporting each step's
// loss in its own batch, sleeping `stepMs` per step and honouring the stop flag before every
// step. With `untilStopped`, it never ends by itself.
struct FakeTrainer {
    int stepsPerEpoch = 4;
    int stepMs = 1;
    bool untilStopped = false;
    std::atomic<int> *calls = nullptr; // incremented on entry when set

    RunOutcome operator()(const RunConfig &config, TrainingObserver &observer,
                          const std::atomic<bool> &stop) const {
        if (calls != nullptr)
            ++*calls;
        RunStarted info;
        info.device = config.device;
        info.deviceName = "Fake CPU";
        info.threads = config.threads > 0 ? config.threads : 1;
        info.trainImages = stepsPerEpoch * config.batchSize;
        info.testImages = 10;
        info.stepsPerEpoch = stepsPerEpoch;
        info.synthetic = true;
        observer.onRunStarted(info);

        RunOutcome outcome;
        std::int64_t step = 0;
        for (int epoch = 1; untilStopped || epoch <= config.epochs; ++epoch) {
            for (int s = 0; s < stepsPerEpoch; ++s) {
                if (stop.load()) {
                    outcome.status = RunStatus::Cancelled;
                    outcome.reason = "stopped by the user";
                    observer.onRunEnded(outcome);
                    return outcome;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(stepMs));
                ++step;
                observer.onStepLosses({StepLoss{epoch, step, 2.3 / static_cast<double>(step)}});
            }
            EpochResult e;
            e.epoch = epoch;
            e.seconds = 0.01 * epoch;
            e.warmup = epoch <= config.warmupEpochs;
            e.trainLoss = 1.0;
            e.testLoss = 1.1;
            e.testAccuracy = 0.1;
            e.imagesPerSecond = 1000.0;
            outcome.epochs.push_back(e);
            observer.onEpochFinished(e);
        }
        outcome.status = RunStatus::Finished;
        observer.onRunEnded(outcome);
        return outcome;
    }
};

} // namespace devicebench::test
