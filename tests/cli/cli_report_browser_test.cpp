// SPDX-License-Identifier: MIT
// The report page in a real browser: headless Chromium opens it from disk with the network off
// (a proxy that refuses every connection) and dumps the DOM the page's script built. Skips with
// a message when chromium is not installed (scripts/install-deps.sh installs it).
#include "cifar_files.h"
#include "process_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
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

std::string chromium() {
    for (const char *path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
        if (fs::exists(path))
            return path;
    return {};
}

// One cell of a table row the page built: its data-value (full precision) and its text.
struct Cell {
    std::string value;
    std::string text;
};

// The cells (by data-key) of the row `<tr <attribute>="<number>"` in `dom`; empty when absent.
std::map<std::string, Cell> rowCells(const std::string &dom, const std::string &attribute,
                                     int number) {
    std::map<std::string, Cell> cells;
    const std::size_t start = dom.find("<tr " + attribute + "=\"" + std::to_string(number) + "\"");
    if (start == std::string::npos)
        return cells;
    const std::string row = dom.substr(start, dom.find("</tr>", start) - start);
    for (std::size_t at = row.find("data-key=\""); at != std::string::npos;
         at = row.find("data-key=\"", at + 1)) {
        const std::size_t keyEnd = row.find('"', at + 10);
        Cell cell;
        const std::size_t tagEnd = row.find('>', keyEnd);
        const std::string tag = row.substr(keyEnd, tagEnd - keyEnd);
        if (const std::size_t v = tag.find("data-value=\""); v != std::string::npos)
            cell.value = tag.substr(v + 12, tag.find('"', v + 12) - v - 12);
        cell.text = row.substr(tagEnd + 1, row.find('<', tagEnd) - tagEnd - 1);
        cells[row.substr(at + 10, keyEnd - at - 10)] = cell;
    }
    return cells;
}

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// A record whose host is markup and whose precision note closes the script, at `path`.
void writeHostileRecord(const fs::path &path) {
    Json record = Json::parse(slurp(kExamples / "cpu-2-threads.json"));
    record["fingerprint"]["hostName"] = "<img src=x onerror=alert(1)>";
    record["started"]["precisionNote"] = "</script><b id=\"injected\">bold</b> & done";
    std::FILE *f = std::fopen(path.c_str(), "w");
    std::fputs(record.dump().c_str(), f);
    std::fclose(f);
}

ProgramResult runIn(const fs::path &dir, const std::string &program,
                    const std::vector<std::string> &args, const std::string &prefix = "") {
    devicebench::testing::ProgramSetup setup;
    setup.prefix = prefix;
    return devicebench::testing::runProgram(program, args, dir, dir, setup);
}

// One report of example records and a hostile one, `compare --json` of the same records, and
// the page's DOM as Chromium built it (opened once for the suite).
class ReportInChromium : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (chromium().empty())
            return;
        s_dir = new TempDir("devicebench-report-browser");
        const fs::path hostile = s_dir->path() / "hostile.json";
        writeHostileRecord(hostile);
        const std::vector<std::string> records = {
            (kExamples / "charts" / "cpu-1-thread-10-epochs.json").string(),
            (kExamples / "charts" / "cpu-2-threads-10-epochs.json").string(),
            (kExamples / "busy-machine" / "cpu-1-thread-epoch-4-contended.json").string(),
            hostile.string()};
        std::vector<std::string> compare = {"compare", "--json"};
        compare.insert(compare.end(), records.begin(), records.end());
        s_compare = new Json(Json::parse(runIn(s_dir->path(), DEVICEBENCH_CLI, compare).out));
        const fs::path page = s_dir->path() / "report.html";
        std::vector<std::string> report = {"report", "-o", page.string()};
        report.insert(report.end(), records.begin(), records.end());
        runIn(s_dir->path(), DEVICEBENCH_CLI, report);
        const ProgramResult r =
            runIn(s_dir->path(), chromium(),
                  {"--headless", "--no-sandbox", "--disable-gpu", "--proxy-server=127.0.0.1:9",
                   "--enable-logging=stderr", "--v=0",
                   "--user-data-dir=" + (s_dir->path() / "profile").string(), "--dump-dom",
                   "file://" + page.string()},
                  "timeout 60 ");
        s_dom = new std::string(r.out);
        s_log = new std::string(r.err);
    }
    static void TearDownTestSuite() {
        delete s_dom;
        delete s_log;
        delete s_compare;
        delete s_dir;
    }
    void SetUp() override {
        if (s_dom == nullptr)
            GTEST_SKIP() << "chromium is not installed (apt-get install chromium; "
                            "scripts/install-deps.sh installs it): the page is not opened";
    }

    static TempDir *s_dir;
    static Json *s_compare;
    static std::string *s_dom;
    static std::string *s_log;
};

TempDir *ReportInChromium::s_dir = nullptr;
Json *ReportInChromium::s_compare = nullptr;
std::string *ReportInChromium::s_dom = nullptr;
std::string *ReportInChromium::s_log = nullptr;

TEST_F(ReportInChromium, OpensFromDiskWithTheNetworkOffAndNoConsoleMessage) {
    EXPECT_EQ(s_log->find("CONSOLE"), std::string::npos) << *s_log;
    EXPECT_NE(s_dom->find("<h1>DeviceBench report</h1>"), std::string::npos);
    EXPECT_NE(s_dom->find("<canvas id=\"bars\" role=\"img\" aria-label=\"Bar chart of stable mean"),
              std::string::npos);
}

TEST_F(ReportInChromium, TheTablesNumbersEqualCompareJson) {
    const std::string &dom = *s_dom;
    for (const Json &run : (*s_compare)["runs"]) {
        const auto cells = rowCells(dom, "data-run", run["number"].get<int>());
        ASSERT_FALSE(cells.empty()) << "no row for run " << run["number"];
        const double mean = run["summary"]["stableMean"].get<double>();
        EXPECT_EQ(std::stod(cells.at("stableMean").value), mean);
        EXPECT_EQ(cells.at("stableMean").text, fixed(mean, 3) + " s");
        if (!run["isBaseline"].get<bool>()) {
            EXPECT_EQ(std::stod(cells.at("speedUp").value), run["speedUp"]["ratio"].get<double>());
        }
    }
    for (const Json &group : (*s_compare)["groups"]) {
        const auto cells = rowCells(dom, "data-group", group["number"].get<int>());
        ASSERT_FALSE(cells.empty()) << "no row for group " << group["number"];
        EXPECT_EQ(std::stod(cells.at("mean").value), group["mean"].get<double>());
        EXPECT_EQ(cells.at("n").text, std::to_string(group["n"].get<int>()));
    }
    EXPECT_NE(dom.find("busy machine (stable epochs 4)"), std::string::npos);
}

TEST_F(ReportInChromium, RecordStringsAreShownAsTextNeverAsMarkup) {
    const std::string &dom = *s_dom;
    EXPECT_NE(dom.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
    EXPECT_NE(dom.find("&lt;/script&gt;&lt;b id=\"injected\"&gt;bold&lt;/b&gt; &amp; done"),
              std::string::npos);
    EXPECT_EQ(dom.find("<img"), std::string::npos);
    EXPECT_EQ(dom.find("<b id=\"injected\">"), std::string::npos);
}

} // namespace
