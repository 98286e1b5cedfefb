// SPDX-License-Identifier: MIT
#include "controller_support.h"
#include "run_controller.h"

#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

using test::FakeTrainer;
using test::waitUntil;

RunConfig fakeConfig(int epochs = 2) {
    RunConfig config;
    config.epochs = epochs;
    config.warmupEpochs = 1;
    config.batchSize = 8;
    config.threads = 1;
    config.synthetic = true;
    return config;
}

RunRequest fakeRequest(int epochs = 2) {
    RunRequest request;
    request.config = fakeConfig(epochs);
    return request;
}

TEST(RunController, EventsArriveOnTheMainThreadInOrderWithExactlyOneRunEnded) {
    RunController controller(FakeTrainer{});
    std::vector<std::string> events;
    bool allOnMainThread = true;
    const QThread *mainThread = QThread::currentThread();
    auto note = [&](const std::string &what) {
        allOnMainThread = allOnMainThread && QThread::currentThread() == mainThread;
        events.push_back(what);
    };
    std::int64_t lastStep = 0;
    bool stepsInOrder = true;
    QObject::connect(&controller, &RunController::runStarted,
                     [&](int, const RunConfig &config, const RunStarted &info) {
                         EXPECT_EQ(config.epochs, 2);
                         EXPECT_EQ(info.stepsPerEpoch, 4);
                         note("started");
                     });
    QObject::connect(&controller, &RunController::stepLosses,
                     [&](int, const std::vector<StepLoss> &losses) {
                         for (const StepLoss &l : losses) {
                             stepsInOrder = stepsInOrder && l.step == lastStep + 1;
                             lastStep = l.step;
                         }
                         note("steps");
                     });
    QObject::connect(&controller, &RunController::epochFinished,
                     [&](int, const EpochResult &e) { note("epoch" + std::to_string(e.epoch)); });
    int endedCount = 0;
    RunOutcome ended;
    QObject::connect(&controller, &RunController::runEnded, [&](int id, const RecordedRun &run) {
        EXPECT_EQ(id, 1);
        EXPECT_FALSE(controller.isRunning()) << "idle before runEnded, so a slot may start again";
        ++endedCount;
        ended = run.outcome;
        note("ended");
    });

    const int id = controller.startRun(fakeRequest());
    EXPECT_EQ(id, 1);
    EXPECT_TRUE(controller.isRunning());
    ASSERT_TRUE(waitUntil([&] { return endedCount > 0; }));
    waitUntil([] { return false; }, 100); // nothing may follow runEnded

    EXPECT_TRUE(allOnMainThread);
    EXPECT_TRUE(stepsInOrder);
    EXPECT_EQ(lastStep, 8);
    EXPECT_EQ(endedCount, 1);
    EXPECT_EQ(ended.status, RunStatus::Finished);
    EXPECT_EQ(ended.epochs.size(), 2U);
    const std::vector<std::string> expected = {"started", "steps",  "steps",  "steps",
                                               "steps",   "epoch1", "steps",  "steps",
                                               "steps",   "steps",  "epoch2", "ended"};
    EXPECT_EQ(events, expected);
}

TEST(RunController, SecondStartWhileRunningIsRejectedAndIdsCountUp) {
    FakeTrainer fake;
    fake.untilStopped = true;
    RunController controller(fake);
    QSignalSpy rejected(&controller, &RunController::runRejected);
    QSignalSpy ended(&controller, &RunController::runEnded);

    EXPECT_EQ(controller.startRun(fakeRequest()), 1);
    EXPECT_EQ(controller.startRun(fakeRequest()), 0);
    ASSERT_EQ(rejected.count(), 1);
    const QStringList reasons = rejected.at(0).at(0).toStringList();
    ASSERT_EQ(reasons.size(), 1);
    EXPECT_FALSE(reasons[0].isEmpty());
    EXPECT_EQ(controller.currentJobId(), 1);

    controller.stop();
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    EXPECT_EQ(controller.startRun(fakeRequest()), 2);
    controller.stop();
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 2; }));
    EXPECT_EQ(ended.at(1).at(0).toInt(), 2);
}

