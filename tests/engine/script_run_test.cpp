// SPDX-License-Identifier: MIT
// A user's script as a workload (script_run.h): a recorded run of it is a child Python process
// that speaks through DeviceBench's module on a channel of its own; its record says what ran
// (the script, its hash, its arguments, its Python) with a canary and a load per epoch. Every
// bad script ends clearly, keeping what it finished: a missing file and one that is not Python
// are refused before any run; an exception, silence past the start time, nonsense on the
// channel, a SIGTERM ignored and forked workers each end the run as their test says. The
// scripts are written by each test; the Python is the one CMake found with torch
// (DEVICEBENCH_TEST_PYTHON overrides it); without one, the tests that need it skip.
#include "cifar_files.h"
#include "python_test_support.h"

#include "devicebench/article_script.h"
#include "devicebench/comparison.h"
#include "devicebench/interleaved_run.h"
#include "devicebench/recorded_run.h"
#include "devicebench/resource_files.h"
#include "devicebench/run_record.h"
#include "devicebench/script_run.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using devicebench::testing::TempDir;

namespace devicebench {
namespace {

using Clock = std::chrono::steady_clock;

std::string testPython() { return devicebench::testing::testPythonOr(DEVICEBENCH_TEST_PYTHON); }

// Three epochs of four steps; the arguments name the model; a print that looks like an event.
constexpr const char *kSteadyScript = R"(import sys, torch
import devicebench
print('{"event": "epoch", "epoch": {}}')
run = devicebench.run(model=sys.argv[1], batch_size=8)
for epoch in run.epochs(3):
    for step in range(4):
        run.step(torch.tensor(1.0 / (step + 1)))
        print("progress", step, end="\r")
    run.test(loss=0.5, accuracy=0.25)
)";

class ScriptRun : public ::testing::Test {
protected:
    void SetUp() override {
        setenv(kResourcesVariable, DEVICEBENCH_SOURCE_RESOURCES, 1);
        m_config.workload = Workload::Script;
        m_config.python = testPython();
        m_config.epochs = 3;
        m_config.warmupEpochs = 1;
        m_config.threads = 1;
        m_config.lossFetchInterval = 3;
    }
    void TearDown() override { unsetenv(kResourcesVariable); }

    // Writes `text` as the test's script (NAME in the test's folder) and points the run at it.
    std::string script(const std::string &text, const std::string &name = "train.py") {
        const std::string path = (m_dir.path() / name).string();
        std::ofstream(path) << text;
        m_config.script = path;
        return path;
    }
    RecordedRun run(const std::atomic<bool> &stop, RecordObserver *observer = nullptr) {
        RunRequest request;
        request.config = m_config;
        return runRecorded(request, observer, stop);
    }
    // "" when the test Python can run a script; else why not (the test skips).
    // Asked once per process: each check imports torch (seconds).
    std::string unusable() {
        static const std::string why = [this] {
            RunConfig probe = m_config;
            probe.script = script("import torch\n", "probe.py");
            return checkScriptRun(probe);
        }();
        return why;
    }

