// SPDX-License-Identifier: MIT
// Run records: the schema round trip, each way a file is refused, the atomic write, the
// recorder that keeps the finished epochs of a run that is still going.
#include "devicebench/run_record.h"

#include "devicebench/comparison.h"

#include "cifar_files.h"
#include "devicebench/trainer.h"
#include "process_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using devicebench::testing::namesIn;
using devicebench::testing::TempDir;
using namespace devicebench;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A record in which every field differs from its default.
RunRecord fullRecord() {
    RunRecord r;
    r.runId = "20261129T224000Z-host-a-0123abcd";
    r.createdUtc = "2026-11-29T22:40:00Z";
    r.model = "deep-cnn";
    r.precision = "float16";
    r.workload = "tuned";
    r.config.device = "cuda:1";
    r.config.epochs = 7;
    r.config.batchSize = 128;
    r.config.learningRate = 0.1 / 3.0; // not a short decimal: needs full precision
    r.config.warmupEpochs = 3;
    r.config.threads = 6;
    r.config.seed = 18446744073709551615ULL; // largest seed
    r.config.dataDir = "/data/cifar 10 – ✓";
    r.config.synthetic = true;
    r.config.trainImages = 1234;
    r.config.testImages = 567;
    r.config.lossFetchInterval = 9;
    r.config.dataOnDevice = true;
    r.started.device = "cuda:1";
    r.started.deviceName = "Tesla T4";
    r.started.threads = 5;
    r.started.trainImages = 1230;
    r.started.testImages = 560;
    r.started.stepsPerEpoch = 10;
    r.started.dataDescription = "synthetic data";
    r.started.synthetic = true;
    r.fingerprint.hostName = "host-a";
    r.fingerprint.os = "Debian GNU/Linux 12 (bookworm) 6.1.0";
    r.fingerprint.cpuModel = "Intel(R) Xeon(R) CPU @ 2.20GHz";
    r.fingerprint.physicalCores = 2;
    r.fingerprint.logicalCores = 4;
    r.fingerprint.cpuQuota = "200000 100000";
    r.fingerprint.cpuQuotaCores = 2.0;
    r.fingerprint.affinity = "0-3";
    r.fingerprint.affinityCount = 4;
    r.fingerprint.ompNumThreads = "4";
    r.fingerprint.intraOpThreads = 3;
    r.fingerprint.blasLibrary = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3";
    r.fingerprint.libtorchVersion = "1.13.1";
    r.fingerprint.cudaBuilt = true;
    r.fingerprint.cudaRuntimeVersion = "11.8";
    r.fingerprint.cudnnVersion = "8.7.0";
    r.fingerprint.driverVersion = "12.2";
    r.fingerprint.gpus = {{0, "Tesla T4", 7, 5, 15843721216LL}, {1, "RTX 3050", 8, 6, 4LL << 30}};
    r.fingerprint.cudnnBenchmark = true;
    r.fingerprint.appVersion = "9.8.7";
    r.data = {"/data/cifar", "cifar-10-binary", 1230, 560, "0123456789abcdef"};
    const auto epoch = [](int number, double seconds, bool warmup, double trainLoss,
                          double testLoss, double accuracy, double imagesPerSecond) {
        EpochResult e;
        e.epoch = number;
        e.seconds = seconds;
        e.warmup = warmup;
        e.trainLoss = trainLoss;
        e.testLoss = testLoss;
        e.testAccuracy = accuracy;
        e.imagesPerSecond = imagesPerSecond;
        return e;
    };
    r.epochs = {epoch(1, 12.5, true, 2.3, 2.2, 0.11, 500.25),
                epoch(2, 0.1 + 0.2, false, kNaN, kNaN, 0.5, 6000.0)}; // a diverged epoch's losses
    r.steps = {{1, 1, 2.30258, 0.125}, {1, 2, kNaN, 0.25}, {2, 11, 1.5, 13.0}};
    r.status = "diverged";
    r.reason = "training loss became nan at step 2";
    return r;
}

// NaN == NaN for the round trip.
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

