// SPDX-License-Identifier: MIT
// Child runs (child_run.h, run_events.h): a child's event lines become the observer's events
// in order; a child that dies, writes what is not an event, cannot start or ignores a stop
// still ends the run, keeping its epochs; children take turns through EpochTurns. The
// children here are small shell scripts that print event lines made by the engine itself.
#include "cifar_files.h"

#include "devicebench/child_run.h"
#include "devicebench/run_events.h"
#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using devicebench::testing::TempDir;

namespace devicebench {
namespace {

RunStarted startedOf() {
    RunStarted s;
    s.device = "cpu";
    s.deviceName = "CPU";
    s.threads = 1;
    s.trainImages = 128;
    s.testImages = 64;
    s.stepsPerEpoch = 2;
    s.dataDescription = "synthetic data (accuracy is meaningless)";
    s.synthetic = true;
    return s;
}

EpochResult epochOf(int n) {
    EpochResult e;
    e.epoch = n;
    e.seconds = 0.5 * n;
    e.warmup = n == 1;
    e.trainLoss = 2.3 - 0.1 * n;
    e.testLoss = 2.31 - 0.1 * n;
    e.testAccuracy = 0.1 * n;
    e.imagesPerSecond = 192.0 / e.seconds;
    return e;
}

// `echo` of a line, quoted for sh.
std::string echo(const std::string &line) {
    std::string quoted;
    for (char c : line)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return "echo '" + quoted + "'\n";
}

ChildProgram script(const TempDir &dir, const std::string &name, const std::string &body) {
    const std::string path = (dir.path() / name).string();
    std::ofstream(path) << "#!/bin/sh\n" << body;
    return {{"/bin/sh", path}, name};
}

std::string runThrough(int epochs) {
    std::string body = echo(startedEventLine(startedOf(), nullptr));
    for (int e = 1; e <= epochs; ++e) {
        body += echo(stepsEventLine({{e, 2 * e - 1, 2.3, 0.0}, {e, 2 * e, 2.2, 0.0}}));
        body += echo(epochEventLine(epochOf(e)));
    }
    return body;
}

// Every event, as text, in order.
class Log : public TrainingObserver {
public:
    void onRunStarted(const RunStarted &info) override {
        events.push_back("started " + info.device);
    }
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        events.push_back("steps " + std::to_string(losses.size()));
    }
    void onEpochFinished(const EpochResult &epoch) override {
        events.push_back("epoch " + std::to_string(epoch.epoch));
    }
    void onRunEnded(const RunOutcome &outcome) override {
        events.push_back(std::string("ended ") + toString(outcome.status));
    }
    std::vector<std::string> events;
};

RunConfig configOf() {
    RunConfig c;
    c.epochs = 2;
    c.warmupEpochs = 1;
    c.synthetic = true;
    return c;
}

TEST(ChildRun, TellsTheObserverEveryEventInOrder) {
    TempDir dir("devicebench-child");
    const ChildProgram child =
        script(dir, "ok.sh", runThrough(2) + echo(endedEventLine(RunStatus::Finished, "")));
    Log log;
    const std::atomic<bool> stop{false};
    const RunOutcome outcome = runChildTraining(child, configOf(), log, stop);
    EXPECT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    const std::vector<std::string> expected = {"started cpu", "steps 2", "epoch 1",
                                               "steps 2",     "epoch 2", "ended finished"};
    EXPECT_EQ(log.events, expected);
    ASSERT_EQ(outcome.epochs.size(), 2U);
    EXPECT_DOUBLE_EQ(outcome.epochs[1].trainLoss, epochOf(2).trainLoss);
    EXPECT_TRUE(outcome.summary.hasStable);
    EXPECT_DOUBLE_EQ(outcome.summary.stableMean, 1.0);
}

TEST(ChildRun, ADyingChildEndsTheRunFailedWithItsLastMessagesAndKeepsItsEpochs) {
    TempDir dir("devicebench-child");
    const ChildProgram child =
        script(dir, "dies.sh", runThrough(1) + "echo 'out of cheese at step 3' >&2\nexit 3\n");
    Log log;
    const std::atomic<bool> stop{false};
    const RunOutcome outcome = runChildTraining(child, configOf(), log, stop);
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_NE(outcome.reason.find("exited with code 3"), std::string::npos) << outcome.reason;
    EXPECT_NE(outcome.reason.find("out of cheese at step 3"), std::string::npos) << outcome.reason;
    ASSERT_EQ(outcome.epochs.size(), 1U);
    EXPECT_EQ(log.events.back(), "ended failed");
}

TEST(ChildRun, ALineThatIsNotAnEventFailsTheRunNamingTheLine) {
    TempDir dir("devicebench-child");
    const ChildProgram child = script(dir, "chatty.sh",
                                      echo(startedEventLine(startedOf(), nullptr)) +
                                          "echo 'Using device: cpu'\nsleep 30\n");
    Log log;
    const std::atomic<bool> stop{false};
    const auto began = std::chrono::steady_clock::now();
    const RunOutcome outcome = runChildTraining(child, configOf(), log, stop);
    EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(10));
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_NE(outcome.reason.find("event line 2"), std::string::npos) << outcome.reason;
    EXPECT_NE(outcome.reason.find("Using device: cpu"), std::string::npos) << outcome.reason;
}

