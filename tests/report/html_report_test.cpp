// SPDX-License-Identifier: MIT
// The HTML report's data and page (html_report.h) without a browser: what record strings turn
// into, what the page declares, the answer sentence, the curves' size.
#include "devicebench/html_report.h"

#include "cifar_files.h"
#include "process_support.h"
#include "record_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

namespace {

using devicebench::OrderedJson;
using devicebench::RunSet;
namespace fs = std::filesystem;

const fs::path kExamples = DEVICEBENCH_EXAMPLES_DIR;

// The store's page data with its groups and control, as writeHtmlReport makes it.
OrderedJson dataOf(const RunSet &store) {
    const devicebench::RunGroups groups = devicebench::groupRuns(store);
    const devicebench::ControlSummary control = devicebench::summarizeControl(store);
    devicebench::ComparisonParts parts;
    parts.groups = &groups;
    parts.control = &control;
    return devicebench::reportData(store, parts, "2026-12-03T08:00:00Z");
}

RunSet examples(const std::vector<std::string> &names) {
    RunSet store;
    for (const std::string &name : names) {
        const std::string path = (kExamples / name).string();
        store.addRecord(devicebench::readRunRecord(path), path);
    }
    return store;
}

TEST(ScriptSafeJson, MarkupAndLineSeparatorsBecomeEscapesAndParseBackUnchanged) {
    OrderedJson data;
    data["host"] = "<img src=x onerror=alert(1)>";
    data["note"] = "</script><script>alert(2)</script> & \u2028\u2029";
    const std::string text = devicebench::scriptSafeJson(data);
    for (const char *forbidden : {"<", ">", "&", "\u2028", "\u2029"})
        EXPECT_EQ(text.find(forbidden), std::string::npos) << forbidden << " in " << text;
    EXPECT_NE(text.find("\\u003c/script\\u003e"), std::string::npos);
    EXPECT_EQ(OrderedJson::parse(text), data);
}

TEST(HtmlReport, APageDeclaresItsLanguageAPolicyWithoutNetworkAndHoldsTheDataOnce) {
    RunSet store;
    devicebench::RunRecord evil = devicebench::testing::finishedCpuRun("a", {2.0, 1.0, 1.1});
    evil.fingerprint.hostName = "<img src=x onerror=alert(1)>";
    evil.started.precisionNote = "</script><script>alert(2)</script>";
    store.addRecord(evil, "evil.json");
    const std::string page = devicebench::htmlReport(dataOf(store), "n0nce");
    EXPECT_EQ(page.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0U);
    EXPECT_NE(page.find("content=\"default-src 'none'; script-src 'nonce-n0nce'; style-src "
                        "'nonce-n0nce'"),
              std::string::npos);
    EXPECT_EQ(page.find("http://"), std::string::npos); // nothing to fetch
    EXPECT_EQ(page.find("<img"), std::string::npos);    // the host is data, not markup
    EXPECT_EQ(page.find("alert(2)</script>"), std::string::npos);
    // The title holds the answer, escaped.
    EXPECT_NE(page.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
    for (const char *heading :
         {"<h1>", "<h2 id=\"h-comparison\">", "<h2 id=\"h-bars\">", "<h2 id=\"h-loss\">",
          "<h2 id=\"h-system\">", "<h2 id=\"h-settings\">", "<h2 id=\"h-control\">"})
        EXPECT_NE(page.find(heading), std::string::npos) << heading;
    // Chart.js inlined with its licence notice.
    EXPECT_NE(page.find("Permission is hereby granted, free of charge"), std::string::npos);
}

TEST(ReportAnswer, TheFastestComparableGroupAgainstTheBaselineInOneSentence) {
    RunSet store;
    store.addRecord(devicebench::testing::finishedCpuRun("slow", {9.0, 4.0, 4.2, 3.8}), "s");
    devicebench::RunRecord fast =
        devicebench::testing::finishedCpuRun("fast", {5.0, 2.0, 2.1, 1.9});
    fast.started.threads = 2;
    store.addRecord(fast, "f");
    const devicebench::RunGroups groups = devicebench::groupRuns(store);
    ASSERT_EQ(groups.groups.size(), 2U);
    const devicebench::ReportAnswer answer = devicebench::reportAnswer(store, groups);
    const devicebench::RunGroup &g = groups.groups[1];
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx [%.2f, %.2f]", g.speedUp.ratio, g.speedUp.low,
                  g.speedUp.high);
    EXPECT_EQ(answer.sentence, g.label + " trains small-cnn " + ratio + " faster than " +
                                   groups.groups[0].label + ".");
    EXPECT_EQ(answer.question, "How much faster does small-cnn train on " + g.label + " than on " +
                                   groups.groups[0].label + "?");
}

TEST(ReportAnswer, AHostWithARightToLeftOverrideCannotReverseTheHeadlineOrThePage) {
    const std::string override = "\u202E";
    devicebench::RunRecord evil = devicebench::testing::finishedCpuRun("e", {9.0, 4.0, 4.2});
    evil.fingerprint.hostName = "evil" + override + "host";
    devicebench::RunRecord rtl = devicebench::testing::finishedCpuRun("r", {5.0, 2.0, 2.1});
    rtl.fingerprint.hostName = "\u05E9\u05E8\u05EA"; // Hebrew letters
    rtl.started.threads = 2;
    RunSet store;
    for (const devicebench::RunRecord &r : {evil, rtl}) // as `compare` reads them: from files
        store.addRecord(devicebench::parseRunRecord(devicebench::toJson(r), r.runId), r.runId);
    const devicebench::ReportAnswer answer =
        devicebench::reportAnswer(store, devicebench::groupRuns(store));
    for (const std::string &line : {answer.sentence, answer.question}) {
        EXPECT_EQ(line.find(override), std::string::npos) << line;
        EXPECT_NE(line.find("evil[U+202E]host"), std::string::npos) << line;
        EXPECT_NE(line.find("\u2068\u05E9\u05E8\u05EA\u2069"), std::string::npos)
            << "isolated: " << line;
    }
    const std::string page = devicebench::htmlReport(dataOf(store), "n");
    EXPECT_EQ(page.find(override), std::string::npos);
}

TEST(ReportAnswer, OneGroupIsAnsweredWithItsStableMeanAndNoneWithASentenceSayingSo) {
    const RunSet one = examples({"cpu-1-thread.json"});
    const devicebench::RunGroups groups = devicebench::groupRuns(one);
    const std::string sentence = devicebench::reportAnswer(one, groups).sentence;
    char mean[32];
    std::snprintf(mean, sizeof mean, "%.3f s per epoch", groups.groups[0].stats.mean);
    EXPECT_NE(sentence.find(mean), std::string::npos) << sentence;
    EXPECT_EQ(devicebench::reportAnswer(RunSet(), devicebench::RunGroups()).sentence,
              "No run was compared: no answer.");
}

TEST(ReportData, NumbersThatAreNotFiniteAreNullAndTheComparisonIsComparesDocument) {
    RunSet store;
    devicebench::RunRecord diverged = devicebench::testing::finishedCpuRun("d", {2.0, 1.0});
    diverged.status = "diverged";
    diverged.epochs[1].testLoss = std::numeric_limits<double>::quiet_NaN();
    diverged.steps = {{1, 1, 2.3, 0.1}, {1, 2, std::numeric_limits<double>::infinity(), 0.2}};
    diverged.started.stepsPerEpoch = 1;
    store.addRecord(diverged, "d.json");
    // What the page holds: the data as written into it (a NaN double is written as null).
    const OrderedJson data = OrderedJson::parse(devicebench::scriptSafeJson(dataOf(store)));
    EXPECT_TRUE(data["curves"][0]["test"][1][1].is_null());
    EXPECT_EQ(data["curves"][0]["steps"].size(), 2U);
    EXPECT_TRUE(data["curves"][0]["steps"][1][1].is_null());
    EXPECT_TRUE(data["comparison"]["runs"][0]["summary"]["ciLow"].is_null()); // 1 stable epoch
    EXPECT_EQ(data["comparison"]["command"], "compare");
    EXPECT_EQ(data["comparison"]["groups"].size(), 1U);
}

TEST(ReportData, ARunWithATargetCarriesItsAccuracyOverTimeItsTargetAndWhereItReachedIt) {
    RunSet store;
    devicebench::RunRecord run = devicebench::testing::finishedCpuRun("t", {2.0, 3.0, 4.0});
    run.config.targetAccuracy = 40.0;
    run.epochs[0].testAccuracy = 0.25;
    run.epochs[1].testAccuracy = 0.4;
    run.epochs[2].testAccuracy = 0.5;
    store.addRecord(run, "t.json");
    store.addRecord(devicebench::testing::finishedCpuRun("u", {2.0, 2.0}), "u.json");
    const OrderedJson data = OrderedJson::parse(devicebench::scriptSafeJson(dataOf(store)));
    const OrderedJson &curve = data["curves"][0];
    ASSERT_EQ(curve["accuracy"].size(), 3U);
    EXPECT_DOUBLE_EQ(curve["accuracy"][1][0].get<double>(), 5.0);  // seconds from the first step
    EXPECT_DOUBLE_EQ(curve["accuracy"][1][1].get<double>(), 40.0); // percent
    EXPECT_DOUBLE_EQ(curve["target"].get<double>(), 40.0);
    EXPECT_DOUBLE_EQ(curve["reachedAt"].get<double>(), 5.0);
    EXPECT_TRUE(data["curves"][1]["target"].is_null()) << "a run without a target";
    EXPECT_TRUE(data["curves"][1]["reachedAt"].is_null());
    EXPECT_EQ(data["curves"][1]["accuracy"].size(), 2U);
}

TEST(ReportData, TwoTenEpochRunsMakeAPageUnderOneMegabyte) {
    const RunSet store =
        examples({"charts/cpu-1-thread-10-epochs.json", "charts/cpu-2-threads-10-epochs.json"});
    const std::string page = devicebench::htmlReport(dataOf(store), "n");
    EXPECT_LT(page.size(), 1000000U);
}

TEST(ReportData, ManyRunsShareThePointBudgetAndEachKeepsItsShape) {
    RunSet store;
    devicebench::RunRecord base =
        devicebench::readRunRecord((kExamples / "charts/cpu-1-thread-10-epochs.json").string());
    for (int i = 0; i < 120; ++i) {
        devicebench::RunRecord r = base;
        r.runId += "-" + std::to_string(i);
        store.addRecord(r, "r" + std::to_string(i));
    }
    const OrderedJson data = dataOf(store);
    std::size_t points = 0;
    for (const OrderedJson &curve : data["curves"]) {
        EXPECT_LE(curve["steps"].size(), devicebench::kReportPointBudget / 120);
        EXPECT_GE(curve["steps"].size(), devicebench::kReportMinPointsPerRun / 2);
        points += curve["steps"].size();
        // The last point sits in the last epoch.
        EXPECT_GT(curve["steps"].back()[0].get<double>(), 9.0);
    }
    EXPECT_LE(points, devicebench::kReportPointBudget);
    EXPECT_EQ(data["comparison"]["groups"].size(), 1U); // repeats: one group of 120
    EXPECT_EQ(data["comparison"]["groups"][0]["n"], 120);
}

TEST(WriteHtmlReport, AFolderInTheWayIsRefusedNamingThePathAndNothingIsLeft) {
    devicebench::testing::TempDir dir("devicebench-report");
    const RunSet store = examples({"cpu-1-thread.json"});
    const fs::path folder = dir.path() / "report.html";
    fs::create_directory(folder);
    try {
        devicebench::writeHtmlReport(folder.string(), store);
        FAIL() << "a folder was replaced";
    } catch (const devicebench::ReportError &e) {
        EXPECT_EQ(std::string(e.what()).rfind("Cannot write " + folder.string() + ": ", 0), 0U)
            << e.what();
    }
    EXPECT_EQ(devicebench::testing::namesIn(dir.path()), std::vector<std::string>{"report.html"});
    const fs::path file = dir.path() / "ok.html";
    devicebench::writeHtmlReport(file.string(), store);
    EXPECT_NE(devicebench::testing::slurp(file).find("</html>"), std::string::npos);
}

} // namespace
