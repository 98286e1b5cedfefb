// SPDX-License-Identifier: MIT
// What a script run's record says it trained (docs/YOUR-SCRIPT.md, "What the record says"): the
// script's own model, wrapper, batch size and learning rate, or "not stated", never the
// request's defaults; its steps and images as counted per epoch; records of earlier versions
// read the same way; its name in labels; the published rows kept away from runs that are all
// scripts'.
#include "devicebench/comparison.h"
#include "devicebench/csv_export.h"
#include "devicebench/published.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace devicebench;
using Json = nlohmann::json;

namespace {

// The request of a script run, with DeviceBench's defaults in the fields the script owns.
RunConfig scriptRequest() {
    RunConfig config;
    config.workload = Workload::Script;
    config.script = "/home/ada/project/train.py";
    config.epochs = 2;
    config.warmupEpochs = 1;
    return config; // batch size 64 and learning rate 0.01, as every request starts
}

RunStarted startedByScript() {
    RunStarted started;
    started.device = "cpu";
    started.deviceName = "CPU";
    started.threads = 2;
    started.dataDescription = "the script's own data (train.py)";
    started.modelName = "TinyNet";
    started.modelWrapper = "DataParallel";
    started.modelParameters = 2410;
    started.batchSize = 96;
    started.learningRate = 0.05;
    return started;
}

EpochResult countedEpoch(int number, std::int64_t steps, std::int64_t images) {
    EpochResult e;
    e.epoch = number;
    e.seconds = 2.0;
    e.warmup = number == 1;
    e.trainLoss = 1.5;
    e.testLoss = std::nan("");
    e.testAccuracy = 0.4;
    e.imagesPerSecond = static_cast<double>(images) / e.seconds;
    e.steps = steps;
    e.trainImages = images;
    return e;
}

// A finished script run as this version records it: two epochs of 11 steps over 1000 images.
RunRecord recordedScriptRun(const RunStarted &started) {
    RunRecorder recorder(scriptRequest(), "", nullptr, "id-1", FingerprintSource());
    recorder.onRunStarted(started);
    RunOutcome outcome;
    for (int epoch = 1; epoch <= 2; ++epoch) {
        std::vector<StepLoss> steps;
        for (int i = 1; i <= 11; ++i)
            steps.push_back({epoch, (epoch - 1) * 11 + i, 1.5});
        recorder.onStepLosses(steps);
        outcome.epochs.push_back(countedEpoch(epoch, 11, 1000));
        recorder.onEpochFinished(outcome.epochs.back());
    }
    outcome.status = RunStatus::Finished;
    recorder.onRunEnded(outcome);
    return recorder.record();
}

// A script run's record as earlier versions wrote it: the request's small-cnn, 64 and 0.01 in
// its settings, 0 steps per epoch, the script's class name as its model. From the example
// record (157 steps in each of its 5 epochs).
Json earlierScriptRecord() {
    std::ifstream in(std::string(DEVICEBENCH_EXAMPLES_DIR) + "/cpu-1-thread.json");
    std::stringstream text;
    text << in.rdbuf();
    Json j = Json::parse(text.str());
    j["workload"] = "script";
    j["model"] = "DataParallel";
    j["config"]["script"] = "/home/ada/project/train.py";
    j["config"]["scriptArgs"] = Json::array();
    j["config"]["scriptHash"] = "";
    j["started"]["stepsPerEpoch"] = 0;
    j["started"]["trainImages"] = 0;
    j["started"]["testImages"] = 0;
    j["started"]["modelName"] = "DataParallel";
    j["started"]["batchSize"] = 32;
    return j;
}

} // namespace

TEST(ScriptRecord, TheRecorderTakesTheScriptsStatedSettingsNotTheRequestsDefaults) {
    const RunRecord r = recordedScriptRun(startedByScript());
    EXPECT_EQ(r.model, "TinyNet");
    EXPECT_EQ(r.config.model, "TinyNet");
    EXPECT_EQ(r.config.batchSize, 96);
    EXPECT_DOUBLE_EQ(r.config.learningRate, 0.05);
    const RunRecord back = parseRunRecord(toJson(r), "runs/script.json");
    EXPECT_EQ(back.config.batchSize, 96);
    EXPECT_DOUBLE_EQ(back.config.learningRate, 0.05);
    EXPECT_EQ(back.started.modelWrapper, "DataParallel");
}

