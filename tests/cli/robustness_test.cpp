// SPDX-License-Identifier: MIT
// docs/ROBUSTNESS.md, as a user meets it: devicebench-cli and the scripted dashboard as child
// processes given bad data, bad settings, bad records, a diverging run, a full disk, a
// read-only folder and SIGTERM. Each test is a row (or rows) of that table: the exit code, the
// message, and that no run started.
#include "cifar_files.h"
#include "process_support.h"
#include "robustness_support.h"

#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::namesIn;
using devicebench::testing::setByte;
using devicebench::testing::shellQuote;
using devicebench::testing::slurp;
using devicebench::testing::TempDir;
using devicebench::testing::withoutRootPrefix;
using devicebench::testing::writeSparseDataset;

namespace {

using Result = devicebench::testing::ProgramResult;

// Runs `program` through sh with `prefix` before it (e.g. a setpriv or prlimit command) and
// `shellSetup` run first in the same shell (e.g. "trap '' XFSZ; "), in a clean data environment
// (process_support.h), its runs folder in the same temporary home, the dashboard offscreen.
Result runProgram(const std::string &program, const std::vector<std::string> &args,
                  const std::string &prefix = "", const std::string &shellSetup = "") {
    static TempDir io("devicebench-robust-io");
    static TempDir home("devicebench-robust-home");
    devicebench::testing::ProgramSetup setup;
    setup.env = "XDG_DATA_HOME=" + shellQuote(home.path().string()) + " QT_QPA_PLATFORM=offscreen";
    setup.prefix = prefix;
    setup.shellSetup = shellSetup;
    return devicebench::testing::runProgram(program, args, home.path(), io.path(), setup);
}

Result runCli(const std::vector<std::string> &args, const std::string &prefix = "",
              const std::string &shellSetup = "") {
    return runProgram(DEVICEBENCH_CLI, args, prefix, shellSetup);
}

// "" when the CLI starts under `prefix` (e.g. as user nobody); else why not. A LibTorch the
// dropped user may not read (the cuda preset's venv under /root/.cache) stops it before main().
std::string cannotStartWith(const std::string &prefix) {
    const Result r = runCli({"--version"}, prefix);
    if (r.exitCode == 0) {
        return {};
    }
    return "the CLI does not start with '" + prefix + "' (its libraries are not readable by " +
           "that user?): " + r.err;
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// No run started: no run header and no epoch line on stdout.
bool noRunStarted(const Result &r) {
    return !contains(r.out, "run 1:") && !contains(r.out, "epoch ");
}

const std::vector<std::string> kTiny = {"--epochs",       "1",  "--warmup-epochs", "0",
                                        "--train-images", "64", "--test-images",   "32",
                                        "--batch-size",   "32", "--threads",       "1"};

std::vector<std::string> tinyRun(std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", "--synthetic"};
    args.insert(args.end(), kTiny.begin(), kTiny.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

// A tiny run on the data folder `dir` (not synthetic).
std::vector<std::string> tinyRunOn(const fs::path &dir) {
    std::vector<std::string> args = {"run", "--data-dir", dir.string()};
    args.insert(args.end(), kTiny.begin(), kTiny.end());
    return args;
}

// ---- data ------------------------------------------------------------------------------------

struct BadData {
    const char *name;
    void (*make)(const fs::path &dir); // fills `dir`, an empty folder
    const char *expected;              // on stderr
};

void PrintTo(const BadData &b, std::ostream *os) { *os << b.name; }

class CliRefusesData : public ::testing::TestWithParam<BadData> {};

} // namespace

TEST_P(CliRefusesData, WithExitCodeThreeNamingThePathBeforeAnyRun) {
    TempDir dir;
    const fs::path data = dir.path() / "cifar-10-batches-bin";
    fs::create_directory(data);
    GetParam().make(data);
    const Result r = runCli({"run", "--data-dir", data.string(), "--epochs", "1", "--train-images",
                             "100", "--test-images", "100", "--threads", "1,2"});
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "devicebench-cli: error: ")) << r.err;
    EXPECT_TRUE(contains(r.err, data.string())) << r.err;
    EXPECT_TRUE(contains(r.err, GetParam().expected)) << r.err;
    EXPECT_TRUE(noRunStarted(r)) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliRefusesData,
    ::testing::Values(
        BadData{"EmptyFolder", [](const fs::path &) {}, "' is empty (expected data_batch_1..5.bin"},
        BadData{"PythonPickleVariant",
                [](const fs::path &d) {
                    for (const char *n : {"data_batch_1", "data_batch_2", "test_batch"})
                        std::ofstream(d / n) << "pickle";
                },
                "holds the Python pickle variant of CIFAR-10"},
        BadData{"Cifar100Folder",
                [](const fs::path &d) {
                    std::ofstream(d / "train.bin").close();
                    std::ofstream(d / "test.bin").close();
                    fs::resize_file(d / "train.bin", 3074LL * 50000);
                    fs::resize_file(d / "test.bin", 3074LL * 10000);
                },
                "holds CIFAR-100 (train.bin, test.bin, records of 3,074 bytes)"},
        BadData{"Cifar100SizedRecords",
                [](const fs::path &d) {
                    writeSparseDataset(d);
                    fs::resize_file(d / "data_batch_1.bin", 3074LL * 10000);
                },
                "a multiple of 3,074: this looks like CIFAR-100"},
        BadData{"ExtraBytes",
                [](const fs::path &d) {
                    writeSparseDataset(d);
                    fs::resize_file(d / "test_batch.bin", 30730000 + 1);
                },
                "test_batch.bin' has 30730001 bytes, not a multiple of the 3,073-byte"},
        BadData{"LabelByteTen",
                [](const fs::path &d) {
                    writeSparseDataset(d);
                    setByte(d / "data_batch_5.bin", 4321LL * 3073, 10);
                },
                "data_batch_5.bin': record 4321 has label byte 10; CIFAR-10 labels are 0-9"},
        BadData{"LabelByte255",
                [](const fs::path &d) {
                    writeSparseDataset(d);
                    setByte(d / "test_batch.bin", 0, 255);
                },
                "test_batch.bin': record 0 has label byte 255; CIFAR-10 labels are 0-9"}),
    [](const ::testing::TestParamInfo<BadData> &p) { return std::string(p.param.name); });

TEST(CliRobustness, ADataFolderTheUserMayNotReadIsRefusedWithExitCodeThree) {
    const auto prefix = withoutRootPrefix();
    if (!prefix) {
        GTEST_SKIP() << "running as root without /usr/bin/setpriv: cannot drop permissions";
    }
    if (const std::string why = cannotStartWith(*prefix); !why.empty()) {
        GTEST_SKIP() << why;
    }
    TempDir dir;
    const fs::path data = dir.path() / "locked";
    writeSparseDataset(data);
    fs::permissions(data, fs::perms::none);
    const Result r = runCli(tinyRunOn(data), *prefix);
    fs::permissions(data, fs::perms::owner_all);
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "cannot read CIFAR-10 data folder '" + data.string() +
                                    "': Permission denied"))
        << r.err;
    EXPECT_TRUE(noRunStarted(r)) << r.out;
}

