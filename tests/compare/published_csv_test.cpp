// SPDX-License-Identifier: MIT
// The published rows in the summary CSV (summaryCsv with the published sets, csv_export.h): one
// line per row after the runs, its note and source in three columns added at the end, every
// cell through csvField; the file of a caller that passes none unchanged.
#include "record_builder.h"

#include "devicebench/csv_export.h"
#include "devicebench/published.h"
#include "devicebench/run_set.h"

#include "csv_lines.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace devicebench {
namespace {

using testing::fieldsOf;
using testing::splitLines;

// The article's set with two rows; its title starts like a spreadsheet formula.
std::vector<PublishedSet> articleSets() {
    PublishedSet set;
    set.file = "article.json";
    set.source.title = "=A tutorial, in Chinese";
    set.source.shortName = "article";
    set.source.program = kArticleScriptWorkload;
    set.rows.push_back({"Tesla T4", "cuda", "Kaggle notebook", 11.82, {}});
    set.rows.push_back({"cloud CPU", "cpu", "Kaggle notebook", 55.62, {}});
    return {set};
}

RunSet storeOf(const std::vector<RunRecord> &records) {
    RunSet store;
    for (const RunRecord &r : records)
        store.addRecord(r, r.runId + ".json");
    return store;
}

std::size_t column(const std::vector<std::string> &header, const std::string &name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<std::size_t>(it - header.begin());
}

TEST(SummaryCsvPublished, ACallerThatPassesNoSetsGetsTheFileAsBefore) {
    const RunSet store = storeOf({testing::articleSettingsRun("f", "faithful", 20.0)});
    EXPECT_EQ(summaryCsv(store, nullptr, nullptr), summaryCsv(store));
    EXPECT_EQ(fieldsOf(splitLines(summaryCsv(store))[0]).size(),
              static_cast<std::size_t>(summaryCsvColumnCount()));
}

TEST(SummaryCsvPublished, EachRowFollowsTheRunsWithItsSpeedUpNoteAndSource) {
    const RunSet store = storeOf({testing::articleSettingsRun("f", "faithful", 20.0)});
    const std::vector<PublishedSet> sets = articleSets();
    const std::vector<std::string> lines = splitLines(summaryCsv(store, nullptr, &sets));
    ASSERT_EQ(lines.size(), 4U) << "header, one run, two published rows";
    const std::vector<std::string> header = fieldsOf(lines[0]);
    ASSERT_EQ(header.size(), static_cast<std::size_t>(summaryCsvPublishedColumnCount()));
    // The columns of before keep their places; the three new ones come last.
    const std::vector<std::string> before = fieldsOf(splitLines(summaryCsv(store))[0]);
    EXPECT_TRUE(std::equal(before.begin(), before.end(), header.begin()));
    EXPECT_EQ(std::vector<std::string>(header.end() - 3, header.end()),
              (std::vector<std::string>{"origin", "published_note", "published_source"}));

    const std::vector<std::string> run = fieldsOf(lines[1]);
    ASSERT_EQ(run.size(), header.size());
    EXPECT_EQ(run[column(header, "origin")], "run");
    EXPECT_EQ(run[column(header, "published_note")], "");

    const std::vector<std::string> t4 = fieldsOf(lines[2]);
    ASSERT_EQ(t4.size(), header.size());
    EXPECT_EQ(t4[column(header, "run")], "article: Tesla T4 (Kaggle notebook)");
    EXPECT_EQ(t4[column(header, "device")], "Tesla T4");
    EXPECT_EQ(t4[column(header, "status")], "published");
    EXPECT_EQ(t4[column(header, "stable_mean_s")], "11.8200");
    EXPECT_EQ(t4[column(header, "speedup")], "1.6920") << "20 s / 11.82 s";
    EXPECT_EQ(t4[column(header, "baseline")], store.run(0).label);
    EXPECT_EQ(t4[column(header, "comparable")], "0");
    EXPECT_EQ(t4[column(header, "epochs")], "10");
    EXPECT_EQ(t4[column(header, "precision")], "fp32");
    EXPECT_EQ(t4[column(header, "origin")], "published");
    EXPECT_EQ(t4[column(header, "published_note")],
              "other program: DeviceBench's faithful workload, not the article's script");
    EXPECT_EQ(t4[column(header, "host")], "") << "not published";
    EXPECT_EQ(fieldsOf(lines[3])[column(header, "stable_mean_s")], "55.6200");
}

TEST(SummaryCsvPublished, TheCellsGoThroughCsvField) {
    const RunSet store = storeOf({testing::articleSettingsRun("f", "faithful", 20.0)});
    const std::vector<PublishedSet> sets = articleSets();
    const std::string csv = summaryCsv(store, nullptr, &sets);
    EXPECT_NE(csv.find(",\"'=A tutorial, in Chinese\"\n"), std::string::npos)
        << "a formula made text, a comma quoted\n"
        << csv;
    EXPECT_NE(csv.find(",\"other program: DeviceBench's faithful workload, not the article's "
                       "script\","),
              std::string::npos)
        << csv;
}

TEST(SummaryCsvPublished, ALikeForLikeRowAndAChosenPublishedBaseline) {
    const RunSet store = storeOf({testing::articleSettingsRun("s", "article-script", 30.0)});
    const std::vector<PublishedSet> sets = articleSets();
    const PublishedBeside beside = publishedBeside(sets, store, 1); // the cloud CPU row
    const std::vector<std::string> lines = splitLines(summaryCsv(store, &beside, &sets));
    ASSERT_EQ(lines.size(), 4U);
    const std::vector<std::string> header = fieldsOf(lines[0]);
    const std::vector<std::string> t4 = fieldsOf(lines[2]);
    const std::vector<std::string> cloud = fieldsOf(lines[3]);
    EXPECT_EQ(t4[column(header, "comparable")], "1");
    EXPECT_EQ(t4[column(header, "published_note")], "like for like");
    EXPECT_EQ(t4[column(header, "baseline")], "article: cloud CPU (Kaggle notebook)");
    EXPECT_EQ(cloud[column(header, "speedup")], "1.0000");
    EXPECT_EQ(t4[column(header, "speedup")], "4.7056") << "55.62 s / 11.82 s";
}

TEST(SummaryCsvPublished, WithoutRunsTheRowsStandAloneWithoutASpeedUp) {
    const RunSet store;
    const std::vector<PublishedSet> sets = articleSets();
    const std::vector<std::string> lines = splitLines(summaryCsv(store, nullptr, &sets));
    ASSERT_EQ(lines.size(), 3U);
    const std::vector<std::string> header = fieldsOf(lines[0]);
    EXPECT_EQ(fieldsOf(lines[1])[column(header, "speedup")], "nan");
    EXPECT_EQ(fieldsOf(lines[1])[column(header, "published_note")],
              "no run of yours to compare with");
}

} // namespace
} // namespace devicebench
