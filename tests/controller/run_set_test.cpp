// SPDX-License-Identifier: MIT
// Run sets: several runs as one job, one after another (with the fake trainer) or interleaved
// (tiny synthetic real runs, since the engine's interleaved runs always train for real), each
// with its own id, its own signals and exactly one runEnded.
#include "controller_support.h"
#include "run_controller.h"

#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <QSignalSpy>

#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

using test::FakeTrainer;
using test::waitUntil;

RunRequest fakeRequest(int threads, int epochs = 2) {
    RunRequest request;
    request.config.epochs = epochs;
    request.config.warmupEpochs = 1;
    request.config.batchSize = 8;
    request.config.threads = threads;
    request.config.synthetic = true;
    return request;
}

// A tiny real run: 10 steps of 32 synthetic images an epoch, on one thread.
RunRequest tinyRealRequest(int epochs = 2) {
    RunRequest request;
    request.config.synthetic = true;
    request.config.trainImages = 320;
    request.config.testImages = 64;
    request.config.batchSize = 32;
    request.config.epochs = epochs;
    request.config.warmupEpochs = 1;
    request.config.threads = 1;
    return request;
}

// Every event of the controller, as "<what> <id>[ <epoch>]", in arrival order.
struct EventLog {
    explicit EventLog(RunController &controller) {
        QObject::connect(&controller, &RunController::runAccepted,
                         [this](int id, const RunRequest &) { note("accepted", id); });
        QObject::connect(&controller, &RunController::recordStarted,
                         [this](int id, const RunRecord &) { note("record", id); });
        QObject::connect(
            &controller, &RunController::runStarted,
            [this](int id, const RunConfig &, const RunStarted &) { note("started", id); });
        QObject::connect(&controller, &RunController::epochFinished,
                         [this](int id, const EpochResult &epoch) {
                             note("epoch", id, epoch.epoch);
                             epochs.emplace_back(id, epoch.epoch);
                         });
        QObject::connect(&controller, &RunController::runEnded,
                         [this, &controller](int id, const RecordedRun &run) {
                             note("ended", id);
                             ends[id].push_back(run.outcome);
                             records[id] = run.record;
                             runningAtEnd.push_back(controller.isRunning());
                         });
    }
    void note(const char *what, int id, int epoch = 0) {
        events.push_back(std::string(what) + " " + std::to_string(id) +
                         (epoch > 0 ? " " + std::to_string(epoch) : std::string()));
    }
    int indexOf(const std::string &event) const {
        for (std::size_t i = 0; i < events.size(); ++i)
            if (events[i] == event)
                return static_cast<int>(i);
        return -1;
    }
    std::size_t endCount() const {
        std::size_t n = 0;
        for (const auto &entry : ends)
            n += entry.second.size();
        return n;
    }
    std::vector<std::string> events;
    std::vector<std::pair<int, int>> epochs; // (run id, epoch)
    std::map<int, std::vector<RunOutcome>> ends;
    std::map<int, RunRecord> records; // the record each run's end carried
    std::vector<bool> runningAtEnd;
};

TEST(RunSet, OneAfterAnotherEachRunHasItsOwnIdAndEndsBeforeTheNextStarts) {
    RunController controller(FakeTrainer{});
    EventLog log(controller);
    QSignalSpy setAccepted(&controller, &RunController::runSetAccepted);
    const int first =
        controller.startRunSet({fakeRequest(1), fakeRequest(2), fakeRequest(3)}, false);
    EXPECT_EQ(first, 1);
    ASSERT_EQ(setAccepted.count(), 1);
    EXPECT_EQ(setAccepted.at(0).at(0).toInt(), 1);
    EXPECT_EQ(setAccepted.at(0).at(1).toInt(), 3);
    EXPECT_FALSE(setAccepted.at(0).at(2).toBool()) << "one after another";
    EXPECT_TRUE(controller.isRunning());
    EXPECT_EQ(controller.currentJobId(), 1);
    ASSERT_TRUE(waitUntil([&] { return log.endCount() == 3; }));
    waitUntil([] { return false; }, 100); // nothing may follow the last runEnded

    EXPECT_EQ(log.indexOf("accepted 1"), 0);
    EXPECT_EQ(log.indexOf("accepted 3"), 2);
    for (int id = 1; id <= 3; ++id) {
        ASSERT_EQ(log.ends[id].size(), 1U) << "run " << id;
        EXPECT_EQ(log.ends[id].front().status, RunStatus::Finished);
        EXPECT_LT(log.indexOf("record " + std::to_string(id)),
                  log.indexOf("started " + std::to_string(id)));
        EXPECT_FALSE(log.records[id].runId.empty()) << "the end carries the record as written";
    }
    EXPECT_LT(log.indexOf("ended 1"), log.indexOf("started 2"));
    EXPECT_LT(log.indexOf("ended 2"), log.indexOf("started 3"));
    EXPECT_EQ(log.runningAtEnd, (std::vector<bool>{true, true, false}))
        << "running until the last run of the set ended";
    EXPECT_FALSE(controller.isRunning());
    EXPECT_EQ(controller.currentJobId(), 0);
}

