// SPDX-License-Identifier: MIT
// One record author: the same small synthetic config run by the CLI (record
// via --out-dir) and by the dashboard's RunController (the real trainer, records folder set)
// gives two records that differ only in the run id, the creation time, the times and the
// fingerprint; the dashboard's record is written on the worker side, named by its runId, which
// also names its TensorBoard folder and the run the dashboard's store shows.
#include "cifar_files.h"
#include "process_support.h"

#include "run_controller.h"
#include "store/run_store.h"

#include "devicebench/run_record.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::namesIn;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;
using Json = nlohmann::json;

namespace devicebench {
namespace {

// The record without the fields that may differ between two runs of one config: the id, the
// creation time, the times (epoch seconds and the images per second derived from them, step
// times), the system sampler's readings and the fingerprint of the process that ran it.
Json withoutIdTimesAndFingerprint(Json record) {
    record.erase("runId");
    record.erase("createdUtc");
    record.erase("fingerprint");
    for (Json &epoch : record.at("epochs")) {
        epoch.erase("seconds");
        epoch.erase("imagesPerSecond");
        // What the epoch got from the machine is measured, like its time; that it
        // was measured is not: both records must have the fields.
        for (const char *load : {"cpuSeconds", "cpuShare", "otherCpus", "stealFraction",
                                 "iowaitFraction", "loadAverage", "contended"}) {
            if (epoch.contains(load))
                epoch[load] = "measured";
        }
        // So are when it began, its test pass and the canary after it (and the flag derived
        // from it).
        for (const char *timed :
             {"startedUnixSeconds", "testSeconds", "canary", "canaryChange", "speedChanged"})
            if (epoch.contains(timed))
                epoch[timed] = "measured";
        // And what the system sampler read during it (its energy's method and notes are not).
        if (epoch.contains("system"))
            epoch["system"] = {{"energy", epoch["system"]["energy"]}, {"readings", "measured"}};
    }
    if (record.at("started").contains("canary"))
        record["started"]["canary"] = "measured";
    if (record.contains("samples")) // the readings themselves; `sampling` says how, unmeasured
        record["samples"] = "measured";
    for (Json &step : record.at("steps"))
        step.erase("seconds");
    return record;
}

TEST(OneRecordAuthor, CliAndDashboardRecordsOfOneConfigDifferOnlyInIdTimesAndFingerprint) {
    TempDir dir("devicebench-record-author");
    const fs::path cliDir = dir.path() / "cli";
    const fs::path runsDir = dir.path() / "dashboard-runs";
    const fs::path boardDir = dir.path() / "tensorboard";

    // 1. The CLI.
    const auto cli = devicebench::testing::runProgram(
        DEVICEBENCH_CLI,
        {"run", "--synthetic", "--epochs", "2", "--warmup-epochs", "1", "--train-images", "96",
         "--test-images", "64", "--batch-size", "32", "--threads", "1", "--loss-every", "2",
         "--out-dir", cliDir.string()},
        dir.path(), dir.path());
    ASSERT_EQ(cli.exitCode, 0) << cli.out << cli.err;
    const std::vector<std::string> cliFiles = namesIn(cliDir);
    ASSERT_EQ(cliFiles.size(), 1U);
    const RunRecord cliRecord = readRunRecord((cliDir / cliFiles[0]).string());
    ASSERT_EQ(cliRecord.status, "finished");

    // 2. The dashboard's controller, with the real trainer, on the config the CLI recorded.
    int argc = 1;
    char name[] = "record_author_tests";
    char *argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    RunController controller;
    RunRequest request; // as the window sends it
    request.config = cliRecord.config;
    request.recordsFolder = runsDir.string();
    request.tensorBoardFolder = boardDir.string();
    RunStore store; // as the dashboard's window feeds it
    QObject::connect(&controller, &RunController::runAccepted, &store,
                     [&store](int id) { store.acceptRun(id); });
    QObject::connect(
        &controller, &RunController::recordStarted, &store,
        [&store](int id, const RunRecord &record) { store.liveRun(id)->onRecordStarted(record); });
    QObject::connect(
        &controller, &RunController::epochFinished, &store,
        [&store](int id, const EpochResult &epoch) { store.liveRun(id)->onEpochFinished(epoch); });
    std::string startedId;
    RunRecord ended;
    int runEndedCount = 0;
    QObject::connect(&controller, &RunController::recordStarted,
                     [&startedId](int, const RunRecord &record) { startedId = record.runId; });
    std::string recordError;
    QObject::connect(&controller, &RunController::runEnded, [&](int id, const RecordedRun &run) {
        ended = run.record;
        recordError = run.recordError;
        store.finishRun(id, run);
    });
    QEventLoop loop;
    QObject::connect(&controller, &RunController::runEnded, &loop, [&] {
        ++runEndedCount;
        loop.quit();
    });
    QTimer::singleShot(240000, &loop, &QEventLoop::quit); // a hung run fails, not hangs
    const int id = controller.startRun(request);
    ASSERT_NE(id, 0);
    loop.exec();
    ASSERT_EQ(runEndedCount, 1) << "the run did not end within 4 minutes";
    EXPECT_TRUE(recordError.empty()) << recordError;

    // One run id names the record file, the TensorBoard folder and the run the store shows.
    ASSERT_FALSE(startedId.empty());
    EXPECT_EQ(ended.runId, startedId);
    EXPECT_EQ(namesIn(runsDir), std::vector<std::string>{startedId + ".json"})
        << "one record, named by its runId, and no temporary file";
    const std::vector<std::string> boards = namesIn(boardDir);
    ASSERT_EQ(boards.size(), 1U);
    EXPECT_EQ(boards[0].rfind(startedId + "_cpu_x1", 0), 0U) << boards[0];
    const StoredRun *shown = store.findRun(id);
    ASSERT_NE(shown, nullptr);
    EXPECT_EQ(shown->record.runId, startedId);
    EXPECT_EQ(toJson(shown->record), slurp(runsDir / (startedId + ".json")))
        << "the store shows the record as written";

    // The two records: equal but for id, times and fingerprint.
    const Json fromCli = Json::parse(slurp(cliDir / cliFiles[0]));
    const Json fromDashboard = Json::parse(slurp(runsDir / (startedId + ".json")));
    ASSERT_EQ(fromDashboard.at("status"), "finished");
    ASSERT_EQ(fromDashboard.at("epochs").size(), 2U);
    ASSERT_FALSE(fromDashboard.at("steps").empty());
    EXPECT_NE(fromCli.at("runId"), fromDashboard.at("runId"));
    const Json a = withoutIdTimesAndFingerprint(fromCli);
    const Json b = withoutIdTimesAndFingerprint(fromDashboard);
    EXPECT_EQ(a, b) << "differences (JSON patch from the CLI's record to the dashboard's): "
                    << Json::diff(a, b).dump(2);
    // Both step clocks start before the data are loaded: the times are of the same kind.
    EXPECT_GT(fromDashboard.at("steps").back().at("seconds").get<double>(), 0.0);
    EXPECT_GT(fromCli.at("steps").back().at("seconds").get<double>(), 0.0);
}

} // namespace
} // namespace devicebench
