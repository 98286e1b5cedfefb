// SPDX-License-Identifier: MIT
// A busy machine, end to end: a short CLI run pinned to one CPU (taskset) with one
// thread, beside a busy loop pinned to the same CPU, must flag its stable epochs "contended" in
// the record, on its epoch lines and in its summary; `compare` warns about such a record.
// Nothing here asserts a
// speed: the busy loop takes about half of the CPU whatever else the machine runs, and other
// work on the machine can only lower the run's share further. The other side of the rule
// (an epoch that had its CPUs is not flagged) is tested with fixed numbers in
// tests/engine/contention_test.cpp, because on a shared CI machine other builds may
// legitimately contend a run that has no busy loop beside it.
#include "cifar_files.h"
#include "process_support.h"

#include "devicebench/contention.h"
#include "devicebench/run_record.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <string>
#include <vector>

using devicebench::testing::ProgramResult;
using devicebench::testing::ProgramSetup;
using devicebench::testing::TempDir;

namespace devicebench {
namespace {

// A child process that spins on CPU `cpu` until it is killed.
class BusyLoop {
public:
    explicit BusyLoop(int cpu) {
        m_pid = ::fork();
        if (m_pid == 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(static_cast<std::size_t>(cpu), &set);
            ::sched_setaffinity(0, sizeof set, &set);
            volatile unsigned long spins = 0;
            for (;;)
                spins = spins + 1;
        }
    }
    ~BusyLoop() {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    BusyLoop(const BusyLoop &) = delete;
    BusyLoop &operator=(const BusyLoop &) = delete;
    bool started() const { return m_pid > 0; }

private:
    pid_t m_pid = -1;
};

// The run beside the busy loop: its record, its epoch lines and its summary (one run: it takes
// a few seconds).
TEST(BusyMachine, ARunBesideABusyLoopOnItsCpuIsFlaggedContendedInRecordEpochLinesAndSummary) {
    TempDir dir("devicebench-busy");
    const std::string path = (dir.path() / "busy.json").string();
    const std::vector<int> cpus = allowedCpus();
    ASSERT_FALSE(cpus.empty());
    const int cpu = cpus.front();
    ProgramResult run;
    {
        BusyLoop loop(cpu);
        ASSERT_TRUE(loop.started());
        ProgramSetup setup;
        setup.prefix = "taskset -c " + std::to_string(cpu) + " ";
        run = devicebench::testing::runProgram(
            DEVICEBENCH_CLI,
            {"run", "--synthetic", "--train-images", "128", "--test-images", "64", "--epochs", "3",
             "--warmup-epochs", "1", "--threads", "1", "--record", path},
            dir.path(), dir.path(), setup);
    }
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;

    const RunRecord record = readRunRecord(path);
    ASSERT_EQ(record.epochs.size(), 3U);
    for (const EpochResult &e : record.epochs) {
        ASSERT_TRUE(e.load.measured) << "epoch " << e.epoch;
        EXPECT_EQ(e.load.cpus, 1) << "taskset -c " << cpu;
        if (e.epoch > 1) {
            EXPECT_TRUE(e.load.contended)
                << "epoch " << e.epoch << ": " << describeLoad(e.load, 1) << "\n"
                << run.out;
        }
    }
    EXPECT_EQ(contendedStableEpochs(record.epochs, 1), (std::vector<int>{2, 3}));

    EXPECT_NE(run.out.find("[CONTENDED: got "), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("  WARNING: 2 of 2 stable epochs (2, 3) ran on a busy machine "
                           "(contended): the stable mean includes time other work took"),
              std::string::npos)
        << run.out;
}

// `compare` reads the flags from the records (here one written by the test: no run needed).
TEST(BusyMachine, CompareWarnsAboutARunWithContendedStableEpochsAndNotAboutAnOldRecord) {
    TempDir dir("devicebench-busy");
    RunRecord busy;
    busy.runId = "20261130T120000Z-host-0badc0de";
    busy.createdUtc = "2026-11-30T12:00:00Z";
    busy.status = "finished";
    busy.config.epochs = 4;
    busy.config.warmupEpochs = 1;
    busy.config.synthetic = true;
    busy.started.device = "cpu";
    busy.started.deviceName = "CPU";
    busy.started.threads = 1;
    busy.started.trainImages = 128;
    busy.started.testImages = 64;
    busy.started.stepsPerEpoch = 2;
    busy.data = {"", "synthetic", 128, 64, ""};
    for (int i = 1; i <= 4; ++i) {
        EpochResult e;
        e.epoch = i;
        e.seconds = i == 3 ? 2.0 : 1.0;
        e.warmup = i == 1;
        e.testAccuracy = 0.1;
        e.imagesPerSecond = 192.0 / e.seconds;
        e.load.measured = true;
        e.load.contended = i == 3;
        e.load.cpuShare = i == 3 ? 0.5 : 0.97;
        e.load.otherCpus = i == 3 ? 0.5 : 0.0;
        e.load.stealFraction = 0.0;
        e.load.cpus = 1;
        busy.epochs.push_back(e);
    }
    // As written by versions before the per-epoch load was measured: no load measured.
    RunRecord old = busy;
    old.runId = "20261130T120000Z-host-0ld0ld00";
    for (EpochResult &e : old.epochs)
        e.load = EpochLoad{};
    const std::string busyPath = (dir.path() / "busy.json").string();
    const std::string oldPath = (dir.path() / "old.json").string();
    writeRunRecord(busyPath, busy);
    writeRunRecord(oldPath, old);

    const ProgramResult text = devicebench::testing::runProgram(
        DEVICEBENCH_CLI, {"compare", busyPath, oldPath}, dir.path(), dir.path());
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("WARNING #1: 1 of 3 stable epochs (3) ran on a busy machine "
                            "(contended)"),
              std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("WARNING #2"), std::string::npos) << text.out;
    const ProgramResult json = devicebench::testing::runProgram(
        DEVICEBENCH_CLI, {"compare", "--json", busyPath, oldPath}, dir.path(), dir.path());
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto document = nlohmann::json::parse(json.out);
    EXPECT_EQ(document["runs"][0]["contendedStableEpochs"], nlohmann::json::array({3}));
    EXPECT_EQ(document["runs"][1]["contendedStableEpochs"], nlohmann::json::array());
}

} // namespace
} // namespace devicebench
