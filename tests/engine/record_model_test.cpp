// SPDX-License-Identifier: MIT
// The model fields of run records (docs/run-record.md): config.model,
// config.imageSize, started.modelParameters and started.multiplyAddsPerImage written and read,
// their defaults for records written before them, their checks, the recorder and the label.
#include "devicebench/comparison.h"
#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace devicebench;
using Json = nlohmann::json;

namespace {

// A record written before the model fields existed (docs/examples: 5 finished epochs of
// small-cnn at 32 x 32 on the CPU).
Json olderRecord() {
    std::ifstream in(std::string(DEVICEBENCH_EXAMPLES_DIR) + "/cpu-1-thread.json");
    std::stringstream text;
    text << in.rdbuf();
    return Json::parse(text.str());
}

RunRecord parsed(const Json &json) { return parseRunRecord(json.dump(), "runs/a.json"); }

std::string messageOf(const Json &json) {
    try {
        parsed(json);
    } catch (const RecordError &e) {
        return e.what();
    }
    return "(accepted)";
}

} // namespace

TEST(RecordModel, ARecordFromBeforeImportsAsTheArticlesSmallCnnAt32) {
    const Json json = olderRecord();
    ASSERT_FALSE(json.at("config").contains("model"));
    ASSERT_FALSE(json.at("config").contains("imageSize"));
    ASSERT_FALSE(json.at("started").contains("modelParameters"));
    ASSERT_FALSE(json.at("started").contains("multiplyAddsPerImage"));
    const RunRecord r = parsed(json);
    EXPECT_EQ(r.model, "small-cnn");
    EXPECT_EQ(r.config.model, "small-cnn");
    EXPECT_EQ(r.config.imageSize, 32);
    EXPECT_EQ(r.started.modelParameters, 145578);
    EXPECT_EQ(r.started.multiplyAddsPerImage, 12354176);
}

TEST(RecordModel, AnOlderRecordOfAnotherModelTakesItsNameAndLeavesTheCountsUnknown) {
    Json json = olderRecord();
    json["model"] = "deep-cnn";
    const RunRecord r = parsed(json);
    EXPECT_EQ(r.config.model, "deep-cnn") << "from the top-level model";
    EXPECT_EQ(r.started.modelParameters, 0);
    EXPECT_EQ(r.started.multiplyAddsPerImage, 0);
}

TEST(RecordModel, TheFieldsRoundTripAndAnUnknownModelIsKeptAsText) {
    RunRecord r = parsed(olderRecord());
    r.model = r.config.model = "mystery-net";
    r.config.imageSize = 64;
    r.started.modelParameters = 123456789;
    r.started.multiplyAddsPerImage = 9876543210;
    const std::string json = toJson(r);
    EXPECT_NE(json.find("\"imageSize\": 64"), std::string::npos);
    const RunRecord back = parseRunRecord(json, "runs/b.json");
    EXPECT_EQ(back.model, "mystery-net");
    EXPECT_EQ(back.config.model, "mystery-net");
    EXPECT_EQ(back.config.imageSize, 64);
    EXPECT_EQ(back.started.modelParameters, 123456789);
    EXPECT_EQ(back.started.multiplyAddsPerImage, 9876543210);
    const std::vector<std::string> differences = workloadDifferences(parsed(olderRecord()), back);
    EXPECT_NE(std::find(differences.begin(), differences.end(), "model"), differences.end());
    EXPECT_NE(std::find(differences.begin(), differences.end(), "image size"), differences.end());
}

TEST(RecordModel, AnImageSizeNoRunUsesIsRefusedNamingTheField) {
    Json json = olderRecord();
    json["config"]["imageSize"] = 48;
    EXPECT_EQ(messageOf(json),
              "runs/a.json: field 'config.imageSize' must be 32, 64 or 128 pixels (got 48)");
    json["config"]["imageSize"] = "64";
    EXPECT_EQ(messageOf(json), "runs/a.json: field 'config.imageSize' must be a whole number");
    json = olderRecord();
    json["started"]["modelParameters"] = -1;
    EXPECT_EQ(messageOf(json),
              "runs/a.json: field 'started.modelParameters' must be at least 0 (got -1)");
}

TEST(RecordModel, TheRecorderRecordsTheModelTrainedAtTheTopLevel) {
    RunConfig config;
    config.model = "vit-tiny";
    config.imageSize = 128;
    RunRecorder recorder(config, "", nullptr, "id-1", FingerprintSource());
    EXPECT_EQ(recorder.record().model, "vit-tiny");
    EXPECT_EQ(recorder.record().config.imageSize, 128);
}

TEST(RecordModel, TheRunLabelNamesAModelAndImageSizeOtherThanTheArticles) {
    RunRecord r = parsed(olderRecord());
    const std::string article = runLabel(r);
    EXPECT_EQ(modelLabel(r), "");
    r.model = r.config.model = "resnet18";
    r.config.imageSize = 64;
    EXPECT_EQ(runLabel(r), article + " \u00b7 resnet18 \u00b7 64 px");
    r.model = r.config.model = "small-cnn";
    EXPECT_EQ(modelLabel(r), " \u00b7 64 px");
}
