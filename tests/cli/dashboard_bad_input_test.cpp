// SPDX-License-Identifier: MIT
// The scripted dashboard's bad input refused as the CLI refuses its own (docs/ROBUSTNESS.md),
// each kind by a table of cases: an option given twice or with an empty value, a number not
// finite or out of range, an output that cannot be written or would replace a file the
// session reads, a run number beyond the session's runs; and a picture of nothing not written.
#include "cifar_files.h"
#include "process_support.h"
#include "refusal_cases.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using devicebench::testing::contains;
using devicebench::testing::namesIn;
using devicebench::testing::Refusal;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;
using devicebench::testing::with;
using Result = devicebench::testing::ProgramResult;

const devicebench::testing::RefusalHarness &harness() {
    static const devicebench::testing::RefusalHarness h("devicebench-dash-badinput");
    return h;
}

Result runProgram(const std::string &program, const std::vector<std::string> &args) {
    return harness().run(program, args);
}

void expectRefused(const std::string &program, const std::vector<Refusal> &cases) {
    harness().expectRefused(program, cases);
}

const std::vector<std::string> kQuickSession = {
    "--synthetic", "--epochs", "1", "--train-images", "64", "--test-images", "32", "--quit"};

// Each option of the scripted dashboard is given once (--run, --import and --hide-run repeat),
// and never with an empty value.
TEST(DashboardBadInput, AnOptionTwiceOrWithAnEmptyValueIsRefused) {
    TempDir dir("devicebench-badinput");
    const std::string a = (dir.path() / "a.png").string();
    const std::string b = (dir.path() / "b.png").string();
    expectRefused(
        DEVICEBENCH_DASHBOARD,
        {{with(kQuickSession, {"--export-png", a, "--export-png", b}),
          "devicebench: --export-png was given 2 times; give it once"},
         {with(kQuickSession, {"--theme", "dark", "--theme", "light"}), "--theme was given 2"},
         {with(kQuickSession, {"--epochs", "2"}), "--epochs was given 2 times"},
         {with(kQuickSession, {"--quit"}), "--quit was given 2 times"},
         {with(kQuickSession, {"--python", ""}), "devicebench: --python needs a value"},
         {with(kQuickSession, {"--export-png", ""}), "--export-png needs a value"},
         {with(kQuickSession, {"--runs-folder", ""}), "--runs-folder needs a value"},
         {with(kQuickSession, {"--import", "", "--run", "cpu:1"}), "--import needs a value"}});
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{});
}

// Numbers that are not finite or out of range, run numbers below 1, a whole number too large.
TEST(DashboardBadInput, ANumberNotFiniteOrOutOfRangeIsRefused) {
    expectRefused(
        DEVICEBENCH_DASHBOARD,
        {{with(kQuickSession, {"--smoothing", "nan"}), "--smoothing: 'nan' is not a number"},
         {with(kQuickSession, {"--smoothing", "inf"}), "--smoothing: 'inf'"},
         {with(kQuickSession, {"--smoothing", "1.5"}), "--smoothing: '1.5'"},
         {with(kQuickSession, {"--zoom", "0:inf"}), "--zoom: '0:inf'"},
         {with(kQuickSession, {"--hover", "1:nan"}), "--hover: '1:nan'"},
         {with(kQuickSession, {"--hide-run", "0"}), "--hide-run: '0' is not a run number"},
         {with(kQuickSession, {"--hide-run", "x"}), "--hide-run: 'x'"},
         {with(kQuickSession, {"--hover-bar", "p0"}), "--hover-bar: 'p0'"},
         {with(kQuickSession, {"--threads", "99999999999"}),
          "--threads: 99999999999 is out of range: it must be from"}});
}