TEST(CliRobustness, ABatchFileTheUserMayNotReadIsRefusedWithExitCodeThree) {
    const auto prefix = withoutRootPrefix();
    if (!prefix) {
        GTEST_SKIP() << "running as root without /usr/bin/setpriv: cannot drop permissions";
    }
    if (const std::string why = cannotStartWith(*prefix); !why.empty()) {
        GTEST_SKIP() << why;
    }
    TempDir dir;
    writeSparseDataset(dir.path());
    fs::permissions(dir.path() / "data_batch_2.bin", fs::perms::none);
    const Result r = runCli(tinyRunOn(dir.path()), *prefix);
    EXPECT_EQ(r.exitCode, 3) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "cannot open '" + (dir.path() / "data_batch_2.bin").string() +
                                    "' for reading (permission denied?)"))
        << r.err;
    EXPECT_TRUE(noRunStarted(r)) << r.out;
}

// ---- settings --------------------------------------------------------------------------------

namespace {

struct BadSetting {
    const char *name;
    std::vector<std::string> args; // after "run --synthetic"
    const char *expected;          // on stderr
};

void PrintTo(const BadSetting &b, std::ostream *os) { *os << b.name; }

class CliRefusesSetting : public ::testing::TestWithParam<BadSetting> {};

} // namespace

TEST_P(CliRefusesSetting, WithExitCodeTwoNamingTheValueBeforeAnyRun) {
    std::vector<std::string> args = {"run", "--synthetic"};
    args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
    const Result r = runCli(args);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, GetParam().expected)) << r.err;
    EXPECT_TRUE(noRunStarted(r)) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliRefusesSetting,
    ::testing::Values(
        BadSetting{"NegativeEpochs", {"--epochs", "-1"}, "epochs must be at least 1 (got -1)"},
        BadSetting{"ZeroBatchSize", {"--batch-size", "0"}, "batch size must be at least 1 (got 0)"},
        BadSetting{
            "NegativeBatchSize", {"--batch-size", "-5"}, "batch size must be at least 1 (got -5)"},
        BadSetting{"BatchSizeOverTheTrainingSet",
                   {"--train-images", "100", "--batch-size", "101"},
                   "batch size (101) is larger than the training set (100 images)"},
        BadSetting{"BatchSizeOverTheWholeSplit",
                   {"--batch-size", "50001"},
                   "batch size (50001) is larger than the training set (50000 images)"},
        BadSetting{"ZeroLearningRate",
                   {"--lr", "0"},
                   "learning rate must be a finite number above 0 (got 0)"},
        BadSetting{"NegativeLearningRate",
                   {"--lr", "-0.1"},
                   "learning rate must be a finite number above 0 (got -0.1)"},
        BadSetting{"InfiniteLearningRate",
                   {"--lr", "inf"},
                   "learning rate must be a finite number above 0 (got inf)"},
        BadSetting{"NegativeThreads",
                   {"--threads", "-1"},
                   "threads must be between 1 and 1024, or 0 for all cores (got -1)"},
        BadSetting{"ThreadsOver1024",
                   {"--threads", "1025"},
                   "threads must be between 1 and 1024, or 0 for all cores (got 1025)"},
        BadSetting{"ThreadsListWithAnEmptyItem",
                   {"--threads", "1,,2"},
                   "--threads '1,,2' has an empty item"},
        BadSetting{
            "ThreadsListEndingInAComma", {"--threads", "1,"}, "--threads '1,' has an empty item"},
        BadSetting{"ThreadsWithTrailingGarbage",
                   {"--threads", "2x"},
                   "--threads: '2x' is not a whole number"},
        BadSetting{"WarmupEqualToEpochs",
                   {"--epochs", "3", "--warmup-epochs", "3"},
                   "warm-up epochs (3) must be fewer than epochs (3)"},
        BadSetting{"TrainImagesBeyondTheSplit",
                   {"--train-images", "50001"},
                   "training images must be between 1 and 50000, or 0 for all (got 50001)"},
        BadSetting{"NegativeTrainImages",
                   {"--train-images", "-1"},
                   "training images must be between 1 and 50000, or 0 for all (got -1)"},
        BadSetting{"TestImagesBeyondTheSplit",
                   {"--test-images", "10001"},
                   "test images must be between 1 and 10000, or 0 for all (got 10001)"},
        BadSetting{"EpochsWithTrailingGarbage", {"--epochs", "3x"}, "3x"},
        BadSetting{"LearningRateWithTrailingGarbage", {"--lr", "0.01x"}, "0.01x"},
        BadSetting{"EmptyDevice",
                   {"--device", ""},
                   "--device needs a value: leave it out for its default"},
        BadSetting{"DeviceListWithAnEmptyItem",
                   {"--device", "cpu,,cpu"},
                   "--device 'cpu,,cpu' has an empty item"},
        BadSetting{"UnknownWorkload", {"--workload", "fast"}, "fast"}),
    [](const ::testing::TestParamInfo<BadSetting> &p) { return std::string(p.param.name); });