void expectSameRecord(const RunRecord &a, const RunRecord &b) {
    EXPECT_EQ(a.schemaVersion, b.schemaVersion);
    EXPECT_EQ(a.runId, b.runId);
    EXPECT_EQ(a.createdUtc, b.createdUtc);
    EXPECT_EQ(a.model, b.model);
    EXPECT_EQ(a.precision, b.precision);
    EXPECT_EQ(a.workload, b.workload);
    EXPECT_EQ(a.config.device, b.config.device);
    EXPECT_EQ(a.config.epochs, b.config.epochs);
    EXPECT_EQ(a.config.batchSize, b.config.batchSize);
    EXPECT_EQ(a.config.learningRate, b.config.learningRate); // bit-exact
    EXPECT_EQ(a.config.warmupEpochs, b.config.warmupEpochs);
    EXPECT_EQ(a.config.threads, b.config.threads);
    EXPECT_EQ(a.config.seed, b.config.seed);
    EXPECT_EQ(a.config.dataDir, b.config.dataDir);
    EXPECT_EQ(a.config.synthetic, b.config.synthetic);
    EXPECT_EQ(a.config.trainImages, b.config.trainImages);
    EXPECT_EQ(a.config.testImages, b.config.testImages);
    EXPECT_EQ(a.config.lossFetchInterval, b.config.lossFetchInterval);
    EXPECT_EQ(a.config.dataOnDevice, b.config.dataOnDevice);
    EXPECT_EQ(a.started.device, b.started.device);
    EXPECT_EQ(a.started.deviceName, b.started.deviceName);
    EXPECT_EQ(a.started.threads, b.started.threads);
    EXPECT_EQ(a.started.trainImages, b.started.trainImages);
    EXPECT_EQ(a.started.testImages, b.started.testImages);
    EXPECT_EQ(a.started.stepsPerEpoch, b.started.stepsPerEpoch);
    EXPECT_EQ(a.started.dataDescription, b.started.dataDescription);
    EXPECT_EQ(a.started.synthetic, b.started.synthetic);
    const Fingerprint &f = a.fingerprint, &g = b.fingerprint;
    EXPECT_EQ(f.hostName, g.hostName);
    EXPECT_EQ(f.os, g.os);
    EXPECT_EQ(f.cpuModel, g.cpuModel);
    EXPECT_EQ(f.physicalCores, g.physicalCores);
    EXPECT_EQ(f.logicalCores, g.logicalCores);
    EXPECT_EQ(f.cpuQuota, g.cpuQuota);
    EXPECT_EQ(f.cpuQuotaCores, g.cpuQuotaCores);
    EXPECT_EQ(f.affinity, g.affinity);
    EXPECT_EQ(f.affinityCount, g.affinityCount);
    EXPECT_EQ(f.ompNumThreads, g.ompNumThreads);
    EXPECT_EQ(f.intraOpThreads, g.intraOpThreads);
    EXPECT_EQ(f.blasLibrary, g.blasLibrary);
    EXPECT_EQ(f.libtorchVersion, g.libtorchVersion);
    EXPECT_EQ(f.cudaBuilt, g.cudaBuilt);
    EXPECT_EQ(f.cudaRuntimeVersion, g.cudaRuntimeVersion);
    EXPECT_EQ(f.cudnnVersion, g.cudnnVersion);
    EXPECT_EQ(f.driverVersion, g.driverVersion);
    ASSERT_EQ(f.gpus.size(), g.gpus.size());
    for (std::size_t i = 0; i < f.gpus.size(); ++i) {
        EXPECT_EQ(f.gpus[i].index, g.gpus[i].index);
        EXPECT_EQ(f.gpus[i].name, g.gpus[i].name);
        EXPECT_EQ(f.gpus[i].computeMajor, g.gpus[i].computeMajor);
        EXPECT_EQ(f.gpus[i].computeMinor, g.gpus[i].computeMinor);
        EXPECT_EQ(f.gpus[i].memoryBytes, g.gpus[i].memoryBytes);
    }
    EXPECT_EQ(f.cudnnBenchmark, g.cudnnBenchmark);
    EXPECT_EQ(f.appVersion, g.appVersion);
    EXPECT_EQ(a.data.path, b.data.path);
    EXPECT_EQ(a.data.variant, b.data.variant);
    EXPECT_EQ(a.data.trainImages, b.data.trainImages);
    EXPECT_EQ(a.data.testImages, b.data.testImages);
    EXPECT_EQ(a.data.contentHash, b.data.contentHash);
    ASSERT_EQ(a.epochs.size(), b.epochs.size());
    for (std::size_t i = 0; i < a.epochs.size(); ++i) {
        const EpochResult &x = a.epochs[i], &y = b.epochs[i];
        EXPECT_EQ(x.epoch, y.epoch);
        EXPECT_EQ(x.seconds, y.seconds);
        EXPECT_EQ(x.warmup, y.warmup);
        EXPECT_TRUE(same(x.trainLoss, y.trainLoss)) << x.trainLoss << " vs " << y.trainLoss;
        EXPECT_TRUE(same(x.testLoss, y.testLoss)) << x.testLoss << " vs " << y.testLoss;
        EXPECT_EQ(x.testAccuracy, y.testAccuracy);
        EXPECT_EQ(x.imagesPerSecond, y.imagesPerSecond);
    }
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        EXPECT_EQ(a.steps[i].epoch, b.steps[i].epoch);
        EXPECT_EQ(a.steps[i].step, b.steps[i].step);
        EXPECT_TRUE(same(a.steps[i].loss, b.steps[i].loss));
        EXPECT_EQ(a.steps[i].seconds, b.steps[i].seconds);
    }
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.reason, b.reason);
}

// Replaces the first occurrence of `from` in `text` (which must hold it).
std::string replaced(std::string text, const std::string &from, const std::string &to) {
    const auto pos = text.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    if (pos != std::string::npos) {
        text.replace(pos, from.size(), to);
    }
    return text;
}

std::string messageOf(const std::string &json, const std::string &source) {
    try {
        parseRunRecord(json, source);
    } catch (const RecordError &e) {
        return e.what();
    }
    return "(accepted)";
}

std::string readMessageOf(const std::string &path) {
    try {
        readRunRecord(path);
    } catch (const RecordError &e) {
        return e.what();
    }
    return "(accepted)";
}

void writeText(const fs::path &path, const std::string &text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

RunConfig tinySyntheticConfig(int epochs) {
    RunConfig c;
    c.synthetic = true;
    c.epochs = epochs;
    c.warmupEpochs = 1;
    c.threads = 1;
    c.batchSize = 32;
    c.trainImages = 96;
    c.testImages = 32;
    c.lossFetchInterval = 2;
    return c;
}

} // namespace