    TempDir m_dir{"devicebench-script-run"};
    RunConfig m_config;
};

#define SKIP_WITHOUT_TORCH()                                                                       \
    if (const std::string why = unusable(); !why.empty())                                          \
    GTEST_SKIP() << "no Python with torch for a script run: " << why

// Whether process `pid` no longer runs within two seconds. A killed orphan stays a zombie until
// init reaps it, and a container's init may reap late or never: a zombie runs nothing, so it
// counts as gone (kill(pid, 0) alone would still find it).
bool goneSoon(int pid) {
    const std::string stat = "/proc/" + std::to_string(pid) + "/stat";
    for (int i = 0; i < 100; ++i) {
        std::ifstream in(stat);
        std::string text;
        if (!in || !std::getline(in, text))
            return true;
        // "PID (COMMAND) STATE ...": the command may hold spaces and parentheses.
        const std::size_t close = text.rfind(')');
        if (close != std::string::npos && close + 2 < text.size() &&
            (text[close + 2] == 'Z' || text[close + 2] == 'X'))
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

using devicebench::testing::AfterFirstEpoch;

TEST_F(ScriptRun, RecordSaysWhatRanWithEveryStepACanaryAndALoadPerEpoch) {
    SKIP_WITHOUT_TORCH();
    const std::string path = script(kSteadyScript);
    m_config.scriptArgs = {"my-model"};
    std::atomic<bool> stop{false};
    const RecordedRun r = run(stop);
    ASSERT_EQ(r.outcome.status, RunStatus::Finished) << r.outcome.reason;
    const RunRecord &record = r.record;
    EXPECT_EQ(record.workload, "script");
    EXPECT_EQ(record.model, "my-model");
    EXPECT_EQ(record.config.script, path);
    EXPECT_EQ(record.config.scriptArgs, std::vector<std::string>{"my-model"});
    EXPECT_EQ(record.config.scriptHash, fileContentHash(path));
    EXPECT_EQ(record.config.scriptHash.rfind(kDataHashPrefix, 0), 0u);
    EXPECT_EQ(record.started.batchSize, 8);
    EXPECT_EQ(record.data.variant, "script");
    ASSERT_EQ(record.epochs.size(), 3u);
    ASSERT_EQ(record.steps.size(), 12u);
    EXPECT_NEAR(record.steps[1].loss, 0.5, 1e-6);
    EXPECT_NEAR(record.epochs[0].testAccuracy, 0.25, 1e-12);
    EXPECT_TRUE(record.started.canary.measured);
    for (const EpochResult &e : record.epochs) {
        EXPECT_TRUE(e.canary.measured) << "epoch " << e.epoch;
        EXPECT_TRUE(e.load.measured) << "epoch " << e.epoch;
    }
    EXPECT_TRUE(record.sampling.sampled);
    ASSERT_TRUE(record.fingerprint.python.has_value());
    EXPECT_FALSE(record.fingerprint.python->torch.empty());
    EXPECT_EQ(record.fingerprint.intraOpThreads, 1);
    // Through the file format and back; comparable with itself, not with other arguments.
    const RunRecord back = parseRunRecord(toJson(record), "script record");
    EXPECT_EQ(back.config.scriptHash, record.config.scriptHash);
    EXPECT_EQ(back.config.scriptArgs, record.config.scriptArgs);
    EXPECT_EQ(back.started.batchSize, 8);
    EXPECT_TRUE(workloadDifferences(record, back).empty());
    RunRecord other = back;
    other.config.scriptArgs = {"another-model"};
    EXPECT_EQ(workloadDifferences(record, other), std::vector<std::string>{"script arguments"});
}

// A script as many are written (tests/support/wrapped_tiny_net.py says how).
std::string wrappedScript() {
    std::ifstream in(std::string(DEVICEBENCH_SOURCE_RESOURCES) +
                     "/../tests/support/wrapped_tiny_net.py");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST_F(ScriptRun, ItsModelBatchAndRateAreTheScriptsAndItsStepsAndImagesAreCounted) {
    SKIP_WITHOUT_TORCH();
    script(wrappedScript());
    std::atomic<bool> stop{false};
    const RecordedRun r = run(stop); // the request holds batch size 64 and rate 0.01
    ASSERT_EQ(r.outcome.status, RunStatus::Finished) << r.outcome.reason;
    const RunRecord &record = r.record;
    EXPECT_EQ(record.model, "TinyNet") << "what DataParallel wraps";
    EXPECT_EQ(record.started.modelWrapper, "DataParallel");
    EXPECT_EQ(record.started.modelParameters, 10);
    EXPECT_EQ(record.config.batchSize, 8);
    EXPECT_DOUBLE_EQ(record.config.learningRate, 0.05);
    EXPECT_EQ(record.started.stepsPerEpoch, 3);
    EXPECT_EQ(record.started.trainImages, 20) << "8 + 8 + 4, not 3 x 8";
    for (const EpochResult &e : record.epochs) {
        EXPECT_EQ(e.steps, 3) << "epoch " << e.epoch;
        EXPECT_EQ(e.trainImages, 20) << "epoch " << e.epoch;
        EXPECT_NEAR(e.imagesPerSecond, 20.0 / e.seconds, 1e-6 * e.imagesPerSecond);
    }
    EXPECT_NEAR(r.outcome.summary.imagesPerSecond, 20.0 / r.outcome.summary.stableMean, 1e-6);
    EXPECT_NE(runLabel(record).find("train.py: TinyNet in DataParallel"), std::string::npos)
        << runLabel(record);
}

TEST_F(ScriptRun, WhatAScriptDoesNotStateIsNotStatedAndItsStepsAreStillCounted) {
    SKIP_WITHOUT_TORCH();
    script(R"(import torch
import devicebench
run = devicebench.run()
for epoch in run.epochs(3):
    for step in range(5):
        run.step(torch.tensor(1.0))
)");
    std::atomic<bool> stop{false};
    const RecordedRun r = run(stop);
    ASSERT_EQ(r.outcome.status, RunStatus::Finished) << r.outcome.reason;
    EXPECT_EQ(r.record.config.batchSize, 0);
    EXPECT_TRUE(std::isnan(r.record.config.learningRate));
    EXPECT_EQ(r.record.started.stepsPerEpoch, 5);
    ASSERT_EQ(r.record.epochs.size(), 3u);
    EXPECT_EQ(r.record.epochs[0].trainImages, -1) << "no images given and no batch size";
    EXPECT_TRUE(std::isnan(r.record.epochs[0].imagesPerSecond));
    const RunRecord back = parseRunRecord(toJson(r.record), "unstated script record");
    EXPECT_EQ(back.epochs[0].trainImages, -1);
    EXPECT_EQ(back.epochs[0].steps, 5);
}

TEST_F(ScriptRun, WithATargetTheLoopEndsAfterTheEpochThatReachesItAsAFinishedRun) {
    SKIP_WITHOUT_TORCH();
    script(kSteadyScript); // accuracy 0.25 every epoch
    m_config.scriptArgs = {"my-model"};
    m_config.targetAccuracy = 25.0;
    std::atomic<bool> stop{false};
    const RecordedRun r = run(stop);
    ASSERT_EQ(r.outcome.status, RunStatus::Finished) << r.outcome.reason;
    ASSERT_EQ(r.record.epochs.size(), 1u);
    const RunRecord back = parseRunRecord(toJson(r.record), "target script record");
    EXPECT_EQ(back.epochs.size(), 1u);
}

TEST_F(ScriptRun, WithATargetAnEpochWithoutAnAccuracyFailsTheRunSayingWhatToCall) {
    SKIP_WITHOUT_TORCH();
    script(R"(import torch
import devicebench
run = devicebench.run(model="m", batch_size=8)
for epoch in run.epochs(3):
    run.step(torch.tensor(1.0))
)");
    m_config.targetAccuracy = 50.0;
    std::atomic<bool> stop{false};
    const RecordedRun r = run(stop);
    EXPECT_EQ(r.outcome.status, RunStatus::Failed);
    EXPECT_NE(r.outcome.reason.find("run.test(accuracy=...)"), std::string::npos)
        << r.outcome.reason;
}

TEST_F(ScriptRun, AMissingScriptIsRefusedNamingTheFile) {
    m_config.script = (m_dir.path() / "no-such-train.py").string();
    const std::vector<std::string> problems = validateRunConfig(m_config);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0], "the training script " + m_config.script + " does not exist");
}

TEST_F(ScriptRun, AFileThatIsNotPythonIsRefusedNamingItAndTheLine) {
    RunRequest request;
    request.config = m_config;
    request.config.script = script("echo this is a shell script\n", "train.sh");
    const std::vector<std::string> problems = checkRunRequest(request);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("the training script " + request.config.script + " is not Python"),
              std::string::npos)
        << problems[0];
    EXPECT_NE(problems[0].find("(line 1)"), std::string::npos) << problems[0];
}

TEST_F(ScriptRun, AnExceptionAtImportFailsTheRunWithTheTracebacksLastLines) {
    SKIP_WITHOUT_TORCH();
    script("import devicebench\nimport no_such_module_for_devicebench\n");
    std::atomic<bool> stop{false};
    const RecordedRun r = run(stop);
    EXPECT_EQ(r.outcome.status, RunStatus::Failed);
    EXPECT_NE(r.record.reason.find("ModuleNotFoundError"), std::string::npos) << r.record.reason;
    EXPECT_NE(r.record.reason.find("line 2"), std::string::npos) << r.record.reason;
}

TEST_F(ScriptRun, AScriptThatNeverUsesTheModuleIsToldSoWithTheLinesToAdd) {
    SKIP_WITHOUT_TORCH();
    script("import sys\nfor epoch in range(2):\n    print('epoch', epoch)\n");
    std::atomic<bool> stop{false};
    const RecordedRun r = run(stop);
    EXPECT_EQ(r.outcome.status, RunStatus::Failed);
    EXPECT_NE(r.record.reason.find("ended without calling devicebench.run()"), std::string::npos)
        << r.record.reason;
    EXPECT_NE(r.record.reason.find("import devicebench"), std::string::npos) << r.record.reason;
    EXPECT_NE(r.record.reason.find("docs/YOUR-SCRIPT.md"), std::string::npos) << r.record.reason;
    EXPECT_EQ(r.record.reason.find("without saying how"), std::string::npos) << r.record.reason;
}

TEST_F(ScriptRun, AnExceptionMidEpochFailsTheRunKeepingTheFinishedEpochs) {
    SKIP_WITHOUT_TORCH();
    script("import devicebench\nrun = devicebench.run()\nfor e in run.epochs(3):\n"
           "    run.step(1.0)\n    if e == 2:\n        raise RuntimeError('out of memory here')\n");
    std::atomic<bool> stop{false};
    const RecordedRun r = run(stop);
    EXPECT_EQ(r.record.status, "failed");
    EXPECT_NE(r.record.reason.find("RuntimeError: out of memory here"), std::string::npos)
        << r.record.reason;
    EXPECT_NE(r.record.reason.find("line 6"), std::string::npos) << r.record.reason;
    EXPECT_EQ(r.record.epochs.size(), 1u);
}

TEST_F(ScriptRun, AScriptThatNeverStartsAnEpochIsKilledAfterItsStartTime) {
    script("import os, time\nwith open(os.environ['PID_FILE'], 'w') as f:\n"
           "    f.write(str(os.getpid()))\ntime.sleep(60)\n");
    m_config.scriptStartSeconds = 1;
    const std::string pidFile = (m_dir.path() / "pid").string();
    setenv("PID_FILE", pidFile.c_str(), 1);
    std::atomic<bool> stop{false};
    const auto began = Clock::now();
    const RecordedRun r = run(stop);
    unsetenv("PID_FILE");
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - began).count(), 10.0);
    EXPECT_EQ(r.record.status, "failed");
    EXPECT_NE(r.record.reason.find("did not start its first epoch within 1 s"), std::string::npos)
        << r.record.reason;
    int pid = 0;
    std::ifstream(pidFile) >> pid;
    ASSERT_GT(pid, 0);
    EXPECT_TRUE(goneSoon(pid)) << "the script is still running";
}