TEST(RunSet, EachRunOfTheSetIsTrainedWithItsOwnSettings) {
    std::vector<int> threads;
    RunController controller([&threads](const RunConfig &config, TrainingObserver &observer,
                                        const std::atomic<bool> &stop) {
        threads.push_back(config.threads); // on the worker; read after the set ended
        return FakeTrainer{}(config, observer, stop);
    });
    QSignalSpy ended(&controller, &RunController::runEnded);
    ASSERT_EQ(controller.startRunSet({fakeRequest(1), fakeRequest(2)}, false), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 2; }));
    EXPECT_EQ(threads, (std::vector<int>{1, 2}));
}

TEST(RunSet, IdsAreReservedConsecutivelyAfterEarlierRuns) {
    RunController controller(FakeTrainer{});
    QSignalSpy ended(&controller, &RunController::runEnded);
    QSignalSpy accepted(&controller, &RunController::runAccepted);
    ASSERT_EQ(controller.startRun(fakeRequest(1)), 1);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 1; }));
    ASSERT_EQ(controller.startRunSet({fakeRequest(1), fakeRequest(2)}, false), 2);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 3; }));
    EXPECT_EQ(controller.startRun(fakeRequest(1)), 4);
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 4; }));
    ASSERT_EQ(accepted.count(), 4);
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(accepted.at(i).at(0).toInt(), i + 1);
    EXPECT_EQ(ended.at(1).at(0).toInt(), 2);
    EXPECT_EQ(ended.at(2).at(0).toInt(), 3);
}

TEST(RunSet, StoppingASetOneAfterAnotherCancelsTheRunGoingAndThoseNotStarted) {
    FakeTrainer fake;
    fake.untilStopped = true;
    std::atomic<int> calls{0};
    fake.calls = &calls;
    RunController controller(fake);
    EventLog log(controller);
    QSignalSpy started(&controller, &RunController::runStarted);
    controller.startRunSet({fakeRequest(1), fakeRequest(2), fakeRequest(3)}, false);
    ASSERT_TRUE(waitUntil([&] { return started.count() == 1; }));
    controller.stop();
    ASSERT_TRUE(waitUntil([&] { return log.endCount() == 3; }, 3000));
    waitUntil([] { return false; }, 100);
    EXPECT_EQ(calls.load(), 1) << "the runs after the stopped one never start";
    for (int id = 1; id <= 3; ++id) {
        ASSERT_EQ(log.ends[id].size(), 1U) << "run " << id;
        EXPECT_EQ(log.ends[id].front().status, RunStatus::Cancelled) << "run " << id;
    }
    EXPECT_EQ(log.ends[2].front().reason, "the run set was stopped before this run started");
    EXPECT_EQ(log.indexOf("record 2"), -1);
    EXPECT_TRUE(log.records[2].runId.empty()) << "a run never started has no record";
    EXPECT_FALSE(log.records[1].runId.empty()) << "the stopped run keeps its record";
    EXPECT_FALSE(controller.isRunning());
}

TEST(RunSet, ABadRequestRefusesTheWholeSetWithItsMessages) {
    std::atomic<int> calls{0};
    FakeTrainer fake;
    fake.calls = &calls;
    RunController controller(fake);
    RunRequest bad = fakeRequest(2);
    bad.config.batchSize = 0;
    QSignalSpy accepted(&controller, &RunController::runAccepted);
    QSignalSpy setAccepted(&controller, &RunController::runSetAccepted);
    QSignalSpy rejected(&controller, &RunController::runRejected);
    EXPECT_EQ(controller.startRunSet({fakeRequest(1), bad}, true), 0);
    ASSERT_EQ(rejected.count(), 1);
    QStringList expected;
    for (const std::string &message : checkRunRequest(bad))
        expected.append(QStringLiteral("run 2 (cpu): ") + QString::fromStdString(message));
    ASSERT_FALSE(expected.isEmpty());
    EXPECT_EQ(rejected.at(0).at(0).toStringList(), expected);
    EXPECT_EQ(accepted.count(), 0);
    EXPECT_EQ(setAccepted.count(), 0);
    EXPECT_FALSE(controller.isRunning());
    waitUntil([] { return false; }, 50);
    EXPECT_EQ(calls.load(), 0);
}

