// SPDX-License-Identifier: MIT
// The sweep (sweep.h): grid, keys, cell records, resume, failing cells and the CSV, on tiny
// synthetic cells (small-cnn at 32 px, batch 4 or 8, 1 thread; the peak injected).
#include "cifar_files.h"
#include "process_support.h"

#include "devicebench/run_record.h"
#include "devicebench/sweep.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace devicebench;
using devicebench::testing::TempDir;
namespace fs = std::filesystem;

namespace {

SweepSpec tinySpec() {
    SweepSpec s;
    s.models = {"small-cnn"};
    s.batchSizes = {4, 8};
    s.imageSizes = {32};
    s.devices = {SweepDevice{"cpu", 1}};
    s.warmupSteps = 1;
    s.steps = 2;
    s.phaseSteps = 1;
    s.base.synthetic = true;
    return s;
}

// A peak that takes no time: 100 GFLOP/s.
PeakThroughput fakePeak(const std::string &device, int) {
    if (device != "cpu") {
        throw std::runtime_error("no peak on " + device);
    }
    return PeakThroughput{100.0, "fake"};
}

struct Seen {
    std::vector<std::string> started; // cell keys
    std::vector<std::string> resumed; // cell keys
    std::vector<SweepProgress> ended;
    int startedSkipped = -1;
    int peaks = 0;
};

SweepObserver watching(Seen &seen) {
    SweepObserver o;
    o.sweepStarted = [&](const SweepProgress &p) { seen.startedSkipped = p.skipped; };
    o.peakMeasured = [&](const SweepDevice &, const PeakThroughput &, const std::string &) {
        ++seen.peaks;
    };
    o.cellStarted = [&](const SweepCell &c, const SweepProgress &) {
        seen.started.push_back(c.key());
    };
    o.cellEnded = [&](const SweepCellRecord &r, const SweepProgress &p, bool resumed) {
        if (resumed) {
            seen.resumed.push_back(r.cell.key());
        }
        seen.ended.push_back(p);
    };
    return o;
}

SweepCellRecord finishedRecord() {
    SweepCellRecord r;
    r.createdUtc = "2026-11-30T12:00:00Z";
    r.cell = SweepCell{"small-cnn", 64, 32, SweepDevice{"cpu", 2}};
    r.warmupSteps = 5;
    r.steps = 3;
    r.phaseSteps = 1;
    r.result.status = RunStatus::Finished;
    r.result.device = "cpu";
    r.result.deviceName = "CPU";
    r.result.threads = 2;
    r.result.modelParameters = 122570;
    r.result.multiplyAddsPerImage = 12354176;
    r.result.setupSeconds = 0.25;
    r.result.warmupSeconds = 0.5;
    r.result.stepSeconds = {0.1, 0.125, 0.11};
    r.result.imagesPerSecond = 581.8;
    r.result.imagesPerSecondLow = 500.5;
    r.result.imagesPerSecondHigh = 650.25;
    r.result.achievedGflops = 43.1;
    r.result.phaseSteps = 1;
    r.result.phases.measured = true;
    r.result.phases.data = 0.01;
    r.result.phases.forward = 0.03;
    r.result.phases.loss = 0.001;
    r.result.phases.backward = 0.06;
    r.result.phases.optimizer = 0.009;
    r.peakGflops = std::nan("");
    r.peakMethod = "not measured";
    r.fractionOfPeak = std::nan("");
    r.fingerprint.hostName = "host-a";
    return r;
}

} // namespace

TEST(SweepGrid, CellsRunDevicesOutermostThenModelsImageSizesAndBatchSizes) {
    SweepSpec s;
    s.models = {"small-cnn", "resnet18"};
    s.batchSizes = {16, 64};
    s.imageSizes = {32, 64};
    s.devices = {SweepDevice{"cpu", 1}, SweepDevice{"cuda", 4}};
    const std::vector<SweepCell> cells = sweepCells(s);
    ASSERT_EQ(cells.size(), 16U);
    EXPECT_EQ(cells[0].key(), "small-cnn_b16_s32_cpu_x1");
    EXPECT_EQ(cells[1].key(), "small-cnn_b64_s32_cpu_x1");
    EXPECT_EQ(cells[2].key(), "small-cnn_b16_s64_cpu_x1");
    EXPECT_EQ(cells[4].key(), "resnet18_b16_s32_cpu_x1");
    EXPECT_EQ(cells[8].key(), "small-cnn_b16_s32_cuda0") << "cuda -> cuda:0, threads dropped";
    EXPECT_EQ(cells[8].device.label(), "cuda:0");
    EXPECT_EQ(cells[0].device.label(), "cpu x1");
    EXPECT_EQ(cells[8].device.threads, 0);
}

