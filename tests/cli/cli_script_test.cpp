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
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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

} // namespace
