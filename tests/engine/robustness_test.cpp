// SPDX-License-Identifier: MIT
// The engine's side of docs/ROBUSTNESS.md: the data folder check the CLI runs before any run,
// divergence, an allocation failure, a full disk and a read-only folder for run records, and
// numbers a record may not hold. Each test is a row of that table.
#include "cifar_files.h"
#include "process_support.h"
#include "robustness_support.h"

#include "devicebench/cifar10.h"
#include "devicebench/data_location.h"
#include "devicebench/run_record.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace fs = std::filesystem;
using namespace devicebench;
using devicebench::testing::namesIn;
using devicebench::testing::runWithoutRoot;
using devicebench::testing::setByte;
using devicebench::testing::TempDir;
using devicebench::testing::writeSparseDataset;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

struct BadFolder {
    const char *name;
    void (*make)(const fs::path &dir); // fills `dir` (which exists and is empty)
    const char *expected;              // in the message, which also names `dir`
};

void PrintTo(const BadFolder &b, std::ostream *os) { *os << b.name; }

void writeZeros(const fs::path &file, std::int64_t bytes) {
    std::ofstream(file, std::ios::binary).close();
    fs::resize_file(file, static_cast<std::uintmax_t>(bytes));
}

class DataFolderCheckRejects : public ::testing::TestWithParam<BadFolder> {};

} // namespace

TEST_P(DataFolderCheckRejects, NamingTheFolderOrFileAndTheProblem) {
    TempDir dir;
    GetParam().make(dir.path());
    const std::string message = checkCifar10Folder(dir.path().string());
    EXPECT_NE(message.find(dir.path().string()), std::string::npos) << message;
    EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DataFolderCheckRejects,
    ::testing::Values(
        BadFolder{"EmptyFolder", [](const fs::path &) {},
                  " is empty (expected data_batch_1..5.bin and test_batch.bin)"},
        BadFolder{"PythonPickleVariant",
                  [](const fs::path &d) {
                      for (const char *n :
                           {"data_batch_1", "data_batch_2", "data_batch_3", "data_batch_4",
                            "data_batch_5", "test_batch", "batches.meta"})
                          std::ofstream(d / n) << "pickle";
                  },
                  "holds the Python pickle variant of CIFAR-10 (cifar-10-batches-py)"},
        BadFolder{"Cifar100Folder",
                  [](const fs::path &d) {
                      writeZeros(d / "train.bin", 3074LL * 50000);
                      writeZeros(d / "test.bin", 3074LL * 10000);
                  },
                  "holds CIFAR-100 (train.bin, test.bin, records of 3,074 bytes)"},
        BadFolder{"Cifar100SizedBatchFiles",
                  [](const fs::path &d) {
                      writeSparseDataset(d);
                      writeZeros(d / "data_batch_1.bin", 3074LL * 10000);
                  },
                  "a multiple of 3,074: this looks like CIFAR-100"},
        BadFolder{"BatchFileTruncatedByOneByte",
                  [](const fs::path &d) {
                      writeSparseDataset(d);
                      fs::resize_file(d / "data_batch_2.bin", 30730000 - 1);
                  },
                  "data_batch_2.bin' has 30729999 bytes, not a multiple of the 3,073-byte"},
        BadFolder{"BatchFileWithExtraBytes",
                  [](const fs::path &d) {
                      writeSparseDataset(d);
                      fs::resize_file(d / "test_batch.bin", 30730000 + 3073);
                  },
                  "test_batch.bin' holds 10001 records; a CIFAR-10 batch file holds exactly "
                  "10,000"},
        BadFolder{"MissingBatchFile",
                  [](const fs::path &d) {
                      writeSparseDataset(d);
                      fs::remove(d / "data_batch_5.bin");
                  },
                  "data_batch_5.bin' is missing"},
        BadFolder{"LabelByteTen",
                  [](const fs::path &d) {
                      writeSparseDataset(d);
                      setByte(d / "data_batch_3.bin", 7 * 3073, 10);
                  },
                  "data_batch_3.bin': record 7 has label byte 10; CIFAR-10 labels are 0-9"},
        BadFolder{"LabelByte255",
                  [](const fs::path &d) {
                      writeSparseDataset(d);
                      setByte(d / "test_batch.bin", 9999LL * 3073, 255);
                  },
                  "test_batch.bin': record 9999 has label byte 255; CIFAR-10 labels are 0-9"}),
    [](const ::testing::TestParamInfo<BadFolder> &p) { return std::string(p.param.name); });

