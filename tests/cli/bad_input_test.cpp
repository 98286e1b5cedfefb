// SPDX-License-Identifier: MIT
// Bad input refused before anything runs (docs/ROBUSTNESS.md), each kind by a table of cases:
// an output that would replace a file the command reads (a run record, a reference file, a
// data file), a --published-dir that is no folder, a whole number out of range.
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
using devicebench::testing::Refusal;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;
using devicebench::testing::with;

const devicebench::testing::RefusalHarness &harness() {
    static const devicebench::testing::RefusalHarness h("devicebench-badinput");
    return h;
}

void expectRefused(const std::string &program, const std::vector<Refusal> &cases) {
    harness().expectRefused(program, cases);
}

// A short synthetic run, its published block shown (--published-dir excludes --no-published).
const std::vector<std::string> kQuickRun = {
    "run", "--synthetic",   "--epochs", "1",         "--train-images",
    "64",  "--test-images", "32",       "--threads", "1"};

// compare's, report's, run's and sweep's outputs may not replace what the command reads: a record
// given to compare (also through a link), a reference file of --published-dir, a CIFAR-10
// batch file of --data-dir, a cell record of the sweep's --out-dir. The inputs stay as they were.
TEST(CliBadInput, AnOutputThatWouldReplaceAnInputIsRefused) {
    TempDir dir("devicebench-badinput");
    const fs::path a = dir.path() / "a.json";
    const fs::path b = dir.path() / "b.json";
    std::ofstream(a) << "{\"a\": 1}";
    std::ofstream(b) << "{\"b\": 2}";
    fs::create_symlink(b, dir.path() / "link.png");
    const fs::path data = dir.path() / "data";
    devicebench::testing::writeDataset(data);
    const std::string batch = (data / "test_batch.bin").string();
    const fs::path published = dir.path() / "published";
    fs::create_directory(published);
    std::ofstream(published / "ref.json") << "{}";
    const fs::path sweep = dir.path() / "sweep";
    fs::create_directory(sweep);
    std::ofstream(sweep / "cell.json") << "{\"cell\": 1}";
    const std::string record = "would replace the run record";
    expectRefused(
        DEVICEBENCH_CLI,
        {{{"compare", a.string(), b.string(), "--csv", a.string()}, record},
         {{"report", a.string(), b.string(), "-o", (dir.path() / "r.html").string(), "--csv",
           b.string()},
          record},
         {{"compare", a.string(), b.string(), "--png", (dir.path() / "link.png").string()}, record},
         {{"report", a.string(), b.string(), "-o", a.string()}, "-o " + a.string()},
         {{"compare", a.string(), b.string(), "--published-dir", published.string(), "--csv",
           (published / "ref.json").string()},
          "would replace the reference file"},
         {{"run", "--data-dir", data.string(), "--epochs", "1", "--threads", "1", "--no-published",
           "--csv", batch},
          "would replace the CIFAR-10 batch file " + batch},
         {{"run", "--data-dir", data.string(), "--epochs", "1", "--threads", "1", "--no-published",
           "--record", (data / "data_batch_2.bin").string()},
          "would replace the CIFAR-10 batch file"},
         {{"sweep", "--synthetic", "--threads", "1", "--steps", "2", "--warmup-steps", "0",
           "--out-dir", sweep.string(), "--csv", (sweep / "cell.json").string()},
          "would replace the cell record"}});
    EXPECT_EQ(slurp(a), "{\"a\": 1}");
    EXPECT_EQ(slurp(b), "{\"b\": 2}");
    EXPECT_EQ(slurp(sweep / "cell.json"), "{\"cell\": 1}");
}

// Two outputs of one file through a symbolic link whose target is not written yet (a dangling
// link), or through a chain of links, are refused like two of one spelling.
TEST(CliBadInput, TwoOutputsOfOneFileThroughADanglingLinkOrAChainAreRefused) {
    TempDir dir("devicebench-badinput");
    const fs::path html = dir.path() / "report.html";
    fs::create_symlink("report.html", dir.path() / "link.csv");
    fs::create_symlink("link.csv", dir.path() / "chain.csv");
    expectRefused(
        DEVICEBENCH_CLI,
        {{with(kQuickRun, {"--html", html.string(), "--csv", (dir.path() / "link.csv").string()}),
          "--csv and --html both name"},
         {with(kQuickRun,
               {"--html", html.string(), "--record", (dir.path() / "chain.csv").string()}),
          "--html and --record both name"}});
    EXPECT_FALSE(fs::exists(html));
}