TEST(RunController, StopEndsTheRunAsCancelled) {
    FakeTrainer fake;
    fake.untilStopped = true;
    RunController controller(fake);
    QSignalSpy started(&controller, &RunController::runStarted);
    QSignalSpy ended(&controller, &RunController::runEnded);
    controller.startRun(fakeRequest());
    ASSERT_TRUE(waitUntil([&] { return started.count() == 1; }));
    controller.stop();
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }, 3000));
    const auto outcome = ended.at(0).at(1).value<RecordedRun>().outcome;
    EXPECT_EQ(outcome.status, RunStatus::Cancelled);
    EXPECT_FALSE(outcome.reason.empty());
    EXPECT_FALSE(controller.isRunning());
    waitUntil([] { return false; }, 100);
    EXPECT_EQ(ended.count(), 1);
}

TEST(RunController, AThrowingTrainerEndsAsFailedWithTheMessage) {
    RunController controller(
        [](const RunConfig &, TrainingObserver &, const std::atomic<bool> &) -> RunOutcome {
            throw std::runtime_error("boom");
        });
    QSignalSpy ended(&controller, &RunController::runEnded);
    controller.startRun(fakeRequest());
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    const auto outcome = ended.at(0).at(1).value<RecordedRun>().outcome;
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_NE(outcome.reason.find("boom"), std::string::npos);
}

TEST(RunController, DestroyingTheControllerMidRunReturnsPromptly) {
    FakeTrainer fake;
    fake.untilStopped = true;
    auto controller = std::make_unique<RunController>(fake);
    QSignalSpy started(controller.get(), &RunController::runStarted);
    int endedCount = 0;
    QObject::connect(controller.get(), &RunController::runEnded, [&] { ++endedCount; });
    controller->startRun(fakeRequest());
    ASSERT_TRUE(waitUntil([&] { return started.count() == 1; }));

    QElapsedTimer clock;
    clock.start();
    controller.reset();
    EXPECT_LT(clock.elapsed(), 2000);
    // Events the worker posted before it stopped are dropped with the controller.
    waitUntil([] { return false; }, 100);
    EXPECT_EQ(endedCount, 0);
}

TEST(RunController, WithALogFolderEachRunWritesOneEventFileInAFolderOfItsOwn) {
    QTemporaryDir logs;
    ASSERT_TRUE(logs.isValid());
    RunController controller{FakeTrainer{}};
    RunRequest request = fakeRequest();
    request.tensorBoardFolder = logs.path().toStdString();
    QSignalSpy ended(&controller, &RunController::runEnded);
    ASSERT_EQ(controller.startRun(request), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    const QStringList runs = QDir(logs.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    ASSERT_EQ(runs.size(), 1) << runs.join(QStringLiteral(", ")).toStdString();
    EXPECT_TRUE(runs[0].endsWith(QStringLiteral("_cpu_x1"))) << runs[0].toStdString();
    const QFileInfoList files =
        QDir(logs.path() + QStringLiteral("/") + runs[0]).entryInfoList(QDir::Files);
    ASSERT_EQ(files.size(), 1);
    EXPECT_TRUE(files[0].fileName().startsWith(QStringLiteral("events.out.tfevents.")));
    EXPECT_GT(files[0].size(), 0);
    const auto run = ended.at(0).at(1).value<RecordedRun>();
    EXPECT_EQ(run.eventError, "");
    EXPECT_EQ(QFileInfo(QString::fromStdString(run.eventFile)).fileName(), files[0].fileName());
}

TEST(RunController, AnEventFileThatCannotBeWrittenIsReportedAndTheRunFinishes) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    RunRequest request = fakeRequest();
    request.runId = "run-a";
    request.tensorBoardFolder = dir.path().toStdString();
    // A file where the run's own event folder would go.
    const QString file = dir.filePath(QStringLiteral("run-a_cpu_x1"));
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.close();
    RunController controller{FakeTrainer{}};
    std::vector<RecordedRun> ended;
    QObject::connect(&controller, &RunController::runEnded,
                     [&](int, const RecordedRun &run) { ended.push_back(run); });
    ASSERT_EQ(controller.startRun(request), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.size() == 1; }));
    EXPECT_EQ(
        ended[0].eventError.rfind("cannot create TensorBoard folder " + file.toStdString(), 0), 0u)
        << ended[0].eventError;
    EXPECT_EQ(ended[0].outcome.status, RunStatus::Finished);
}