TEST(DataFolderCheck, AcceptsAValidFolderReachedThroughSpacesAndNonAsciiCharacters) {
    TempDir parent;
    const fs::path odd = parent.path() / "my data – Ünïcødé ✓";
    writeSparseDataset(odd);
    EXPECT_EQ(checkCifar10Folder(odd.string()), "");
}

TEST(DataFolderCheck, SaysAFileIsNotAFolder) {
    TempDir dir;
    const fs::path file = dir.path() / "cifar-10-binary.tar.gz";
    std::ofstream(file) << "not unpacked";
    EXPECT_EQ(checkCifar10Folder(file.string()),
              "CIFAR-10 data folder '" + file.string() + "' is not a folder");
}

TEST(DataFolderCheck, ReportsAFolderTheUserMayNotRead) {
    TempDir dir;
    const fs::path data = dir.path() / "cifar-10-batches-bin";
    writeSparseDataset(data);
    fs::permissions(data, fs::perms::none);
    std::string why;
    const auto message = runWithoutRoot([&] { return checkCifar10Folder(data.string()); }, &why);
    fs::permissions(data, fs::perms::owner_all);
    if (!message) {
        GTEST_SKIP() << "cannot run without root permissions here: " << why;
    }
    EXPECT_EQ(*message,
              "cannot read CIFAR-10 data folder '" + data.string() + "': Permission denied");
}

TEST(DataFolderCheck, ReportsABatchFileTheUserMayNotRead) {
    TempDir dir;
    writeSparseDataset(dir.path());
    fs::permissions(dir.path() / "test_batch.bin", fs::perms::none);
    std::string why;
    const auto message =
        runWithoutRoot([&] { return checkCifar10Folder(dir.path().string()); }, &why);
    if (!message) {
        GTEST_SKIP() << "cannot run without root permissions here: " << why;
    }
    EXPECT_EQ(*message, "cannot open '" + (dir.path() / "test_batch.bin").string() +
                            "' for reading (permission denied?)");
}

namespace {

class Recording : public TrainingObserver {
public:
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        steps.insert(steps.end(), losses.begin(), losses.end());
    }
    void onEpochFinished(const EpochResult &e) override { epochs.push_back(e); }
    void onRunEnded(const RunOutcome &o) override {
        ++ended;
        outcome = o;
    }
    std::vector<StepLoss> steps;
    std::vector<EpochResult> epochs;
    RunOutcome outcome;
    int ended = 0;
};

} // namespace