TEST(CliRobustness, AnUnknownSubcommandIsNamed) {
    const Result r = runCli({"frobnicate"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "unknown subcommand 'frobnicate' (the subcommands are run, "))
        << r.err;
    EXPECT_FALSE(contains(r.err, "A subcommand is required")) << r.err;
}

TEST(CliRobustness, ThreadsZeroMeansAllCoresAndIsNotAnError) {
    std::vector<std::string> args = tinyRun({});
    args.back() = "0"; // kTiny ends with "--threads", "1"
    const Result r = runCli(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "run 1: cpu, ")) << r.out;
    EXPECT_FALSE(contains(r.out, " 0 threads")) << "0 is resolved to the cores: " << r.out;
}

// ---- divergence ------------------------------------------------------------------------------

TEST(CliRobustness, LearningRateTenDivergesWithExitCodeOneKeepingTheFinishedEpochs) {
    TempDir dir;
    const fs::path record = dir.path() / "diverged.json";
    // One step per epoch: epoch 1 always finishes (its step's loss is taken before any update).
    const Result r = runCli({"run",
                             "--synthetic",
                             "--lr",
                             "10",
                             "--epochs",
                             "30",
                             "--warmup-epochs",
                             "0",
                             "--train-images",
                             "64",
                             "--test-images",
                             "64",
                             "--batch-size",
                             "64",
                             "--threads",
                             "1",
                             "--loss-every",
                             "1",
                             "--record",
                             record.string()});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "devicebench-cli: run #1 cpu diverged: ")) << r.err;
    EXPECT_TRUE(contains(r.err, "; lower the learning rate")) << r.err;
    EXPECT_TRUE(contains(r.out, "summary of run #1 cpu (diverged)")) << r.out;
    EXPECT_TRUE(contains(r.out, "epoch  1/30")) << r.out;
    const auto rec = devicebench::readRunRecord(record.string());
    EXPECT_EQ(rec.status, "diverged");
    ASSERT_FALSE(rec.epochs.empty());
    EXPECT_LT(rec.epochs.size(), 30U);
    EXPECT_TRUE(std::isfinite(rec.epochs.front().trainLoss));
}

// ---- resources -------------------------------------------------------------------------------

// A full disk, simulated with a file size limit (prlimit --fsize; SIGXFSZ ignored by the shell
// and so by the CLI, so write() fails with EFBIG as it fails with ENOSPC on a full disk).
// stdout and stderr are files here too: the limit leaves room for them.
TEST(CliRobustness, AFullDiskOnExportReportsTheFileAndLeavesNoPartialFile) {
#ifndef DEVICEBENCH_HAVE_PNG
    GTEST_SKIP() << "the large file here is the PNG, which needs the full build "
                    "(DEVICEBENCH_BUILD_UI=ON)";
#endif
    if (::access("/usr/bin/prlimit", X_OK) != 0) {
        GTEST_SKIP() << "/usr/bin/prlimit (util-linux) is missing";
    }
    TempDir dir;
    const fs::path png = dir.path() / "out.png";
    const fs::path csv = dir.path() / "out.csv";
    const Result r = runCli(tinyRun({"--png", png.string(), "--csv", csv.string()}),
                            "/usr/bin/prlimit --fsize=16384 ", "trap '' XFSZ; ");
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "devicebench-cli: error: Cannot write " + png.string() +
                                    ": only 16384 of "))
        << r.err;
    EXPECT_TRUE(contains(r.err, " bytes could be written (disk full?)")) << r.err;
    const std::string base = (dir.path() / "out").string();
    EXPECT_TRUE(contains(r.out, "wrote " + csv.string() + ", " + base + "-summary.csv and " + base +
                                    "-groups.csv"))
        << "the small CSVs fit, and the line names all three: " << r.out;
    EXPECT_EQ(namesIn(dir.path()),
              (std::vector<std::string>{"out-groups.csv", "out-summary.csv", "out.csv"}))
        << "no PNG and no temporary file";
}