TEST(RunController, ATensorBoardFolderThatCannotBeMadeRefusesTheRunWithTheEnginesMessage) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("a-file"));
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.close();
    std::atomic<int> calls{0};
    FakeTrainer fake;
    fake.calls = &calls;
    RunController controller(fake);
    RunRequest request = fakeRequest();
    request.tensorBoardFolder = file.toStdString(); // a file, not a folder
    QSignalSpy accepted(&controller, &RunController::runAccepted);
    QSignalSpy rejected(&controller, &RunController::runRejected);
    EXPECT_EQ(controller.startRun(request), 0);
    ASSERT_EQ(rejected.count(), 1);
    EXPECT_EQ(rejected.at(0).at(0).toStringList(),
              QStringList{QString::fromStdString(checkRunRequest(request).front())});
    EXPECT_EQ(
        rejected.at(0).at(0).toStringList().front(),
        QStringLiteral("cannot write the TensorBoard log folder %1: it is a file, not a folder")
            .arg(file));
    EXPECT_EQ(accepted.count(), 0);
    EXPECT_FALSE(controller.isRunning());
    waitUntil([] { return false; }, 50);
    EXPECT_EQ(calls.load(), 0);
}

TEST(RunController, InvalidSettingsAreRefusedWithTheEnginesMessagesAndNoJobStarts) {
    std::atomic<int> calls{0};
    FakeTrainer fake;
    fake.calls = &calls;
    RunController controller(fake);
    RunRequest request = fakeRequest();
    request.config.batchSize = 0;
    request.config.epochs = 0;
    QSignalSpy accepted(&controller, &RunController::runAccepted);
    QSignalSpy rejected(&controller, &RunController::runRejected);
    QSignalSpy ended(&controller, &RunController::runEnded);
    EXPECT_EQ(controller.startRun(request), 0);
    ASSERT_EQ(rejected.count(), 1);
    QStringList expected;
    for (const std::string &message : validateRunConfig(request.config))
        expected.append(QString::fromStdString(message));
    EXPECT_GE(expected.size(), 2);
    EXPECT_EQ(rejected.at(0).at(0).toStringList(), expected);
    EXPECT_EQ(accepted.count(), 0);
    waitUntil([] { return false; }, 50);
    EXPECT_EQ(ended.count(), 0);
    EXPECT_EQ(calls.load(), 0);
}

TEST(RunController, TheAcceptedSignalCarriesTheWholeRequest) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    RunController controller{FakeTrainer{}};
    RunRequest request = fakeRequest(3);
    request.runId = "the-run";
    request.recordsFolder = dir.filePath(QStringLiteral("runs")).toStdString();
    request.tensorBoardFolder = dir.filePath(QStringLiteral("logs")).toStdString();
    QSignalSpy accepted(&controller, &RunController::runAccepted);
    QSignalSpy ended(&controller, &RunController::runEnded);
    ASSERT_EQ(controller.startRun(request), 1);
    ASSERT_EQ(accepted.count(), 1);
    EXPECT_EQ(accepted.at(0).at(0).toInt(), 1);
    const auto got = accepted.at(0).at(1).value<RunRequest>();
    EXPECT_EQ(got.config.epochs, 3);
    EXPECT_EQ(got.runId, "the-run");
    EXPECT_EQ(got.recordsFolder, request.recordsFolder);
    EXPECT_EQ(got.tensorBoardFolder, request.tensorBoardFolder);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("runs/the-run.json"))));
    EXPECT_TRUE(QDir(dir.filePath(QStringLiteral("logs/the-run_cpu_x1"))).exists());
}

