// SPDX-License-Identifier: MIT
// A machine that changes speed, end to end: `run --interleave` alternates the runs' epochs and
// records when each ran; every epoch has its canary in the record and the CSV; `compare` flags
// a run whose machine changed speed during it, and marks the speed-up of two runs made while
// the machine was at different speeds. (The rule and the slowed canary: tests/engine.)
#include "cifar_files.h"
#include "process_support.h"

#include "devicebench/run_record.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

using devicebench::testing::ProgramResult;
using devicebench::testing::TempDir;
namespace fs = std::filesystem;

namespace devicebench {
namespace {

std::vector<RunRecord> recordsIn(const fs::path &folder) {
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(folder))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::vector<RunRecord> records;
    for (const fs::path &file : files)
        records.push_back(readRunRecord(file.string()));
    return records;
}

TEST(MachineDriftCli, InterleavedRunsAlternateTheirEpochsAndRecordTheCanary) {
    TempDir dir("devicebench-interleave");
    const fs::path records = dir.path() / "records";
    const std::string csv = (dir.path() / "epochs.csv").string();
    const ProgramResult run = devicebench::testing::runProgram(
        DEVICEBENCH_CLI,
        {"run", "--synthetic", "--train-images", "256", "--test-images", "64", "--epochs", "3",
         "--warmup-epochs", "1", "--threads", "1,2", "--interleave", "--out-dir", records.string(),
         "--csv", csv},
        dir.path(), dir.path());
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    const std::size_t a1 = run.out.find("#1 epoch  1/3");
    const std::size_t b1 = run.out.find("#2 epoch  1/3");
    const std::size_t a2 = run.out.find("#1 epoch  2/3");
    ASSERT_NE(a1, std::string::npos) << run.out;
    ASSERT_NE(b1, std::string::npos) << run.out;
    ASSERT_NE(a2, std::string::npos) << run.out;
    EXPECT_LT(a1, b1) << run.out;
    EXPECT_LT(b1, a2) << run.out;
    EXPECT_NE(run.out.find("machine speed"), std::string::npos) << "the summary's drift line\n"
                                                                << run.out;

    const std::vector<RunRecord> written = recordsIn(records);
    ASSERT_EQ(written.size(), 2U);
    const RunRecord &one = written[0].started.threads == 1 ? written[0] : written[1];
    const RunRecord &two = written[0].started.threads == 1 ? written[1] : written[0];
    ASSERT_EQ(one.epochs.size(), 3U);
    ASSERT_EQ(two.epochs.size(), 3U);
    EXPECT_TRUE(one.started.canary.measured);
    for (std::size_t e = 0; e < 3; ++e) {
        EXPECT_LT(one.epochs[e].startedUnixSeconds, two.epochs[e].startedUnixSeconds);
        EXPECT_TRUE(two.epochs[e].canary.measured);
        EXPECT_GT(two.epochs[e].canary.runThreadsSeconds, 0.0);
        EXPECT_NE(two.epochs[e].canary.runThreadsSeconds, two.epochs[e].canary.seconds);
    }
    const std::string text = devicebench::testing::slurp(csv);
    const std::string header = text.substr(0, text.find('\n'));
    EXPECT_NE(header.find(",started_unix_s,canary_s,canary_run_threads_s,canary_change,"
                          "speed_changed"),
              std::string::npos)
        << header;
}

// Interleaved, each run trains in a process of its own (no run inherits another's kernel
// state): its record says so by its fingerprint (collected in the child, after the run set its
// threads), and its losses, to the step, are those of the same run made alone.
TEST(MachineDriftCli, InterleavedRunsTrainInProcessesOfTheirOwnWithTheLossesOfRunsAlone) {
    TempDir dir("devicebench-interleave-alone");
    const auto runInto = [&](const std::string &folder, bool interleave) {
        std::vector<std::string> args = {"run",
                                         "--synthetic",
                                         "--train-images",
                                         "192",
                                         "--test-images",
                                         "64",
                                         "--epochs",
                                         "2",
                                         "--warmup-epochs",
                                         "1",
                                         "--threads",
                                         "1,2",
                                         "--out-dir",
                                         (dir.path() / folder).string()};
        if (interleave)
            args.push_back("--interleave");
        const ProgramResult run =
            devicebench::testing::runProgram(DEVICEBENCH_CLI, args, dir.path(), dir.path());
        EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
        if (interleave) {
            EXPECT_NE(run.out.find("each run in a process of its own"), std::string::npos)
                << run.out;
        }
        std::vector<RunRecord> records = recordsIn(dir.path() / folder);
        std::sort(records.begin(), records.end(), [](const RunRecord &a, const RunRecord &b) {
            return a.started.threads < b.started.threads;
        });
        return records;
    };
    const std::vector<RunRecord> alone = runInto("alone", false);
    const std::vector<RunRecord> together = runInto("together", true);
    ASSERT_EQ(alone.size(), 2U);
    ASSERT_EQ(together.size(), 2U);
    for (std::size_t r = 0; r < 2; ++r) {
        SCOPED_TRACE("run with " + std::to_string(together[r].started.threads) + " threads");
        EXPECT_EQ(together[r].status, "finished");
        EXPECT_EQ(together[r].fingerprint.intraOpThreads, together[r].started.threads);
        EXPECT_EQ(together[r].fingerprint.hostName, alone[r].fingerprint.hostName);
        ASSERT_EQ(together[r].epochs.size(), alone[r].epochs.size());
        for (std::size_t e = 0; e < alone[r].epochs.size(); ++e) {
            EXPECT_EQ(together[r].epochs[e].trainLoss, alone[r].epochs[e].trainLoss);
            EXPECT_EQ(together[r].epochs[e].testLoss, alone[r].epochs[e].testLoss);
        }
        ASSERT_EQ(together[r].steps.size(), alone[r].steps.size());
        for (std::size_t i = 0; i < alone[r].steps.size(); ++i)
            EXPECT_EQ(together[r].steps[i].loss, alone[r].steps[i].loss) << "step " << i;
    }
}

// A record of `host` whose one-thread canary took `canarySeconds` throughout, its epoch
// `flagged` (0: none) marked "machine speed changed".
RunRecord recordWithCanary(const std::string &id, double canarySeconds, int flagged = 0) {
    RunRecord r;
    r.runId = id;
    r.createdUtc = "2026-12-01T12:00:00Z";
    r.status = "finished";
    r.config.epochs = 4;
    r.config.warmupEpochs = 1;
    r.config.synthetic = true;
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = 1;
    r.started.trainImages = 128;
    r.started.testImages = 64;
    r.started.stepsPerEpoch = 2;
    r.data = {"", "synthetic", 128, 64, ""};
    r.fingerprint.hostName = "vm";
    r.fingerprint.cpuModel = "AMD EPYC";
    CanaryTime canary;
    canary.measured = true;
    canary.seconds = canary.runThreadsSeconds = canarySeconds;
    canary.noise = 0.01;
    r.started.canary = canary;
    for (int i = 1; i <= 4; ++i) {
        EpochResult e;
        e.epoch = i;
        e.seconds = 1.0;
        e.warmup = i == 1;
        e.testAccuracy = 0.1;
        e.imagesPerSecond = 192.0;
        e.canary = canary;
        e.canaryChange = 0.0;
        if (i == flagged) {
            e.canary.seconds = e.canary.runThreadsSeconds = canarySeconds * 1.3;
            e.canaryChange = 0.3;
            e.speedChanged = true;
        }
        r.epochs.push_back(e);
    }
    return r;
}

TEST(MachineDriftCli, CompareMarksABiasedSpeedUpAndARunWhoseMachineChangedSpeed) {
    TempDir dir("devicebench-drift");
    const std::string fast = (dir.path() / "fast.json").string();
    const std::string slow = (dir.path() / "slow.json").string();
    writeRunRecord(fast, recordWithCanary("20261201T120000Z-vm-0000000a", 0.0100));
    writeRunRecord(slow, recordWithCanary("20261201T120100Z-vm-0000000b", 0.0118, 3));
    const ProgramResult text = devicebench::testing::runProgram(
        DEVICEBENCH_CLI, {"compare", "--runs", "--baseline", "1", fast, slow}, dir.path(),
        dir.path());
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("(biased)"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("WARNING #2: the machine was 18 % slower during run #2 than during "
                            "run #1 (one-thread canary): the speed-up is biased"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("WARNING #2: machine speed changed: canary up to +30 % over the "
                            "stable epochs, 1 of 3 (3) flagged"),
              std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("WARNING #1"), std::string::npos) << text.out;

    const ProgramResult json = devicebench::testing::runProgram(
        DEVICEBENCH_CLI, {"compare", "--json", "--baseline", "1", fast, slow}, dir.path(),
        dir.path());
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto document = nlohmann::json::parse(json.out);
    EXPECT_EQ(document["runs"][1]["speedChangedStableEpochs"], nlohmann::json::array({3}));
    EXPECT_EQ(document["runs"][1]["machineSpeed"]["biased"], true);
    EXPECT_EQ(document["runs"][0]["machineSpeed"]["compared"], false) << "the baseline itself";
}

TEST(MachineDriftCli, AnotherMachinesRecordIsNotHeldAgainstTheCanary) {
    TempDir dir("devicebench-drift");
    const std::string here = (dir.path() / "here.json").string();
    const std::string there = (dir.path() / "there.json").string();
    writeRunRecord(here, recordWithCanary("20261201T120000Z-vm-0000000a", 0.0100));
    RunRecord other = recordWithCanary("20261201T120100Z-vm-0000000b", 0.0200);
    other.fingerprint.hostName = "laptop";
    writeRunRecord(there, other);
    const ProgramResult text = devicebench::testing::runProgram(
        DEVICEBENCH_CLI, {"compare", "--baseline", "1", here, there}, dir.path(), dir.path());
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_EQ(text.out.find("biased"), std::string::npos) << text.out;
}

TEST(MachineDriftCli, InterleaveIsRefusedForARankOfADataParallelJob) {
    TempDir dir("devicebench-drift");
    devicebench::testing::ProgramSetup setup;
    setup.env = "WORLD_SIZE=2 RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=29999";
    const ProgramResult run = devicebench::testing::runProgram(
        DEVICEBENCH_CLI, {"run", "--synthetic", "--epochs", "1", "--interleave"}, dir.path(),
        dir.path(), setup);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.err.find("--interleave"), std::string::npos) << run.err;
}

} // namespace
} // namespace devicebench