TEST(RunRecordJson, RoundTripKeepsEveryFieldAndNaNLosses) {
    const RunRecord original = fullRecord();
    const std::string json = toJson(original);
    EXPECT_NE(json.find("\"trainLoss\": null"), std::string::npos) << "NaN is written as null";
    expectSameRecord(parseRunRecord(json, "mem.json"), original);
}

TEST(RunRecordJson, RecordWithoutDataOnDeviceReadsAsDataOnTheHost) {
    // Records written before the field existed (docs/examples) stay readable.
    RunRecord original = fullRecord();
    std::string json = toJson(original);
    const std::string field = "\"dataOnDevice\": true";
    const auto at = json.find(field);
    ASSERT_NE(at, std::string::npos) << json.substr(0, 800);
    const auto comma = json.rfind(',', at); // the config's last field: drop ",\n    <field>"
    json.erase(comma, at + field.size() - comma);
    EXPECT_FALSE(parseRunRecord(json, "old.json").config.dataOnDevice);
}

TEST(RunRecordJson, PrecisionTf32TheNoteAndTheLossScalersFieldsRoundTrip) {
    RunRecord original = fullRecord();
    original.config.precision = Precision::Float16;
    original.precision = toString(original.config.precision);
    original.config.tf32 = Tf32::Off;
    original.started.precisionNative = false;
    original.started.precisionNote = "fp16 is emulated on this GPU";
    original.epochs.front().skippedSteps = 3;
    original.epochs.front().lossScale = 32768.0;
    const RunRecord read = parseRunRecord(toJson(original), "fp16.json");
    expectSameRecord(read, original);
    EXPECT_EQ(read.config.precision, Precision::Float16);
    EXPECT_EQ(read.config.tf32, Tf32::Off);
    EXPECT_FALSE(read.started.precisionNative);
    EXPECT_EQ(read.started.precisionNote, "fp16 is emulated on this GPU");
    EXPECT_EQ(read.epochs.front().skippedSteps, 3);
    EXPECT_DOUBLE_EQ(read.epochs.front().lossScale, 32768.0);
}

