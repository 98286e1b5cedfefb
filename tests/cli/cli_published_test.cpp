// SPDX-License-Identifier: MIT
// The published results in the CLI: `compare --published` names the article's rows and says
// which runs are like for like; `run` ends with the same block unless --no-published or the
// built-in file is missing; user reference files, and a bad one skipped with its message.
#include "devicebench/run_record.h"

#include "cifar_files.h"
#include "process_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using devicebench::testing::shellQuote;
using devicebench::testing::TempDir;
namespace fs = std::filesystem;

const fs::path kExamples = fs::path(DEVICEBENCH_REPO_DIR) / "docs" / "examples";
const fs::path kArticleFile =
    fs::path(DEVICEBENCH_REPO_DIR) / "resources" / "published" / "article.json";
constexpr const char *kNoneLine =
    "none of your runs is the article's script at the settings of article: its rows show where "
    "your runs stand, not a like-for-like speed-up (each row's note says what differs)";

// The CLI with an empty user data folder of its own, plus `env` words.
devicebench::testing::ProgramResult runCli(const std::vector<std::string> &args,
                                           const std::string &env = "") {
    static TempDir io("devicebench-published-io");
    static TempDir home("devicebench-published-home");
    devicebench::testing::ProgramSetup setup;
    setup.env = "XDG_DATA_HOME=" + shellQuote((home.path() / "data").string()) + " " + env;
    return devicebench::testing::runProgram(DEVICEBENCH_CLI, args, home.path(), io.path(), setup);
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// An example record turned into a finished run of the article's script at the article's
// settings (10 epochs, 2 warm-up, all images), at `batchSize`, written to `path`.
void writeArticleScriptRecord(const fs::path &path, int batchSize, double seconds) {
    devicebench::RunRecord r =
        devicebench::readRunRecord((kExamples / "cpu-1-thread.json").string());
    r.runId += "-article-" + std::to_string(batchSize);
    r.workload = "article-script";
    r.config.epochs = 10;
    r.config.warmupEpochs = 2;
    r.config.batchSize = batchSize;
    r.config.trainImages = 0;
    r.config.testImages = 0;
    r.started.trainImages = 50000;
    r.started.testImages = 10000;
    r.started.stepsPerEpoch = (50000 + batchSize - 1) / batchSize;
    r.data.trainImages = 50000;
    r.data.testImages = 10000;
    r.steps.clear();
    const devicebench::EpochResult first = r.epochs.front();
    r.epochs.clear();
    for (int n = 1; n <= 10; ++n) {
        devicebench::EpochResult e = first;
        e.epoch = n;
        e.seconds = seconds + 0.01 * n;
        e.warmup = n <= 2;
        r.epochs.push_back(e);
    }
    devicebench::writeRunRecord(path.string(), r);
}

TEST(ComparePublished, NamesTheArticlesRowsAndSaysNoFaithfulRunIsLikeForLike) {
    const auto r =
        runCli({"compare", "--runs", "--published", (kExamples / "cpu-1-thread.json").string(),
                (kExamples / "cpu-2-threads.json").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char *row :
         {"article: Tesla T4 (Kaggle notebook)", "article: RTX 3050 laptop GPU (local JupyterLab)",
          "article: home desktop CPU (local JupyterLab)", "article: cloud CPU (Kaggle notebook)",
          "11.82 s", "12.50 s", "27.35 s", "55.62 s"})
        EXPECT_TRUE(contains(r.out, row)) << row << " in\n" << r.out;
    EXPECT_TRUE(contains(r.out, "other program: DeviceBench's faithful workload, not the "
                                "article's script"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "are not stated")) << "the source's note\n" << r.out;
    EXPECT_TRUE(contains(r.out, kNoneLine)) << r.out;
    EXPECT_TRUE(contains(r.out, "speed-up vs #1")) << "the runs' baseline, not a row\n" << r.out;
}

TEST(ComparePublished, OnlyTheArticlesScriptAtTheArticlesBatchSizeIsLikeForLike) {
    TempDir dir("devicebench-published-records");
    writeArticleScriptRecord(dir.path() / "b64.json", 64, 30.0);
    writeArticleScriptRecord(dir.path() / "b128.json", 128, 25.0);
    const auto r = runCli({"compare", "--published", (dir.path() / "b64.json").string(),
                           (dir.path() / "b128.json").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "like for like with the article (the article's script at the "
                                "settings of article): #1\n"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "like for like\n")) << "the rows against the baseline #1\n"
                                                    << r.out;
    EXPECT_FALSE(contains(r.out, kNoneLine)) << r.out;

    // With the batch-128 run as the baseline the rows are "other settings".
    const auto other =
        runCli({"compare", "--published", "--baseline", "2", (dir.path() / "b64.json").string(),
                (dir.path() / "b128.json").string()});
    EXPECT_TRUE(contains(other.out, "other settings: batch size 128 (article: 64)")) << other.out;
}

TEST(ComparePublished, WithoutRecordsTheRowsStandAloneAndJsonHoldsThem) {
    const auto r = runCli({"compare", "--published", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto document = nlohmann::json::parse(r.out);
    EXPECT_TRUE(document["baseline"].is_null());
    EXPECT_TRUE(document["runs"].empty());
    const auto &rows = document["published"];
    ASSERT_EQ(rows.size(), 4U) << r.out;
    EXPECT_EQ(rows[0]["label"], "article: Tesla T4 (Kaggle notebook)");
    EXPECT_DOUBLE_EQ(rows[3]["stableMeanSeconds"].get<double>(), 55.62);
    EXPECT_TRUE(rows[0]["epochSeconds"].is_null()) << "none published";
    EXPECT_TRUE(rows[0]["speedUp"].is_null()) << "never a baseline unless chosen";
    EXPECT_EQ(rows[0]["source"]["program"], "article-script");
    EXPECT_EQ(rows[0]["settings"]["batchSize"], 64);
}

TEST(ComparePublished, ACompareWithoutRecordsIsRefusedUnlessPublishedAndWithoutFiles) {
    const auto r = runCli({"compare"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(contains(r.err, "compare needs at least one run record (or --published)")) << r.err;
    const auto csv = runCli({"compare", "--published", "--csv", "x.csv"});
    EXPECT_EQ(csv.exitCode, 2);
    EXPECT_TRUE(contains(csv.err, "--csv and --png draw run records")) << csv.err;
    EXPECT_TRUE(csv.out.empty()) << "refused before any output: " << csv.out;
}

TEST(ComparePublished, ABadUserFileIsSkippedWithItsMessageAndTheOthersShow) {
    TempDir extra("devicebench-published-extra");
    std::ofstream(extra.path() / "bad.json") << "{\"schemaVersion\": 2}";
    std::string lab = devicebench::testing::slurp(kArticleFile);
    lab.replace(lab.find("\"shortName\": \"article\""), 22, "\"shortName\": \"lab\"");
    std::ofstream(extra.path() / "lab.json") << lab;
    const auto r = runCli({"compare", "--published-dir", extra.path().string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "skipped " + (extra.path() / "bad.json").string() +
                                    ": field 'schemaVersion' is 2, newer than this version of "
                                    "DeviceBench reads (1)"))
        << r.err;
    EXPECT_TRUE(contains(r.out, "article: Tesla T4 (Kaggle notebook)")) << r.out;
    EXPECT_TRUE(contains(r.out, "lab: Tesla T4 (Kaggle notebook)")) << r.out;
}

TEST(ComparePublished, TheResourcesVariableChoosesTheBuiltInFolder) {
    TempDir resources("devicebench-published-resources");
    fs::create_directories(resources.path() / "published");
    std::string copy = devicebench::testing::slurp(kArticleFile);
    copy.replace(copy.find("\"shortName\": \"article\""), 22, "\"shortName\": \"copy\"");
    std::ofstream(resources.path() / "published" / "article.json") << copy;
    const auto r = runCli({"compare", "--published"},
                          "DEVICEBENCH_RESOURCES=" + shellQuote(resources.path().string()));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "copy: Tesla T4 (Kaggle notebook)")) << r.out;
    EXPECT_FALSE(contains(r.out, "article: Tesla T4")) << r.out;
}

TEST(RunPublished, ARunEndsWithThePublishedBlockUnlessTurnedOffOrMissing) {
    const std::vector<std::string> run{"run", "--synthetic",   "--epochs", "1", "--train-images",
                                       "128", "--test-images", "64"};
    const auto shown = runCli(run);
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    EXPECT_TRUE(contains(shown.out, "published results")) << shown.out;
    EXPECT_TRUE(contains(shown.out, "article: cloud CPU (Kaggle notebook)")) << shown.out;
    EXPECT_TRUE(contains(shown.out, kNoneLine)) << shown.out;

    std::vector<std::string> off = run;
    off.push_back("--no-published");
    const auto hidden = runCli(off);
    ASSERT_EQ(hidden.exitCode, 0) << hidden.err;
    EXPECT_FALSE(contains(hidden.out, "published results")) << hidden.out;

    const auto missing = runCli(run, "DEVICEBENCH_RESOURCES=/nonexistent/devicebench");
    ASSERT_EQ(missing.exitCode, 0) << missing.err;
    EXPECT_FALSE(contains(missing.out, "published results")) << missing.out;
}

TEST(RunPublished, RunJsonGainsThePublishedArray) {
    const auto r = runCli({"run", "--synthetic", "--epochs", "1", "--train-images", "128",
                           "--test-images", "64", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto document = nlohmann::json::parse(r.out);
    ASSERT_EQ(document["published"].size(), 4U) << r.out;
    EXPECT_EQ(document["published"][0]["match"], "other-program")
        << "a faithful run: " << document["published"][0]["note"];
}

} // namespace