TEST(SweepGrid, ZeroThreadsBecomeTheUsableCores) {
    SweepSpec s;
    s.devices = {SweepDevice{"cpu", 0}};
    const SweepCell cell = sweepCells(s).front();
    EXPECT_GT(cell.device.threads, 0);
    EXPECT_EQ(cell.device.label(), "cpu x" + std::to_string(cell.device.threads));
}

TEST(SweepGrid, ABaseWithATargetAccuracyIsAcceptedAndItsCellsCarryNone) {
    SweepSpec s = tinySpec();
    s.base.targetAccuracy = 35.0; // the dashboard's run settings may hold one
    EXPECT_EQ(validateSweepSpec(s), "");
    EXPECT_FALSE(stepBenchConfig(s, sweepCells(s).front()).run.targetAccuracy.has_value());
}

TEST(SweepGrid, ABadSpecIsRefusedNamingTheValue) {
    SweepSpec s = tinySpec();
    EXPECT_EQ(validateSweepSpec(s), "");
    s.batchSizes = {4, 2048};
    EXPECT_EQ(validateSweepSpec(s), "batch size 2048 is not in 1..1024");
    s = tinySpec();
    s.batchSizes = {4, 4};
    EXPECT_NE(validateSweepSpec(s).find("cell small-cnn_b4_s32_cpu_x1 twice"), std::string::npos);
    s = tinySpec();
    s.imageSizes = {48};
    EXPECT_EQ(validateSweepSpec(s), "image size 48 is not supported (use 32, 64 or 128)");
    s = tinySpec();
    s.devices = {SweepDevice{"gpu", 0}};
    EXPECT_EQ(validateSweepSpec(s), "device 'gpu' is not cpu, cuda or cuda:N");
    s = tinySpec();
    s.models = {};
    EXPECT_NE(validateSweepSpec(s).find("at least one model"), std::string::npos);
    s = tinySpec();
    s.steps = 1;
    EXPECT_NE(validateSweepSpec(s).find("steps must be between 2"), std::string::npos);
}

TEST(SweepGrid, ARecipeGridIsValidButItsStepsAreNotTimed) {
    SweepSpec s = tinySpec();
    s.base.workload = Workload::Speedrun;
    s.models = {"airbench94"};
    EXPECT_EQ(validateSweepGrid(s), ""); // a sweep to a target runs such cells
    EXPECT_EQ(validateSweepSpec(s),
              "workload speedrun is not timed by steps: it is swept as whole runs to its target "
              "(devicebench-cli sweep --workload speedrun)");
}

TEST(SweepRecord, JsonRoundTripKeepsEveryField) {
    const SweepCellRecord r = finishedRecord();
    const SweepCellRecord back = readSweepCellRecord(toJson(r), "cell.json");
    EXPECT_EQ(back.cell.key(), r.cell.key());
    EXPECT_EQ(back.createdUtc, r.createdUtc);
    EXPECT_EQ(back.steps, 3);
    EXPECT_EQ(back.warmupSteps, 5);
    EXPECT_EQ(back.result.status, RunStatus::Finished);
    EXPECT_EQ(back.result.stepSeconds, r.result.stepSeconds);
    EXPECT_EQ(back.result.imagesPerSecond, r.result.imagesPerSecond);
    EXPECT_EQ(back.result.imagesPerSecondLow, r.result.imagesPerSecondLow);
    EXPECT_EQ(back.result.multiplyAddsPerImage, 12354176);
    EXPECT_TRUE(back.result.phases.measured);
    EXPECT_EQ(back.result.phases.backward, 0.06);
    EXPECT_TRUE(std::isnan(back.peakGflops)) << "NaN is written as null and read back";
    EXPECT_TRUE(std::isnan(back.fractionOfPeak));
    EXPECT_EQ(back.fingerprint.hostName, "host-a");
    EXPECT_EQ(toJson(back), toJson(r));
}

