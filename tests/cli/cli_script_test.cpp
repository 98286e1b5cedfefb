// SPDX-License-Identifier: MIT
// `devicebench-cli run --workload script`: a missing script is refused with exit 2 naming it
// and nothing runs; the script options need that workload; a script trained on two thread
// settings, interleaved, gives one record each saying what ran (the script, its hash and
// arguments), comparable with each other. The run needs a Python with torch
// (DEVICEBENCH_TEST_PYTHON overrides CMake's); it skips without one.
#include "devicebench/run_record.h"

#include "cifar_files.h"
#include "process_support.h"
#include "python_test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>

namespace {

using devicebench::testing::namesIn;
using devicebench::testing::shellQuote;
using devicebench::testing::TempDir;
namespace fs = std::filesystem;

const fs::path kResources = fs::path(DEVICEBENCH_REPO_DIR) / "resources";

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

std::string testPython() { return devicebench::testing::testPythonOr(DEVICEBENCH_TEST_PYTHON); }

class ScriptCli : public ::testing::Test {
protected:
    devicebench::testing::ProgramResult runCli(const std::vector<std::string> &args) const {
        devicebench::testing::ProgramSetup setup;
        setup.env = "DEVICEBENCH_RESOURCES=" + shellQuote(kResources.string()) +
                    " XDG_DATA_HOME=" + shellQuote((m_dir.path() / "data").string());
        return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, m_dir.path(), m_dir.path(),
                                                setup);
    }
    std::string write(const std::string &name, const std::string &text) const {
        const fs::path path = m_dir.path() / name;
        std::ofstream(path) << text;
        return path.string();
    }

    TempDir m_dir{"devicebench-script-cli"};
    fs::path m_records = m_dir.path() / "records";
};

TEST_F(ScriptCli, AMissingScriptIsRefusedWithExitTwoNamingItAndNothingRuns) {
    const std::string missing = (m_dir.path() / "no-such-train.py").string();
    const auto r = runCli({"run", "--workload", "script", "--script", missing, "--python",
                           testPython(), "--out-dir", m_records.string()});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "the training script " + missing + " does not exist")) << r.err;
    EXPECT_TRUE(!fs::exists(m_records) || namesIn(m_records).empty()) << "a record was written";
}

TEST_F(ScriptCli, TheScriptOptionsWithoutTheScriptWorkloadAreRefused) {
    const auto r = runCli({"run", "--script", write("train.py", "pass\n"), "--synthetic"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "are for --workload script")) << r.err;
}

TEST_F(ScriptCli, TwoThreadSettingsInterleavedGiveComparableRecordsSayingWhatRan) {
    const std::string check =
        testPython() + " -c 'import torch' > /dev/null 2>&1"; // the test's own probe
    if (std::system(check.c_str()) != 0)
        GTEST_SKIP() << testPython() << " cannot import torch";
    const std::string script = write("train.py", R"(import sys, torch, devicebench
run = devicebench.run(model=sys.argv[1], batch_size=4)
for epoch in run.epochs(9):
    for step in range(5):
        run.step(torch.tensor(0.5))
    print("epoch", epoch, "of my own")
)");
    const auto r =
        runCli({"run", "--workload", "script", "--script", script, "--script-arg=--my-model",
                "--python", testPython(), "--threads", "1,2", "--interleave", "--epochs", "2",
                "--out-dir", m_records.string(), "--json", "--no-published"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "epoch 1 of my own")) << "the script's prints reach stderr";
    const std::vector<std::string> names = namesIn(m_records);
    ASSERT_EQ(names.size(), 2u);
    // Two, in an array: with a vector filled in a loop, GCC 14 at -O3 saw a possible null
    // dereference in records[0] below.
    const std::array<devicebench::RunRecord, 2> records{
        devicebench::readRunRecord((m_records / names[0]).string()),
        devicebench::readRunRecord((m_records / names[1]).string())};
    for (const devicebench::RunRecord &record : records) {
        EXPECT_EQ(record.workload, "script");
        EXPECT_EQ(record.model, "--my-model");
        EXPECT_EQ(record.config.script, script);
        EXPECT_EQ(record.config.scriptArgs, std::vector<std::string>{"--my-model"});
        EXPECT_EQ(record.config.scriptHash, devicebench::fileContentHash(script));
        EXPECT_EQ(record.epochs.size(), 2u);
        EXPECT_EQ(record.steps.size(), 10u);
    }
    EXPECT_NE(records[0].started.threads, records[1].started.threads);
    const nlohmann::json json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["runs"].size(), 2u);
}

TEST_F(ScriptCli, TheFlagsOfWhatTheScriptTrainsAreRefusedNamingThemAndNothingRuns) {
    const auto r = runCli({"run", "--workload", "script", "--script", write("train.py", "pass\n"),
                           "--batch-size", "32", "--lr", "0.1", "--out-dir", m_records.string()});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "--batch-size, --lr: your script trains its own model")) << r.err;
    EXPECT_FALSE(fs::exists(m_records)) << "a record was written";
}

