// SPDX-License-Identifier: MIT
// Comparability rules, speed-up with its interval, and the control check on test losses.
#include "devicebench/comparison.h"
#include "devicebench/run_set.h"

#include "devicebench/summary.h"

#include "log_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace devicebench;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

RunRecord baseRecord() {
    RunRecord r;
    r.config.device = "cpu";
    r.config.threads = 1;
    r.started.device = "cpu";
    r.started.threads = 1;
    r.data = {"/data/cifar", "cifar-10-binary", 50000, 10000, "0123456789abcdef"};
    r.fingerprint.hostName = "host-a";
    r.fingerprint.cpuModel = "Intel(R) Xeon(R) CPU @ 2.20GHz";
    return r;
}

std::vector<EpochResult> epochsWithTestLoss(const std::vector<double> &losses) {
    std::vector<EpochResult> epochs;
    for (std::size_t i = 0; i < losses.size(); ++i) {
        EpochResult e;
        e.epoch = static_cast<int>(i) + 1;
        e.seconds = 1.0;
        e.testLoss = losses[i];
        epochs.push_back(e);
    }
    return epochs;
}

} // namespace

TEST(WorkloadDifferences, BatchSizeDifferenceIsNamed) {
    RunRecord a = baseRecord(), b = baseRecord();
    b.config.batchSize = a.config.batchSize * 2;
    EXPECT_EQ(workloadDifferences(a, b), std::vector<std::string>{"batch size"});
}

TEST(WorkloadDifferences, HardwareThreadsSeedAndWarmupDoNotMatter) {
    RunRecord a = baseRecord(), b = baseRecord();
    b.config.threads = 8;
    b.started.threads = 8;
    b.config.device = b.started.device = "cuda:0";
    b.config.seed = 42;
    b.config.warmupEpochs = 0;
    b.fingerprint.hostName = "host-b";
    b.data.path = "/elsewhere/cifar"; // same files in another folder
    EXPECT_TRUE(workloadDifferences(a, b).empty());
}

TEST(WorkloadDifferences, EveryWorkloadFieldIsNamedInOrder) {
    RunRecord a = baseRecord(), b = baseRecord();
    b.model = "deep-cnn";
    b.config.batchSize = 128;
    b.config.learningRate = 0.02;
    b.config.epochs = 3;
    b.data.contentHash = "fedcba9876543210";
    b.data.trainImages = 1000;
    b.data.testImages = 100;
    b.precision = "float16";
    b.workload = "tuned";
    const std::vector<std::string> expected = {"model",       "batch size", "learning rate",
                                               "epochs",      "data set",   "training images",
                                               "test images", "precision",  "workload"};
    EXPECT_EQ(workloadDifferences(a, b), expected);
}

TEST(WorkloadDifferences, DataHeldOnTheDeviceIsNamed) {
    RunRecord a = baseRecord(), b = baseRecord();
    b.config.dataOnDevice = true;
    EXPECT_EQ(workloadDifferences(a, b), std::vector<std::string>{"data on device"});
}

TEST(WorkloadDifferences, SyntheticAgainstRealDataIsAnotherDataSet) {
    RunRecord a = baseRecord(), b = baseRecord();
    b.data.variant = "synthetic";
    b.data.path = "";
    b.data.contentHash = "";
    EXPECT_EQ(workloadDifferences(a, b), std::vector<std::string>{"data set"});
}

TEST(WorkloadDifferences, LossFetchIntervalOneAgainstFiftyIsNotComparableAndNamed) {
    RunRecord a = baseRecord(), b = baseRecord();
    a.config.lossFetchInterval = 1;
    b.config.lossFetchInterval = 50;
    EXPECT_EQ(workloadDifferences(a, b), std::vector<std::string>{"loss fetch interval"});
}

TEST(ComparisonRules, Bf16AndFp32RunsAreNotComparableAndTheReasonNamesPrecision) {
    RunRecord a = baseRecord(), b = baseRecord();
    b.config.precision = Precision::BFloat16;
    b.precision = toString(b.config.precision);
    EXPECT_EQ(workloadDifferences(a, b), std::vector<std::string>{"precision"});
    a.config.precision = Precision::BFloat16;
    a.precision = b.precision;
    EXPECT_TRUE(workloadDifferences(a, b).empty()) << "two bf16 runs compare";
}