// Lines written on the channel by hand: the parent refuses what no run can make.
TEST_F(ScriptRun, NonsenseOnTheChannelFailsTheRunNamingIt) {
    const std::string header =
        "import json, os\nfd = int(os.environ['DEVICEBENCH_CHANNEL_FD'])\n"
        "say = lambda e: os.write(fd, (json.dumps(e) + '\\n').encode())\n"
        "say({'event': 'started', 'started': {'device': 'cpu', 'deviceName': 'CPU', "
        "'threads': 1, 'trainImages': 0, 'testImages': 0, 'stepsPerEpoch': 0, "
        "'dataDescription': '', 'synthetic': False}})\n";
    struct Case {
        std::string epoch;
        const char *said;
    };
    auto line = [](int n, const std::string &seconds, const std::string &loss) {
        return "say({'event': 'epoch', 'epoch': {'epoch': " + std::to_string(n) +
               ", 'seconds': " + seconds + ", 'warmup': False, 'trainLoss': " + loss +
               ", 'testLoss': 0.1, 'testAccuracy': 0.5, 'imagesPerSecond': None}})\n";
    };
    const Case cases[] = {{line(1, "-2.0", "1.0"), "epoch 1 took no time or no finite time"},
                          {line(1, "None", "1.0"), "epoch.seconds"},
                          {line(2, "1.0", "1.0"), "epoch 2 where epoch 1 of 3 was due"},
                          {line(1, "1.0", "'two'"), "trainLoss"}};
    for (const Case &c : cases) {
        script(header + c.epoch + "import time; time.sleep(30)\n");
        std::atomic<bool> stop{false};
        const RecordedRun r = run(stop);
        EXPECT_EQ(r.record.status, "failed") << c.said;
        EXPECT_NE(r.record.reason.find(c.said), std::string::npos) << r.record.reason;
        EXPECT_TRUE(r.record.epochs.empty()) << c.said;
    }
}

