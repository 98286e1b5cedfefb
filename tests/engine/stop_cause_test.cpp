// SPDX-License-Identifier: MIT
// Why a run was asked to stop (stop_cause.h): "the user" for Ctrl-C and the Stop button, the
// signal and its meaning for the others, the first one noted kept; and a trainer's reason says it.
#include "devicebench/stop_cause.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <string>
#include <utility>

namespace devicebench {
namespace {

class StopCause : public ::testing::Test {
protected:
    void TearDown() override { clearStopCause(); }
};

TEST_F(StopCause, IsTheUserUntilASignalIsNotedAndCtrlCIsTheUserToo) {
    EXPECT_EQ(stopCause(), "the user");
    noteStopSignal(SIGINT);
    EXPECT_EQ(stopCause(), "the user");
}

TEST_F(StopCause, NamesEachSignalThatEndsAProgramWithWhatItMeans) {
    const std::pair<int, std::string> expected[] = {
        {SIGTERM, "SIGTERM (asked to end)"},
        {SIGHUP, "SIGHUP (the terminal closed)"},
        {SIGQUIT, "SIGQUIT (Ctrl-\\)"},
        {SIGPIPE, "SIGPIPE (the output pipe closed)"},
        {SIGUSR1, "signal " + std::to_string(SIGUSR1)},
    };
    for (const auto &[signal, cause] : expected) {
        clearStopCause();
        noteStopSignal(signal);
        EXPECT_EQ(stopCause(), cause);
    }
}

TEST_F(StopCause, TheFirstSignalNotedStays) {
    noteStopSignal(SIGHUP);
    noteStopSignal(SIGTERM); // the program's own stop of its children, after the terminal closed
    EXPECT_EQ(stopCause(), "SIGHUP (the terminal closed)");
    EXPECT_EQ(signalName(SIGQUIT), "SIGQUIT");
}

TEST_F(StopCause, ARunStoppedAfterASignalSaysWhichInItsReason) {
    noteStopSignal(SIGHUP);
    RunConfig config;
    config.synthetic = true;
    config.epochs = 2;
    config.warmupEpochs = 1;
    config.trainImages = 64;
    config.testImages = 16;
    config.threads = 1;
    std::atomic<bool> stop{true}; // asked before the first step
    struct : TrainingObserver {
        void onRunEnded(const RunOutcome & /*outcome*/) override {}
    } observer;
    const RunOutcome outcome = runTraining(config, observer, stop);
    EXPECT_EQ(outcome.status, RunStatus::Cancelled);
    EXPECT_NE(outcome.reason.find("stopped by SIGHUP (the terminal closed)"), std::string::npos)
        << outcome.reason;
}

} // namespace
} // namespace devicebench