TEST(CliRobustness, AFullDiskOnTheRunRecordReportsItAndLeavesNoPartialFile) {
    if (::access("/usr/bin/prlimit", X_OK) != 0) {
        GTEST_SKIP() << "/usr/bin/prlimit (util-linux) is missing";
    }
    // The limit lies just below the finished record's size, measured by an unlimited run: the
    // size depends on the LibTorch (its fingerprint strings), about 2 KB with 1.13 and 2.11.
    TempDir probeDir;
    const fs::path probe = probeDir.path() / "run.json";
    ASSERT_EQ(runCli(tinyRun({"--record", probe.string()})).exitCode, 0);
    const auto limit = fs::file_size(probe) - 64;
    TempDir dir;
    const fs::path record = dir.path() / "run.json";
    const Result r =
        runCli(tinyRun({"--record", record.string()}),
               "/usr/bin/prlimit --fsize=" + std::to_string(limit) + " ", "trap '' XFSZ; ");
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "devicebench-cli: error: cannot write run record " +
                                    record.string() + ": File too large"))
        << r.err;
    EXPECT_TRUE(contains(r.out, "summary of run #1 cpu (finished)")) << "the run itself went on";
    // The first version (before epoch 1) fit; the later ones did not: the last complete version
    // stays, whole, and no temporary file is left.
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"run.json"});
    EXPECT_EQ(devicebench::readRunRecord(record.string()).status, "running");
}

TEST(CliRobustness, AReadOnlyFolderForExportsOrTheRecordIsRefusedBeforeAnyRun) {
    const auto prefix = withoutRootPrefix();
    if (!prefix) {
        GTEST_SKIP() << "running as root without /usr/bin/setpriv: cannot drop permissions";
    }
    if (const std::string why = cannotStartWith(*prefix); !why.empty()) {
        GTEST_SKIP() << why;
    }
    TempDir dir;
    const fs::path folder = dir.path() / "read-only";
    fs::create_directory(folder);
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                fs::perms::group_exec | fs::perms::others_read |
                                fs::perms::others_exec);
    const Result png = runCli(tinyRun({"--csv", (folder / "out.csv").string()}), *prefix);
    EXPECT_EQ(png.exitCode, 2) << png.out << png.err;
    EXPECT_TRUE(contains(png.err, "cannot write --csv " + (folder / "out.csv").string() +
                                      ": folder " + folder.string() + " is not writable"))
        << png.err;
    EXPECT_TRUE(noRunStarted(png)) << png.out;

    const Result record = runCli(tinyRun({"--record", (folder / "run.json").string()}), *prefix);
    EXPECT_EQ(record.exitCode, 2) << record.out << record.err;
    EXPECT_TRUE(contains(record.err, "cannot write --record " + (folder / "run.json").string() +
                                         ": folder " + folder.string() + " is not writable"))
        << record.err;
    EXPECT_TRUE(noRunStarted(record)) << record.out;
    EXPECT_TRUE(namesIn(folder).empty());
}

TEST(CliRobustness, AFolderOrADeviceWhereAnOutputGoesIsRefusedBeforeAnyRun) {
    TempDir dir;
    const fs::path folder = dir.path() / "taken";
    fs::create_directory(folder);
    const Result record = runCli(tinyRun({"--record", folder.string()}));
    EXPECT_EQ(record.exitCode, 2) << record.out << record.err;
    EXPECT_TRUE(
        contains(record.err, "cannot write --record " + folder.string() + ": Is a directory"))
        << record.err;
    EXPECT_TRUE(noRunStarted(record)) << record.out;

    fs::create_directory(dir.path() / "out-groups.csv"); // the third CSV's place
    const fs::path csv = dir.path() / "out.csv";
    const Result third = runCli(tinyRun({"--csv", csv.string()}));
    EXPECT_EQ(third.exitCode, 2) << third.out << third.err;
    EXPECT_TRUE(contains(third.err, "cannot write the per-group CSV beside --csv " +
                                        (dir.path() / "out-groups.csv").string() +
                                        ": Is a directory"))
        << third.err;
    EXPECT_TRUE(noRunStarted(third)) << third.out;

    const fs::path fifo = dir.path() / "pipe.png";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const Result png = runCli(tinyRun({"--png", fifo.string()}));
    EXPECT_EQ(png.exitCode, 2) << png.out << png.err;
    EXPECT_TRUE(contains(png.err, "cannot write --png " + fifo.string() + ": not a regular file"))
        << png.err;
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_EQ(namesIn(dir.path()),
              (std::vector<std::string>{"out-groups.csv", "pipe.png", "taken"}));
}

// ---- cancellation ----------------------------------------------------------------------------