// Events that parse but that no run can make: the record would be one its own readers refuse.
class ChildRunImpossible : public ::testing::TestWithParam<std::pair<const char *, std::string>> {};

TEST_P(ChildRunImpossible, FailsTheRunNamingWhatIsWrong) {
    TempDir dir("devicebench-child");
    const ChildProgram child = script(dir, "impossible.sh", GetParam().second + "sleep 30\n");
    Log log;
    const std::atomic<bool> stop{false};
    const RunOutcome outcome = runChildTraining(child, configOf(), log, stop);
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_NE(outcome.reason.find("an event no run can make"), std::string::npos) << outcome.reason;
    EXPECT_NE(outcome.reason.find(GetParam().first), std::string::npos) << outcome.reason;
}

EpochResult withSeconds(EpochResult e, double seconds) {
    e.seconds = seconds;
    return e;
}

EpochResult withAccuracy(EpochResult e, double accuracy) {
    e.testAccuracy = accuracy;
    return e;
}

INSTANTIATE_TEST_SUITE_P(
    Events, ChildRunImpossible,
    ::testing::Values(
        std::make_pair("before the started event", echo(epochEventLine(epochOf(1)))),
        std::make_pair("epoch 3 where epoch 2", echo(startedEventLine(startedOf(), nullptr)) +
                                                    echo(epochEventLine(epochOf(1))) +
                                                    echo(epochEventLine(epochOf(3)))),
        std::make_pair("took no time", echo(startedEventLine(startedOf(), nullptr)) +
                                           echo(epochEventLine(withSeconds(epochOf(1), -3.0)))),
        std::make_pair("outside 0-1", echo(startedEventLine(startedOf(), nullptr)) +
                                          echo(epochEventLine(withAccuracy(epochOf(1), 5.0)))),
        std::make_pair("finished after 1 of", echo(startedEventLine(startedOf(), nullptr)) +
                                                  echo(epochEventLine(epochOf(1))) +
                                                  echo(endedEventLine(RunStatus::Finished, "")))));

TEST(ChildRun, StopEndsAChildThatIgnoresSigtermWithinASecondAndAHalf) {
    TempDir dir("devicebench-child");
    const ChildProgram child =
        script(dir, "stubborn.sh",
               "trap '' TERM\n" + echo(startedEventLine(startedOf(), nullptr)) + "sleep 30\n");
    Log log;
    std::atomic<bool> stop{false};
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        stop = true;
    });
    const auto began = std::chrono::steady_clock::now();
    const RunOutcome outcome = runChildTraining(child, configOf(), log, stop);
    const auto took = std::chrono::steady_clock::now() - began;
    stopper.join();
    EXPECT_LT(took, std::chrono::milliseconds(300 + 1500));
    EXPECT_EQ(outcome.status, RunStatus::Cancelled) << outcome.reason;
    EXPECT_EQ(log.events.front(), "started cpu");
}