// One step per epoch: the first step's loss is computed before any update, so epoch 1 always
// finishes; a learning rate of 10 then drives the loss to inf or NaN.
TEST(Divergence, ANonFiniteLossEndsTheRunAsDivergedAtThatStepKeepingTheFinishedEpochs) {
    RunConfig c;
    c.synthetic = true;
    c.learningRate = 10.0;
    c.epochs = 30;
    c.warmupEpochs = 0;
    c.batchSize = 64;
    c.trainImages = 64;
    c.testImages = 64;
    c.threads = 1;
    c.lossFetchInterval = 1;
    Recording obs;
    std::atomic<bool> stop{false};
    const RunOutcome out = runTraining(c, obs, stop);
    ASSERT_EQ(out.status, RunStatus::Diverged) << out.reason;
    EXPECT_EQ(obs.ended, 1);
    ASSERT_FALSE(out.epochs.empty()) << "epoch 1 finished before the loss became non-finite";
    EXPECT_TRUE(std::isfinite(out.epochs.front().trainLoss));
    EXPECT_EQ(out.epochs.size(), obs.epochs.size()) << "every finished epoch is kept";
    EXPECT_LT(out.epochs.size(), 30U);
    ASSERT_FALSE(obs.steps.empty());
    // Stops at the step whose loss is not finite: no step after it, every step before finite.
    for (std::size_t i = 0; i + 1 < obs.steps.size(); ++i) {
        EXPECT_TRUE(std::isfinite(obs.steps[i].loss)) << "step " << obs.steps[i].step;
    }
    const bool lastStepBad = !std::isfinite(obs.steps.back().loss);
    if (lastStepBad) {
        EXPECT_NE(out.reason.find("training loss became"), std::string::npos) << out.reason;
        EXPECT_NE(out.reason.find("at step " + std::to_string(obs.steps.back().step)),
                  std::string::npos)
            << out.reason;
    } else {
        EXPECT_NE(out.reason.find("test loss became"), std::string::npos) << out.reason;
    }
    EXPECT_NE(out.reason.find("lower the learning rate"), std::string::npos) << out.reason;
}

namespace {

// Bytes of address space this process uses now (VmSize), 0 when unknown.
std::uint64_t addressSpaceInUse() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmSize:", 0) == 0) {
            return std::stoull(line.substr(7)) * 1024;
        }
    }
    return 0;
}

} // namespace

// A batch that does not fit: the address space is limited to what the process uses plus
// 3 GiB, and one training step at batch size 50,000 needs a 6.5 GB activation. The allocation
// fails at once (nothing is touched), the run ends as failed saying so, and after the limit is
// lifted the next run in the same process works.
TEST(Resources, ABatchThatDoesNotFitInMemoryFailsSayingSoAndTheNextRunWorks) {
    if (kSanitized) {
        GTEST_SKIP() << "sanitizers reserve terabytes of address space: no limit can be set";
    }
    const std::uint64_t inUse = addressSpaceInUse();
    if (inUse == 0) {
        GTEST_SKIP() << "/proc/self/status has no VmSize here";
    }
    rlimit before{};
    ASSERT_EQ(::getrlimit(RLIMIT_AS, &before), 0);
    const std::uint64_t limit = inUse + (3ULL << 30);
    if (before.rlim_max != RLIM_INFINITY && before.rlim_max < limit) {
        GTEST_SKIP() << "the address space is already limited below " << limit << " bytes";
    }
    RunConfig c;
    c.synthetic = true;
    c.epochs = 1;
    c.warmupEpochs = 0;
    c.trainImages = 50000;
    c.testImages = 100;
    c.batchSize = 50000;
    c.threads = 1;
    Recording obs;
    std::atomic<bool> stop{false};
    rlimit limited = before;
    limited.rlim_cur = limit;
    ASSERT_EQ(::setrlimit(RLIMIT_AS, &limited), 0);
    const RunOutcome out = runTraining(c, obs, stop);
    ASSERT_EQ(::setrlimit(RLIMIT_AS, &before), 0);

    EXPECT_EQ(out.status, RunStatus::Failed);
    EXPECT_EQ(out.reason.rfind("out of memory at batch size 50000 (try a smaller batch size)", 0),
              0U)
        << out.reason;
    EXPECT_TRUE(out.epochs.empty());
    EXPECT_EQ(obs.ended, 1);

    RunConfig small = c;
    small.trainImages = 64;
    small.testImages = 64;
    small.batchSize = 32;
    Recording next;
    EXPECT_EQ(runTraining(small, next, stop).status, RunStatus::Finished);
}