TEST(CliRobustness, SigtermFinishesTheStepWritesACancelledRecordAndExits130) {
    TempDir dir;
    const fs::path record = dir.path() / "stopped.json";
    std::vector<std::string> argv = {DEVICEBENCH_CLI,
                                     "run",
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
                                     "1",
                                     "--record",
                                     record.string()};
    std::vector<char *> cargv;
    for (auto &a : argv) {
        cargv.push_back(a.data());
    }
    cargv.push_back(nullptr);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const int devNull = ::open("/dev/null", O_RDWR);
        ::dup2(devNull, STDIN_FILENO);
        ::dup2(devNull, STDOUT_FILENO);
        ::dup2(devNull, STDERR_FILENO);
        ::execv(cargv[0], cargv.data());
        ::_exit(127);
    }
    // Wait for epoch 1 in the record, then stop the run during epoch 2.
    bool sawEpoch = false;
    int status = 0;
    bool exited = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);
    while (!sawEpoch && !exited && std::chrono::steady_clock::now() < deadline) {
        try {
            sawEpoch =
                fs::exists(record) && !devicebench::readRunRecord(record.string()).epochs.empty();
        } catch (const devicebench::RecordError &) {
            // every version is written whole; a failure here would show in the final read
        }
        exited = ::waitpid(pid, &status, WNOHANG) == pid;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!exited) {
        ::kill(pid, sawEpoch ? SIGTERM : SIGKILL);
        ::waitpid(pid, &status, 0);
    }
    ASSERT_TRUE(sawEpoch) << "epoch 1 was never recorded";
    ASSERT_TRUE(WIFEXITED(status)) << "ended by a signal: " << status;
    EXPECT_EQ(WEXITSTATUS(status), 130);
    const auto rec = devicebench::readRunRecord(record.string());
    EXPECT_EQ(rec.status, "cancelled");
    EXPECT_NE(rec.reason.find("stopped by SIGTERM (asked to end) during"), std::string::npos)
        << rec.reason;
    EXPECT_GE(rec.epochs.size(), 1U);
    EXPECT_LT(rec.epochs.size(), 5U);
}

TEST(CliRobustness, AReaderThatGoesAwayStopsTheRunsWithACancelledRecordNotAKilledProcess) {
    TempDir dir;
    const fs::path record = dir.path() / "piped.json";
    // `head -n 1` leaves after the first line; the run's next line meets a closed pipe.
    const std::string command =
        shellQuote(DEVICEBENCH_CLI) +
        " run --synthetic --epochs 20 --warmup-epochs 0 --train-images 1000 --test-images 100 "
        "--threads 1 --no-published --record " +
        shellQuote(record.string()) + " 2>/dev/null </dev/null | head -n 1 >/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0);
    const auto rec = devicebench::readRunRecord(record.string());
    EXPECT_EQ(rec.status, "cancelled") << "a SIGPIPE that killed the run leaves it \"running\"";
    EXPECT_NE(rec.reason.find("stopped by SIGPIPE (the output pipe closed)"), std::string::npos)
        << rec.reason;
    EXPECT_LT(rec.epochs.size(), 20U);
}

TEST(CliRobustness, NoPublishedWithAPublishedFolderIsRefusedNamingBoth) {
    const Result r = runCli(
        {"run", "--synthetic", "--epochs", "1", "--no-published", "--published-dir", "/tmp"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("--published-dir"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--no-published"), std::string::npos) << r.err;
}

// ---- compare: imported records ---------------------------------------------------------------

namespace {

// Two good records (threads 1, run twice) made by the CLI, and every kind of bad file.
class CliCompareRobustness : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        m_dir = new TempDir("devicebench-robust-compare");
        const fs::path out = m_dir->path() / "good";
        const Result r = runCli({"run", "--synthetic", "--epochs", "2", "--warmup-epochs", "1",
                                 "--train-images", "64", "--test-images", "32", "--batch-size",
                                 "32", "--threads", "1,1", "--out-dir", out.string()});
        ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
        for (const auto &entry : fs::directory_iterator(out)) {
            m_good.push_back(entry.path().string());
        }
        std::sort(m_good.begin(), m_good.end());
        ASSERT_EQ(m_good.size(), 2U);
    }
    static void TearDownTestSuite() {
        delete m_dir;
        m_dir = nullptr;
        m_good.clear();
    }
    static fs::path write(const std::string &name, const std::string &text) {
        const fs::path p = m_dir->path() / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }
    static std::string goodText() { return slurp(m_good[0]); }
    static std::string replaced(std::string text, const std::string &from, const std::string &to) {
        const auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos) {
            text.replace(at, from.size(), to);
        }
        return text;
    }
    static TempDir *m_dir;
    static std::vector<std::string> m_good;
};
TempDir *CliCompareRobustness::m_dir = nullptr;
std::vector<std::string> CliCompareRobustness::m_good;

} // namespace