TEST(ChildRun, AProgramThatCannotStartFailsTheRunNamingIt) {
    Log log;
    const std::atomic<bool> stop{false};
    const RunOutcome outcome =
        runChildTraining({{"/nonexistent/devicebench-child"}, "x"}, configOf(), log, stop);
    EXPECT_EQ(outcome.status, RunStatus::Failed);
    EXPECT_NE(outcome.reason.find("cannot start /nonexistent/devicebench-child"), std::string::npos)
        << outcome.reason;
    EXPECT_EQ(log.events, std::vector<std::string>{"ended failed"});
}

// A child that takes turns: it waits for "take" before its set-up and each epoch.
std::string turnTaker(int epochs) {
    std::string body =
        "read t\n" + echo(startedEventLine(startedOf(), nullptr)) + echo(passEventLine());
    for (int e = 1; e <= epochs; ++e) {
        body += "read t\n" + echo(epochEventLine(epochOf(e)));
        body += e < epochs ? echo(passEventLine()) : "";
    }
    return body + echo(endedEventLine(RunStatus::Finished, ""));
}

// Events of several runs, in the one order they happened.
class SharedLog : public TrainingObserver {
public:
    SharedLog(std::vector<std::string> &events, std::mutex &mutex, std::string seat)
        : m_events(events), m_mutex(mutex), m_seat(std::move(seat)) {}
    void onRunStarted(const RunStarted &) override { add("started"); }
    void onEpochFinished(const EpochResult &e) override { add("epoch " + std::to_string(e.epoch)); }
    void onRunEnded(const RunOutcome &) override { add("ended"); }

private:
    void add(const std::string &what) {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_events.push_back(m_seat + " " + what);
    }
    std::vector<std::string> &m_events;
    std::mutex &m_mutex;
    std::string m_seat;
};

TEST(ChildRun, ChildrenTakeTurnsEpochByEpoch) {
    TempDir dir("devicebench-child");
    const ChildProgram a = script(dir, "a.sh", turnTaker(2));
    const ChildProgram b = script(dir, "b.sh", turnTaker(2));
    EpochTurns turns(2);
    std::vector<std::string> events;
    std::mutex mutex;
    const std::atomic<bool> stop{false};
    std::thread second([&] {
        SharedLog log(events, mutex, "B");
        SeatGate gate(turns, 1);
        runChildTraining(b, configOf(), log, stop, &gate);
    });
    {
        SharedLog log(events, mutex, "A");
        SeatGate gate(turns, 0);
        runChildTraining(a, configOf(), log, stop, &gate);
    }
    second.join();
    const std::vector<std::string> expected = {"A started", "B started", "A epoch 1", "B epoch 1",
                                               "A epoch 2", "A ended",   "B epoch 2", "B ended"};
    EXPECT_EQ(events, expected);
}