TEST(RunRecordJson, LossScalerFieldsOutsideAFloat16RunOrOutOfRangeAreRefusedNamingTheField) {
    RunRecord r = fullRecord();
    r.precision = "float32";
    r.config.precision = Precision::Float32;
    r.epochs.front().skippedSteps = 1;
    r.epochs.front().lossScale = 1024.0;
    try {
        parseRunRecord(toJson(r), "fp32.json");
        ADD_FAILURE() << "a float32 record with skipped steps was read";
    } catch (const RecordError &e) {
        EXPECT_NE(std::string(e.what()).find("skippedSteps"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("fp32.json"), std::string::npos) << e.what();
    }
    r.precision = "float16";
    r.config.precision = Precision::Float16;
    r.epochs.front().lossScale = -1.0;
    EXPECT_THROW(parseRunRecord(toJson(r), "scale.json"), RecordError);
    r.epochs.front().lossScale = 1024.0;
    r.epochs.front().skippedSteps = r.started.stepsPerEpoch + 1;
    EXPECT_THROW(parseRunRecord(toJson(r), "many.json"), RecordError);
}

TEST(RunRecordJson, TargetAccuracyAndTestSecondsRoundTripWithTheDerivedTimeToTarget) {
    RunRecord original = fullRecord();
    original.config.targetAccuracy = 5.0;
    original.epochs.front().testSeconds = original.epochs.front().seconds / 4.0;
    // Reached in the last epoch: a record with a target ends at the epoch that reached it.
    for (EpochResult &e : original.epochs)
        e.testAccuracy = 0.01;
    original.epochs.back().testAccuracy = 0.5;
    const std::string json = toJson(original);
    EXPECT_NE(json.find("\"targetAccuracy\": 5.0"), std::string::npos) << json.substr(0, 1200);
    EXPECT_NE(json.find("\"target\": {"), std::string::npos);
    const RunRecord read = parseRunRecord(json, "target.json");
    ASSERT_TRUE(read.config.targetAccuracy.has_value());
    EXPECT_DOUBLE_EQ(*read.config.targetAccuracy, 5.0);
    EXPECT_DOUBLE_EQ(read.epochs.front().testSeconds, original.epochs.front().testSeconds);
    EXPECT_NE(json.find("\"reached\": true"), std::string::npos);
}

TEST(RunRecordJson, ARecordWithoutATargetReadsAsOneWithoutAndWritesNone) {
    const RunRecord original = fullRecord();
    const std::string json = toJson(original);
    EXPECT_EQ(json.find("targetAccuracy"), std::string::npos);
    EXPECT_EQ(json.find("testSeconds"), std::string::npos);
    const RunRecord read = parseRunRecord(json, "old.json");
    EXPECT_FALSE(read.config.targetAccuracy.has_value());
    EXPECT_TRUE(std::isnan(read.epochs.front().testSeconds));
}

TEST(RunRecordJson, ATargetOutOfRangeOrATestTimeBeyondTheEpochIsRefusedNamingTheField) {
    RunRecord r = fullRecord();
    r.config.targetAccuracy = 120.0;
    try {
        parseRunRecord(toJson(r), "t.json");
        ADD_FAILURE() << "a target of 120 % was read";
    } catch (const RecordError &e) {
        EXPECT_NE(std::string(e.what()).find("config.targetAccuracy"), std::string::npos)
            << e.what();
    }
    r.config.targetAccuracy.reset();
    r.epochs.front().testSeconds = r.epochs.front().seconds * 2.0;
    EXPECT_THROW(parseRunRecord(toJson(r), "t.json"), RecordError);
}

TEST(RunRecordJson, ARecordOfAnUnknownPrecisionImportsWithItsTextKept) {
    RunRecord original = fullRecord();
    original.precision = "float8_e4m3";
    const RunRecord read = parseRunRecord(toJson(original), "fp8.json");
    EXPECT_EQ(read.precision, "float8_e4m3");
    EXPECT_EQ(read.config.precision, Precision::Float32) << "the setting stays the default";
}

TEST(RunRecordJson, StartsWithTheSchemaVersion) {
    const std::string json = toJson(fullRecord());
    EXPECT_EQ(json.rfind("{\n  \"schemaVersion\": 1,", 0), 0u) << json.substr(0, 60);
}

struct Rejection {
    const char *name;
    std::string (*mutate)(const std::string &json);
    const char *expected; // in the message, after the file name
};

// Readable test names in ctest output instead of the struct's bytes.
void PrintTo(const Rejection &r, std::ostream *os) { *os << r.name; }

class RunRecordRejects : public ::testing::TestWithParam<Rejection> {};

TEST_P(RunRecordRejects, WithTheFileNameAndTheProblem) {
    const std::string json = GetParam().mutate(toJson(fullRecord()));
    const std::string message = messageOf(json, "runs/a.json");
    EXPECT_EQ(message.rfind("runs/a.json", 0), 0u) << message;
    EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    BadRecords, RunRecordRejects,
    ::testing::Values(
        Rejection{"Truncated", [](const std::string &j) { return j.substr(0, j.size() / 2); },
                  " is not valid JSON (truncated?): byte "},
        Rejection{"Empty", [](const std::string &) { return std::string(); },
                  " is empty (0 bytes): not a run record"},
        Rejection{"NotJson",
                  [](const std::string &) { return std::string("epoch,seconds\n1,12.5\n"); },
                  " is not valid JSON: byte 1 of 21: parse error at line 1, column 1"},
        Rejection{"NotAnObject", [](const std::string &) { return std::string("[1, 2]"); },
                  " is not a run record"},
        Rejection{"OlderSchema",
                  [](const std::string &j) {
                      return replaced(j, "\"schemaVersion\": 1", "\"schemaVersion\": 0");
                  },
                  ": schema version 0 is older than this DeviceBench reads (1)"},
        Rejection{"NewerSchema",
                  [](const std::string &j) {
                      return replaced(j, "\"schemaVersion\": 1", "\"schemaVersion\": 99");
                  },
                  ": schema version 99 is newer than this DeviceBench reads (1)"},
        Rejection{"NoSchemaVersion",
                  [](const std::string &j) {
                      return replaced(j, "\"schemaVersion\": 1", "\"schema\": 1");
                  },
                  ": field 'schemaVersion' is missing"},
        Rejection{"MissingEpochField",
                  [](const std::string &j) {
                      return replaced(j, "\"seconds\": 0.30000000000000004",
                                      "\"secs\": 0.30000000000000004");
                  },
                  ": field 'epochs[1].seconds' is missing"},
        Rejection{"NullSeconds",
                  [](const std::string &j) {
                      return replaced(j, "\"seconds\": 12.5", "\"seconds\": null");
                  },
                  ": field 'epochs[0].seconds' must be a finite number"},
        Rejection{"StringBatchSize",
                  [](const std::string &j) {
                      return replaced(j, "\"batchSize\": 128", "\"batchSize\": \"128\"");
                  },
                  ": field 'config.batchSize' must be a whole number"},
        Rejection{
            "FractionalEpochs",
            [](const std::string &j) { return replaced(j, "\"epochs\": 7", "\"epochs\": 7.5"); },
            ": field 'config.epochs' must be a whole number"},
        Rejection{"NegativeSeed",
                  [](const std::string &j) {
                      return replaced(j, "\"seed\": 18446744073709551615", "\"seed\": -1");
                  },
                  ": field 'config.seed' must be a whole number, 0 or more"},
        Rejection{
            "StepLossAsText",
            [](const std::string &j) { return replaced(j, "\"loss\": 1.5", "\"loss\": \"1.5\""); },
            ": field 'steps[2].loss' must be a number or null"},
        Rejection{"MissingConfig",
                  [](const std::string &j) { return replaced(j, "\"config\":", "\"cfg\":"); },
                  ": field 'config' is missing"},
        Rejection{"UnknownStatus",
                  [](const std::string &j) {
                      return replaced(j, "\"status\": \"diverged\"", "\"status\": \"paused\"");
                  },
                  ": field 'status' must be running, finished, cancelled, diverged or failed"},
        Rejection{"FingerprintFieldWrongType",
                  [](const std::string &j) {
                      return replaced(j, "\"hostName\": \"host-a\"", "\"hostName\": 7");
                  },
                  ": field 'fingerprint.hostName' must be a string"}),
    [](const ::testing::TestParamInfo<Rejection> &p) { return std::string(p.param.name); });

// ---- records no real run could have made --------------------------------------------------

struct Impossible {
    const char *name;
    void (*mutate)(RunRecord &record);
    const char *expected; // in the message, after the file name
};

void PrintTo(const Impossible &c, std::ostream *os) { *os << c.name; }

class ImpossibleRecordIsRefused : public ::testing::TestWithParam<Impossible> {};

TEST_P(ImpossibleRecordIsRefused, NamingTheFileAndTheField) {
    RunRecord r = fullRecord();
    ASSERT_NO_THROW(parseRunRecord(toJson(r), "runs/a.json")) << "the unbroken record is possible";
    GetParam().mutate(r);
    const std::string message = messageOf(toJson(r), "runs/a.json");
    EXPECT_EQ(message.rfind("runs/a.json: field '", 0), 0u) << message;
    EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
}

// A finished run of 2 epochs (fullRecord is a diverged one).
void makeFinished(RunRecord &r) {
    r.status = "finished";
    r.reason.clear();
    r.config.epochs = 2;
    r.epochs[1].trainLoss = 2.1;
    r.epochs[1].testLoss = 2.0;
    r.steps[1].loss = 2.2;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ImpossibleRecordIsRefused,
    ::testing::Values(
        Impossible{
            "AllEpochSecondsZero",
            [](RunRecord &r) {
                for (EpochResult &e : r.epochs)
                    e.seconds = 0.0;
            },
            "field 'epochs[0].seconds' must be above 0 (got 0): no real epoch takes no time"},
        Impossible{"NegativeEpochSeconds", [](RunRecord &r) { r.epochs[1].seconds = -1.0; },
                   "field 'epochs[1].seconds' must be above 0 (got -1)"},
        Impossible{"AnEpochOfCenturies", [](RunRecord &r) { r.epochs[1].seconds = 1e308; },
                   "field 'epochs[1].seconds' must be at most 1e7 (got 1e+308): no real epoch "
                   "takes 116 days"},
        Impossible{"EpochNumberSkipped", [](RunRecord &r) { r.epochs[1].epoch = 3; },
                   "field 'epochs[1].epoch' is 3; epochs are numbered 1, 2, ... in order "
                   "(expected 2)"},
        Impossible{"EpochsOutOfOrder", [](RunRecord &r) { std::swap(r.epochs[0], r.epochs[1]); },
                   "field 'epochs[0].epoch' is 2"},
        Impossible{"AccuracyAboveOne", [](RunRecord &r) { r.epochs[0].testAccuracy = 1.5; },
                   "field 'epochs[0].testAccuracy' must be a fraction from 0 to 1 (got 1.5)"},
        Impossible{"NegativeTestLoss", [](RunRecord &r) { r.epochs[0].testLoss = -0.5; },
                   "field 'epochs[0].testLoss' must not be negative (got -0.5)"},
        Impossible{"UnknownLossInAFinishedRun",
                   [](RunRecord &r) {
                       makeFinished(r);
                       r.epochs[1].trainLoss = kNaN;
                   },
                   "field 'epochs[1].trainLoss' must be a finite number in a run that did not "
                   "diverge (got null)"},
        Impossible{"FinishedWithEpochsMissing",
                   [](RunRecord &r) {
                       makeFinished(r);
                       r.config.epochs = 7;
                   },
                   "field 'status' is finished, but the record holds 2 of its 7 epochs"},
        Impossible{"MoreEpochsThanConfigured", [](RunRecord &r) { r.config.epochs = 1; },
                   "field 'epochs' holds 2 epochs; the run was set to 1 (config.epochs)"},
        Impossible{"ZeroBatchSize", [](RunRecord &r) { r.config.batchSize = 0; },
                   "field 'config.batchSize' must be at least 1 (got 0)"},
        Impossible{"ZeroLearningRate", [](RunRecord &r) { r.config.learningRate = 0.0; },
                   "field 'config.learningRate' must be above 0 (got 0)"},
        Impossible{"ZeroLossFetchInterval", [](RunRecord &r) { r.config.lossFetchInterval = 0; },
                   "field 'config.lossFetchInterval' must be at least 1 (got 0)"},
        Impossible{"StepsPerEpochInconsistent", [](RunRecord &r) { r.started.stepsPerEpoch = 11; },
                   "field 'started.stepsPerEpoch' is 11; 1230 training images in batches of 128 "
                   "make 10"},
        Impossible{"NegativeThreads", [](RunRecord &r) { r.started.threads = -1; },
                   "field 'started.threads' must be at least 0 (got -1)"},
        Impossible{"NegativeImageCount", [](RunRecord &r) { r.data.testImages = -5; },
                   "field 'data.testImages' must be at least 0 (got -5)"},
        Impossible{"NegativeImagesPerSecond",
                   [](RunRecord &r) { r.epochs[0].imagesPerSecond = -1; },
                   "field 'epochs[0].imagesPerSecond' must be a finite number, 0 or more, or null"},
        Impossible{"StepNumbersGoBack", [](RunRecord &r) { r.steps[2].step = 2; },
                   "field 'steps[2].step' is 2; steps count up from 1 (the one before is 2)"},
        Impossible{"StepInEpochZero", [](RunRecord &r) { r.steps[0].epoch = 0; },
                   "field 'steps[0].epoch' must be at least 1 (got 0)"},
        Impossible{"NegativeStepLoss", [](RunRecord &r) { r.steps[0].loss = -2.0; },
                   "field 'steps[0].loss' must not be negative (got -2)"}),
    [](const ::testing::TestParamInfo<Impossible> &p) { return std::string(p.param.name); });

TEST(RunRecordChecks, ARunRefusedBeforeItsFirstEpochKeepsItsRefusedSettings) {
    RunRecord r = fullRecord();
    r.epochs.clear();
    r.steps.clear();
    r.status = "failed";
    r.reason = "batch size must be at least 1 (got 0)";
    r.config.batchSize = 0;
    EXPECT_NO_THROW(parseRunRecord(toJson(r), "runs/failed.json"));
}

// docs/examples holds records written by earlier versions (the older data hash, no
// dataOnDevice): they must keep importing.
TEST(RunRecordChecks, RecordsWrittenByEarlierVersionsStillImport) {
    int count = 0;
    for (const auto &entry : fs::directory_iterator(DEVICEBENCH_EXAMPLES_DIR)) {
        if (entry.path().extension() != ".json")
            continue;
        ++count;
        RunRecord r;
        ASSERT_NO_THROW(r = readRunRecord(entry.path().string())) << entry.path();
        EXPECT_EQ(dataHashMethod(r.data.contentHash), DataHashMethod::PrefixFnv1a) << entry.path();
        EXPECT_EQ(r.status, "finished");
        // Written before precision was a setting: float32, TF32 left as LibTorch had it, no
        // loss scaler, no note.
        EXPECT_EQ(r.config.precision, Precision::Float32) << entry.path();
        EXPECT_EQ(r.config.tf32, Tf32::Default) << entry.path();
        EXPECT_TRUE(r.started.precisionNative) << entry.path();
        for (const EpochResult &e : r.epochs)
            EXPECT_EQ(e.skippedSteps, -1) << entry.path();
    }
    EXPECT_GE(count, 3);
}

TEST(RunRecordFile, WriteThenReadGivesTheSameRecordAndLeavesNoTemporaryFile) {
    TempDir dir;
    const std::string path = (dir.path() / "run.json").string();
    writeRunRecord(path, fullRecord());
    expectSameRecord(readRunRecord(path), fullRecord());
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"run.json"});
    EXPECT_EQ(fs::status(path).permissions() & fs::perms::others_read, fs::perms::others_read)
        << "a record is an ordinary document, not a private temporary file";
}