TEST(RunSet, AnEmptySetOrOneWhileARunIsGoingIsRefused) {
    FakeTrainer fake;
    fake.untilStopped = true;
    RunController controller(fake);
    QSignalSpy rejected(&controller, &RunController::runRejected);
    QSignalSpy ended(&controller, &RunController::runEnded);
    EXPECT_EQ(controller.startRunSet({}, true), 0);
    ASSERT_EQ(rejected.count(), 1);
    EXPECT_EQ(rejected.at(0).at(0).toStringList(),
              QStringList{QStringLiteral("A run set needs at least one run.")});
    ASSERT_EQ(controller.startRunSet({fakeRequest(1), fakeRequest(2)}, false), 1);
    EXPECT_EQ(controller.startRun(fakeRequest(1)), 0);
    EXPECT_EQ(controller.startRunSet({fakeRequest(1)}, false), 0);
    EXPECT_EQ(rejected.count(), 3);
    controller.stop();
    ASSERT_TRUE(waitUntil([&] { return ended.count() == 2; }));
}

TEST(RunSet, WithoutAWorkerThreadEveryRunOfTheSetEndsFailed) {
    RunController controller(FakeTrainer{}, nullptr, [](std::function<void()>) -> std::thread {
        throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                                "Resource temporarily unavailable");
    });
    EventLog log(controller);
    ASSERT_EQ(controller.startRunSet({fakeRequest(1), fakeRequest(2)}, false), 1);
    ASSERT_TRUE(waitUntil([&] { return log.endCount() == 2; }));
    for (int id = 1; id <= 2; ++id) {
        ASSERT_EQ(log.ends[id].size(), 1U);
        EXPECT_EQ(log.ends[id].front().status, RunStatus::Failed);
        EXPECT_EQ(log.ends[id].front().reason.rfind("the run could not start: ", 0), 0U);
    }
    EXPECT_FALSE(controller.isRunning());
}

TEST(RunSet, AnInterleavedSetsEpochsAlternateAndEveryRunEndsOnce) {
    RunController controller;
    EventLog log(controller);
    QSignalSpy setAccepted(&controller, &RunController::runSetAccepted);
    ASSERT_EQ(controller.startRunSet({tinyRealRequest(), tinyRealRequest()}, true), 1);
    ASSERT_EQ(setAccepted.count(), 1);
    EXPECT_TRUE(setAccepted.at(0).at(2).toBool());
    ASSERT_TRUE(waitUntil([&] { return log.endCount() == 2; }, 120000));
    waitUntil([] { return false; }, 100);
    const std::vector<std::pair<int, int>> alternating = {{1, 1}, {2, 1}, {1, 2}, {2, 2}};
    EXPECT_EQ(log.epochs, alternating);
    for (int id = 1; id <= 2; ++id) {
        ASSERT_EQ(log.ends[id].size(), 1U) << "run " << id;
        EXPECT_EQ(log.ends[id].front().status, RunStatus::Finished) << log.ends[id].front().reason;
        EXPECT_EQ(log.ends[id].front().epochs.size(), 2U);
        EXPECT_FALSE(log.records[id].runId.empty()) << "the end carries the record as written";
    }
    EXPECT_EQ(log.runningAtEnd, (std::vector<bool>{true, false}));
    EXPECT_FALSE(controller.isRunning());
}

TEST(RunSet, StoppingAnInterleavedSetEndsEveryRunCancelledOnce) {
    RunController controller;
    EventLog log(controller);
    ASSERT_EQ(controller.startRunSet({tinyRealRequest(200), tinyRealRequest(200)}, true), 1);
    ASSERT_TRUE(waitUntil([&] { return !log.epochs.empty(); }, 120000));
    controller.stop();
    ASSERT_TRUE(waitUntil([&] { return log.endCount() == 2; }, 60000));
    waitUntil([] { return false; }, 100);
    for (int id = 1; id <= 2; ++id) {
        ASSERT_EQ(log.ends[id].size(), 1U) << "run " << id;
        EXPECT_EQ(log.ends[id].front().status, RunStatus::Cancelled) << "run " << id;
    }
    EXPECT_FALSE(controller.isRunning());
}

} // namespace
} // namespace devicebench
