// SPDX-License-Identifier: MIT
// The speedrun workload through the CLI: the recipe's defaults (its network, batch 1024, target
// 94 %, the device's precision) and the settings it cannot take, refused before any training.
#include "cifar_files.h"
#include "process_support.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::TempDir;

namespace {

// `devicebench-cli COMMAND --workload speedrun --synthetic ARGS...`
devicebench::testing::ProgramResult speedrun(const std::string &command,
                                             std::vector<std::string> args) {
    static TempDir io("devicebench-speedrun-io");
    static TempDir home("devicebench-speedrun-home");
    args.insert(args.begin(), {command, "--workload", "speedrun", "--synthetic"});
    return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, home.path(), io.path(), {});
}

devicebench::testing::ProgramResult runCli(std::vector<std::string> args) {
    return speedrun("run", std::move(args));
}

// The value of the first `"key": "value"` in `text`, "" when absent.
std::string jsonString(const std::string &text, const std::string &key) {
    const std::string quoted = "\"" + key + "\": \"";
    const std::size_t at = text.find(quoted);
    if (at == std::string::npos)
        return {};
    const std::size_t from = at + quoted.size();
    return text.substr(from, text.find('"', from) - from);
}

} // namespace

TEST(CliSpeedrun, SettingsTheRecipeSetsItselfAreRefusedBeforeAnyTraining) {
    for (const std::vector<std::string> &extra : std::vector<std::vector<std::string>>{
             {"--model", "resnet18"}, {"--image-size", "64"}, {"--lr", "0.1"}}) {
        const auto r = runCli(extra);
        EXPECT_EQ(r.exitCode, 2) << extra.front() << ": " << r.out << r.err;
        EXPECT_NE(r.err.find(extra.front() + ": workload speedrun trains its own network"),
                  std::string::npos)
            << r.err;
        EXPECT_EQ(r.out.find("epoch "), std::string::npos) << "nothing trained";
    }
    const auto phases = runCli({"--phases"});
    EXPECT_EQ(phases.exitCode, 2) << phases.err;
    EXPECT_NE(phases.err.find("workload speedrun is not phase-timed"), std::string::npos)
        << phases.err;
    const auto batch = runCli({"--train-images", "512"}); // the recipe's 1024 is too many
    EXPECT_EQ(batch.exitCode, 2) << batch.err;
    EXPECT_NE(batch.err.find("batch size (1024) is larger than the training set (512 images)"),
              std::string::npos)
        << batch.err;
}

TEST(CliSpeedrun, ARunTakesTheRecipesNetworkBatchAndTargetUnlessGiven) {
    TempDir dir;
    const auto r = runCli({"--epochs", "2", "--train-images", "256", "--test-images", "64",
                           "--batch-size", "128", "--threads", "1", "--no-published", "--record",
                           (dir.path() / "r.json").string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("airbench94 at 32 px"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("batch size 128, learning rate the recipe's schedule"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("target 94 % test accuracy"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("94 % not reached in 2 epochs"), std::string::npos) << r.out;
}

TEST(CliSpeedrun, ASweepOfItRefusesTheRecipesOwnSettingsAndTheStepFlags) {
    for (const std::vector<std::string> &extra : std::vector<std::vector<std::string>>{
             {"--model", "resnet18"}, {"--lr", "0.1"}, {"--image-size", "32,64"}}) {
        const auto r = speedrun("sweep", extra);
        EXPECT_EQ(r.exitCode, 2) << extra.front() << ": " << r.out << r.err;
        EXPECT_NE(r.err.find(extra.front() + ": workload speedrun trains its own network"),
                  std::string::npos)
            << r.err;
        EXPECT_EQ(r.out.find("epoch "), std::string::npos) << "nothing trained";
    }
    const auto steps = speedrun("sweep", {"--steps", "4"});
    EXPECT_EQ(steps.exitCode, 2) << steps.err;
    EXPECT_NE(steps.err.find("--steps: workload speedrun sweeps whole runs to a target "
                             "(--target-accuracy, default 94 %)"),
              std::string::npos)
        << steps.err;
}

TEST(CliSpeedrun, ASweepOfItRunsEachCellToTheRecipesTargetInTheRunsPrecision) {
    TempDir dir;
    const auto r = speedrun("sweep", {"--threads", "1,2", "--epochs", "2", "--train-images", "256",
                                      "--test-images", "64", "--batch-size", "128", "--out-dir",
                                      dir.path().string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("sweep to 94 % test accuracy: 2 cells (1 model x 1 batch size x 1 image "
                         "size x each device's precision x 2 devices)"),
              std::string::npos)
        << r.out;
    const auto single = runCli({"--epochs", "2", "--train-images", "128", "--test-images", "64",
                                "--batch-size", "128", "--threads", "1", "--no-published"});
    ASSERT_EQ(single.exitCode, 0) << single.err;
    const std::size_t named = single.out.find(", precision ");
    ASSERT_NE(named, std::string::npos) << single.out;
    const std::string shortName = single.out.substr(named + 12, 4); // "bf16" or "fp32"
    const std::string runPrecision = shortName == "bf16" ? "bfloat16" : "float32";
    ASSERT_TRUE(shortName == "bf16" || shortName == "fp32") << single.out;
    std::set<std::string> records;
    for (const auto &entry : fs::directory_iterator(dir.path())) {
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        EXPECT_EQ(jsonString(text.str(), "workload"), "speedrun") << entry.path();
        EXPECT_EQ(jsonString(text.str(), "model"), "airbench94") << entry.path();
        EXPECT_EQ(jsonString(text.str(), "precision"), runPrecision) << entry.path();
        records.insert(entry.path().filename().string());
    }
    EXPECT_EQ(records.size(), 2u) << "one run record per cell";
}
