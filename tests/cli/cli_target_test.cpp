// SPDX-License-Identifier: MIT
// Time to accuracy through the CLI: a run with a target stops when it reaches it, says so, and
// its record and `compare` carry the time to target.
#include "cifar_files.h"
#include "process_support.h"

#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::TempDir;

namespace {

devicebench::testing::ProgramResult runCli(const std::vector<std::string> &args) {
    static TempDir io("devicebench-target-io");
    static TempDir home("devicebench-target-home");
    return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, home.path(), io.path(), {});
}

// A tiny synthetic run of `epochs` epochs with `target` percent, its record in `record`.
std::vector<std::string> tinyRun(const std::string &target, const fs::path &record,
                                 const std::string &epochs = "3") {
    return {"run",
            "--synthetic",
            "--epochs",
            epochs,
            "--train-images",
            "64",
            "--test-images",
            "32",
            "--batch-size",
            "16",
            "--threads",
            "1",
            "--no-published",
            "--target-accuracy",
            target,
            "--record",
            record.string()};
}

} // namespace

TEST(CliTimeToAccuracy, ARunStopsAtTheEpochThatReachesItsTargetAndSaysHowSoon) {
    TempDir dir;
    const fs::path record = dir.path() / "r.json";
    const auto r = runCli(tinyRun("1", record));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("target 1 % test accuracy"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("time to accuracy: 1 % reached in epoch 1: "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("epoch  2/3"), std::string::npos) << "no epoch after the target";
    const devicebench::RunRecord read = devicebench::readRunRecord(record.string());
    EXPECT_EQ(read.status, "finished");
    ASSERT_EQ(read.epochs.size(), 1u);
    ASSERT_TRUE(read.config.targetAccuracy.has_value());
    EXPECT_DOUBLE_EQ(*read.config.targetAccuracy, 1.0);
    EXPECT_GT(read.epochs.front().testSeconds, 0.0);
}

TEST(CliTimeToAccuracy, ATargetNotReachedSpendsTheBudgetAndIsAFinishedRun) {
    TempDir dir;
    const fs::path record = dir.path() / "r.json";
    const auto r = runCli(tinyRun("100", record, "2"));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("time to accuracy: 100 % not reached in 2 epochs"), std::string::npos)
        << r.out;
    EXPECT_EQ(devicebench::readRunRecord(record.string()).epochs.size(), 2u);
}

TEST(CliTimeToAccuracy, InterleavedRunsEachStopAtTheTargetAndAreComparedByHowSoon) {
    TempDir dir;
    std::vector<std::string> args = tinyRun("1", dir.path() / "unused.json");
    args.resize(args.size() - 2); // no --record: one record for two runs is refused
    const auto threads = std::find(args.begin(), args.end(), "--threads");
    ASSERT_NE(threads, args.end());
    *(threads + 1) = "1,1"; // two runs of one thread each
    args.push_back("--interleave");
    const auto r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("epoch  2/3"), std::string::npos) << "no run goes on after its target";
    EXPECT_NE(r.out.find("time to accuracy (speed-up against the slowest run that reached"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  #1 cpu, 1 thread: 1 % reached in epoch 1: "), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  #2 cpu, 1 thread: 1 % reached in epoch 1: "), std::string::npos)
        << r.out;
}

TEST(CliTimeToAccuracy, CompareScoresRunsOfOneTargetAndComparesThemWhateverTheirWorkload) {
    TempDir dir;
    const fs::path a = dir.path() / "a.json";
    const fs::path b = dir.path() / "b.json";
    ASSERT_EQ(runCli(tinyRun("1", a)).exitCode, 0);
    auto tuned = tinyRun("1", b);
    tuned.insert(tuned.end(), {"--workload", "tuned"});
    ASSERT_EQ(runCli(tuned).exitCode, 0);
    const auto r = runCli({"compare", a.string(), b.string(), "--runs"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("time to accuracy"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("target 1 %: "), std::string::npos) << r.out;
    // Another workload, the same target and test set: comparable by what they deliver.
    EXPECT_EQ(r.out.find("not comparable: workload"), std::string::npos) << r.out;
}

TEST(CliTimeToAccuracy, ASweepWithATargetRunsEachCellToItAndRanksThemByHowSoon) {
    TempDir dir;
    const fs::path records = dir.path() / "records";
    const auto r = runCli({"sweep", "--synthetic", "--target-accuracy", "1", "--epochs", "3",
                           "--train-images", "64", "--test-images", "32", "--batch-size", "16,32",
                           "--threads", "1", "--out-dir", records.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("sweep to 1 % test accuracy: 2 cells (1 model x 2 batch sizes"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("epoch  2/3"), std::string::npos) << "no cell goes on after its target";
    // The cells differ by batch size: the ranking names it.
    EXPECT_NE(r.out.find("  #1 cpu, 1 thread, b16: 1 % reached in epoch 1: "), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  #2 cpu, 1 thread, b32: 1 % reached in epoch 1: "), std::string::npos)
        << r.out;
    std::vector<int> batchSizes;
    for (const auto &entry : fs::directory_iterator(records)) {
        const devicebench::RunRecord read = devicebench::readRunRecord(entry.path().string());
        ASSERT_TRUE(read.config.targetAccuracy.has_value()) << entry.path();
        EXPECT_EQ(read.epochs.size(), 1u) << entry.path();
        batchSizes.push_back(read.config.batchSize);
    }
    std::sort(batchSizes.begin(), batchSizes.end());
    EXPECT_EQ(batchSizes, (std::vector<int>{16, 32}));
}

TEST(CliTimeToAccuracy, ASweepRefusesTheOtherModesFlagsBeforeRunningAnything) {
    TempDir dir;
    const auto steps = runCli({"sweep", "--synthetic", "--target-accuracy", "1", "--steps", "4",
                               "--out-dir", (dir.path() / "a").string()});
    EXPECT_EQ(steps.exitCode, 2) << steps.out << steps.err;
    EXPECT_NE(steps.err.find("--steps: a sweep with --target-accuracy runs each cell as whole"),
              std::string::npos)
        << steps.err;
    const auto epochs =
        runCli({"sweep", "--synthetic", "--epochs", "4", "--out-dir", (dir.path() / "b").string()});
    EXPECT_EQ(epochs.exitCode, 2) << epochs.out << epochs.err;
    EXPECT_NE(epochs.err.find("--epochs: for a sweep with --target-accuracy"), std::string::npos)
        << epochs.err;
    const auto target = runCli({"sweep", "--synthetic", "--target-accuracy", "0", "--out-dir",
                                (dir.path() / "c").string()});
    EXPECT_EQ(target.exitCode, 2) << target.out << target.err;
    EXPECT_NE(target.err.find("(got 0)"), std::string::npos) << target.err;
    EXPECT_FALSE(fs::exists(dir.path() / "a") || fs::exists(dir.path() / "b") ||
                 fs::exists(dir.path() / "c"))
        << "a refused sweep leaves no folder";
}