TEST(SweepRecord, ABadFieldIsRefusedNamingTheFileTheFieldAndTheValue) {
    std::string text = toJson(finishedRecord());
    const auto at = text.find("0.125");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 5, "0");
    try {
        readSweepCellRecord(text, "cells/a.json");
        FAIL() << "no exception";
    } catch (const std::runtime_error &e) {
        EXPECT_EQ(std::string(e.what()),
                  "cells/a.json: field 'result.stepSeconds[1]' must be above 0 (got 0)");
    }
    std::string noModel = toJson(finishedRecord());
    noModel.replace(noModel.find("\"small-cnn\""), 11, "\"lenet\"");
    EXPECT_THROW(readSweepCellRecord(noModel, "b.json"), RecordError);
    EXPECT_THROW(readSweepCellRecord("{\"kind\": \"run\"}", "c.json"), RecordError);
    EXPECT_THROW(readSweepCellRecord("{", "d.json"), RecordError);
}

TEST(SweepRun, RunsEveryCellWritesARecordEachAndMeasuresThePeakOncePerDevice) {
    TempDir dir;
    Seen seen;
    std::atomic<bool> stop{false};
    const SweepOutcome out =
        runSweep(tinySpec(), dir.path().string(), watching(seen), stop, fakePeak);
    ASSERT_EQ(out.status, RunStatus::Finished);
    ASSERT_EQ(out.records.size(), 2U);
    EXPECT_EQ(out.failedCells, 0);
    EXPECT_EQ(seen.peaks, 1);
    EXPECT_EQ(seen.startedSkipped, 0);
    EXPECT_EQ(
        devicebench::testing::namesIn(dir.path()),
        (std::vector<std::string>{"small-cnn_b4_s32_cpu_x1.json", "small-cnn_b8_s32_cpu_x1.json"}));
    const SweepCellRecord &r = out.records[1];
    EXPECT_EQ(r.result.status, RunStatus::Finished) << r.result.reason;
    EXPECT_EQ(r.peakGflops, 100.0);
    EXPECT_NEAR(r.fractionOfPeak, r.result.achievedGflops / 100.0, 1e-12);
    EXPECT_EQ(r.result.phases.test, 0.0);
    EXPECT_TRUE(r.result.phases.measured);
    EXPECT_FALSE(r.fingerprint.hostName.empty());
    ASSERT_EQ(seen.ended.size(), 2U);
    EXPECT_TRUE(std::isfinite(seen.ended[0].secondsLeft));
    EXPECT_EQ(seen.ended[1].secondsLeft, 0.0);
    std::vector<std::string> errors;
    const auto loaded = loadSweepFolder(dir.path().string(), &errors);
    EXPECT_TRUE(errors.empty());
    ASSERT_EQ(loaded.size(), 2U);
    EXPECT_EQ(loaded[0].cell.batchSize, 4);
}

TEST(SweepRun, ASecondRunRedoesOnlyTheCellWhoseRecordIsMissing) {
    TempDir dir;
    std::atomic<bool> stop{false};
    SweepSpec spec = tinySpec();
    spec.measurePeak = false;
    Seen first;
    runSweep(spec, dir.path().string(), watching(first), stop, fakePeak);
    ASSERT_EQ(first.started.size(), 2U);
    EXPECT_EQ(first.peaks, 0) << "measurePeak false";
    fs::remove(dir.path() / "small-cnn_b8_s32_cpu_x1.json");

    Seen second;
    const SweepOutcome out = runSweep(spec, dir.path().string(), watching(second), stop, fakePeak);
    EXPECT_EQ(second.startedSkipped, 1);
    EXPECT_EQ(second.started, std::vector<std::string>{"small-cnn_b8_s32_cpu_x1"});
    EXPECT_EQ(second.resumed, std::vector<std::string>{"small-cnn_b4_s32_cpu_x1"});
    ASSERT_EQ(out.records.size(), 2U);
    EXPECT_EQ(out.records[0].cell.batchSize, 4) << "grid order, resumed cells included";
    EXPECT_TRUE(std::isnan(out.records[0].fractionOfPeak));

    // Other step settings: nothing is kept.
    spec.steps = 3;
    Seen third;
    runSweep(spec, dir.path().string(), watching(third), stop, fakePeak);
    EXPECT_EQ(third.startedSkipped, 0);
    EXPECT_EQ(third.started.size(), 2U);
}