// --published-dir names a folder that is read: one missing or a file is bad input, for run and
// compare alike, not silently left out.
TEST(CliBadInput, APublishedDirThatIsNoFolderIsRefused) {
    TempDir dir("devicebench-badinput");
    const std::string missing = (dir.path() / "no-such").string();
    const fs::path file = dir.path() / "file";
    std::ofstream(file) << "x";
    std::ofstream(dir.path() / "r.json") << "{}";
    const std::string record = (dir.path() / "r.json").string();
    expectRefused(DEVICEBENCH_CLI, {{with(kQuickRun, {"--published-dir", missing}),
                                     "--published-dir '" + missing + "' does not exist"},
                                    {{"compare", record, "--published", "--published-dir", missing},
                                     "--published-dir '" + missing + "' does not exist"},
                                    {with(kQuickRun, {"--published-dir", file.string()}),
                                     "--published-dir '" + file.string() + "' is not a folder"}});
}

// A target accuracy that is no percentage, or a budget too short to say anything, is refused
// before any run, as the dashboard refuses it (dashboard_bad_input_test.cpp).
TEST(CliBadInput, ATargetAccuracyThatIsNoPercentageOrTooFewEpochsIsRefused) {
    const std::vector<std::string> twoEpochs = {"run",       "--synthetic", "--epochs",      "2",
                                                "--threads", "1",           "--no-published"};
    expectRefused(
        DEVICEBENCH_CLI,
        {{with(twoEpochs, {"--target-accuracy", "abc"}), "--target-accuracy"},
         {with(twoEpochs, {"--target-accuracy", "0"}),
          "target accuracy must be a test accuracy in percent, above 0 and at most 100 (got 0)"},
         {with(twoEpochs, {"--target-accuracy", "100.5"}), "(got 100.5)"},
         {with(twoEpochs, {"--target-accuracy", "-3"}), "(got -3)"},
         {with(twoEpochs, {"--target-accuracy", "nan"}), "target accuracy must be a number"},
         {{"run", "--synthetic", "--epochs", "1", "--target-accuracy", "50"},
          "a target accuracy needs a budget of at least 2 epochs (got 1)"}});
}

// A whole number too large for the option is out of range, said with the range allowed, not
// "not a whole number".
TEST(CliBadInput, AWholeNumberTooLargeIsOutOfRangeNamingTheRange) {
    expectRefused(
        DEVICEBENCH_CLI,
        {{{"run", "--synthetic", "--epochs", "99999999999"},
          "--epochs: 99999999999 is out of range: it must be from -2147483648 to 2147483647"},
         {{"run", "--synthetic", "--epochs", "1", "--threads", "99999999999"},
          "--threads: 99999999999 is out of range: it must be from"},
         {{"run", "--synthetic", "--epochs", "1", "--train-images", "99999999999999999999"},
          "--train-images: 99999999999999999999 is out of range"},
         {{"run", "--synthetic", "--epochs", "1", "--batch-size", "-99999999999"},
          "--batch-size: -99999999999 is out of range"}});
}

// Numbers are read in decimal, as the dashboard reads them: "010" is ten (not octal eight),
// "0x2" and a hexadecimal float are no numbers; and CLI11's own words are not shown: a
// positive check says "at least 1", unknown arguments come in the order given, no subcommand
// names the subcommands (not the hidden one).
TEST(CliBadInput, NumbersAreDecimalAndParseErrorsAreInTheProgramsWords) {
    expectRefused(
        DEVICEBENCH_CLI,
        {{{"run", "--synthetic", "--epochs", "3", "--warmup-epochs", "010"},
          "warm-up epochs (10) must be fewer than epochs (3)"},
         {{"run", "--synthetic", "--epochs", "3", "--train-images", "64", "--batch-size", "0100"},
          "batch size (100) is larger than the training set (64 images)"},
         {{"run", "--synthetic", "--epochs", "0x2"},
          "--epochs: '0x2' is not a whole number (decimal digits only)"},
         {{"run", "--synthetic", "--epochs", "1", "--lr", "0x1p-7"},
          "--lr: '0x1p-7' is not a number"},
         {{"reproduce", "--device", "cpu", "--epochs", "0"},
          "--epochs: 0 is out of range: it must be at least 1"},
         {{"run", "--synthetic", "--bogus", "5", "--other", "x"},
          "unknown option or argument: --bogus 5 --other x"},
         {{}, "no subcommand given: give one of run, launch, devices"},
         {{"launch", "--nproc-per-node", "2"}, "put `--` before the run command"}});
    const devicebench::testing::ProgramResult none = harness().run(DEVICEBENCH_CLI, {});
    EXPECT_FALSE(contains(none.err, "train-child")) << none.err;
}

} // namespace