TEST(ComparisonRules, ARecordOfAnUnknownPrecisionIsNeverComparableNotEvenWithItsTwin) {
    RunRecord a = baseRecord(), b = baseRecord();
    a.precision = b.precision = "float8_e4m3";
    EXPECT_EQ(workloadDifferences(a, b), std::vector<std::string>{"precision"});
    EXPECT_EQ(workloadDifferences(a, baseRecord()), std::vector<std::string>{"precision"});
}

TEST(ComparisonRules, ABaselineOfAnUnknownPrecisionIsNotComparableEither) {
    RunSet set;
    RunRecord unknown = baseRecord();
    unknown.precision = "float8";
    unknown.runId = "u";
    unknown.epochs = epochsWithTestLoss({1.0, 1.0});
    unknown.config.warmupEpochs = 0; // stable epochs: a baseline needs a stable mean
    RunRecord fp32 = baseRecord();
    fp32.runId = "f";
    fp32.epochs = epochsWithTestLoss({1.0, 1.0});
    fp32.config.warmupEpochs = 0;
    const int unknownId = set.run(set.addRecord(unknown, "u.json")).id;
    const int fp32Id = set.run(set.addRecord(fp32, "f.json")).id;
    set.setBaseline(unknownId);
    EXPECT_TRUE(set.run(0).isBaseline);
    EXPECT_FALSE(set.run(0).comparable()) << "the baseline itself";
    EXPECT_FALSE(set.run(1).comparable());
    set.setBaseline(fp32Id);
    EXPECT_TRUE(set.run(1).isBaseline);
    EXPECT_TRUE(set.run(1).comparable()) << "an fp32 baseline is";
}

TEST(ComparisonRules, TheLabelNamesAPrecisionOtherThanFp32) {
    RunRecord r = baseRecord();
    EXPECT_EQ(runLabel(r).find("bf16"), std::string::npos);
    r.precision = "bfloat16";
    EXPECT_NE(runLabel(r).find(" bf16"), std::string::npos) << runLabel(r);
    r.precision = "float8_e4m3";
    EXPECT_NE(runLabel(r).find(" precision 'float8_e4m3'"), std::string::npos) << runLabel(r);
    r.precision = "bf16"; // a short name is not a record's text: unknown, and labelled so
    EXPECT_NE(runLabel(r).find(" precision 'bf16'"), std::string::npos) << runLabel(r);
}

TEST(ComparisonRules, EveryRunConfigFieldHasExactlyOneRow) {
    std::set<std::string> configFields;
    for (const ComparisonRule &rule : comparisonRules()) {
        if (rule.configField) {
            EXPECT_TRUE(configFields.insert(rule.field).second) << rule.field << " twice";
        }
        EXPECT_NE(std::string(rule.why), "") << rule.field;
        EXPECT_EQ(rule.differs == nullptr, rule.differenceName == nullptr) << rule.field;
        EXPECT_NE(rule.vary, nullptr) << rule.field;
    }
    EXPECT_EQ(configFields.size(), runConfigFieldCount())
        << "a RunConfig member without a row: decide whether it is compared";
    EXPECT_EQ(configFields.count("lossFetchInterval"), 1U);
}

TEST(ComparisonRules, EachRowNoticesItsOwnFieldAndNoOther) {
    for (const ComparisonRule &rule : comparisonRules()) {
        const RunRecord a = baseRecord();
        RunRecord b = baseRecord();
        rule.vary(b);
        EXPECT_NE(toJson(a), toJson(b)) << rule.field << ": vary() must change the record";
        const std::vector<std::string> expected =
            rule.differenceName == nullptr ? std::vector<std::string>{}
                                           : std::vector<std::string>{rule.differenceName};
        EXPECT_EQ(workloadDifferences(a, b), expected) << rule.field;
        EXPECT_EQ(workloadDifferences(b, a), expected) << rule.field;
    }
}

