// SPDX-License-Identifier: MIT
// The HTML report from the programs: `report` (compare's refusals), `run --html` (checked
// before the first epoch), the dashboard's --export-html, and the page opened from disk in
// headless Chromium with the network off: its table equals `compare --json`, no console error,
// record strings shown as text. The browser tests skip with a message when chromium is absent.
#include "cifar_files.h"
#include "process_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using devicebench::testing::ProgramResult;
using devicebench::testing::shellQuote;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;
using Json = nlohmann::json;
namespace fs = std::filesystem;

const fs::path kExamples = fs::path(DEVICEBENCH_SOURCE_DIR) / "docs" / "examples";
const std::string kOne = (kExamples / "charts" / "cpu-1-thread-10-epochs.json").string();
const std::string kTwo = (kExamples / "charts" / "cpu-2-threads-10-epochs.json").string();

TempDir &home() {
    static TempDir dir("devicebench-report-home");
    return dir;
}

ProgramResult run(const std::string &program, const std::vector<std::string> &args,
                  const std::string &env = "") {
    static TempDir io("devicebench-report-io");
    devicebench::testing::ProgramSetup setup;
    setup.env = "XDG_DATA_HOME=" + shellQuote((home().path() / "data").string()) + " " + env;
    return devicebench::testing::runProgram(program, args, home().path(), io.path(), setup);
}

ProgramResult cli(const std::vector<std::string> &args) { return run(DEVICEBENCH_CLI, args); }

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// The JSON the page holds in <script type="application/json" id="report-data">.
Json pageData(const std::string &page) {
    const std::string open = "<script type=\"application/json\" id=\"report-data\">";
    const std::size_t start = page.find(open);
    if (start == std::string::npos)
        return Json();
    const std::size_t from = start + open.size();
    return Json::parse(page.substr(from, page.find("</script>", from) - from));
}

TEST(CliReport, WritesOnePageAndSaysWhatCompareSays) {
    TempDir dir("devicebench-report");
    const fs::path page = dir.path() / "report.html";
    const ProgramResult r = cli({"report", kOne, kTwo, "-o", page.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "groups (runs of one configuration")) << r.out;
    EXPECT_TRUE(contains(r.out, "wrote " + page.string())) << r.out;
    const std::string html = slurp(page);
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
    const ProgramResult compare = cli({"compare", "--json", kOne, kTwo});
    ASSERT_EQ(compare.exitCode, 0) << compare.err;
    const Json expected = Json::parse(compare.out);
    const Json data = pageData(html);
    EXPECT_EQ(data["comparison"]["groups"], expected["groups"]);
    EXPECT_EQ(data["comparison"]["controlSummary"], expected["controlSummary"]);
    EXPECT_EQ(data["comparison"]["runs"].size(), expected["runs"].size());
}

TEST(CliReport, IsRefusedAsCompareIsAndBeforeAnyRecordIsRead) {
    TempDir dir("devicebench-report");
    const std::string page = (dir.path() / "r.html").string();
    EXPECT_EQ(cli({"report", "-o", page}).exitCode, 2);
    const ProgramResult baseline = cli({"report", kOne, kTwo, "--baseline", "3", "-o", page});
    EXPECT_EQ(baseline.exitCode, 2);
    EXPECT_TRUE(contains(baseline.err, "--baseline 3: 2 records were given")) << baseline.err;
    const ProgramResult folder = cli({"report", kOne, "-o", "/nonexistent/r.html"});
    EXPECT_EQ(folder.exitCode, 2);
    EXPECT_TRUE(contains(folder.err, "cannot write -o /nonexistent/r.html: folder /nonexistent "
                                     "does not exist"))
        << folder.err;
    const std::string csv = (dir.path() / "out.csv").string();
    const ProgramResult same = cli({"report", kOne, "--csv", csv, "-o", csv});
    EXPECT_EQ(same.exitCode, 2);
    EXPECT_TRUE(contains(same.err, "--csv and -o both name " + csv)) << same.err;
    EXPECT_TRUE(devicebench::testing::namesIn(dir.path()).empty());
}

TEST(CliReport, WithPublishedThePageHoldsThePublishedRows) {
    TempDir dir("devicebench-report");
    const fs::path page = dir.path() / "r.html";
    ASSERT_EQ(cli({"report", "--published", kOne, "-o", page.string()}).exitCode, 0);
    const ProgramResult compare = cli({"compare", "--published", "--json", kOne});
    const Json published = Json::parse(compare.out)["published"];
    ASSERT_FALSE(published.empty());
    EXPECT_EQ(pageData(slurp(page))["comparison"]["published"], published);
}

TEST(RunHtml, ABadReportPathIsRefusedBeforeTheFirstEpoch) {
    TempDir dir("devicebench-report");
    const std::vector<std::string> tiny = {
        "run", "--synthetic", "--epochs", "1", "--train-images", "64", "--test-images", "32"};
    std::vector<std::string> missing = tiny;
    missing.insert(missing.end(), {"--html", "/nonexistent/r.html"});
    const ProgramResult r = cli(missing);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(contains(r.err, "cannot write --html /nonexistent/r.html")) << r.err;
    EXPECT_FALSE(contains(r.out, "epoch 1")) << r.out;
    const std::string csv = (dir.path() / "x.csv").string();
    std::vector<std::string> same = tiny;
    same.insert(same.end(), {"--csv", csv, "--html", (dir.path() / "x-summary.csv").string()});
    const ProgramResult clash = cli(same);
    EXPECT_EQ(clash.exitCode, 2);
    EXPECT_TRUE(contains(clash.err, "the per-run CSV beside --csv and --html both name"))
        << clash.err;
    EXPECT_TRUE(devicebench::testing::namesIn(dir.path()).empty());
}

TEST(RunHtml, WritesTheReportOfItsRuns) {
    TempDir dir("devicebench-report");
    const fs::path page = dir.path() / "run.html";
    const ProgramResult r =
        cli({"run", "--synthetic", "--epochs", "2", "--warmup-epochs", "1", "--train-images", "64",
             "--test-images", "32", "--no-published", "--html", page.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "wrote " + page.string())) << r.out;
    const Json data = pageData(slurp(page));
    ASSERT_EQ(data["comparison"]["runs"].size(), 1U);
    EXPECT_EQ(data["curves"][0]["test"].size(), 2U);
}

#ifdef DEVICEBENCH_DASHBOARD
TEST(DashboardExportHtml, TheScriptedExportHoldsTheImportedRuns) {
    TempDir dir("devicebench-report");
    const fs::path page = dir.path() / "dash.html";
    const ProgramResult r =
        run(DEVICEBENCH_DASHBOARD,
            {"--import", kOne, "--import", kTwo, "--export-html", page.string(), "--quit"},
            "QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=" +
                shellQuote((home().path() / "config").string()));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const Json expected = Json::parse(cli({"compare", "--json", kOne, kTwo}).out);
    EXPECT_EQ(pageData(slurp(page))["comparison"]["groups"], expected["groups"]);
}
#endif

} // namespace
