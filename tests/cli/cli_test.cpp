// SPDX-License-Identifier: MIT
// devicebench-cli as a user runs it: a child process, its exit code, its output and files.
#include "cifar_files.h"
#include "process_support.h"
#include "stop_signals.h"

#include "devicebench/csv_columns.h"
#include "devicebench/run_record.h"

#ifdef DEVICEBENCH_HAVE_PNG
#include <QImage>
#endif

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::shellQuote;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;

namespace {

using CliResult = devicebench::testing::ProgramResult;

// Runs `program` with `args` and `env` words (e.g. "HOME=/x") in a clean data environment
// (process_support.h): no DEVICEBENCH_DATA and an empty cache unless the caller sets them.
CliResult runProgram(const std::string &program, const std::vector<std::string> &args,
                     const std::string &env) {
    static TempDir io("devicebench-cli-io");
    static TempDir home("devicebench-cli-home");
    devicebench::testing::ProgramSetup setup;
    setup.env = env;
    return devicebench::testing::runProgram(program, args, home.path(), io.path(), setup);
}

CliResult runCli(const std::vector<std::string> &args, const std::string &env = "") {
    return runProgram(DEVICEBENCH_CLI, args, env);
}

#ifdef DEVICEBENCH_HAVE_PNG
// The dashboard, scripted, without a display (offscreen), keeping its runs in a temp folder.
CliResult runDashboard(const std::vector<std::string> &args) {
    static TempDir data("devicebench-dashboard-data");
    return runProgram(DEVICEBENCH_DASHBOARD, args,
                      "QT_QPA_PLATFORM=offscreen XDG_DATA_HOME=" +
                          shellQuote(data.path().string()));
}
#endif

std::vector<std::vector<std::string>> parseCsv(const fs::path &p) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(p);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::string cell;
        bool quoted = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char ch = line[i];
            if (quoted) {
                if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                    cell += '"';
                    ++i;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    cell += ch;
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                cells.push_back(cell);
                cell.clear();
            } else {
                cell += ch;
            }
        }
        cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

#ifdef DEVICEBENCH_HAVE_PNG
// Number of distinct colours in a coarse sample of the picture: a blank PNG has one.
int distinctColours(const QImage &image) {
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7) {
            colours.insert(image.pixel(x, y));
        }
    }
    return static_cast<int>(colours.size());
}
#endif

const std::vector<std::string> kTinySynthetic = {"run",
                                                 "--synthetic",
                                                 "--epochs",
                                                 "2",
                                                 "--warmup-epochs",
                                                 "1",
                                                 "--train-images",
                                                 "256",
                                                 "--test-images",
                                                 "128",
                                                 "--threads",
                                                 "1",
                                                 "--batch-size",
                                                 "32"};

} // namespace

TEST(Cli, TinySyntheticRunPrintsEpochLinesSummaryAndWritesCsvAndPng) {
    TempDir dir;
    const fs::path csv = dir.path() / "out.csv";
    const fs::path png = dir.path() / "out.png";
    auto args = kTinySynthetic;
    args.insert(args.end(), {"--csv", csv.string()});
#ifdef DEVICEBENCH_HAVE_PNG
    args.insert(args.end(), {"--png", png.string()});
#endif
    const CliResult r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("epoch  1/2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("epoch  2/2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("mean of all epochs:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("stable mean (epochs 2-2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SYNTHETIC DATA: times are real, accuracy is meaningless"),
              std::string::npos)
        << r.out;
    EXPECT_TRUE(r.err.empty()) << "stderr is not a terminal, so no progress: " << r.err;

    const auto rows = parseCsv(csv);
    ASSERT_EQ(rows.size(), 3u) << "header + one row per epoch";
    // The engine's per-epoch columns (their names pinned in compare_tests' CsvColumns.*).
    std::vector<std::string> header;
    for (const auto &column : devicebench::epochCsvColumns())
        header.push_back(column.name);
    EXPECT_EQ(rows[0], header);
    for (std::size_t i = 1; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i].size(), header.size());
        EXPECT_EQ(rows[i][1], "cpu");
        EXPECT_EQ(rows[i][2], "1");
        EXPECT_EQ(rows[i][3], std::to_string(i));
        EXPECT_GT(std::stod(rows[i][4]), 0.0);
        EXPECT_EQ(rows[i][5], i == 1 ? "1" : "0");
        EXPECT_GT(std::stod(rows[i][6]), 0.0);
        EXPECT_GT(std::stod(rows[i][9]), 0.0);
        EXPECT_EQ(rows[i][10], "synthetic");
    }

#ifdef DEVICEBENCH_HAVE_PNG
    QImage image;
    ASSERT_TRUE(image.load(QString::fromStdString(png.string())));
    EXPECT_GE(image.width(), 800);
    EXPECT_GT(distinctColours(image), 10) << "the PNG must not be blank";
#else
    EXPECT_FALSE(fs::exists(png));
#endif
}