// A scripted session's outputs are checked with its exports before any run: --screenshot and
// --sweep-export-png too, none may replace an --import record or another output, the
// --runs-folder must be a folder, and a run number beyond the session's runs is refused.
TEST(DashboardBadInput, OutputsAndRunNumbersAreCheckedBeforeAnyRun) {
    TempDir dir("devicebench-badinput");
    const fs::path record = dir.path() / "run.json";
    std::ofstream(record) << "{\"kept\": true}";
    const fs::path file = dir.path() / "a-file";
    std::ofstream(file) << "x";
    const std::string same = (dir.path() / "same.png").string();
    const std::string missing = (dir.path() / "no-such" / "s.png").string();
    const std::vector<std::string> run = with(kQuickSession, {"--run", "cpu:1"});
    expectRefused(DEVICEBENCH_DASHBOARD,
                  {{with(run, {"--import", record.string(), "--export-html", record.string()}),
                    "--export-html " + record.string() + " would replace the --import record"},
                   {with(run, {"--import", record.string(), "--export-png", record.string()}),
                    "would replace the --import record"},
                   {with(run, {"--import", record.string(), "--screenshot", record.string()}),
                    "--screenshot " + record.string() + " would replace"},
                   {with(run, {"--screenshot", same, "--export-png", same}),
                    "--export-png and --screenshot both name"},
                   {with(run, {"--screenshot", missing}), "cannot write --screenshot " + missing},
                   {with(run, {"--runs-folder", file.string()}),
                    "cannot write --runs-folder " + file.string()},
                   {with(run, {"--hide-run", "7"}), "--hide-run: no run #7: the session has 1 run"},
                   {with(run, {"--hover-bar", "9"}), "--hover-bar: no run #9"}});
    EXPECT_EQ(slurp(record), "{\"kept\": true}");
    EXPECT_EQ(namesIn(dir.path()), (std::vector<std::string>{"a-file", "run.json"}));
}

// --sweep-folder must name a folder, and --sweep-baseline and --sweep-export-png need it: all
// checked before the window opens, as the other outputs are.
TEST(DashboardBadInput, ASweepFolderThatIsNoFolderIsRefusedBeforeAnyRun) {
    TempDir dir("devicebench-badinput");
    const fs::path file = dir.path() / "a-file";
    std::ofstream(file) << "x";
    const std::string missing = (dir.path() / "no-such").string();
    const std::string png = (dir.path() / "sweep.png").string();
    expectRefused(
        DEVICEBENCH_DASHBOARD,
        {{with(kQuickSession, {"--sweep-folder", missing}),
          "devicebench: --sweep-folder: " + missing + " does not exist"},
         {with(kQuickSession, {"--sweep-folder", file.string(), "--sweep-export-png", png}),
          "--sweep-folder: " + file.string() + " is not a folder"},
         {with(kQuickSession, {"--sweep-export-png", png}),
          "--sweep-baseline and --sweep-export-png need --sweep-folder"},
         {with(kQuickSession, {"--sweep-baseline", "cpu x1"}), "need --sweep-folder"}});
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"a-file"});
}

// With nothing to draw (an import that could not be read, a sweep folder without a cell
// record) the PNG is refused with a message and no file is written.
TEST(DashboardBadInput, APictureOfNothingIsNotWritten) {
    TempDir dir("devicebench-badinput");
    const fs::path truncated = dir.path() / "truncated.json";
    std::ofstream(truncated) << "{\"run_id\": ";
    const std::string png = (dir.path() / "out.png").string();
    const Result import = runProgram(
        DEVICEBENCH_DASHBOARD, {"--import", truncated.string(), "--export-png", png, "--quit"});
    EXPECT_NE(import.exitCode, 0) << import.err;
    EXPECT_TRUE(contains(import.err, "Nothing to draw in " + png)) << import.err;
    EXPECT_FALSE(fs::exists(png));
    const fs::path emptyFolder = dir.path() / "empty-sweep";
    fs::create_directory(emptyFolder);
    const std::string sweepPng = (dir.path() / "sweep.png").string();
    const Result sweep =
        runProgram(DEVICEBENCH_DASHBOARD, {"--sweep-folder", emptyFolder.string(),
                                           "--sweep-export-png", sweepPng, "--quit"});
    EXPECT_NE(sweep.exitCode, 0) << sweep.err;
    EXPECT_TRUE(contains(sweep.err, "Nothing to draw in " + sweepPng)) << sweep.err;
    EXPECT_FALSE(fs::exists(sweepPng));
}

} // namespace
