// SPDX-License-Identifier: MIT
// The speedrun workload through the CLI: the recipe's defaults (its network, batch 1024, target
// 94 %, the device's precision) and the settings it cannot take, refused before any training.
#include "cifar_files.h"
#include "process_support.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::TempDir;

namespace {

devicebench::testing::ProgramResult runCli(std::vector<std::string> args) {
    static TempDir io("devicebench-speedrun-io");
    static TempDir home("devicebench-speedrun-home");
    args.insert(args.begin(), {"run", "--workload", "speedrun", "--synthetic"});
    return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, home.path(), io.path(), {});
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