TEST_F(ScriptRun, AScriptThatIgnoresSigtermIsKilledASecondAfterStop) {
    SKIP_WITHOUT_TORCH();
    script("import signal, time, devicebench\nrun = devicebench.run()\n"
           "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
           "for e in run.epochs(3):\n    run.step(1.0)\n"
           "    if e == 2:\n        time.sleep(60)\n");
    std::atomic<bool> stop{false};
    Clock::time_point stopped{};
    AfterFirstEpoch stopper([&] {
        stopped = Clock::now();
        stop = true;
    });
    const RecordedRun r = run(stop, &stopper);
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - stopped).count(), 3.0);
    EXPECT_EQ(r.record.status, "cancelled") << r.record.reason;
    EXPECT_EQ(r.record.epochs.size(), 1u);
}

// DataLoader workers burn 0.2 s of CPU per image, 8 images an epoch, while the script waits
// for them: the epoch's CPU is theirs. Stop after epoch 1 stops the whole group.
TEST_F(ScriptRun, ForkedWorkersCpuIsTheEpochsAndStopEndsTheWholeGroup) {
    SKIP_WITHOUT_TORCH();
    script(R"(import os, time, torch, devicebench
class Busy(torch.utils.data.Dataset):
    def __len__(self): return 8
    def __getitem__(self, i):
        with open(os.environ['PIDS'], 'a') as f: f.write('%d\n' % os.getpid())
        end = time.process_time() + 0.2
        while time.process_time() < end: pass
        return torch.tensor(float(i))
run = devicebench.run()
for e in run.epochs(3):
    for x in torch.utils.data.DataLoader(Busy(), batch_size=1, num_workers=2):
        run.step(x.sum())
)");
    const std::string pids = (m_dir.path() / "pids").string();
    setenv("PIDS", pids.c_str(), 1);
    std::atomic<bool> stop{false};
    AfterFirstEpoch stopper([&] { stop = true; });
    const RecordedRun r = run(stop, &stopper);
    unsetenv("PIDS");
    EXPECT_EQ(r.record.status, "cancelled") << r.record.reason;
    ASSERT_GE(r.record.epochs.size(), 1u);
    const EpochLoad &load = r.record.epochs[0].load;
    ASSERT_TRUE(load.measured);
    EXPECT_GT(load.cpuSeconds, 1.2) << "the workers' 1.6 s of CPU";
    std::ifstream in(pids);
    int workers = 0;
    for (int pid = 0; in >> pid; ++workers)
        EXPECT_TRUE(goneSoon(pid)) << "worker " << pid << " is still running";
    EXPECT_GT(workers, 0);
}