TEST(RunRecordFile, MissingFileIsRefusedNamingIt) {
    TempDir dir;
    const std::string path = (dir.path() / "none.json").string();
    EXPECT_EQ(readMessageOf(path), path + " does not exist");
}

TEST(RunRecordFile, FolderIsRefusedNamingIt) {
    TempDir dir;
    EXPECT_EQ(readMessageOf(dir.path().string()),
              dir.path().string() + " is a folder, not a run record file");
}

TEST(RunRecordFile, HugeFileIsRefusedByItsSizeBeforeReading) {
    TempDir dir;
    const fs::path path = dir.path() / "huge.json";
    writeText(path, "");
    fs::resize_file(path, 200LL * 1024 * 1024); // sparse: no disk space, all zero bytes
    // Read, the zeros would be refused as "not valid JSON"; the size message proves no read.
    EXPECT_EQ(readMessageOf(path.string()),
              path.string() + " is 209715200 bytes; run records over 64 MiB are refused");
}

TEST(RunRecordFile, TruncatedFileIsRefusedNamingTheFile) {
    TempDir dir;
    const fs::path path = dir.path() / "cut.json";
    const std::string json = toJson(fullRecord());
    writeText(path, json.substr(0, json.size() - 20));
    const std::string message = readMessageOf(path.string());
    EXPECT_EQ(message.rfind(path.string() + " is not valid JSON (truncated?)", 0), 0u) << message;
}