TEST(RunEvents, StartedEpochAndStepsReadBackAsWritten) {
    RunStarted started = startedOf();
    started.canary.measured = true;
    started.canary.seconds = 0.0142;
    started.canary.runThreadsSeconds = 0.0081;
    started.canary.noise = 0.004;
    const RunEvent s = parseRunEvent(startedEventLine(started, nullptr), configOf(), "t");
    EXPECT_EQ(s.kind, RunEventKind::Started);
    EXPECT_EQ(s.started.stepsPerEpoch, 2);
    EXPECT_DOUBLE_EQ(s.started.canary.runThreadsSeconds, 0.0081);
    EXPECT_FALSE(s.fingerprint.has_value());

    EpochResult epoch = epochOf(3);
    epoch.trainLoss = std::numeric_limits<double>::quiet_NaN(); // a diverged epoch
    epoch.startedUnixSeconds = 1764590000.25;
    const RunEvent e = parseRunEvent(epochEventLine(epoch), configOf(), "t");
    EXPECT_EQ(e.kind, RunEventKind::Epoch);
    EXPECT_TRUE(std::isnan(e.epoch.trainLoss));
    EXPECT_DOUBLE_EQ(e.epoch.startedUnixSeconds, 1764590000.25);
    EXPECT_DOUBLE_EQ(e.epoch.testAccuracy, 0.3);

    const RunEvent steps = parseRunEvent(stepsEventLine({{1, 7, 2.25, 0.0}}), configOf(), "t");
    ASSERT_EQ(steps.steps.size(), 1U);
    EXPECT_EQ(steps.steps[0].step, 7);
    EXPECT_DOUBLE_EQ(steps.steps[0].loss, 2.25);

    const RunEvent end =
        parseRunEvent(endedEventLine(RunStatus::Diverged, "loss nan"), configOf(), "t");
    EXPECT_EQ(end.status, RunStatus::Diverged);
    EXPECT_EQ(end.reason, "loss nan");
}

TEST(RunEvents, AConfigReadsBackWithEverySetting) {
    RunConfig c;
    c.device = "cuda:1";
    c.epochs = 7;
    c.batchSize = 128;
    c.learningRate = 0.05;
    c.warmupEpochs = 3;
    c.threads = 4;
    c.seed = 42;
    c.dataDir = "/data/it's here";
    c.trainImages = 5000;
    c.testImages = 1000;
    c.lossFetchInterval = 10;
    c.workload = Workload::Tuned;
    c.dataOnDevice = true;
    c.model = "resnet18";
    c.imageSize = 64;
    c.phases = true;
    c.precision = Precision::BFloat16;
    c.tf32 = Tf32::On;
    const RunConfig back = parseRunConfigJson(runConfigJson(c), "t");
    EXPECT_EQ(back.device, c.device);
    EXPECT_EQ(back.epochs, 7);
    EXPECT_EQ(back.batchSize, 128);
    EXPECT_DOUBLE_EQ(back.learningRate, 0.05);
    EXPECT_EQ(back.warmupEpochs, 3);
    EXPECT_EQ(back.threads, 4);
    EXPECT_EQ(back.seed, 42U);
    EXPECT_EQ(back.dataDir, c.dataDir);
    EXPECT_EQ(back.trainImages, 5000);
    EXPECT_EQ(back.testImages, 1000);
    EXPECT_EQ(back.lossFetchInterval, 10);
    EXPECT_EQ(back.workload, Workload::Tuned);
    EXPECT_TRUE(back.dataOnDevice);
    EXPECT_EQ(back.model, "resnet18");
    EXPECT_EQ(back.imageSize, 64);
    EXPECT_TRUE(back.phases);
    EXPECT_EQ(back.precision, Precision::BFloat16);
    EXPECT_EQ(back.tf32, Tf32::On);
}

TEST(RunEvents, ABadLineIsRefusedNamingTheSourceAndTheField) {
    const auto message = [](const std::string &line) {
        try {
            parseRunEvent(line, configOf(), "child run (x): event line 4");
        } catch (const RecordError &e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message("training...").find("event line 4 is not JSON"), std::string::npos);
    EXPECT_NE(message(R"({"event":"epoch","epoch":{"epoch":1}})").find("'epoch.seconds'"),
              std::string::npos)
        << message(R"({"event":"epoch","epoch":{"epoch":1}})");
    EXPECT_NE(message(R"({"event":"paused"})").find("got 'paused'"), std::string::npos);
    EXPECT_NE(message(R"({"event":"ended","status":"running","reason":""})").find("'status'"),
              std::string::npos);
}

} // namespace
} // namespace devicebench
