// SPDX-License-Identifier: MIT
// Published results (published.h) and where DeviceBench's data files are (resource_files.h):
// the reader's errors, the built-in file through the locator, user files, and the rule that a
// published row is like for like only with the article's script at the article's settings.
#include "record_builder.h"

#include "devicebench/published.h"
#include "devicebench/resource_files.h"
#include "devicebench/run_set.h"

#include "cifar_files.h"
#include "process_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

const fs::path kSourceFile = fs::path(DEVICEBENCH_SOURCE_DIR) / "resources/published/article.json";

std::string articleText() { return testing::slurp(kSourceFile); }

// The built-in file's text with `from` replaced by `to` (once; the test fails if absent).
std::string articleWith(const std::string &from, const std::string &to) {
    std::string text = articleText();
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

// parsePublished's message for `text`, "" when it parses.
std::string errorOf(const std::string &text) {
    try {
        parsePublished(text, "article.json");
    } catch (const PublishedError &e) {
        return e.what();
    }
    return "";
}

void writeFile(const fs::path &path, const std::string &text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

// Sets an environment variable for one test and puts back what was there.
class ScopedVariable {
public:
    ScopedVariable(const char *name, const std::string &value) : m_name(name) {
        if (const char *old = std::getenv(name)) {
            m_had = true;
            m_old = old;
        }
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedVariable() {
        if (m_had)
            ::setenv(m_name, m_old.c_str(), 1);
        else
            ::unsetenv(m_name);
    }
    ScopedVariable(const ScopedVariable &) = delete;
    ScopedVariable &operator=(const ScopedVariable &) = delete;

private:
    const char *m_name;
    bool m_had = false;
    std::string m_old;
};

RunRecord articleRecord(const std::string &workload, double seconds = 20.0) {
    return testing::articleSettingsRun("run-" + workload + "-" + std::to_string(seconds), workload,
                                       seconds);
}

PublishedSet article() { return parsePublished(articleText(), kSourceFile.string()); }

TEST(PublishedFile, TheArticlesTableReadsWithItsFourRowsAndSettings) {
    const PublishedSet set = article();
    EXPECT_EQ(set.source.program, kArticleScriptWorkload);
    EXPECT_EQ(set.source.shortName, "article");
    EXPECT_NE(set.source.note.find("are not stated"), std::string::npos) << set.source.note;
    EXPECT_EQ(set.settings.model, "small-cnn");
    EXPECT_EQ(set.settings.batchSize, 64);
    EXPECT_EQ(set.settings.epochs, 10);
    EXPECT_EQ(set.settings.warmupEpochs, 2);
    EXPECT_DOUBLE_EQ(set.settings.learningRate, 0.01);
    EXPECT_EQ(set.settings.precision, Precision::Float32);
    EXPECT_EQ(set.settings.imageSize, 32);
    EXPECT_EQ(set.settings.trainImages, 50000);
    EXPECT_EQ(set.settings.testImages, 10000);
    ASSERT_EQ(set.rows.size(), 4U);
    const double means[] = {11.82, 12.50, 27.35, 55.62};
    const char *kinds[] = {"cuda", "cuda", "cpu", "cpu"};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_DOUBLE_EQ(set.rows[i].stableMeanSeconds, means[i]);
        EXPECT_EQ(set.rows[i].deviceKind, kinds[i]);
        EXPECT_TRUE(set.rows[i].epochSeconds.empty()) << "the article published no epochs";
    }
    EXPECT_EQ(set.rows[0].where, "Kaggle notebook");
    EXPECT_EQ(set.rows[2].where, "local JupyterLab");
    EXPECT_EQ(publishedLabel(set, set.rows[0]), "article: Tesla T4 (Kaggle notebook)");
}

TEST(PublishedFile, AMissingFieldIsNamedWithItsFile) {
    EXPECT_EQ(errorOf(articleWith("\"where\": \"Kaggle notebook\",", "")),
              "article.json: field 'rows[0].where' is missing");
    EXPECT_EQ(errorOf(articleWith("\"program\": \"article-script\"", "\"url\": \"\"")),
              "article.json: field 'source.program' is missing");
}

TEST(PublishedFile, AFieldOfTheWrongTypeIsNamed) {
    EXPECT_EQ(errorOf(articleWith("\"batchSize\": 64", "\"batchSize\": \"64\"")),
              "article.json: field 'settings.batchSize' must be a whole number");
    EXPECT_EQ(errorOf(articleWith("\"stableMeanSeconds\": 27.35", "\"stableMeanSeconds\": \"x\"")),
              "article.json: field 'rows[2].stableMeanSeconds' must be a finite number");
}

TEST(PublishedFile, ABadNumberIsRefusedWithTheValue) {
    EXPECT_EQ(errorOf(articleWith("\"stableMeanSeconds\": 27.35", "\"stableMeanSeconds\": 0")),
              "article.json: field 'rows[2].stableMeanSeconds' must be above 0 (got 0)");
    EXPECT_EQ(errorOf(articleWith("\"stableMeanSeconds\": 27.35", "\"stableMeanSeconds\": null")),
              "article.json: field 'rows[2].stableMeanSeconds' must be a finite number");
    EXPECT_EQ(errorOf(articleWith("\"warmupEpochs\": 2", "\"warmupEpochs\": 10")),
              "article.json: field 'settings.warmupEpochs' must be below the epochs (10), or no "
              "epoch is stable");
    EXPECT_EQ(errorOf(articleWith("\"deviceKind\": \"cpu\"", "\"deviceKind\": \"tpu\"")),
              "article.json: field 'rows[2].deviceKind' must be cuda or cpu (got 'tpu')");
    EXPECT_EQ(errorOf(articleWith("\"stableMeanSeconds\": 11.82",
                                  "\"stableMeanSeconds\": 11.82, \"epochSeconds\": [1, 2]")),
              "article.json: field 'rows[0].epochSeconds' must hold one number per epoch (10), "
              "got 2");
}

TEST(PublishedFile, SecondsNoTableCanShowAreRefused) {
    EXPECT_EQ(errorOf(articleWith("\"stableMeanSeconds\": 27.35", "\"stableMeanSeconds\": 1e308")),
              "article.json: field 'rows[2].stableMeanSeconds' must be between 0.001 and 1000000 "
              "seconds (got 1e+308)");
    EXPECT_EQ(errorOf(articleWith("\"stableMeanSeconds\": 27.35", "\"stableMeanSeconds\": 1e-300")),
              "article.json: field 'rows[2].stableMeanSeconds' must be between 0.001 and 1000000 "
              "seconds (got 1e-300)");
}

TEST(PublishedFile, TextWithControlCharactersIsRefused) {
    EXPECT_EQ(errorOf(articleWith("\"device\": \"Tesla T4\"", "\"device\": \"T4\\u001b[31m\"")),
              "article.json: field 'rows[0].device' must not hold control characters (newlines, "
              "escapes)");
}

TEST(PublishedFile, ANewerSchemaVersionIsRefusedSayingSo) {
    EXPECT_EQ(errorOf(articleWith("\"schemaVersion\": 1", "\"schemaVersion\": 2")),
              "article.json: field 'schemaVersion' is 2, newer than this version of DeviceBench "
              "reads (1)");
}

TEST(PublishedFile, TextThatIsNotJsonIsRefusedNamingTheFile) {
    const std::string error = errorOf("{\"schemaVersion\": 1,");
    EXPECT_EQ(error.rfind("article.json: not valid JSON", 0), 0U) << error;
}

TEST(PublishedFile, PublishedEpochsAreReadWhenGiven) {
    const PublishedSet set = parsePublished(
        articleWith("\"stableMeanSeconds\": 11.82",
                    "\"stableMeanSeconds\": 11.82, \"epochSeconds\": [20, 13, 12, 12, 12, 12, "
                    "12, 11, 11, 11]"),
        "x.json");
    ASSERT_EQ(set.rows[0].epochSeconds.size(), 10U);
    EXPECT_DOUBLE_EQ(set.rows[0].epochSeconds[0], 20.0);
}

TEST(ResourceFiles, TheVariableReplacesTheFolderBesideTheProgram) {
    EXPECT_EQ(resourceDirFor("/opt/db/bin/devicebench-cli", "/tmp/res"), "/tmp/res");
    EXPECT_EQ(resourceDirFor("/opt/db/bin/devicebench-cli", nullptr), "/opt/db/share/devicebench");
    EXPECT_EQ(resourceDirFor("/opt/db/bin/devicebench-cli", ""), "/opt/db/share/devicebench");
    EXPECT_EQ(resourceDirFor("/b/libexec/devicebench-cli", nullptr), "/b/share/devicebench")
        << "the runner bundle's binary sits in libexec/";
    EXPECT_EQ(resourceDirFor("", nullptr), "");
}

TEST(ResourceFiles, TheUserFolderFollowsXdgDataHomeThenHome) {
    EXPECT_EQ(userDataDirFor("/x/data", "/home/u"), "/x/data/devicebench");
    EXPECT_EQ(userDataDirFor(nullptr, "/home/u"), "/home/u/.local/share/devicebench");
    EXPECT_EQ(userDataDirFor("", "/home/u"), "/home/u/.local/share/devicebench");
    EXPECT_EQ(userDataDirFor(nullptr, nullptr), "");
}

TEST(ResourceFiles, TheBuildTreeHoldsTheBuiltInFileWhereTheCliLooks) {
    // The CLI is build/<preset>/app/devicebench-cli: its ../share/devicebench.
    const std::string dir = resourceDirFor(
        (fs::path(DEVICEBENCH_BINARY_DIR) / "app" / "devicebench-cli").string(), nullptr);
    const PublishedSet set = readPublished(dir + "/published/article.json");
    EXPECT_EQ(set.rows.size(), 4U);
}

TEST(PublishedReader, AnAbsentAnUnreadableAndAMalformedFileAreToldApart) {
    TempDir dir("devicebench-published-files");
    const std::string missing = (dir.path() / "none.json").string();
    const std::string folder = (dir.path() / "folder.json").string();
    fs::create_directory(folder);
    const std::string bad = (dir.path() / "bad.json").string();
    writeFile(bad, "{\"format\": ");
    const std::vector<std::pair<std::string, std::string>> cases{
        {missing, missing + ": does not exist"},
        {folder, folder + ": exists but cannot be read (a folder, not a file)"},
        {bad, bad + ": not valid JSON (parse error at line 1, column 12"}};
    for (const auto &[path, said] : cases) {
        try {
            readPublished(path);
            ADD_FAILURE() << path << " read";
        } catch (const PublishedError &e) {
            EXPECT_EQ(std::string(e.what()).rfind(said, 0), 0U) << e.what();
        }
    }
}

TEST(PublishedLoading, TheBuiltInFileLoadsThroughTheResourcesVariable) {
    TempDir resources("devicebench-resources");
    TempDir user("devicebench-xdg");
    writeFile(resources.path() / "published" / "article.json", articleText());
    const ScopedVariable variable(kResourcesVariable, resources.path().string());
    const ScopedVariable xdg("XDG_DATA_HOME", user.path().string());
    EXPECT_EQ(resourceDir(), resources.path().string());
    const PublishedLoad load = loadPublished(publishedFolders());
    EXPECT_TRUE(load.builtInFound);
    EXPECT_TRUE(load.problems.empty()) << load.problems.front();
    ASSERT_EQ(load.sets.size(), 1U);
    EXPECT_TRUE(load.sets[0].builtIn);
    EXPECT_EQ(load.sets[0].file, (resources.path() / "published" / "article.json").string());
}

TEST(PublishedLoading, ABadUserFileIsReportedAndSkippedAndTheOthersLoad) {
    TempDir resources("devicebench-resources");
    TempDir user("devicebench-xdg");
    TempDir extra("devicebench-extra");
    writeFile(resources.path() / "published" / "article.json", articleText());
    writeFile(user.path() / "devicebench" / "published" / "bad.json",
              articleWith("\"stableMeanSeconds\": 55.62", "\"stableMeanSeconds\": -1"));
    writeFile(user.path() / "devicebench" / "published" / "lab.json",
              articleWith("\"shortName\": \"article\"", "\"shortName\": \"lab\""));
    writeFile(user.path() / "devicebench" / "published" / "notes.txt", "not read");
    writeFile(extra.path() / "more.json",
              articleWith("\"shortName\": \"article\"", "\"shortName\": \"more\""));
    const ScopedVariable variable(kResourcesVariable, resources.path().string());
    const ScopedVariable xdg("XDG_DATA_HOME", user.path().string());
    const PublishedLoad load = loadPublished(publishedFolders(extra.path().string()));
    ASSERT_EQ(load.problems.size(), 1U);
    EXPECT_EQ(load.problems[0], (user.path() / "devicebench" / "published" / "bad.json").string() +
                                    ": field 'rows[3].stableMeanSeconds' must be above 0 (got -1)");
    ASSERT_EQ(load.sets.size(), 3U);
    EXPECT_EQ(load.sets[0].source.shortName, "article");
    EXPECT_EQ(load.sets[1].source.shortName, "lab");
    EXPECT_FALSE(load.sets[1].builtIn);
    EXPECT_EQ(load.sets[2].source.shortName, "more");
}

TEST(PublishedLoading, AMissingFolderGivesNothingAndTheSameFileIsReadOnce) {
    TempDir resources("devicebench-resources");
    writeFile(resources.path() / "published" / "article.json", articleText());
    const PublishedLoad load = loadPublished({{(resources.path() / "published").string(), true},
                                              {(resources.path() / "published").string(), false},
                                              {(resources.path() / "nowhere").string(), false}});
    EXPECT_TRUE(load.problems.empty());
    EXPECT_EQ(load.sets.size(), 1U);
}

TEST(PublishedComparability, FaithfulAndTunedRunsAreNeverLikeForLike) {
    const PublishedSet set = article();
    for (const char *workload : {"faithful", "tuned"}) {
        const PublishedComparability c = comparePublished(set, articleRecord(workload));
        EXPECT_EQ(c.match, PublishedMatch::OtherProgram) << workload;
        EXPECT_EQ(c.note, std::string("other program: DeviceBench's ") + workload +
                              " workload, not the article's script");
    }
}

TEST(PublishedComparability, AnotherProgramsNoteAlsoNamesTheSettingsThatDiffer) {
    RunRecord record = articleRecord("faithful");
    record.config.trainImages = 5000;
    record.started.trainImages = 5000;
    record.started.stepsPerEpoch = 79;
    const PublishedComparability c = comparePublished(article(), record);
    EXPECT_EQ(c.match, PublishedMatch::OtherProgram);
    EXPECT_EQ(c.note.rfind("other program: DeviceBench's faithful workload, not the article's "
                           "script; other settings: ",
                           0),
              0U)
        << c.note;
    EXPECT_NE(c.note.find("5000"), std::string::npos) << c.note;
}

TEST(PublishedComparability, TheArticlesScriptAtTheArticlesSettingsIsLikeForLike) {
    const PublishedComparability c =
        comparePublished(article(), articleRecord(kArticleScriptWorkload));
    EXPECT_TRUE(c.likeForLike()) << c.note;
    EXPECT_EQ(c.note, "like for like");
}

TEST(PublishedComparability, TheArticlesScriptAtAnotherBatchSizeIsOtherSettings) {
    RunRecord record = articleRecord(kArticleScriptWorkload);
    record.config.batchSize = 128;
    record.started.stepsPerEpoch = 391;
    const PublishedComparability c = comparePublished(article(), record);
    EXPECT_EQ(c.match, PublishedMatch::OtherSettings);
    EXPECT_EQ(c.note, "other settings: batch size 128 (article: 64)");
}

TEST(PublishedComparability, FewerImagesOrEpochsOrSyntheticDataAreOtherSettings) {
    RunRecord record = articleRecord(kArticleScriptWorkload);
    record.started.trainImages = 2000;
    record.started.testImages = 500;
    record.config.epochs = 5;
    record.config.synthetic = true;
    const PublishedComparability c = comparePublished(article(), record);
    EXPECT_EQ(c.match, PublishedMatch::OtherSettings);
    EXPECT_EQ(c.note, "other settings: epochs 5 (article: 10), images 2000 + 500 (article: 50000 "
                      "+ 10000), synthetic data (article: CIFAR-10)");
}

TEST(PublishedBeside, RowsAreNeverTheBaselineUnlessChosen) {
    const std::vector<PublishedSet> sets{article()};
    RunSet store;
    store.addRecord(articleRecord("faithful", 20.0), "a.json");
    store.addRecord(articleRecord(kArticleScriptWorkload, 40.0), "b.json");
    const PublishedBeside beside = publishedBeside(sets, store);
    EXPECT_EQ(beside.baselineRow, -1);
    ASSERT_EQ(beside.rows.size(), 4U);
    for (const PublishedEntry &row : beside.rows)
        EXPECT_FALSE(row.isBaseline);
    // The store's baseline is its slowest run (#2, 40 s, the article's script).
    EXPECT_DOUBLE_EQ(beside.rows[3].speedUp, 40.0 / 55.62);
    EXPECT_TRUE(beside.rows[3].comparability.likeForLike());
    EXPECT_EQ(likeForLikeRuns(sets[0], store), std::vector<int>{1});

    const PublishedBeside chosen = publishedBeside(sets, store, 2); // home desktop CPU
    EXPECT_EQ(chosen.baselineRow, 2);
    EXPECT_TRUE(chosen.rows[2].isBaseline);
    ASSERT_EQ(chosen.runSpeedUps.size(), 2U);
    EXPECT_DOUBLE_EQ(chosen.runSpeedUps[0], 27.35 / 20.0);
    EXPECT_DOUBLE_EQ(chosen.rows[0].speedUp, 27.35 / 11.82);
    EXPECT_THROW(publishedBeside(sets, store, 4), std::out_of_range);
}

TEST(PublishedBeside, WithoutRunsThereIsNoSpeedUpAndNothingToCompareWith) {
    const PublishedBeside beside = publishedBeside({article()}, RunSet());
    ASSERT_EQ(beside.rows.size(), 4U);
    EXPECT_TRUE(std::isnan(beside.rows[0].speedUp));
    EXPECT_EQ(beside.rows[0].comparability.match, PublishedMatch::NoRun);
}

} // namespace
} // namespace devicebench