TEST(CompareData, OlderAndNewerHashesAreNeitherEqualNorDifferentButUnknown) {
    RunRecord older = baseRecord(), newer = baseRecord();
    newer.data.contentHash = "xxh3-128:0123456789abcdef0123456789abcdef";
    EXPECT_EQ(compareData(older, newer), DataMatch::Unknown);
    EXPECT_EQ(
        workloadDifferences(older, newer),
        std::vector<std::string>{"data set (identity unknown: a record from an older version)"});
    RunRecord none = baseRecord();
    none.data.contentHash = "";
    EXPECT_EQ(compareData(none, newer), DataMatch::Unknown) << "real data without a hash";
}

TEST(CompareData, TwoOlderRecordsWithTheSameHashStayComparableWithANote) {
    const RunRecord a = baseRecord(), b = baseRecord();
    EXPECT_EQ(compareData(a, b), DataMatch::SameByOlderMethod);
    EXPECT_TRUE(workloadDifferences(a, b).empty());
    EXPECT_NE(dataNote(DataMatch::SameByOlderMethod).find("first 4 KiB"), std::string::npos);
}

TEST(CompareData, WholeFileHashesDecideAndSyntheticDataIsTheSameData) {
    RunRecord a = baseRecord(), b = baseRecord();
    a.data.contentHash = "xxh3-128:0123456789abcdef0123456789abcdef";
    b.data.contentHash = a.data.contentHash;
    EXPECT_EQ(compareData(a, b), DataMatch::Same);
    b.data.contentHash = "xxh3-128:0123456789abcdef0123456789abcdee";
    EXPECT_EQ(compareData(a, b), DataMatch::Different);
    EXPECT_EQ(workloadDifferences(a, b), std::vector<std::string>{"data set"});
    a.data = b.data = {"", "synthetic", 100, 10, ""};
    EXPECT_EQ(compareData(a, b), DataMatch::Same);
}

using devicebench::testing::logMeanAndVariance;

TEST(SpeedUp, RatioOfStableMeansWithAWelchIntervalOnTheLogOfTheTimes) {
    // Baseline stable epochs 10, 12, 14; run 5, 6, 7 (after one warm-up epoch each).
    const Summary base = summarize(std::vector<double>{30.0, 10.0, 12.0, 14.0}, 1, 1.0);
    const Summary run = summarize(std::vector<double>{9.0, 5.0, 6.0, 7.0}, 1, 1.0);
    const auto [mb, varb] = logMeanAndVariance({10.0, 12.0, 14.0});
    const auto [mr, varr] = logMeanAndVariance({5.0, 6.0, 7.0});
    const double vb = varb / 3.0, vr = varr / 3.0;
    const double df = (vb + vr) * (vb + vr) / (vb * vb / 2.0 + vr * vr / 2.0);
    EXPECT_NEAR(welchDegreesOfFreedom(base, run), df, 1e-12);
    const double t = studentT975(static_cast<int>(std::floor(df)));
    const SpeedUp s = speedUp(base, run);
    EXPECT_DOUBLE_EQ(s.ratio, 2.0);
    EXPECT_NEAR(s.low, std::exp(mb - mr - t * std::sqrt(vb + vr)), 1e-12);
    EXPECT_NEAR(s.high, std::exp(mb - mr + t * std::sqrt(vb + vr)), 1e-12);
    EXPECT_LT(s.low, s.ratio);
    EXPECT_GT(s.high, s.ratio);
}

// With the arithmetic intervals this speed-up interval started at 0.00.
TEST(SpeedUp, IntervalOfSkewedEpochsHasALowerBoundAboveZero) {
    const Summary base = summarize(std::vector<double>{1.0, 9.0, 1.0, 9.0}, 0, 1.0);
    const Summary run = summarize(std::vector<double>{2.0, 2.2, 1.9, 2.1}, 0, 1.0);
    const SpeedUp s = speedUp(base, run);
    EXPECT_GT(s.low, 0.0);
    EXPECT_TRUE(std::isfinite(s.high));
    EXPECT_LT(s.low, s.high);
    const SpeedUp reverse = speedUp(run, base);
    EXPECT_GT(reverse.low, 0.0);
    EXPECT_TRUE(std::isfinite(reverse.high));
}