TEST(SweepRun, AFailingCellIsRecordedAndTheOthersStillRun) {
    TempDir dir;
    SweepSpec spec = tinySpec();
    spec.batchSizes = {4};
    spec.devices = {SweepDevice{"cuda:9", 0}, SweepDevice{"cpu", 1}};
    Seen seen;
    std::atomic<bool> stop{false};
    const SweepOutcome out = runSweep(spec, dir.path().string(), watching(seen), stop, fakePeak);
    EXPECT_EQ(out.status, RunStatus::Finished);
    ASSERT_EQ(out.records.size(), 2U);
    EXPECT_EQ(out.failedCells, 1);
    EXPECT_EQ(out.records[0].result.status, RunStatus::Failed);
    EXPECT_NE(out.records[0].result.reason.find("cuda"), std::string::npos);
    EXPECT_EQ(out.records[1].result.status, RunStatus::Finished) << out.records[1].result.reason;
    EXPECT_TRUE(std::isnan(out.records[0].peakGflops));
    EXPECT_NE(out.records[0].peakMethod.find("no peak on cuda:9"), std::string::npos);
    EXPECT_TRUE(std::isnan(sweepSpeedUp(out.records, out.records[1], "cuda:9")));
    EXPECT_DOUBLE_EQ(sweepSpeedUp(out.records, out.records[1], "cpu x1"), 1.0);

    // The failed cell is kept, not retried.
    Seen again;
    runSweep(spec, dir.path().string(), watching(again), stop, fakePeak);
    EXPECT_EQ(again.startedSkipped, 2);
    EXPECT_TRUE(again.started.empty());
}

TEST(SweepRun, AStopRequestEndsTheSweepCancelledWithoutARecordForTheCell) {
    TempDir dir;
    std::atomic<bool> stop{false};
    SweepObserver o;
    o.cellEnded = [&](const SweepCellRecord &, const SweepProgress &, bool) { stop = true; };
    const SweepOutcome out = runSweep(tinySpec(), dir.path().string(), o, stop, fakePeak);
    EXPECT_EQ(out.status, RunStatus::Cancelled);
    EXPECT_EQ(out.records.size(), 1U);
    EXPECT_EQ(devicebench::testing::namesIn(dir.path()).size(), 1U);
}

TEST(SweepRun, AnUnreadableRecordIsRunAgainAndSkippedWhenLoadingTheFolder) {
    TempDir dir;
    std::ofstream(dir.path() / "small-cnn_b4_s32_cpu_x1.json") << "{ truncated";
    std::vector<std::string> errors;
    EXPECT_TRUE(loadSweepFolder(dir.path().string(), &errors).empty());
    ASSERT_EQ(errors.size(), 1U);
    EXPECT_EQ(
        errors[0].rfind("skipped " + (dir.path() / "small-cnn_b4_s32_cpu_x1.json").string(), 0), 0U)
        << errors[0];
    SweepSpec spec = tinySpec();
    spec.batchSizes = {4};
    Seen seen;
    std::atomic<bool> stop{false};
    runSweep(spec, dir.path().string(), watching(seen), stop, fakePeak);
    EXPECT_EQ(seen.started.size(), 1U);
    EXPECT_EQ(loadSweepFolder(dir.path().string(), nullptr).size(), 1U);
}