TEST_F(ScriptRun, InterleavedWithAnEngineRunTheEpochsAlternate) {
    SKIP_WITHOUT_TORCH();
    script(kSteadyScript);
    m_config.scriptArgs = {"m"};
    m_config.epochs = 2;
    RunRequest mine;
    mine.config = m_config;
    RunRequest engine;
    engine.config.synthetic = true;
    engine.config.trainImages = 128;
    engine.config.testImages = 64;
    engine.config.epochs = 2;
    engine.config.warmupEpochs = 1;
    engine.config.threads = 1;
    std::atomic<bool> stop{false};
    const std::vector<RecordedRun> runs = runRecordedInterleaved({mine, engine}, {}, stop);
    ASSERT_EQ(runs.size(), 2u);
    ASSERT_EQ(runs[0].outcome.status, RunStatus::Finished) << runs[0].outcome.reason;
    ASSERT_EQ(runs[1].outcome.status, RunStatus::Finished) << runs[1].outcome.reason;
    const auto &a = runs[0].record.epochs;
    const auto &b = runs[1].record.epochs;
    ASSERT_EQ(a.size(), 2u);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_LT(a[0].startedUnixSeconds, b[0].startedUnixSeconds);
    EXPECT_LT(b[0].startedUnixSeconds, a[1].startedUnixSeconds);
    EXPECT_LT(a[1].startedUnixSeconds, b[1].startedUnixSeconds);
}

} // namespace
} // namespace devicebench