TEST_F(CliCompareRobustness, EachBadRecordIsSkippedWithItsReasonAndTheOthersAreCompared) {
    const std::string text = goodText();
    const std::string version =
        "\"schemaVersion\": " + std::to_string(devicebench::kRunRecordSchemaVersion);
    struct Bad {
        fs::path path;
        std::string reason;
    };
    std::vector<Bad> bad;
    bad.push_back({write("truncated.json", text.substr(0, text.size() / 2)),
                   "is not valid JSON (truncated?)"});
    bad.push_back({write("notes.txt", "epoch 1: 2.3 s\n"), "is not valid JSON"});
    bad.push_back({write("future.json",
                         replaced(text, version,
                                  "\"schemaVersion\": " +
                                      std::to_string(devicebench::kRunRecordSchemaVersion + 1))),
                   "is newer than this DeviceBench reads"});
    bad.push_back({write("missing.json", replaced(text, "\"batchSize\":", "\"batch\":")),
                   "field 'config.batchSize' is missing"});
    bad.push_back({write("wrong-type.json", replaced(text, "\"epochs\": 2,", "\"epochs\": \"2\",")),
                   "field 'config.epochs' must be a whole number"});
    bad.push_back(
        {write("infinite.json", replaced(text, "\"seconds\": ", "\"seconds\": 1e999, \"x\": ")),
         "holds a number that is not finite: number overflow parsing '1e999'"});
    bad.push_back(
        {write("nan.json", replaced(text, "\"testLoss\": ", "\"testLoss\": NaN, \"x\": ")),
         "is not valid JSON"});
    const fs::path huge = write("huge.json", "");
    fs::resize_file(huge, 200LL * 1024 * 1024); // sparse: refused by its size, never read
    bad.push_back({huge, "is 209715200 bytes; run records over 64 MiB are refused"});
    const fs::path folder = m_dir->path() / "folder.json";
    fs::create_directory(folder);
    bad.push_back({folder, "is a folder, not a run record file"});

    std::vector<std::string> args = {"compare", m_good[0]};
    for (const Bad &b : bad) {
        args.push_back(b.path.string());
    }
    args.push_back(m_good[1]);
    const Result r = runCli(args);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    for (const Bad &b : bad) {
        const std::string line = "devicebench-cli: skipped " + b.path.string() + ": ";
        const auto at = r.err.find(line);
        ASSERT_NE(at, std::string::npos) << b.path << "\n" << r.err;
        const std::string rest =
            r.err.substr(at + line.size(), r.err.find('\n', at) - at - line.size());
        EXPECT_TRUE(contains(rest, b.reason)) << b.path << ": " << rest;
    }
    EXPECT_TRUE(contains(r.out, "DeviceBench ")) << r.out;
    EXPECT_TRUE(contains(r.out, ": 2 runs")) << "the two good records are compared: " << r.out;
}

TEST_F(CliCompareRobustness, BaselineZeroIsRefusedNamingTheRange) {
    const Result r = runCli({"compare", m_good[0], m_good[1], "--baseline", "0"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "--baseline 0: 2 records were given (choose 1-2)")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(CliCompareRobustness, WarmupEpochsLeavingNoStableEpochAreRefused) {
    const Result r = runCli({"compare", m_good[0], m_good[1], "--warmup-epochs", "2"});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(
        contains(r.err, "--warmup-epochs 2 leaves no stable epoch: " + m_good[0] + " has 2 epochs"))
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(CliCompareRobustness, ARecordGivenTwiceIsComparedOnceAndSaysSo) {
    const Result r = runCli({"compare", m_good[0], m_good[1], m_good[0]});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto rec = devicebench::readRunRecord(m_good[0]);
    EXPECT_TRUE(contains(r.err, "devicebench-cli: skipped " + m_good[0] +
                                    ": the same run (run id " + rec.runId + ") as " + m_good[0] +
                                    ", compared once"))
        << r.err;
    EXPECT_TRUE(contains(r.out, ": 2 runs")) << r.out;
}

// ---- compare: numbers that cannot mislead ---------------------------------------------------

namespace {

// A finished record as a real run writes it, made here without training: `seconds` per epoch
// (the first one warm-up), 64 training and 32 test images in batches of 32.
devicebench::RunRecord plausibleRecord(const std::string &id, const std::vector<double> &seconds) {
    devicebench::RunRecord r;
    r.runId = "20261130T120000Z-host-" + id;
    r.createdUtc = "2026-11-30T12:00:00Z";
    r.status = "finished";
    r.config.epochs = static_cast<int>(seconds.size());
    r.config.warmupEpochs = 1;
    r.config.batchSize = 32;
    r.config.threads = 1;
    r.config.trainImages = 64;
    r.config.testImages = 32;
    r.config.dataDir = "/data/cifar-10-batches-bin";
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = 1;
    r.started.trainImages = 64;
    r.started.testImages = 32;
    r.started.stepsPerEpoch = 2;
    r.started.dataDescription = "/data/cifar-10-batches-bin";
    r.fingerprint.hostName = "host-" + id;
    r.data = {"/data/cifar-10-batches-bin", "cifar-10-binary", 64, 32,
              "xxh3-128:00112233445566778899aabbccddeeff"};
    for (std::size_t i = 0; i < seconds.size(); ++i) {
        r.epochs.push_back({static_cast<int>(i) + 1,
                            seconds[i],
                            i == 0,
                            2.3,
                            2.2,
                            0.1,
                            96.0 / seconds[i],
                            {},
                            {}});
    }
    return r;
}

class CliCompareHonestNumbers : public ::testing::Test {
protected:
    std::string write(const std::string &name, const devicebench::RunRecord &record) {
        const fs::path p = m_dir.path() / name;
        devicebench::writeRunRecord(p.string(), record);
        return p.string();
    }
    TempDir m_dir{"devicebench-compare-honest"};
};

} // namespace

TEST_F(CliCompareHonestNumbers, ARecordWhoseEpochsTookNoTimeIsSkippedNamingTheFileAndTheField) {
    devicebench::RunRecord zero = plausibleRecord("zero", {1.0, 1.0, 1.0});
    for (auto &e : zero.epochs)
        e.seconds = 0.0;
    zero.epochs[0].imagesPerSecond = zero.epochs[1].imagesPerSecond =
        zero.epochs[2].imagesPerSecond = 0.0;
    const std::string good = write("good.json", plausibleRecord("good", {2.0, 1.0, 1.1}));
    const std::string bad = write("zero.json", zero);
    const Result r = runCli({"compare", good, bad});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "devicebench-cli: skipped " + bad +
                                    ": field 'epochs[0].seconds' must be above 0 (got 0): no real "
                                    "epoch takes no time"))
        << r.err;
    EXPECT_TRUE(contains(r.out, ": 1 run ")) << "the good one is compared alone: " << r.out;
    EXPECT_FALSE(contains(r.out, "0.000 s")) << r.out;
}

TEST_F(CliCompareHonestNumbers, RunsThatFetchLossesEveryStepOrEveryFiftyAreNotComparable) {
    devicebench::RunRecord every = plausibleRecord("every", {2.0, 1.0, 1.1});
    every.config.lossFetchInterval = 1;
    devicebench::RunRecord fifty = plausibleRecord("fifty", {2.0, 1.0, 1.1});
    fifty.config.lossFetchInterval = 50;
    const Result r = runCli({"compare", write("a.json", every), write("b.json", fifty)});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "not comparable: loss fetch interval")) << r.out;
}