TEST(RunRecordFile, WriteIntoAMissingFolderThrowsNamingThePathAndLeavesNothing) {
    TempDir dir;
    const std::string path = (dir.path() / "no-such-folder" / "run.json").string();
    try {
        writeRunRecord(path, fullRecord());
        FAIL() << "written into a missing folder";
    } catch (const RecordError &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
    }
    EXPECT_TRUE(namesIn(dir.path()).empty());
}

TEST(RunRecordFile, FailedWriteIntoAReadOnlyFolderKeepsThePreviousVersionAndNoTemporary) {
    if (::geteuid() == 0) {
        GTEST_SKIP() << "running as root, which ignores folder permissions (the missing-folder "
                        "test covers the failure path)";
    }
    TempDir dir;
    const std::string path = (dir.path() / "run.json").string();
    RunRecord first = fullRecord();
    first.status = "running";
    writeRunRecord(path, first);
    fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
    try {
        writeRunRecord(path, fullRecord());
        ADD_FAILURE() << "written into a read-only folder";
    } catch (const RecordError &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
    }
    fs::permissions(dir.path(), fs::perms::owner_all);
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"run.json"});
    EXPECT_EQ(readRunRecord(path).status, "running");
}

TEST(RunId, IsUniqueAndSafeAsAFileName) {
    const std::string a = newRunId();
    const std::string b = newRunId();
    EXPECT_NE(a, b);
    EXPECT_TRUE(std::regex_match(a, std::regex(R"(\d{8}T\d{6}Z-[A-Za-z0-9._-]+-[0-9a-f]{8})")))
        << a;
}

TEST(DataIdentity, SyntheticDataHasNoPathAndNoHash) {
    const RunConfig c = tinySyntheticConfig(1);
    const DataIdentity d = identifyData(c, 96, 32);
    EXPECT_EQ(d.variant, "synthetic");
    EXPECT_EQ(d.path, "");
    EXPECT_EQ(d.contentHash, "");
    EXPECT_EQ(d.trainImages, 96);
    EXPECT_EQ(d.testImages, 32);
}

namespace {
// A small data folder (1,000 records per file: identifyData reads files, it does not check them).
void writeSmallDataset(const fs::path &dir) {
    fs::create_directories(dir);
    for (const char *name : {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin",
                             "data_batch_4.bin", "data_batch_5.bin", "test_batch.bin"}) {
        devicebench::testing::writeBatchFile(dir / name, 1000, devicebench::testing::cyclicLabel);
    }
}
} // namespace