bool torchImports() {
    const std::string check = testPython() + " -c 'import torch' > /dev/null 2>&1";
    return std::system(check.c_str()) == 0;
}

TEST_F(ScriptCli, TheConsoleSaysWhatTheScriptTrainsNotTheEnginesDefaults) {
    if (!torchImports())
        GTEST_SKIP() << testPython() << " cannot import torch";
    std::ifstream in(fs::path(DEVICEBENCH_REPO_DIR) / "tests" / "support" / "wrapped_tiny_net.py");
    std::stringstream text;
    text << in.rdbuf();
    const std::string script = write("wrapped.py", text.str());

    const auto r = runCli({"run", "--workload", "script", "--script", script, "--python",
                           testPython(), "--epochs", "2"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "your script wrapped.py, 1 run")) << r.out;
    EXPECT_TRUE(contains(r.out, "wrapped.py: TinyNet in DataParallel (10 parameters), batch size "
                                "8, learning rate 0.05"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "its steps and training images counted in each epoch")) << r.out;
    EXPECT_FALSE(contains(r.out, "small-cnn")) << r.out;
    EXPECT_FALSE(contains(r.out, " 0 images/s")) << r.out;
    EXPECT_TRUE(contains(r.out, "published results: not shown beside your script's runs")) << r.out;
    EXPECT_FALSE(contains(r.out, "article: Tesla T4")) << r.out;
}

// The script's process, by the pid it wrote, is gone (or a zombie no one waits for).
bool processGone(const fs::path &pidFile) {
    std::ifstream in(pidFile);
    int pid = 0;
    if (!(in >> pid) || pid <= 0)
        return false;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!stat || !std::getline(stat, text))
        return true;
    const std::size_t close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

// A script of 50 slow epochs that writes its pid to the file its argument names.
constexpr const char *kSlowScript = R"(import os, sys, time, torch, devicebench
open(sys.argv[1], "w").write(str(os.getpid()))
run = devicebench.run(model="slow", batch_size=4)
for epoch in run.epochs(50):
    for step in range(4):
        time.sleep(0.05)
        run.step(torch.tensor(0.5))
)";

// Whether `pidFile`'s process is gone within five seconds.
bool goneSoon(const fs::path &pidFile) {
    for (int i = 0; i < 250 && !processGone(pidFile); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return processGone(pidFile);
}

class SlowScriptCli : public ScriptCli {
protected:
    // Starts the CLI on kSlowScript and waits until its record holds an epoch; "" or why not.
    std::string startAndWaitForAnEpoch() {
        const std::string script = write("slow.py", kSlowScript);
        setenv("DEVICEBENCH_RESOURCES", kResources.c_str(), 1);
        m_cli = std::make_unique<devicebench::testing::ChildProcess>(
            DEVICEBENCH_CLI,
            std::vector<std::string>{"run", "--workload", "script", "--script", script,
                                     "--script-arg=" + m_pidFile.string(), "--python", testPython(),
                                     "--epochs", "50", "--record", m_record.string()});
        unsetenv("DEVICEBENCH_RESOURCES");
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (!m_cli->exited() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (fs::exists(m_record) &&
                !devicebench::readRunRecord(m_record.string()).epochs.empty())
                return "";
        }
        return "no epoch was recorded";
    }

    fs::path m_pidFile = m_dir.path() / "script.pid";
    fs::path m_record = m_dir.path() / "slow.json";
    std::unique_ptr<devicebench::testing::ChildProcess> m_cli;
};

TEST_F(SlowScriptCli, AClosedTerminalEndsTheRunCancelledSayingSoAndLeavesNoProcess) {
    if (!torchImports())
        GTEST_SKIP() << testPython() << " cannot import torch";
    ASSERT_EQ(startAndWaitForAnEpoch(), "");
    m_cli->signal(SIGHUP);
    const int status = m_cli->wait();
    ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 130);
    const devicebench::RunRecord r = devicebench::readRunRecord(m_record.string());
    EXPECT_EQ(r.status, "cancelled");
    EXPECT_TRUE(contains(r.reason, "stopped by SIGHUP (the terminal closed) during epoch"))
        << r.reason;
    EXPECT_GE(r.epochs.size(), 1u);
    EXPECT_TRUE(processGone(m_pidFile)) << "the script outlived the CLI";
}

TEST_F(SlowScriptCli, AKilledCliTakesItsScriptWithItAndTheRecordKeepsItsEpochs) {
    if (!torchImports())
        GTEST_SKIP() << testPython() << " cannot import torch";
    ASSERT_EQ(startAndWaitForAnEpoch(), "");
    m_cli->signal(SIGKILL);
    m_cli->wait();
    EXPECT_TRUE(goneSoon(m_pidFile)) << "the script trains on as an orphan";
    const devicebench::RunRecord r = devicebench::readRunRecord(m_record.string());
    EXPECT_EQ(r.status, "running") << "no one was left to write its end";
    EXPECT_GE(r.epochs.size(), 1u);
}

} // namespace