TEST_F(CliCompareHonestNumbers, RunsOnDifferentDataAreNotComparable) {
    devicebench::RunRecord other = plausibleRecord("other", {2.0, 1.0, 1.1});
    other.data.contentHash = "xxh3-128:ffeeddccbbaa99887766554433221100";
    const Result r = runCli({"compare", write("a.json", plausibleRecord("a", {2.0, 1.0, 1.1})),
                             write("b.json", other)});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "not comparable: data set")) << r.out;
}

TEST_F(CliCompareHonestNumbers, OneStableEpochHasNoStandardDeviationNullInJsonAndNAInCsv) {
    const std::string csv = (m_dir.path() / "out.csv").string();
    const Result r =
        runCli({"compare", write("a.json", plausibleRecord("a", {2.0, 1.0})),
                write("b.json", plausibleRecord("b", {3.0, 2.0, 2.2})), "--json", "--csv", csv});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "\"stddev\": null,")) << r.out;
    EXPECT_TRUE(contains(r.out, "\"cv\": null,")) << r.out;
    const std::string summary = slurp(m_dir.path() / "out-summary.csv");
    EXPECT_TRUE(contains(summary, ",1.0000,1.0000,n/a,1.0000,1.0000,n/a,n/a,n/a,")) << summary;
}

TEST_F(CliCompareHonestNumbers, SkewedEpochTimesGiveIntervalsThatStayAboveZero) {
    const Result r =
        runCli({"compare", write("a.json", plausibleRecord("a", {5.0, 1.0, 9.0, 1.0, 9.0})),
                write("b.json", plausibleRecord("b", {2.0, 1.0, 1.1, 0.9, 1.0}))});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "[0.399, 22.582] s")) << r.out;
    EXPECT_FALSE(contains(r.out, "[-")) << r.out;
    EXPECT_FALSE(contains(r.out, "[0.00,")) << r.out;
}