TEST(Cli, RunsOnFilesInTheBinaryLayoutWithImageLimits) {
    TempDir dir;
    const fs::path data = dir.path() / "cifar 10 – ✓";
    devicebench::testing::writeDataset(data);
    const CliResult r =
        runCli({"run", "--data-dir", data.string(), "--epochs", "1", "--warmup-epochs", "0",
                "--train-images", "300", "--test-images", "100", "--threads", "1"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("300 training, 100 test images"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(data.string()), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("SYNTHETIC"), std::string::npos) << r.out;
}

TEST(Cli, DataFolderFromTheEnvironmentVariableIsUsed) {
    const CliResult r = runCli({"run", "--epochs", "1", "--warmup-epochs", "0"},
                               "DEVICEBENCH_DATA=/env/points/here");
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
    EXPECT_NE(r.err.find("'/env/points/here' does not exist"), std::string::npos) << r.err;
}

TEST(Cli, NoDataFoundSaysWhereToGetAndPutCifar10) {
    const CliResult r = runCli({"run", "--epochs", "1"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("cifar-10-binary.tar.gz"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("devicebench/cifar-10-batches-bin"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--synthetic"), std::string::npos) << r.err;
}

TEST(Cli, MissingDataFolderFailsNamingItBeforeAnyRun) {
    const CliResult r =
        runCli({"run", "--data-dir", "/nonexistent/cifar", "--epochs", "1", "--threads", "1,2"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("'/nonexistent/cifar' does not exist"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("run 1"), std::string::npos) << "no run may start: " << r.out;
}

TEST(Cli, ATruncatedBatchFileIsFoundBeforeAnyRunStarts) {
    TempDir dir;
    devicebench::testing::writeDataset(dir.path());
    fs::resize_file(dir.path() / "data_batch_4.bin", 30730000 - 1);
    const CliResult r = runCli({"run", "--data-dir", dir.path().string(), "--epochs", "1",
                                "--train-images", "100", "--test-images", "100"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("data_batch_4.bin' has 30729999 bytes"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("run 1"), std::string::npos) << r.out;
}

struct BadArgs {
    std::vector<std::string> args;
    const char *expected; // in stderr
};

// Readable test names in ctest output: the arguments.
void PrintTo(const BadArgs &b, std::ostream *os) {
    for (const auto &a : b.args) {
        *os << a << ' ';
    }
}

class CliRejects : public ::testing::TestWithParam<BadArgs> {};

TEST_P(CliRejects, WithExitCodeTwoAndAMessageNamingTheValue) {
    std::vector<std::string> args = {"run", "--synthetic"};
    args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
    const CliResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(GetParam().expected), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("epoch "), std::string::npos) << "no run may start: " << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, CliRejects,
    ::testing::Values(BadArgs{{"--batch-size", "64x"}, "64x"},
                      BadArgs{{"--epochs", "0"}, "epochs must be at least 1 (got 0)"},
                      BadArgs{{"--epochs=-2"}, "(got -2)"},
                      BadArgs{{"--lr", "nan"}, "learning rate"},
                      BadArgs{{"--threads", "2000"}, "threads must be between 1 and 1024"},
                      BadArgs{{"--device", "gpu"}, "unknown device 'gpu'"},
                      BadArgs{{"--device", "cuda:7"}, "cuda:7"},
                      BadArgs{{"--warmup-epochs", "10"}, "warm-up epochs (10) must be fewer"},
                      BadArgs{{"--no-such-flag"}, "--no-such-flag"},
                      BadArgs{{"--precision", "fp8"}, "fp8"},
                      BadArgs{{"--precision", "fp16"}, "precision fp16 is CUDA only: device cpu"},
                      BadArgs{{"--tf32", "maybe"}, "maybe"}));

// CLI11's parse errors in the program's words: each case gives what the message must say and
// what CLI11's own text said that it must not.
struct ParseCase {
    std::vector<std::string> args;
    const char *said;
    const char *notSaid;
};

void PrintTo(const ParseCase &c, std::ostream *os) { PrintTo(BadArgs{c.args, c.said}, os); }

class CliParseErrors : public ::testing::TestWithParam<ParseCase> {};

TEST_P(CliParseErrors, AreSaidInTheProgramsWordsWithExitCodeTwo) {
    std::vector<std::string> args = {"run", "--synthetic"};
    args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
    const CliResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find(std::string("devicebench-cli: error: ") + GetParam().said),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find(GetParam().notSaid), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("see `devicebench-cli run --help`"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("epoch "), std::string::npos) << "no run may start: " << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cli11, CliParseErrors,
    ::testing::Values(
        ParseCase{{"--epochs", "2", "--epochs", "3"},
                  "--epochs was given 2 times; give it once",
                  "At Most"},
        ParseCase{{"--batch-size", "64x"},
                  "--batch-size: '64x' is not a whole number",
                  "Could not convert"},
        ParseCase{{"--lr", "fast"}, "--lr: 'fast' is not a number", "Could not convert"},
        ParseCase{{"--seed", "-1"},
                  "--seed: -1 is out of range: it must be at least 0",
                  "179769313486231570814527423731704356798070567525844996598917476803157"},
        ParseCase{{"--precision", "fp8"},
                  "--precision: 'fp8' is not one of fp32, bf16 or fp16",
                  "not in {"},
        ParseCase{{"--epochs"}, "--epochs needs a value (INT)", "required INT missing"},
        ParseCase{
            {"--no-such-flag"}, "unknown option or argument: --no-such-flag", "was not expected"},
        ParseCase{{"--record", "a.json", "--out-dir", "runs"},
                  "--record and --out-dir cannot be given together",
                  "excludes"},
        ParseCase{
            {"--timeout", "0"}, "--timeout must be a number of seconds", "--timeout: --timeout"}));

// An option given an empty value is refused rather than read as its default, whichever it is
// ("--python ''" would run python3); an empty environment variable is unset instead.
TEST(Cli, AnOptionGivenAnEmptyValueIsRefusedNamingIt) {
    for (const char *option : {"--python", "--data-dir", "--csv", "--price-per-hour"}) {
        const CliResult r = runCli({"run", "--synthetic", "--epochs", "1", option, ""});
        EXPECT_EQ(r.exitCode, 2) << option << r.err;
        EXPECT_NE(r.err.find(std::string("devicebench-cli: error: ") + option +
                             " needs a value: leave it out for its default"),
                  std::string::npos)
            << r.err;
        EXPECT_EQ(r.out.find("epoch "), std::string::npos) << r.out;
    }
}

// Every output of a run is checked together before the first epoch: two that name one file (or
// one that is another's derived name) and an --out-dir that is a file are bad input, exit 2,
// and nothing runs or is written.
TEST(CliOutputs, TwoOutputsOfOneFileOrOfADerivedNameAreRefusedBeforeAnyRun) {
    TempDir dir("devicebench-cli-outputs");
    const std::string both = (dir.path() / "both.dat").string();
    const std::string csv = (dir.path() / "x.csv").string();
    const std::string summary = (dir.path() / "x-summary.csv").string();
    const std::vector<std::vector<std::string>> cases = {{"--csv", both, "--html", both},
                                                         {"--csv", csv, "--record", summary},
                                                         {"--record", both, "--html", both}};
    for (const std::vector<std::string> &outputs : cases) {
        std::vector<std::string> args = {
            "run",           "--synthetic", "--epochs",  "1", "--train-images", "64",
            "--test-images", "32",          "--threads", "1", "--no-published"};
        args.insert(args.end(), outputs.begin(), outputs.end());
        const CliResult r = runCli(args);
        EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
        EXPECT_NE(r.err.find("both name"), std::string::npos) << r.err;
        EXPECT_EQ(r.out.find("epoch "), std::string::npos) << "no run may start: " << r.out;
        EXPECT_TRUE(fs::is_empty(dir.path())) << "nothing may be written";
    }
}

TEST(CliOutputs, AnOutDirOrLogdirThatIsAFileIsBadInputLikeACsvThatIsAFolder) {
    TempDir dir("devicebench-cli-outputs");
    const fs::path file = dir.path() / "a-file";
    std::ofstream(file) << "x";
    for (const char *flag : {"--out-dir", "--logdir"}) {
        const CliResult r = runCli({"run", "--synthetic", "--epochs", "1", "--train-images", "64",
                                    "--test-images", "32", "--threads", "1", flag, file.string()});
        EXPECT_EQ(r.exitCode, 2) << flag << r.out << r.err;
        EXPECT_NE(r.err.find(std::string(flag) + " " + file.string() + ": it is a file"),
                  std::string::npos)
            << r.err;
        EXPECT_EQ(r.out.find("epoch "), std::string::npos) << "no run may start: " << r.out;
    }
    const CliResult folder =
        runCli({"run", "--synthetic", "--epochs", "1", "--csv", dir.path().string()});
    EXPECT_EQ(folder.exitCode, 2) << folder.err;
}

TEST(CliOutputs, ARefusedRunLeavesNoRecordsFolderBehind) {
    TempDir dir("devicebench-cli-outputs");
    const fs::path runs = dir.path() / "runs";
    const CliResult r = runCli({"run", "--synthetic", "--epochs", "1", "--price-per-hour", "bogus",
                                "--out-dir", runs.string()});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_FALSE(fs::exists(runs)) << "a refused command made its --out-dir";
}

// A refused precision is found before any data is read: the data folder named here does not
// exist, and the message is the precision's, not the folder's.
TEST(Cli, Fp16OnTheCpuIsRefusedBeforeTheDataFolderIsRead) {
    const CliResult r =
        runCli({"run", "--data-dir", "/nonexistent/cifar", "--precision", "fp16", "--epochs", "1"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("fp16 is CUDA only"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("/nonexistent/cifar"), std::string::npos) << r.err;
}

TEST(Cli, Tf32OnACpuRunIsNotedAndRecordedAsDefaultSoTheRunStaysComparable) {
    TempDir dir("devicebench-cli-tf32");
    const fs::path record = dir.path() / "tf32.json";
    const CliResult r = runCli({"run", "--synthetic", "--epochs", "1", "--warmup-epochs", "0",
                                "--train-images", "64", "--test-images", "32", "--threads", "1",
                                "--tf32", "on", "--record", record.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("--tf32 acts on CUDA devices only"), std::string::npos) << r.err;
    EXPECT_EQ(devicebench::readRunRecord(record.string()).config.tf32, devicebench::Tf32::Default);
    EXPECT_EQ(r.out.find("TF32 on"), std::string::npos) << "the header says what is recorded:\n"
                                                        << r.out;
}

TEST(Cli, ABf16RunSaysItsPrecisionAndWhetherTheCpuDoesItNatively) {
    TempDir dir("devicebench-cli-bf16");
    const fs::path record = dir.path() / "bf16.json";
    const CliResult r = runCli({"run", "--synthetic", "--epochs", "1", "--warmup-epochs", "0",
                                "--train-images", "64", "--test-images", "32", "--threads", "1",
                                "--precision", "bf16", "--record", record.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("precision bf16"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("precision: bf16 "), std::string::npos) << "the native/emulated note";
    EXPECT_NE(r.out.find(" bf16"), std::string::npos);
    const devicebench::RunRecord written = devicebench::readRunRecord(record.string());
    EXPECT_EQ(written.precision, "bfloat16");
    EXPECT_EQ(written.config.precision, devicebench::Precision::BFloat16);
    EXPECT_NE(written.started.precisionNote, "");
}

TEST(Cli, DevicesListsTheCpuAndSaysWhyCudaIsNotUsable) {
    const CliResult r = runCli({"devices"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    // The first word of each device line is its id, the second its state.
    std::map<std::string, std::string> state;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string id;
        std::string usable;
        if (line.rfind("  ", 0) == 0 && words >> id >> usable &&
            (usable == "USABLE" || usable == "UNUSABLE")) {
            state[id] = usable;
        }
    }
    EXPECT_EQ(state["cpu"], "USABLE") << r.out;
    EXPECT_NE(r.out.find(" ms, relative error "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("logicalCores: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("blasLibrary: "), std::string::npos) << r.out;
    if (state["cuda:0"] == "USABLE") {
        GTEST_SKIP() << "a CUDA device is usable here; the no-GPU message is not shown";
    }
    EXPECT_TRUE(state["cuda"] == "UNUSABLE" || state["cuda:0"] == "UNUSABLE") << r.out;
    EXPECT_NE(r.out.find("reason: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("No CUDA device is usable here: "), std::string::npos) << r.out;
}

TEST(Cli, DevicesJsonParsesAndHoldsDevicesAndFingerprint) {
    const CliResult r = runCli({"devices", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out); // throws (fails the test) if not JSON
    ASSERT_TRUE(j.at("devices").is_array());
    ASSERT_FALSE(j.at("devices").empty());
    EXPECT_EQ(j["devices"][0].at("id"), "cpu");
    EXPECT_EQ(j["devices"][0].at("usable"), true);
    EXPECT_GT(j["devices"][0].at("probe").at("seconds").get<double>(), 0.0);
    EXPECT_GE(j.at("fingerprint").at("logicalCores").get<int>(), 1);
    EXPECT_FALSE(j.at("fingerprint").at("hostName").get<std::string>().empty());
    for (const auto &d : j["devices"]) {
        if (d.at("id") == "cuda") {
            EXPECT_EQ(d.at("usable"), false);
            EXPECT_FALSE(d.at("reason").get<std::string>().empty());
        }
    }
}

TEST(Cli, ExportToAFolderThatDoesNotExistIsRefusedBeforeTheRun) {
#ifndef DEVICEBENCH_HAVE_PNG
    GTEST_SKIP() << "--png needs the full build (DEVICEBENCH_BUILD_UI=ON); see "
                    "CliWithoutQt.PngIsRefusedWithExitCodeTwoBeforeAnyRun";
#endif
    const std::string png = "/nonexistent-dir/out.png";
    const std::vector<std::string> args = {"run",
                                           "--synthetic",
                                           "--epochs",
                                           "1",
                                           "--warmup-epochs",
                                           "0",
                                           "--train-images",
                                           "64",
                                           "--test-images",
                                           "64",
                                           "--threads",
                                           "1",
                                           "--png",
                                           png};
    const CliResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_EQ(r.out.find("epoch "), std::string::npos) << "no run may start: " << r.out;
    EXPECT_NE(r.err.find(png), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(png));
}

TEST(Cli, ComparesEveryThreadCountInOneInvocation) {
    TempDir dir;
    const fs::path csv = dir.path() / "both.csv";
    const CliResult r =
        runCli({"run", "--synthetic", "--epochs", "2", "--warmup-epochs", "1", "--train-images",
                "128", "--test-images", "64", "--threads", "1,2", "--csv", csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("comparison (stable mean"), std::string::npos) << r.out;
    const auto rows = parseCsv(csv);
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[1][2], "1");
    EXPECT_EQ(rows[3][2], "2");
}

namespace {

// devicebench-cli started in the background, for tests that signal it mid-run.
class CliChild : public devicebench::testing::ChildProcess {
public:
    explicit CliChild(const std::vector<std::string> &args) : ChildProcess(DEVICEBENCH_CLI, args) {}
};

// Polls `path` until its record holds `epochs` finished epochs. Every version seen must parse:
// the file is only ever replaced whole. Returns "" or what went wrong.
std::string waitForEpochs(CliChild &child, const fs::path &path, std::size_t epochs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);
    while (std::chrono::steady_clock::now() < deadline) {
        if (fs::exists(path)) {
            try {
                const auto record = devicebench::readRunRecord(path.string());
                if (record.epochs.size() >= epochs) {
                    return record.epochs.size() == epochs
                               ? ""
                               : "epochs went by too fast to catch: " +
                                     std::to_string(record.epochs.size());
                }
            } catch (const devicebench::RecordError &e) {
                return std::string("a version of the record did not parse: ") + e.what();
            }
        }
        if (child.exited()) {
            return "devicebench-cli ended before epoch " + std::to_string(epochs);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return "timed out";
}

const std::vector<std::string> kFiveEpochs = {"run",
                                              "--synthetic",
                                              "--epochs",
                                              "5",
                                              "--warmup-epochs",
                                              "0",
                                              "--train-images",
                                              "2000",
                                              "--test-images",
                                              "200",
                                              "--threads",
                                              "1"};

} // namespace

TEST(CliRecord, RunKilledWithSigkillDuringEpoch3LeavesARecordWithEpochs1And2) {
    TempDir dir;
    const fs::path record = dir.path() / "killed.json";
    auto args = kFiveEpochs;
    args.insert(args.end(), {"--record", record.string()});
    CliChild child(args);
    ASSERT_TRUE(child.started());
    const std::string problem = waitForEpochs(child, record, 2);
    child.signal(SIGKILL); // now in epoch 3
    const int status = child.wait();
    ASSERT_EQ(problem, "");
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;

    const auto r = devicebench::readRunRecord(record.string());
    EXPECT_EQ(r.status, "running") << "the process died: nobody wrote an end";
    ASSERT_EQ(r.epochs.size(), 2u);
    EXPECT_EQ(r.epochs[0].epoch, 1);
    EXPECT_EQ(r.epochs[1].epoch, 2);
    EXPECT_GT(r.epochs[1].seconds, 0.0);
    EXPECT_FALSE(r.steps.empty());
    EXPECT_EQ(r.config.epochs, 5);
    EXPECT_EQ(devicebench::testing::namesIn(dir.path()), std::vector<std::string>{"killed.json"})
        << "no temporary file left";
}

using devicebench::testing::StopSignal; // each signal, and the words its record says

class CliStopSignal : public ::testing::TestWithParam<StopSignal> {};

TEST_P(CliStopSignal, EndsTheRunWithACancelledRecordThatSaysWhichAndNoOrphan) {
    TempDir dir;
    const fs::path record = dir.path() / "stopped.json";
    auto args = kFiveEpochs;
    args.insert(args.end(), {"--record", record.string()});
    CliChild child(args);
    ASSERT_TRUE(child.started());
    const std::string problem = waitForEpochs(child, record, 1);
    child.signal(GetParam().number);
    const int status = child.wait();
    ASSERT_EQ(problem, "");
    ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 130);
    const auto r = devicebench::readRunRecord(record.string());
    EXPECT_EQ(r.status, "cancelled");
    EXPECT_NE(r.reason.find(std::string("stopped by ") + GetParam().cause + " during"),
              std::string::npos)
        << r.reason;
    EXPECT_GE(r.epochs.size(), 1u);
    EXPECT_LT(r.epochs.size(), 5u);
}

INSTANTIATE_TEST_SUITE_P(Signals, CliStopSignal, devicebench::testing::stopSignals(),
                         devicebench::testing::stopSignalName);

TEST(CliRecord, RecordFlagWritesTheFinishedRunAndSaysWhere) {
    TempDir dir;
    const fs::path record = dir.path() / "run.json";
    auto args = kTinySynthetic;
    args.insert(args.end(), {"--record", record.string()});
    const CliResult r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("wrote record " + record.string()), std::string::npos) << r.out;
    const auto rec = devicebench::readRunRecord(record.string());
    EXPECT_EQ(rec.status, "finished");
    EXPECT_EQ(rec.epochs.size(), 2u);
    EXPECT_EQ(rec.config.batchSize, 32);
    EXPECT_EQ(rec.started.threads, 1);
    EXPECT_EQ(rec.data.variant, "synthetic");
    EXPECT_FALSE(rec.fingerprint.hostName.empty());
}

TEST(CliRecord, OutDirGetsOneRecordPerRunNamedByItsRunId) {
    TempDir dir;
    const fs::path outDir = dir.path() / "new" / "records";
    const CliResult r =
        runCli({"run", "--synthetic", "--epochs", "2", "--warmup-epochs", "1", "--train-images",
                "128", "--test-images", "64", "--threads", "1,2", "--out-dir", outDir.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    std::set<int> threads;
    int files = 0;
    for (const auto &entry : fs::directory_iterator(outDir)) {
        ++files;
        const auto rec = devicebench::readRunRecord(entry.path().string());
        EXPECT_EQ(entry.path().filename().string(), rec.runId + ".json");
        EXPECT_EQ(rec.status, "finished");
        threads.insert(rec.started.threads);
        EXPECT_NE(r.out.find("wrote record " + entry.path().string()), std::string::npos) << r.out;
    }
    EXPECT_EQ(files, 2);
    EXPECT_EQ(threads, (std::set<int>{1, 2}));
}

TEST(CliRecord, RecordWithSeveralRunsIsRefusedBeforeAnyRun) {
    TempDir dir;
    const CliResult r = runCli({"run", "--synthetic", "--epochs", "1", "--warmup-epochs", "0",
                                "--threads", "1,2", "--record", (dir.path() / "x.json").string()});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("--out-dir"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("epoch "), std::string::npos) << r.out;
}

TEST(CliRecord, RecordInAMissingFolderIsRefusedBeforeAnyRun) {
    const std::string path = "/nonexistent-dir/run.json";
    const CliResult r = runCli({"run", "--synthetic", "--epochs", "1", "--warmup-epochs", "0",
                                "--threads", "1", "--record", path});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("epoch "), std::string::npos) << r.out;
}

// Three records made by three CLI runs: threads 1 and 2 (comparable), and batch size 32.
class CliCompare : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        m_dir = new TempDir("devicebench-compare");
        const std::vector<std::vector<std::string>> variants = {
            {"--threads", "1"}, {"--threads", "2"}, {"--threads", "1", "--batch-size", "32"}};
        for (std::size_t i = 0; i < variants.size(); ++i) {
            const fs::path record = m_dir->path() / ("r" + std::to_string(i + 1) + ".json");
            std::vector<std::string> args = {
                "run", "--synthetic",   "--epochs", "3", "--warmup-epochs", "1", "--train-images",
                "192", "--test-images", "64"};
            args.insert(args.end(), variants[i].begin(), variants[i].end());
            args.insert(args.end(), {"--record", record.string()});
            const CliResult r = runCli(args);
            ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
            m_records.push_back(record.string());
        }
    }
    static void TearDownTestSuite() {
        delete m_dir;
        m_dir = nullptr;
        m_records.clear();
    }
    static TempDir *m_dir;
    static std::vector<std::string> m_records;
};
TempDir *CliCompare::m_dir = nullptr;
std::vector<std::string> CliCompare::m_records;

// The output line of the run whose label starts with "#<n> ".
std::string lineOfRun(const std::string &out, int n) {
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("  #" + std::to_string(n) + " ", 0) == 0 &&
            line.find(" vs ") == std::string::npos) {
            return line;
        }
    }
    return "";
}

// A bf16 record (here the first record made bf16 on a CPU that emulates it) is shown beside the
// fp32 one, labelled, not comparable for its precision, with the emulation note.
TEST_F(CliCompare, ABf16RunIsLabelledNotComparableForItsPrecisionAndItsEmulationIsNoted) {
    nlohmann::json j = nlohmann::json::parse(slurp(m_records[0]));
    j["runId"] = j["runId"].get<std::string>() + "-bf16"; // another run, not a duplicate
    j["precision"] = "bfloat16";
    j["started"]["precisionNative"] = false;
    j["started"]["precisionNote"] = "bf16 is emulated on this CPU (no avx512_bf16 or amx_bf16 in "
                                    "/proc/cpuinfo): expect it slower than fp32";
    const fs::path bf16 = m_dir->path() / "bf16.json";
    std::ofstream(bf16) << j.dump(2);
    const CliResult r = runCli({"compare", "--runs", m_records[0], bf16.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string second = lineOfRun(r.out, 2);
    EXPECT_NE(second.find(" bf16"), std::string::npos) << r.out;
    EXPECT_NE(second.find("not comparable: precision"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("note: #2: bf16 is emulated on this CPU"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("#1 vs #2"), std::string::npos) << "no control across precisions";
}

TEST_F(CliCompare, FlagsTheBatchSizeAndGivesASpeedUpWithItsInterval) {
    ASSERT_EQ(m_records.size(), 3u);
    const fs::path csv = m_dir->path() / "cmp.csv";
    const fs::path png = m_dir->path() / "cmp.png";
    std::vector<std::string> args = {"compare",    "--runs",     m_records[0],
                                     m_records[1], m_records[2], "--baseline",
                                     "1",          "--csv",      csv.string()};
#ifdef DEVICEBENCH_HAVE_PNG
    args.insert(args.end(), {"--png", png.string()});
#endif
    const CliResult r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string first = lineOfRun(r.out, 1);
    const std::string second = lineOfRun(r.out, 2);
    const std::string third = lineOfRun(r.out, 3);
    EXPECT_NE(first.find("baseline"), std::string::npos) << r.out;
    EXPECT_NE(second.find("CPU x2 @ "), std::string::npos) << r.out;
    EXPECT_NE(second.find("x ["), std::string::npos) << "speed-up with interval: " << r.out;
    EXPECT_NE(second.find("yes"), std::string::npos) << r.out;
    EXPECT_NE(third.find("not comparable: batch size"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("#1 vs #2: max test-loss difference"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("#1 vs #3"), std::string::npos) << "no control across workloads";

    const auto rows = parseCsv(csv);
    ASSERT_EQ(rows.size(), 1u + 3u * 3u) << "header + 3 epochs of 3 runs";
    EXPECT_EQ(rows[0][13], "comparable");
    EXPECT_EQ(rows[1][13], "1");
    EXPECT_EQ(rows[7][13], "0");
    EXPECT_EQ(rows[7][14], "batch size");
    const auto summary = parseCsv(m_dir->path() / "cmp-summary.csv");
    ASSERT_EQ(summary.size(), 4u) << "header + one row per run";
    EXPECT_EQ(summary[0][0], "run");
    EXPECT_EQ(summary[0][17], "speedup");
    for (std::size_t i = 1; i < summary.size(); ++i) {
        EXPECT_EQ(summary[i].size(), summary[0].size());
    }
#ifdef DEVICEBENCH_HAVE_PNG
    QImage image;
    ASSERT_TRUE(image.load(QString::fromStdString(png.string())));
    EXPECT_GT(distinctColours(image), 10) << "the PNG must not be blank";
#else
    EXPECT_FALSE(fs::exists(png));
#endif
}

TEST_F(CliCompare, NamesEachBadFileOnStderrAndComparesTheGoodOnes) {
    ASSERT_EQ(m_records.size(), 3u);
    const fs::path truncated = m_dir->path() / "truncated.json";
    const fs::path notJson = m_dir->path() / "notes.txt";
    const std::string text = slurp(m_records[0]);
    std::ofstream(truncated) << text.substr(0, text.size() / 2);
    std::ofstream(notJson) << "epoch 1: 2.3 s\n";
    const fs::path csv = m_dir->path() / "good.csv";
    const CliResult r = runCli({"compare", "--runs", m_records[0], truncated.string(), m_records[1],
                                notJson.string(), "--csv", csv.string()});
    EXPECT_EQ(r.exitCode, 1) << "a record was skipped: " << r.out << r.err;
    EXPECT_NE(r.err.find("skipped " + truncated.string() + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("skipped " + notJson.string() + ": "), std::string::npos) << r.err;
    EXPECT_NE(lineOfRun(r.out, 2).find("x"), std::string::npos) << r.out;
    EXPECT_EQ(parseCsv(csv).size(), 1u + 2u * 3u) << "the good ones are written";

    const CliResult none = runCli({"compare", truncated.string(), notJson.string()});
    EXPECT_EQ(none.exitCode, 2) << none.out << none.err;
}

TEST_F(CliCompare, JsonHoldsEachRunItsSpeedUpTheControlAndTheSkippedFiles) {
    ASSERT_EQ(m_records.size(), 3u);
    const fs::path bad = m_dir->path() / "bad-for-json.json";
    std::ofstream(bad) << "{";
    const CliResult r = runCli({"compare", m_records[0], m_records[1], m_records[2], bad.string(),
                                "--baseline", "1", "--json", "--runs"});
    EXPECT_EQ(r.exitCode, 1) << "a record was skipped: " << r.err;
    const auto j = nlohmann::json::parse(r.out); // stdout is the JSON document only
    EXPECT_EQ(j.at("command"), "compare");
    EXPECT_EQ(j.at("exitCode"), 1);
    EXPECT_EQ(j.at("baseline"), 1);
    ASSERT_EQ(j.at("runs").size(), 3u);
    const auto &first = j["runs"][0];
    const auto &third = j["runs"][2];
    EXPECT_EQ(first.at("file"), m_records[0]);
    EXPECT_EQ(first.at("isBaseline"), true);
    EXPECT_EQ(first.at("status"), "finished");
    EXPECT_EQ(first.at("config").at("threads"), 1);
    EXPECT_EQ(first.at("summary").at("epochSeconds").size(), 3u);
    EXPECT_GT(first.at("summary").at("stableMean").get<double>(), 0.0);
    EXPECT_EQ(j["runs"][1].at("comparable"), true);
    EXPECT_GT(j["runs"][1].at("speedUp").at("ratio").get<double>(), 0.0);
    EXPECT_EQ(third.at("comparable"), false);
    EXPECT_NE(third.at("differences").dump().find("batch"), std::string::npos)
        << third.at("differences");
    ASSERT_EQ(j.at("control").size(), 1u) << "runs 1 and 2 share a workload";
    EXPECT_EQ(j["control"][0].at("a"), 1);
    EXPECT_EQ(j["control"][0].at("b"), 2);
    ASSERT_EQ(j.at("skipped").size(), 1u);
    EXPECT_EQ(j["skipped"][0].at("file"), bad.string());
    EXPECT_NE(r.err.find("skipped " + bad.string()), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("stable mean"), std::string::npos)
        << "stderr is not a terminal: no table there either: " << r.err;
}

// Repeats of run 1 (its record with other run ids), beside run 2 (2 threads): the groups come
// first, one line each, then the warnings and the control in a few lines; the runs one by one
// and every control pair only with --runs.
TEST_F(CliCompare, PrintsGroupsFirstAndTheRunsOneByOneOnlyWithRuns) {
    std::vector<std::string> records = {m_records[0]};
    for (const char *suffix : {"-again", "-third"}) {
        nlohmann::json j = nlohmann::json::parse(slurp(m_records[0]));
        j["runId"] = j["runId"].get<std::string>() + suffix;
        const fs::path copy = m_dir->path() / ("r1" + std::string(suffix) + ".json");
        std::ofstream(copy) << j.dump(2);
        records.push_back(copy.string());
    }
    records.push_back(m_records[1]);
    std::vector<std::string> args = {"compare"};
    args.insert(args.end(), records.begin(), records.end());
    const CliResult r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find(": 4 runs in 2 groups"), std::string::npos) << r.out;
    const std::size_t groups = r.out.find("groups (");
    const std::size_t control = r.out.find("control (");
    ASSERT_NE(groups, std::string::npos) << r.out;
    ASSERT_NE(control, std::string::npos) << r.out;
    EXPECT_LT(groups, control);
    EXPECT_NE(r.out.find("#1-#3"), std::string::npos) << "the repeats are one group: " << r.out;
    EXPECT_NE(r.out.find("n = 3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("6 pairs"), std::string::npos) << "4 comparable runs: " << r.out;
    EXPECT_NE(r.out.find("largest: #"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("no pair above 0.01"), std::string::npos) << r.out;
    EXPECT_EQ(lineOfRun(r.out, 1), "") << "no per-run table without --runs: " << r.out;
    EXPECT_EQ(r.out.find("every comparable pair"), std::string::npos) << r.out;

    args.push_back("--runs");
    const CliResult runs = runCli(args);
    ASSERT_EQ(runs.exitCode, 0) << runs.out << runs.err;
    EXPECT_LT(runs.out.find("groups ("), runs.out.find("runs:\n")) << runs.out;
    EXPECT_NE(lineOfRun(runs.out, 4), "") << runs.out;
    EXPECT_NE(runs.out.find("control, every comparable pair:\n"), std::string::npos) << runs.out;
    EXPECT_NE(runs.out.find("  #3 vs #4: max test-loss difference"), std::string::npos) << runs.out;

    args.back() = "--json";
    const CliResult json = runCli(args);
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_EQ(j.at("groups").size(), 2u);
    EXPECT_EQ(j["groups"][0].at("n"), 3);
    EXPECT_EQ(j["groups"][0].at("runs"), nlohmann::json::array({1, 2, 3}));
    EXPECT_EQ(j["groups"][0].at("intervalFrom"), "runs");
    EXPECT_EQ(j["groups"][1].at("n"), 1);
    EXPECT_EQ(j.at("controlSummary").at("comparablePairs"), 6);
    EXPECT_TRUE(j["controlSummary"].at("warnings").empty());
    EXPECT_FALSE(j.contains("control")) << "every pair only with --runs";
}

TEST(CliJson, RunPrintsOneDocumentWithConfigEpochsSummaryAndStatus) {
    TempDir dir;
    const fs::path record = dir.path() / "run.json";
    auto args = kTinySynthetic;
    args.insert(args.end(), {"--record", record.string(), "--json"});
    const CliResult r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto j = nlohmann::json::parse(r.out); // stdout is the JSON document only
    EXPECT_EQ(j.at("command"), "run");
    EXPECT_EQ(j.at("exitCode"), 0);
    EXPECT_EQ(j.at("synthetic"), true);
    ASSERT_EQ(j.at("runs").size(), 1u);
    const auto &run = j["runs"][0];
    EXPECT_EQ(run.at("status"), "finished");
    EXPECT_EQ(run.at("label"), "#1 cpu");
    EXPECT_EQ(run.at("config").at("epochs"), 2);
    EXPECT_EQ(run.at("config").at("batchSize"), 32);
    EXPECT_EQ(run.at("started").at("threads"), 1);
    ASSERT_EQ(run.at("epochs").size(), 2u);
    EXPECT_EQ(run["epochs"][1].at("epoch"), 2);
    EXPECT_GT(run["epochs"][1].at("seconds").get<double>(), 0.0);
    EXPECT_EQ(run.at("summary").at("epochSeconds").size(), 2u);
    EXPECT_EQ(run["summary"].at("epochSeconds")[1], run["epochs"][1].at("seconds"));
    EXPECT_EQ(run["summary"].at("stableMean"), run["epochs"][1].at("seconds"))
        << "one warm-up epoch: the stable mean is epoch 2";
    EXPECT_EQ(run.at("recordFile"), record.string());
    EXPECT_TRUE(run.at("tensorboardFile").is_null());
    // The JSON's run is the record the run wrote.
    const devicebench::RunRecord written = devicebench::readRunRecord(record.string());
    EXPECT_EQ(run.at("runId"), written.runId);
    EXPECT_TRUE(r.err.empty()) << "stderr is not a terminal: no text there: " << r.err;
}

TEST(CliJson, BadUsageWithJsonPrintsNothingOnStdoutAndExitsTwo) {
    const CliResult r = runCli({"run", "--synthetic", "--epochs", "0", "--json"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("epochs"), std::string::npos) << r.err;
}

TEST(CliTensorBoard, LogdirGetsOneEventFilePerRunAndSaysWhere) {
    TempDir dir;
    const fs::path logs = dir.path() / "new" / "logs";
    const CliResult r =
        runCli({"run", "--synthetic", "--epochs", "1", "--train-images", "64", "--test-images",
                "64", "--threads", "1,2", "--logdir", logs.string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    std::set<std::string> runNames;
    for (const auto &entry : fs::directory_iterator(logs)) {
        runNames.insert(entry.path().filename().string());
        std::vector<fs::path> files;
        for (const auto &file : fs::directory_iterator(entry.path())) {
            files.push_back(file.path());
        }
        ASSERT_EQ(files.size(), 1u) << entry.path();
        EXPECT_EQ(files[0].filename().string().rfind("events.out.tfevents.", 0), 0u) << files[0];
        EXPECT_GT(fs::file_size(files[0]), 0u);
        EXPECT_NE(r.out.find("wrote TensorBoard events " + files[0].string()), std::string::npos)
            << r.out;
    }
    ASSERT_EQ(runNames.size(), 2u);
    EXPECT_NE(runNames.begin()->find("_cpu_x"), std::string::npos) << *runNames.begin();
}

TEST(CliTensorBoard, ALogdirThatIsAFileIsRefusedBeforeAnyRun) {
    TempDir dir;
    const fs::path file = dir.path() / "a-file";
    std::ofstream(file) << "x";
    const CliResult r = runCli({"run", "--synthetic", "--epochs", "1", "--train-images", "64",
                                "--test-images", "64", "--logdir", file.string()});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("cannot write --logdir " + file.string() + ": it is a file"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out.find("epoch"), std::string::npos) << "no run started: " << r.out;
}

#ifdef DEVICEBENCH_HAVE_PNG // the dashboard exists in the full build only
TEST(Dashboard, HelpWorksWithoutADisplay) {
    const CliResult r =
        runProgram(DEVICEBENCH_DASHBOARD, {"--help"}, "DISPLAY= WAYLAND_DISPLAY= QT_QPA_PLATFORM=");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("--run"), std::string::npos) << r.out;
}

TEST(Dashboard, WithoutADisplaySaysSoAndPointsAtTheCli) {
    const CliResult r =
        runProgram(DEVICEBENCH_DASHBOARD, {}, "DISPLAY= WAYLAND_DISPLAY= QT_QPA_PLATFORM=");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("no display"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("devicebench-cli"), std::string::npos) << r.err;
}

// A scripted run that fails while it runs (its Python passes the check, then exits 1) makes
// the dashboard's exit code 1, as the CLI's for a failed run.
TEST(Dashboard, AScriptedRunThatFailsWhileRunningMakesTheExitCodeOne) {
    TempDir dir;
    devicebench::testing::writeDataset(dir.path() / "data");
    const fs::path python = dir.path() / "python-that-fails";
    std::ofstream(python) << "#!/bin/sh\n"
                             "for a in \"$@\"; do [ \"$a\" = --check ] && "
                             "{ echo '{\"problem\": \"\"}'; exit 0; }; done\n"
                             "echo 'the training failed' >&2\nexit 1\n";
    fs::permissions(python, fs::perms::owner_all);
    const CliResult r =
        runDashboard({"--data-dir", (dir.path() / "data").string(), "--workload", "article-script",
                      "--python", python.string(), "--epochs", "1", "--run", "cpu:1", "--quit"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("run failed"), std::string::npos) << r.err;
}

// A scripted run that could not read its data: refused before it starts, with the CLI's exit
// code for no usable data set (it used to train the others first and exit 1).
TEST(Dashboard, AScriptedRunWithoutItsDataIsRefusedBeforeItRunsWithExitThree) {
    const CliResult r = runDashboard(
        {"--data-dir", "/nonexistent/cifar", "--epochs", "1", "--run", "cpu:1", "--quit"});
    EXPECT_EQ(r.exitCode, 3) << r.err;
    EXPECT_NE(r.err.find("'/nonexistent/cifar' does not exist"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("epoch 1"), std::string::npos) << r.err;
}

TEST(Dashboard, AScriptedOneEpochRunDefaultsToNoWarmupAndExports) {
    TempDir dir;
    const fs::path csv = dir.path() / "d.csv";
    const CliResult r =
        runDashboard({"--synthetic", "--epochs", "1", "--train-images", "128", "--test-images",
                      "64", "--run", "cpu:1", "--export-csv", csv.string(), "--quit"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = parseCsv(csv);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1][5], "0") << "the only epoch is not warm-up";
}
#endif

#ifndef DEVICEBENCH_HAVE_PNG
// The CLI built with DEVICEBENCH_BUILD_UI=OFF has no Qt: --png is refused, before any run and
// before the data are looked for, by `run` and `compare` alike, saying what build it needs.
TEST(CliWithoutQt, PngIsRefusedWithExitCodeTwoBeforeAnyRun) {
    TempDir dir;
    const fs::path png = dir.path() / "out.png";
    const std::string expected =
        "devicebench-cli: error: --png needs the full build (DEVICEBENCH_BUILD_UI=ON)";
    auto args = kTinySynthetic;
    args.insert(args.end(), {"--png", png.string(), "--json"});
    const CliResult run = runCli(args);
    EXPECT_EQ(run.exitCode, 2) << run.out << run.err;
    EXPECT_NE(run.err.find(expected), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty()) << "nothing ran, no JSON: " << run.out;

    const CliResult noData = runCli({"run", "--epochs", "1", "--png", png.string()});
    EXPECT_EQ(noData.exitCode, 2) << "refused before the data are looked for: " << noData.err;

    const CliResult compare = runCli({"compare", "missing.json", "--png", png.string()});
    EXPECT_EQ(compare.exitCode, 2) << compare.out << compare.err;
    EXPECT_NE(compare.err.find(expected), std::string::npos) << compare.err;
    EXPECT_EQ(compare.err.find("missing.json"), std::string::npos)
        << "refused before any record is read: " << compare.err;
    EXPECT_FALSE(fs::exists(png));
}
#endif