TEST(SpeedUp, FewerThanTwoStableEpochsGiveNaNEndsButAKnownRatio) {
    const Summary one = summarize(std::vector<double>{30.0, 20.0}, 1, 1.0);
    const Summary run = summarize(std::vector<double>{9.0, 5.0, 6.0, 7.0}, 1, 1.0);
    const SpeedUp s = speedUp(one, run);
    EXPECT_DOUBLE_EQ(s.ratio, 20.0 / 6.0);
    EXPECT_TRUE(std::isnan(s.low));
    EXPECT_TRUE(std::isnan(s.high));
}

TEST(SpeedUp, EpochsThatAllTookTheSameTimeGiveAPointInterval) {
    const Summary base = summarize(std::vector<double>{4.0, 4.0, 4.0}, 0, 1.0);
    const Summary run = summarize(std::vector<double>{2.0, 2.0, 2.0}, 0, 1.0);
    const SpeedUp s = speedUp(base, run);
    EXPECT_DOUBLE_EQ(s.ratio, 2.0);
    EXPECT_NEAR(s.low, 2.0, 1e-12);
    EXPECT_NEAR(s.high, 2.0, 1e-12);
}

TEST(SpeedUp, NoStableEpochsGivesNaN) {
    Summary none;
    none.hasStable = false;
    const SpeedUp s = speedUp(summarize(std::vector<double>{1.0, 2.0, 3.0}, 0, 1.0), none);
    EXPECT_TRUE(std::isnan(s.ratio));
    EXPECT_TRUE(std::isnan(s.low));
    EXPECT_TRUE(std::isnan(s.high));
}

TEST(MaxTestLossDifference, LargestOverTheEpochsBothFinished) {
    RunRecord a = baseRecord(), b = baseRecord();
    a.epochs = epochsWithTestLoss({2.0, 1.5, 1.25});
    b.epochs = epochsWithTestLoss({2.0005, 1.4});
    EXPECT_NEAR(maxTestLossDifference(a, b), 0.1, 1e-12);
    EXPECT_NEAR(maxTestLossDifference(b, a), 0.1, 1e-12);
}

TEST(MaxTestLossDifference, NaNWithoutACommonEpoch) {
    RunRecord a = baseRecord(), b = baseRecord();
    a.epochs = epochsWithTestLoss({2.0});
    EXPECT_TRUE(std::isnan(maxTestLossDifference(a, b)));
}

TEST(MaxTestLossDifference, DivergedEpochIsAnInfiniteDifference) {
    RunRecord a = baseRecord(), b = baseRecord();
    a.status = "diverged";
    a.epochs = epochsWithTestLoss({2.0, kNaN});
    b.epochs = epochsWithTestLoss({2.0, 1.9});
    const double d = maxTestLossDifference(a, b);
    EXPECT_TRUE(std::isinf(d));
    EXPECT_GT(d, kTestLossWarning);
}

TEST(MaxTestLossDifference, ATestLossNotReportedIsNoDifferenceAndNoVerdict) {
    // two script runs that report accuracy but no test loss (null: NaN), finished
    RunRecord a = baseRecord(), b = baseRecord();
    a.status = b.status = "finished";
    a.workload = b.workload = "script";
    a.epochs = epochsWithTestLoss({kNaN, kNaN});
    b.epochs = epochsWithTestLoss({kNaN, kNaN});
    EXPECT_TRUE(std::isnan(maxTestLossDifference(a, b))) << "not reported, not infinite";
    b.epochs = epochsWithTestLoss({2.0, 1.5}); // one reports, the other does not
    EXPECT_TRUE(std::isnan(maxTestLossDifference(a, b)));
    a.epochs = epochsWithTestLoss({kNaN, 1.5}); // the epochs both report are compared
    EXPECT_DOUBLE_EQ(maxTestLossDifference(a, b), 0.0);
    EXPECT_FALSE(hasTestLoss(a, a.epochs[0]));
    a.status = "diverged";
    EXPECT_TRUE(hasTestLoss(a, a.epochs[0])) << "a diverged run's loss is compared (infinite)";
}

TEST(RunLabel, IsTheMachineLabelOfTheDeviceAndThreadsTheRunUsed) {
    RunRecord r = baseRecord();
    r.config.threads = 0; // "all cores": the label shows what was used
    r.started.threads = 4;
    EXPECT_EQ(runLabel(r), machineLabel(r.fingerprint, "cpu", 4));
    EXPECT_NE(runLabel(r).find("host-a"), std::string::npos) << runLabel(r);
}