TEST(SweepCsv, OneRowPerCellUnderTheDocumentedHeader) {
    SweepCellRecord a = finishedRecord();
    SweepCellRecord b = finishedRecord();
    b.cell.device.threads = 1;
    b.result.imagesPerSecond = a.result.imagesPerSecond / 2;
    b.result.status = RunStatus::Failed;
    b.result.reason = "=out of memory, at batch size 64";
    const std::string csv = sweepCsv({a, b}, "cpu x2");
    std::vector<std::string> lines;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    ASSERT_EQ(lines.size(), 3U);
    EXPECT_EQ(lines[0], kSweepCsvHeader);
    EXPECT_EQ(
        lines[0].rfind("model,parameters,image_size,batch_size,device,threads,status,reason", 0),
        0U);
    EXPECT_EQ(lines[1].rfind("small-cnn,122570,32,64,cpu,2,finished,,5,3,581.80,500.50,650.25,"
                             "43.100,nan,nan,1,0.0909,0.2727,0.0091,0.5455,0.0818,1.0000,cpu x2,"
                             "faithful,cifar-10,0.250",
                             0),
              0U)
        << lines[1];
    EXPECT_NE(lines[2].find(",failed,\"'=out of memory, at batch size 64\","), std::string::npos)
        << "quoted, the formula neutralised: " << lines[2];
    EXPECT_NE(lines[2].find(",nan,cpu x2,"), std::string::npos) << "no speed-up of a failed cell";

    TempDir dir;
    std::string error;
    EXPECT_TRUE(writeSweepCsv({a, b}, "", (dir.path() / "s.csv").string(), &error)) << error;
    EXPECT_FALSE(writeSweepCsv({a}, "", (dir.path() / "no/s.csv").string(), &error));
    EXPECT_NE(error.find("no/s.csv"), std::string::npos) << error;
}

TEST(SweepPrecision, PrecisionIsAnAxisAndOnlyCellsOtherThanFp32ChangeTheirKey) {
    SweepSpec s = tinySpec();
    s.precisions = {Precision::Float32, Precision::BFloat16};
    const std::vector<SweepCell> cells = sweepCells(s);
    ASSERT_EQ(cells.size(), 2U * sweepCells(tinySpec()).size());
    EXPECT_EQ(cells[0].key(), sweepCells(tinySpec())[0].key()) << "fp32 keeps older names";
    EXPECT_EQ(cells[1].key(), cells[0].key() + "_bf16");
    EXPECT_EQ(stepBenchConfig(s, cells[1]).run.precision, Precision::BFloat16);
    EXPECT_EQ(validateSweepSpec(s), "");
    s.precisions = {Precision::Float16};
    EXPECT_NE(validateSweepSpec(s).find("fp16 is CUDA only"), std::string::npos);
    s.precisions = {};
    EXPECT_NE(validateSweepSpec(s).find("precision"), std::string::npos);
}

TEST(SweepPrecision, ARecordKeepsItsPrecisionAndAnOlderRecordWithoutOneReadsAsFp32) {
    SweepCellRecord r = finishedRecord();
    r.cell.precision = Precision::BFloat16;
    EXPECT_EQ(readSweepCellRecord(toJson(r), "cell.json").cell.precision, Precision::BFloat16);
    std::string older = toJson(finishedRecord());
    const std::string field = ",\n    \"precision\": \"fp32\"";
    const auto at = older.find(field);
    ASSERT_NE(at, std::string::npos) << older.substr(0, 400);
    older.erase(at, field.size());
    EXPECT_EQ(readSweepCellRecord(older, "old.json").cell.precision, Precision::Float32);
    std::string bad = toJson(r);
    bad.replace(bad.find("\"bf16\""), 6, "\"fp8\"");
    EXPECT_THROW(readSweepCellRecord(bad, "bad.json"), RecordError);
}

TEST(SweepPrecision,
     TheGainIsBf16ImagesPerSecondOverTheSameCellsFp32AndSpeedUpsStayWithinAPrecision) {
    SweepCellRecord fp32 = finishedRecord();
    SweepCellRecord bf16 = finishedRecord();
    bf16.cell.precision = Precision::BFloat16;
    bf16.result.imagesPerSecond = fp32.result.imagesPerSecond * 1.5;
    const std::vector<SweepCellRecord> records{fp32, bf16};
    EXPECT_DOUBLE_EQ(sweepPrecisionGain(records, bf16), 1.5);
    EXPECT_TRUE(std::isnan(sweepPrecisionGain(records, fp32))) << "fp32 has no gain over itself";
    EXPECT_TRUE(std::isnan(sweepPrecisionGain({bf16}, bf16))) << "no fp32 pair";
    EXPECT_DOUBLE_EQ(sweepSpeedUp(records, bf16, "cpu x2"), 1.0)
        << "against the baseline device's bf16 cell, not its fp32 one";
    const std::string csv = sweepCsv(records, "cpu x2");
    EXPECT_NE(csv.find(",bf16,1.5000\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",fp32,nan\n"), std::string::npos) << csv;
}