namespace {

RunRecord smallRecord() {
    RunRecord r;
    r.runId = "20261130T000000Z-host-a-00000001";
    r.createdUtc = "2026-11-30T00:00:00Z";
    r.config.synthetic = true;
    r.config.epochs = 2;
    r.config.warmupEpochs = 1;
    r.started.device = "cpu";
    r.started.deviceName = "CPU";
    r.started.threads = 1;
    r.data.variant = "synthetic";
    for (int n = 1; n <= 2; ++n) {
        EpochResult e;
        e.epoch = n;
        e.seconds = n == 1 ? 12.5 : 12.25;
        e.warmup = n == 1;
        e.trainLoss = 2.0;
        e.testLoss = 1.75;
        e.testAccuracy = 0.25;
        e.imagesPerSecond = 100.0;
        r.epochs.push_back(e);
    }
    r.steps.push_back({1, 1, 1.5, 0.5});
    r.status = "finished";
    return r;
}

std::string replaced(std::string text, const std::string &from, const std::string &to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) {
        text.replace(at, from.size(), to);
    }
    return text;
}

std::string parseMessage(const std::string &json) {
    try {
        parseRunRecord(json, "runs/a.json");
    } catch (const RecordError &e) {
        return e.what();
    }
    return "<accepted>";
}

} // namespace

TEST(RunRecordNumbers, ANumberBeyondADoubleIsRefusedNamingTheFile) {
    const std::string json =
        replaced(toJson(smallRecord()), "\"seconds\": 12.5", "\"seconds\": 1e999");
    EXPECT_EQ(parseMessage(json),
              "runs/a.json holds a number that is not finite: number overflow parsing '1e999'");
}

TEST(RunRecordNumbers, NaNAndInfinityLiteralsAreNotJson) {
    for (const char *literal : {"NaN", "Infinity", "-Infinity"}) {
        const std::string json =
            replaced(toJson(smallRecord()), "\"loss\": 1.5", std::string("\"loss\": ") + literal);
        EXPECT_EQ(parseMessage(json).rfind("runs/a.json is not valid JSON: byte ", 0), 0U)
            << literal << ": " << parseMessage(json);
    }
}

// A full disk, simulated with a file size limit (RLIMIT_FSIZE; SIGXFSZ ignored, so write()
// fails with EFBIG as it fails with ENOSPC on a full disk).
TEST(RunRecordFile, AFullDiskKeepsThePreviousVersionAndLeavesNoTemporaryFile) {
    TempDir dir;
    const std::string path = (dir.path() / "run.json").string();
    RunRecord first = smallRecord();
    first.status = "running";
    first.epochs.resize(1);
    writeRunRecord(path, first);

    rlimit before{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &before), 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = before;
    limited.rlim_cur = 512; // the record is a few kB
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
    std::string message;
    try {
        writeRunRecord(path, smallRecord());
    } catch (const RecordError &e) {
        message = e.what();
    }
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &before), 0);
    std::signal(SIGXFSZ, previousHandler);

    EXPECT_EQ(message, "cannot write run record " + path + ": File too large");
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"run.json"}) << "no temporary file";
    const RunRecord kept = readRunRecord(path);
    EXPECT_EQ(kept.status, "running");
    EXPECT_EQ(kept.epochs.size(), 1U);
}

TEST(RunRecordFile, AFolderTheUserMayNotWriteIsReportedAndGetsNoFile) {
    TempDir dir;
    const fs::path folder = dir.path() / "read-only";
    fs::create_directory(folder);
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                fs::perms::group_exec | fs::perms::others_read |
                                fs::perms::others_exec);
    const std::string path = (folder / "run.json").string();
    std::string why;
    const auto message = runWithoutRoot(
        [&]() -> std::string {
            try {
                writeRunRecord(path, smallRecord());
            } catch (const RecordError &e) {
                return e.what();
            }
            return "<written>";
        },
        &why);
    if (!message) {
        GTEST_SKIP() << "cannot run without root permissions here: " << why;
    }
    EXPECT_EQ(*message, "cannot write run record " + path + ": Permission denied");
    EXPECT_TRUE(namesIn(folder).empty());
}