TEST_F(CliCompareHonestNumbers, HostNamesThatLookLikeFormulasAreTextInTheCsv) {
    devicebench::RunRecord hostile = plausibleRecord("h", {2.0, 1.0, 1.1});
    hostile.fingerprint.hostName = "=HYPERLINK(\"http://x\",\"y\")";
    hostile.fingerprint.cpuModel = "@SUM(1+1)";
    const std::string csv = (m_dir.path() / "out.csv").string();
    const Result r = runCli({"compare", write("a.json", hostile), "--csv", csv});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string summary = slurp(m_dir.path() / "out-summary.csv");
    EXPECT_TRUE(contains(summary, ",\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",")) << summary;
    EXPECT_TRUE(contains(summary, ",'@SUM(1+1),")) << summary;
    EXPECT_FALSE(contains(summary, ",=")) << summary;
    EXPECT_FALSE(contains(slurp(csv), ",=")) << slurp(csv);
}

// ---- the dashboard, scripted -----------------------------------------------------------------

#ifdef DEVICEBENCH_HAVE_PNG // the dashboard exists in the full build only
namespace {

struct BadScript {
    const char *name;
    std::vector<std::string> args;
    const char *expected; // on stderr
};

void PrintTo(const BadScript &b, std::ostream *os) { *os << b.name; }

class DashboardRefusesScript : public ::testing::TestWithParam<BadScript> {};

} // namespace

TEST_P(DashboardRefusesScript, WithExitCodeTwoBeforeTheWindowClampsIt) {
    // A small run, unless the case sets its size itself (an option is given once).
    std::vector<std::string> args = {"--synthetic"};
    const std::vector<std::string> &given = GetParam().args;
    for (const auto &[flag, value] : {std::pair{"--train-images", "64"}, {"--test-images", "32"}})
        if (std::find(given.begin(), given.end(), flag) == given.end())
            args.insert(args.end(), {flag, value});
    args.insert(args.end(), given.begin(), given.end());
    args.push_back("--quit");
    const Result r = runProgram(DEVICEBENCH_DASHBOARD, args);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, GetParam().expected)) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DashboardRefusesScript,
    ::testing::Values(
        BadScript{"ZeroEpochs",
                  {"--epochs", "0", "--run", "cpu:1"},
                  "devicebench: epochs must be at least 1 (got 0)"},
        BadScript{"WarmupNotBelowEpochs",
                  {"--epochs", "2", "--warmup-epochs", "2", "--run", "cpu:1"},
                  "devicebench: warm-up epochs (2) must be fewer than epochs (2)"},
        BadScript{"NegativeThreads",
                  {"--threads", "-1", "--run", "cpu"},
                  "devicebench: threads must be between 1 and 1024, or 0 for all cores (got -1)"},
        BadScript{"ThreadsOver1024InARun",
                  {"--run", "cpu:2000"},
                  "devicebench: threads must be between 1 and 1024, or 0 for all cores (got 2000)"},
        BadScript{
            "TrainImagesBeyondTheSplit",
            {"--train-images", "50001", "--run", "cpu:1"},
            "devicebench: training images must be between 1 and 50000, or 0 for all (got 50001)"},
        BadScript{"EpochsWithTrailingGarbage",
                  {"--epochs", "5x", "--run", "cpu:1"},
                  "devicebench: --epochs: '5x' is not a whole number"},
        BadScript{"UnknownDevice",
                  {"--run", "cuda:7"},
                  "devicebench: --run: 'cuda:7' is not cpu, cpu:THREADS or cuda"},
        BadScript{"EmptyDevice",
                  {"--run", ""},
                  "devicebench: --run: '' is not cpu, cpu:THREADS or cuda"}),
    [](const ::testing::TestParamInfo<BadScript> &p) { return std::string(p.param.name); });

// The dashboard checks a scripted session's exports and runs as the CLI checks its own, before
// any run: an export it cannot write, two exports of one file and a Python that cannot start
// are bad input, exit 2, and nothing is trained or written.
TEST(DashboardRobustness, BadExportsAndAPythonThatCannotStartAreExitTwoBeforeAnyRun) {
    TempDir dir;
    const std::string same = (dir.path() / "same.out").string();
    const std::string missing = (dir.path() / "no-such-folder" / "a.png").string();
    const std::vector<std::string> quick = {"--synthetic", "--epochs",      "1",  "--train-images",
                                            "64",          "--test-images", "32", "--run",
                                            "cpu:1"};
    struct Case {
        std::vector<std::string> args;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {{"--export-png", missing}, "devicebench: cannot write --export-png " + missing},
        {{"--export-csv", same, "--export-html", same}, "--export-csv and --export-html both name"},
        {{"--export-csv", dir.path().string()},
         "cannot write --export-csv " + dir.path().string()}};
    for (const Case &c : cases) {
        std::vector<std::string> args = quick;
        args.insert(args.end(), c.args.begin(), c.args.end());
        args.push_back("--quit");
        const Result r = runProgram(DEVICEBENCH_DASHBOARD, args);
        EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
        EXPECT_TRUE(contains(r.err, c.expected)) << r.err;
        EXPECT_FALSE(contains(r.err, "epoch 1")) << "nothing may run:\n" << r.err;
    }
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{}) << "nothing may be written";
    const fs::path data = dir.path() / "data";
    devicebench::testing::writeDataset(data);
    const Result python = runProgram(
        DEVICEBENCH_DASHBOARD, {"--data-dir", data.string(), "--workload", "article-script",
                                "--python", "/nonexistent/python3", "--run", "cpu:1", "--quit"});
    EXPECT_EQ(python.exitCode, 2) << python.out << python.err;
    EXPECT_TRUE(contains(python.err, "/nonexistent/python3")) << python.err;
}

TEST(DashboardRobustness, AScriptedImportNamesEachBadFileAndExitsOne) {
    TempDir dir;
    const fs::path folder = dir.path() / "a-folder.json";
    fs::create_directory(folder);
    const fs::path notJson = dir.path() / "notes.txt";
    std::ofstream(notJson) << "epoch 1: 2.3 s\n";
    const Result r = runProgram(DEVICEBENCH_DASHBOARD, {"--import", folder.string(), "--import",
                                                        notJson.string(), "--quit"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "devicebench: skipped: " + folder.string() +
                                    " is a folder, not a run record file"))
        << r.err;
    EXPECT_TRUE(contains(r.err, "devicebench: skipped: " + notJson.string() + " is not valid JSON"))
        << r.err;
}
#endif