TEST(ScriptRecord, WhatTheScriptDidNotStateIsWrittenAsNotStated) {
    RunStarted started = startedByScript();
    started.modelName.clear();
    started.modelWrapper.clear();
    started.batchSize = 0;
    started.learningRate = std::nan("");
    const RunRecord r = recordedScriptRun(started);
    EXPECT_EQ(r.model, "");
    EXPECT_EQ(r.config.batchSize, 0) << "not the request's 64";
    EXPECT_TRUE(std::isnan(r.config.learningRate)) << "not the request's 0.01";
    const Json json = Json::parse(toJson(r));
    EXPECT_TRUE(json.at("config").at("learningRate").is_null());
    EXPECT_FALSE(json.at("started").contains("learningRate"));
    const RunRecord back = parseRunRecord(json.dump(), "runs/script.json");
    EXPECT_TRUE(std::isnan(back.config.learningRate));
    RunSet set;
    set.addRun(1, back);
    const std::string csv = groupsCsv(set);
    const std::string row = csv.substr(csv.find('\n') + 1);
    EXPECT_NE(row.find(",32,,fp32,script,"), std::string::npos)
        << "image size 32, batch size empty, not 0: " << row;
    // Two such runs of one script differ in nothing the script did not state.
    EXPECT_TRUE(workloadDifferences(r, back).empty());
}

TEST(ScriptRecord, TheFirstCountedEpochGivesTheStepsPerEpochAndTrainingImages) {
    const RunRecord r = recordedScriptRun(startedByScript());
    EXPECT_EQ(r.started.stepsPerEpoch, 11);
    EXPECT_EQ(r.started.trainImages, 1000) << "counted, not 11 x 96";
    ASSERT_EQ(r.epochs.size(), 2u);
    EXPECT_EQ(r.epochs[1].steps, 11);
    EXPECT_EQ(r.epochs[1].trainImages, 1000);
    const RunRecord back = parseRunRecord(toJson(r), "runs/script.json");
    EXPECT_EQ(back.epochs[0].steps, 11);
    EXPECT_EQ(back.epochs[0].trainImages, 1000);
    RunSet set;
    set.addRun(1, back);
    EXPECT_NEAR(set.runs().front().summary.imagesPerSecond, 500.0, 1e-9)
        << "1000 counted images over a 2 s stable epoch, not 0";
}

TEST(ScriptRecord, WhileTheFirstEpochRunsItsStepsFillThatEpoch) {
    RunRecorder recorder(scriptRequest(), "", nullptr, "id-1", FingerprintSource());
    recorder.onRunStarted(startedByScript());
    EXPECT_EQ(stepsPerEpochOf(recorder.record()), 1) << "no step yet";
    recorder.onStepLosses({{1, 1, 2.0}, {1, 2, 2.0}, {1, 3, 2.0}, {1, 4, 2.0}});
    EXPECT_EQ(stepsPerEpochOf(recorder.record()), 4) << "step 4 of 4 seen: at the epoch's end";
    recorder.onEpochFinished(countedEpoch(1, 7, 700));
    EXPECT_EQ(stepsPerEpochOf(recorder.record()), 7);
}

TEST(ScriptRecord, AnEarlierVersionsRecordReadsWithTheScriptsSettingsAndItsStepsCounted) {
    const RunRecord r = parseRunRecord(earlierScriptRecord().dump(), "runs/old-script.json");
    EXPECT_EQ(r.config.batchSize, 32) << "the script's, not the request's 64";
    EXPECT_TRUE(std::isnan(r.config.learningRate)) << "the script never said; 0.01 was ours";
    EXPECT_EQ(r.started.stepsPerEpoch, 157) << "counted from its first epoch's steps";
    EXPECT_EQ(stepsPerEpochOf(r), 157);
}

TEST(ScriptRecord, ALabelNamesTheScriptsFileAndModelNotAWorkloadOrABatchOfZero) {
    RunRecord r = recordedScriptRun(startedByScript());
    EXPECT_EQ(scriptWorkText(r.config.script, r.started), "train.py: TinyNet in DataParallel");
    const std::string label = runLabel(r);
    EXPECT_NE(label.find(" \u00b7 train.py: TinyNet in DataParallel"), std::string::npos) << label;
    EXPECT_EQ(label.find("(script)"), std::string::npos) << label;
    r.model.clear();
    r.started.modelName.clear();
    r.started.modelWrapper.clear();
    r.config.batchSize = 0;
    EXPECT_EQ(scriptWorkText(r.config.script, r.started), "train.py");
    EXPECT_EQ(runLabel(r).find("batch"), std::string::npos) << runLabel(r);
}

TEST(ScriptRecord, PublishedRowsAreNotPutBesideRunsThatAreAllScripts) {
    RunSet set;
    EXPECT_TRUE(publishedBelongsBeside(set)) << "an empty view shows the rows";
    set.addRun(1, recordedScriptRun(startedByScript()));
    EXPECT_FALSE(publishedBelongsBeside(set));
    RunRecord article = recordedScriptRun(startedByScript());
    article.config.workload = Workload::Faithful;
    article.workload = "faithful";
    set.addRun(2, article);
    EXPECT_TRUE(publishedBelongsBeside(set)) << "beside the article's network's run";
}