TEST(DataIdentity, HashTellsCopiesFromChangedFilesApart) {
    TempDir dir;
    const fs::path a = dir.path() / "a";
    const fs::path b = dir.path() / "b";
    writeSmallDataset(a);
    fs::copy(a, b);
    RunConfig c;
    c.dataDir = a.string();
    const DataIdentity first = identifyData(c, 100, 10);
    EXPECT_EQ(first.variant, "cifar-10-binary");
    EXPECT_EQ(first.path, a.string());
    EXPECT_TRUE(std::regex_match(first.contentHash, std::regex("xxh3-128:[0-9a-f]{32}")))
        << first.contentHash;
    EXPECT_EQ(dataHashMethod(first.contentHash), DataHashMethod::WholeFilesXxh3);
    c.dataDir = b.string();
    EXPECT_EQ(identifyData(c, 100, 10).contentHash, first.contentHash) << "a copy is the same data";
    {
        std::fstream f(b / "test_batch.bin", std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(100);
        f.put('\x7f');
    }
    EXPECT_NE(identifyData(c, 100, 10).contentHash, first.contentHash);
}

// Records 2 to 639 of data_batch_1.bin relabelled, far past the first
// 4 KiB that the older hash read.
TEST(DataIdentity, FoldersDifferingOnlyInSomeLabelBytesAreDifferentDataAndNotComparable) {
    TempDir dir;
    const fs::path a = dir.path() / "a";
    const fs::path b = dir.path() / "b";
    writeSmallDataset(a);
    fs::copy(a, b);
    {
        std::fstream f(b / "data_batch_1.bin", std::ios::in | std::ios::out | std::ios::binary);
        for (std::int64_t record = 2; record <= 639; ++record) {
            f.seekp(record * devicebench::testing::kRecordBytes);
            f.put(static_cast<char>((devicebench::testing::cyclicLabel(record) + 1) % 10));
        }
    }
    EXPECT_EQ(fs::file_size(a / "data_batch_1.bin"), fs::file_size(b / "data_batch_1.bin"));
    RunConfig ca;
    ca.dataDir = a.string();
    RunConfig cb;
    cb.dataDir = b.string();
    RunRecord ra;
    RunRecord rb;
    ra.data = identifyData(ca, 1000, 1000);
    rb.data = identifyData(cb, 1000, 1000);
    EXPECT_NE(ra.data.contentHash, rb.data.contentHash);
    EXPECT_EQ(compareData(ra, rb), DataMatch::Different);
    EXPECT_EQ(workloadDifferences(ra, rb), std::vector<std::string>{"data set"});
}

TEST(DataIdentity, AMissingBatchFileGivesAnotherIdentity) {
    TempDir dir;
    const fs::path a = dir.path() / "a";
    writeSmallDataset(a);
    RunConfig c;
    c.dataDir = a.string();
    const std::string whole = identifyData(c, 100, 10).contentHash;
    fs::remove(a / "data_batch_5.bin");
    EXPECT_NE(identifyData(c, 100, 10).contentHash, whole);
}

// Reads the record file from inside the run, as a process that died right then would leave it.
class FileInspector : public RecordObserver {
public:
    explicit FileInspector(std::string path) : m_path(std::move(path)) {}
    void onRunStarted(const RunStarted &) override { seenAtStart = readRunRecord(m_path); }
    void onEpochFinished(const EpochResult &e) override {
        if (e.epoch == 2) {
            seenAfterEpoch2 = readRunRecord(m_path);
        }
    }
    void onRunEnded(const RunOutcome &) override { ended = true; }
    RunRecord seenAtStart;
    RunRecord seenAfterEpoch2;
    bool ended = false;

private:
    std::string m_path;
};

TEST(RunRecorder, FileHoldsTheFinishedEpochsWhileTheRunIsStillGoing) {
    TempDir dir;
    const std::string path = (dir.path() / "run.json").string();
    const RunConfig config = tinySyntheticConfig(3);
    FileInspector inspector(path);
    RunRecorder recorder(config, path, &inspector);
    std::atomic<bool> stop{false};
    const RunOutcome outcome = runTraining(config, recorder, stop);
    ASSERT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    EXPECT_TRUE(inspector.ended) << "events are forwarded";
    EXPECT_TRUE(recorder.writeError().empty()) << recorder.writeError();

    EXPECT_EQ(inspector.seenAtStart.status, "running");
    EXPECT_TRUE(inspector.seenAtStart.epochs.empty());
    EXPECT_EQ(inspector.seenAtStart.started.threads, 1);
    EXPECT_FALSE(inspector.seenAtStart.fingerprint.hostName.empty());

    const RunRecord &mid = inspector.seenAfterEpoch2;
    EXPECT_EQ(mid.status, "running");
    ASSERT_EQ(mid.epochs.size(), 2u);
    EXPECT_EQ(mid.epochs[0].epoch, 1);
    EXPECT_EQ(mid.epochs[1].epoch, 2);
    EXPECT_EQ(mid.epochs[1].seconds, outcome.epochs[1].seconds);

    const RunRecord last = readRunRecord(path);
    EXPECT_EQ(last.status, "finished");
    EXPECT_EQ(last.reason, "");
    EXPECT_EQ(last.runId, mid.runId);
    ASSERT_EQ(last.epochs.size(), 3u);
    EXPECT_TRUE(last.epochs[0].warmup);
    EXPECT_EQ(last.data.variant, "synthetic");
    EXPECT_EQ(last.data.trainImages, 96);
    EXPECT_EQ(last.config.batchSize, 32);
    // 3 steps per epoch, fetched every 2 steps and at each epoch's end.
    ASSERT_EQ(last.steps.size(), 9u);
    for (std::size_t i = 0; i < last.steps.size(); ++i) {
        EXPECT_EQ(last.steps[i].step, static_cast<std::int64_t>(i) + 1);
        EXPECT_EQ(last.steps[i].epoch, static_cast<int>(i / 3) + 1);
        EXPECT_GT(last.steps[i].seconds, 0.0);
        EXPECT_TRUE(std::isfinite(last.steps[i].loss));
    }
    EXPECT_LE(last.steps[0].seconds, last.steps[8].seconds);
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"run.json"});
}

