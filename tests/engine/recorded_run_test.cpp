// SPDX-License-Identifier: MIT
// runRecorded (devicebench/recorded_run.h): the one recorded run of the CLI, the dashboard's
// controller and a rank: its record file and its TensorBoard folder share the run id, steps
// reach the caller with the recorder's seconds, and the request check is the engine's.
#include "devicebench/recorded_run.h"

#include "cifar_files.h"
#include "devicebench/devices.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::TempDir;
using namespace devicebench;

namespace {

RunConfig tinyRun(int threads) {
    RunConfig c;
    c.synthetic = true;
    c.epochs = 2;
    c.warmupEpochs = 1;
    c.threads = threads;
    c.batchSize = 32;
    c.trainImages = 96;
    c.testImages = 32;
    c.lossFetchInterval = 2;
    return c;
}

std::vector<std::string> namesIn(const fs::path &dir) {
    std::vector<std::string> names;
    for (const auto &entry : fs::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    return names;
}

class Collect : public RecordObserver {
public:
    void onRecordStarted(const RunRecord &record) override { runId = record.runId; }
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        steps.insert(steps.end(), losses.begin(), losses.end());
    }
    void onRunEnded(const RunOutcome &) override { ++ended; }
    std::string runId;
    std::vector<StepLoss> steps;
    int ended = 0;
};

} // namespace

TEST(RecordedRun, WritesTheRecordAndTheEventFolderOfTheSameName) {
    TempDir dir;
    RunRequest request;
    request.config = tinyRun(1);
    request.recordsFolder = (dir.path() / "runs").string(); // made by the run
    request.tensorBoardFolder = (dir.path() / "logs").string();
    ASSERT_TRUE(checkRunRequest(request).empty());
    Collect downstream;
    std::atomic<bool> stop{false};
    const RecordedRun run = runRecorded(request, &downstream, stop);
    ASSERT_EQ(run.outcome.status, RunStatus::Finished) << run.outcome.reason;
    const std::string id = run.record.runId;
    ASSERT_FALSE(id.empty());
    EXPECT_EQ(downstream.runId, id);
    EXPECT_EQ(downstream.ended, 1);
    EXPECT_EQ(namesIn(dir.path() / "runs"), std::vector<std::string>{id + ".json"});
    EXPECT_EQ(run.recordPath, (dir.path() / "runs" / (id + ".json")).string());
    EXPECT_EQ(toJson(readRunRecord(run.recordPath)), toJson(run.record));
    EXPECT_EQ(namesIn(dir.path() / "logs"), std::vector<std::string>{id + "_cpu_x1"});
    EXPECT_EQ(fs::path(run.eventFile).parent_path(), dir.path() / "logs" / (id + "_cpu_x1"));
    EXPECT_TRUE(run.recordError.empty()) << run.recordError;
    EXPECT_TRUE(run.eventError.empty()) << run.eventError;
    ASSERT_EQ(downstream.steps.size(), run.record.steps.size());
    for (std::size_t i = 0; i < downstream.steps.size(); ++i)
        EXPECT_EQ(downstream.steps[i].seconds, run.record.steps[i].seconds);
}

TEST(RecordedRun, ARecordFileAndARunIdAreUsedAsGivenAndZeroThreadsNameTheCores) {
    TempDir dir;
    RunRequest request;
    request.config = tinyRun(0);
    request.runId = "job-7-rank0";
    request.recordFile = (dir.path() / "exact.json").string();
    request.tensorBoardFolder = (dir.path() / "logs").string();
    std::atomic<bool> stop{false};
    const RecordedRun run = runRecorded(request, nullptr, stop);
    ASSERT_EQ(run.outcome.status, RunStatus::Finished) << run.outcome.reason;
    EXPECT_EQ(run.record.runId, "job-7-rank0");
    EXPECT_EQ(readRunRecord(request.recordFile).runId, "job-7-rank0");
    EXPECT_EQ(tensorBoardRunName(request.config, "job-7-rank0"),
              "job-7-rank0_cpu_x" + std::to_string(availableCores()));
    EXPECT_EQ(namesIn(dir.path() / "logs"),
              std::vector<std::string>{tensorBoardRunName(request.config, "job-7-rank0")});
}

TEST(RecordedRun, AnInjectedTrainFunctionThatThrowsStillEndsTheRecordAsFailed) {
    TempDir dir;
    RunRequest request;
    request.config = tinyRun(1);
    request.recordsFolder = dir.path().string();
    std::atomic<bool> stop{false};
    Collect downstream;
    const RecordedRun run = runRecorded(
        request, &downstream, stop,
        [](const RunConfig &, TrainingObserver &, const std::atomic<bool> &) -> RunOutcome {
            throw std::runtime_error("boom");
        });
    EXPECT_EQ(run.outcome.status, RunStatus::Failed);
    EXPECT_EQ(run.outcome.reason, "training stopped with an error: boom");
    EXPECT_EQ(run.record.status, "failed");
    EXPECT_EQ(readRunRecord(run.recordPath).reason, "training stopped with an error: boom");
    EXPECT_EQ(downstream.ended, 1);
}

TEST(RecordedRun, TheRequestCheckGivesTheEnginesMessages) {
    TempDir dir;
    RunRequest request;
    request.config = tinyRun(1);
    request.config.batchSize = 0;
    const fs::path file = dir.path() / "a-file";
    std::ofstream(file) << "x";
    request.tensorBoardFolder = file.string();
    std::vector<std::string> expected = validateRunConfig(request.config);
    ASSERT_FALSE(expected.empty());
    expected.push_back("cannot write the TensorBoard log folder " + file.string() +
                       ": it is a file, not a folder");
    EXPECT_EQ(checkRunRequest(request), expected);
}

TEST(RecordedRun, TheRequestCheckWritesNothingTheRunMakesTheFolders) {
    TempDir dir;
    RunRequest request;
    request.config = tinyRun(1);
    request.recordsFolder = (dir.path() / "runs" / "today").string();
    request.tensorBoardFolder = (dir.path() / "logs").string();
    EXPECT_TRUE(checkRunRequest(request).empty());
    EXPECT_FALSE(fs::exists(dir.path() / "runs")) << "a check made the records folder";
    EXPECT_FALSE(fs::exists(dir.path() / "logs")) << "a check made the TensorBoard folder";
}
