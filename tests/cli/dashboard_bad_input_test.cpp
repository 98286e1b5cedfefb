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
#include <utility>
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

// A target accuracy is checked as the CLI checks it (bad_input_test.cpp), before any run.
TEST(DashboardBadInput, ATargetAccuracyThatIsNoPercentageOrTooFewEpochsIsRefused) {
    const std::vector<std::string> twoEpochs = {
        "--synthetic",   "--epochs", "2",      "--train-images", "64",
        "--test-images", "32",       "--quit", "--run",          "cpu:1"};
    expectRefused(
        DEVICEBENCH_DASHBOARD,
        {{with(twoEpochs, {"--target-accuracy", "abc"}),
          "--target-accuracy: 'abc' is not a number"},
         {with(twoEpochs, {"--target-accuracy", "0"}),
          "target accuracy must be a test accuracy in percent, above 0 and at most 100 (got 0)"},
         {with(twoEpochs, {"--target-accuracy", "100.5"}), "(got 100.5)"},
         {with(twoEpochs, {"--target-accuracy", "nan"}), "target accuracy must be a number"},
         {with(kQuickSession, {"--run", "cpu:1", "--target-accuracy", "50"}),
          "a target accuracy needs a budget of at least 2 epochs (got 1)"}});
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

// An option the dashboard does not have, a value missing, or an argument that is no option:
// refused in the program's words (not Qt's), exit 2 as the CLI.
TEST(DashboardBadInput, AnUnknownOptionOrAStrayArgumentIsRefused) {
    expectRefused(DEVICEBENCH_DASHBOARD,
                  {{with(kQuickSession, {"--bogus"}), "devicebench: unknown option 'bogus'"},
                   {with(kQuickSession, {"stray.json"}),
                    "devicebench: unexpected argument 'stray.json': the dashboard takes options"},
                   {{"--quit", "--epochs"}, "devicebench: missing value after '--epochs'"}});
}

// The scripted runs' data folder and devices are checked before any run, as the CLI checks
// them: a data folder that is missing or a file is exit 3 (no usable data set), a device this
// build cannot train on exit 2; no record and no export is written.
TEST(DashboardBadInput, ADataFolderOrDeviceThatCannotRunIsRefusedBeforeAnyRun) {
    TempDir dir("devicebench-badinput");
    const fs::path file = dir.path() / "a-file";
    std::ofstream(file) << "x";
    const std::string missing = (dir.path() / "no-such").string();
    const std::vector<std::string> outputs = {"--runs-folder", (dir.path() / "runs").string(),
                                              "--export-csv", (dir.path() / "e.csv").string()};
    const std::vector<std::pair<std::string, std::string>> folders = {
        {missing, "devicebench: CIFAR-10 data folder '" + missing + "' does not exist"},
        {file.string(),
         "devicebench: CIFAR-10 data folder '" + file.string() + "' is not a folder"}};
    for (const auto &[folder, message] : folders) {
        const Result r = runProgram(
            DEVICEBENCH_DASHBOARD,
            with(outputs, {"--data-dir", folder, "--epochs", "1", "--run", "cpu:1", "--quit"}));
        EXPECT_EQ(r.exitCode, 3) << r.err;
        EXPECT_TRUE(contains(r.err, message)) << r.err;
    }
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"a-file"});
    const Result gpu =
        runProgram(DEVICEBENCH_DASHBOARD, with(kQuickSession, with(outputs, {"--run", "cuda"})));
    if (!contains(gpu.err, "device 'cuda'")) {
        GTEST_SKIP() << "this build trains on a CUDA device here: nothing to refuse";
    }
    EXPECT_EQ(gpu.exitCode, 2) << gpu.err;
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"a-file"});
}

// With nothing to draw or export (an import that could not be read, a sweep folder without a
// cell record) the PNG, the CSV and the report are refused with a message and no file is
// written; a session that cannot have a run is refused before anything.
TEST(DashboardBadInput, APictureOfNothingIsNotWritten) {
    TempDir dir("devicebench-badinput");
    const fs::path truncated = dir.path() / "truncated.json";
    std::ofstream(truncated) << "{\"run_id\": ";
    const std::string png = (dir.path() / "out.png").string();
    const std::string csv = (dir.path() / "out.csv").string();
    const std::string html = (dir.path() / "out.html").string();
    const Result import =
        runProgram(DEVICEBENCH_DASHBOARD, {"--import", truncated.string(), "--export-png", png,
                                           "--export-csv", csv, "--export-html", html, "--quit"});
    EXPECT_EQ(import.exitCode, 1) << import.err;
    EXPECT_TRUE(contains(import.err, "Nothing to draw in " + png)) << import.err;
    EXPECT_TRUE(contains(import.err, "Nothing to export in " + csv + ": no runs; the CSV"))
        << import.err;
    EXPECT_TRUE(contains(import.err, "Nothing to export in " + html)) << import.err;
    EXPECT_FALSE(fs::exists(png));
    EXPECT_FALSE(fs::exists(csv));
    EXPECT_FALSE(fs::exists(html));
    // A session that cannot have a run: refused before anything, as bad input.
    expectRefused(DEVICEBENCH_DASHBOARD,
                  {{with(kQuickSession, {"--export-csv", csv}),
                    "--export-csv " + csv + ": the session has no runs to export"}});
    EXPECT_FALSE(fs::exists(csv));
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