// Asks the run to stop once epoch 1 is done.
class StopAfterFirstEpoch : public RecordObserver {
public:
    explicit StopAfterFirstEpoch(std::atomic<bool> &stop) : m_stop(stop) {}
    void onEpochFinished(const EpochResult &) override { m_stop.store(true); }
    void onRunEnded(const RunOutcome &) override {}

private:
    std::atomic<bool> &m_stop;
};

TEST(RunRecorder, CancelledRunEndsWithStatusCancelledAndItsReason) {
    TempDir dir;
    const std::string path = (dir.path() / "run.json").string();
    std::atomic<bool> stop{false};
    StopAfterFirstEpoch stopper(stop);
    RunRecorder recorder(tinySyntheticConfig(3), path, &stopper);
    const RunOutcome outcome = runTraining(tinySyntheticConfig(3), recorder, stop);
    ASSERT_EQ(outcome.status, RunStatus::Cancelled);
    const RunRecord r = readRunRecord(path);
    EXPECT_EQ(r.status, "cancelled");
    EXPECT_EQ(r.reason, outcome.reason);
    EXPECT_EQ(r.epochs.size(), 1u);
}

TEST(RunRecorder, RunThatFailsBeforeStartingStillLeavesARecordSayingWhy) {
    TempDir dir;
    const std::string path = (dir.path() / "run.json").string();
    RunConfig config = tinySyntheticConfig(2);
    config.synthetic = false;
    config.dataDir = (dir.path() / "no-data").string();
    RunRecorder recorder(config, path);
    std::atomic<bool> stop{false};
    runTraining(config, recorder, stop);
    const RunRecord r = readRunRecord(path);
    EXPECT_EQ(r.status, "failed");
    EXPECT_NE(r.reason.find("no-data"), std::string::npos) << r.reason;
    EXPECT_EQ(r.data.variant, "cifar-10-binary");
    EXPECT_FALSE(r.fingerprint.hostName.empty());
}

// What a recorder tells the observer behind it.
class Downstream : public RecordObserver {
public:
    void onRecordStarted(const RunRecord &record) override {
        atStart = record;
        events.emplace_back("record started");
    }
    void onRunStarted(const RunStarted &) override { events.emplace_back("started"); }
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        steps.insert(steps.end(), losses.begin(), losses.end());
    }
    void onRunEnded(const RunOutcome &) override { events.emplace_back("ended"); }
    RunRecord atStart;
    std::vector<StepLoss> steps;
    std::vector<std::string> events;
};

TEST(RunRecorder, HandsOnEachStepWithItsRecordedSecondsAndTheRecordAtItsStart) {
    const RunConfig config = tinySyntheticConfig(2);
    Downstream downstream;
    RunRecorder recorder(config, std::string(), &downstream, "run-1");
    std::atomic<bool> stop{false};
    ASSERT_EQ(runTraining(config, recorder, stop).status, RunStatus::Finished);
    EXPECT_EQ(downstream.events, (std::vector<std::string>{"record started", "started", "ended"}))
        << "the final record is the run's result (RecordedRun), not an event";
    EXPECT_EQ(downstream.atStart.runId, "run-1");
    EXPECT_FALSE(downstream.atStart.fingerprint.hostName.empty()) << "taken before it is told";
    EXPECT_EQ(downstream.atStart.data.variant, "synthetic");
    EXPECT_TRUE(downstream.atStart.epochs.empty());
    const std::vector<TimedStepLoss> &recorded = recorder.record().steps;
    ASSERT_EQ(downstream.steps.size(), recorded.size());
    for (std::size_t i = 0; i < recorded.size(); ++i) {
        EXPECT_EQ(downstream.steps[i].step, recorded[i].step);
        EXPECT_EQ(downstream.steps[i].seconds, recorded[i].seconds) << "one clock per step";
        EXPECT_GT(downstream.steps[i].seconds, 0.0);
    }
}

TEST(RunRecorder, WriteFailureIsKeptAndTheRunGoesOn) {
    TempDir dir;
    const std::string path = (dir.path() / "missing" / "run.json").string();
    const RunConfig config = tinySyntheticConfig(2);
    RunRecorder recorder(config, path);
    std::atomic<bool> stop{false};
    const RunOutcome outcome = runTraining(config, recorder, stop);
    EXPECT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    EXPECT_EQ(outcome.epochs.size(), 2u);
    EXPECT_NE(recorder.writeError().find(path), std::string::npos) << recorder.writeError();
    EXPECT_EQ(recorder.record().status, "finished");
    EXPECT_EQ(recorder.record().epochs.size(), 2u);
}