TEST(RunController, TheRunsEndCarriesItsRecordAsWrittenAndStepsKeepTheRecordersTimes) {
    // The trainer's returned outcome differs from the one it told the observer: runEnded
    // carries the returned one, the job's result.
    RunController controller(
        [](const RunConfig &config, TrainingObserver &observer, const std::atomic<bool> &stop) {
            RunOutcome told = FakeTrainer{}(config, observer, stop);
            told.reason = "returned by the train function";
            return told;
        });
    std::vector<std::string> order;
    std::vector<StepLoss> shown;
    RunRecord ended;
    RunOutcome outcome;
    QObject::connect(&controller, &RunController::stepLosses,
                     [&](int, const std::vector<StepLoss> &losses) {
                         shown.insert(shown.end(), losses.begin(), losses.end());
                         order.emplace_back("steps");
                     });
    QObject::connect(&controller, &RunController::runEnded, [&](int, const RecordedRun &run) {
        ended = run.record;
        outcome = run.outcome;
        order.emplace_back("ended");
    });
    ASSERT_EQ(controller.startRun(fakeRequest()), 1);
    ASSERT_TRUE(waitUntil([&] { return outcome.reason.size() > 0; }));
    ASSERT_GE(order.size(), 2U);
    EXPECT_EQ(order.back(), "ended");
    EXPECT_EQ(outcome.reason, "returned by the train function");
    EXPECT_EQ(ended.status, "finished");
    ASSERT_EQ(shown.size(), ended.steps.size());
    for (std::size_t i = 0; i < shown.size(); ++i) {
        EXPECT_EQ(shown[i].step, ended.steps[i].step);
        EXPECT_EQ(shown[i].seconds, ended.steps[i].seconds) << "step " << shown[i].step;
    }
    EXPECT_GT(shown.front().seconds, 0.0);
}

TEST(RunController, TheMachinesReadingsReachTheMainThreadWithEachRunsId) {
    // A train function whose run was sampled: one reading, then the fake training. The
    // readings pass the run's recorder (which keeps them in the record) on the way. The
    // engine's own sampler is off, so that only these readings come.
    setenv("DEVICEBENCH_SAMPLING_PERIOD", "0", 1);
    RunController controller(
        [](const RunConfig &config, TrainingObserver &observer, const std::atomic<bool> &stop) {
            SystemSample sample;
            sample.seconds = 0.5;
            sample.processCores = 1.0 + config.threads;
            observer.onSystemSamples({sample});
            return FakeTrainer{}(config, observer, stop);
        });
    std::vector<std::pair<int, double>> shown; // (run id, process cores)
    bool onMainThread = true;
    const QThread *mainThread = QThread::currentThread();
    QObject::connect(&controller, &RunController::systemSamples,
                     [&](int id, const std::vector<SystemSample> &samples) {
                         onMainThread = onMainThread && QThread::currentThread() == mainThread;
                         for (const SystemSample &s : samples)
                             shown.emplace_back(id, s.processCores);
                     });
    std::vector<RunRecord> ended;
    QObject::connect(&controller, &RunController::runEnded,
                     [&](int, const RecordedRun &run) { ended.push_back(run.record); });
    RunRequest two = fakeRequest();
    two.config.threads = 2;
    ASSERT_EQ(controller.startRunSet({fakeRequest(), two}, false), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.size() == 2; }));
    EXPECT_TRUE(onMainThread);
    EXPECT_EQ(shown, (std::vector<std::pair<int, double>>{{1, 2.0}, {2, 3.0}}));
    ASSERT_EQ(ended[1].samples.size(), 1U);
    EXPECT_EQ(ended[1].samples[0].seconds, 0.5);
    unsetenv("DEVICEBENCH_SAMPLING_PERIOD");
}

TEST(RunController, TheEnginesSamplerReadingsReachTheMainThreadAndTheRecord) {
    setenv("DEVICEBENCH_SAMPLING_PERIOD", "0.02", 1);
    RunController controller(
        [](const RunConfig &config, TrainingObserver &observer, const std::atomic<bool> &stop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200)); // readings pile up
            return FakeTrainer{}(config, observer, stop); // hands them on with its losses
        });
    std::size_t shown = 0;
    QObject::connect(
        &controller, &RunController::systemSamples,
        [&](int, const std::vector<SystemSample> &samples) { shown += samples.size(); });
    std::vector<RunRecord> ended;
    QObject::connect(&controller, &RunController::runEnded,
                     [&](int, const RecordedRun &run) { ended.push_back(run.record); });
    ASSERT_EQ(controller.startRun(fakeRequest()), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.size() == 1; }));
    unsetenv("DEVICEBENCH_SAMPLING_PERIOD");
    EXPECT_TRUE(ended[0].sampling.sampled);
    EXPECT_GE(ended[0].samples.size(), 3U);
    EXPECT_EQ(shown, ended[0].samples.size());
}

} // namespace
} // namespace devicebench
