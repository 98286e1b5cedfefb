// SPDX-License-Identifier: MIT
// Reproducing the article (reproduction.h): the runs "Reproduce the article" makes, and the
// ratio of the two programs, found only for a script run and a faithful run that differ in
// nothing but the program.
#include "record_builder.h"

#include "devicebench/reproduction.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace devicebench {
namespace {

PublishedSet articleLike() {
    PublishedSet set;
    set.source.program = kArticleScriptWorkload;
    set.source.shortName = "article";
    set.rows.push_back({"Tesla T4", "cuda", "Kaggle notebook", 11.82, {}});
    return set;
}

RunRecord onHost(RunRecord r, const std::string &cpu, int threads) {
    r.fingerprint.hostName = "host-a";
    r.fingerprint.cpuModel = cpu;
    r.started.threads = threads;
    r.data = {"/data/cifar", "cifar-10-binary", 50000, 10000, "0123456789abcdef"};
    return r;
}

RunSet storeOf(const std::vector<RunRecord> &records) {
    RunSet store;
    for (const RunRecord &r : records)
        store.addRecord(r, r.runId + ".json");
    return store;
}

TEST(ReproductionRuns, EachDeviceGetsTheScriptThenTheFaithfulWorkloadAtThePublishedSettings) {
    RunConfig base;
    base.dataDir = "/data/bin";
    base.python = "/venv/bin/python";
    base.batchSize = 128; // the published settings win over the base's
    base.synthetic = true;
    base.trainImages = 500;
    const std::vector<RunConfig> runs = reproductionRuns(articleLike(), base, {"cpu", "cuda:0"});
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[0].workload, Workload::ArticleScript);
    EXPECT_EQ(runs[1].workload, Workload::Faithful);
    EXPECT_EQ(runs[0].device, "cpu");
    EXPECT_EQ(runs[3].device, "cuda:0");
    for (const RunConfig &c : runs) {
        EXPECT_EQ(c.batchSize, 64);
        EXPECT_EQ(c.epochs, 10);
        EXPECT_EQ(c.warmupEpochs, 2);
        EXPECT_EQ(c.trainImages, 0);
        EXPECT_FALSE(c.synthetic);
        EXPECT_EQ(c.dataDir, "/data/bin");
    }
    EXPECT_EQ(runs[0].python, "/venv/bin/python");
    EXPECT_EQ(runs[1].python, "") << "the engine's run records no Python";
}

TEST(ArticleSet, IsTheSetWhoseProgramIsTheScript) {
    PublishedSet other = articleLike();
    other.source.program = "another-tool";
    const std::vector<PublishedSet> sets = {other, articleLike()};
    EXPECT_EQ(articleSet(sets), &sets[1]);
    EXPECT_EQ(articleSet({other}), nullptr);
}

TEST(ProgramRatios, AFaithfulRunOfTheSameSettingsOnTheSameCpuGivesTheRatioAndItsLine) {
    const RunSet store =
        storeOf({onHost(testing::articleSettingsRun("s", "article-script", 20.0), "EPYC", 2),
                 onHost(testing::articleSettingsRun("f", "faithful", 16.0), "EPYC", 2)});
    const std::vector<ProgramRatio> ratios = programRatios(store);
    ASSERT_EQ(ratios.size(), 1u);
    EXPECT_EQ(ratios[0].scriptIndex, 0);
    EXPECT_EQ(ratios[0].faithfulIndex, 1);
    EXPECT_DOUBLE_EQ(ratios[0].ratio, 0.8);
    EXPECT_NE(ratios[0].line.find("DeviceBench's faithful workload: 0.80 x the article's script"),
              std::string::npos)
        << ratios[0].line;
    EXPECT_NE(ratios[0].line.find("EPYC"), std::string::npos) << ratios[0].line;
    EXPECT_NE(ratios[0].line.find("#2 against #1"), std::string::npos) << ratios[0].line;
}

TEST(ProgramRatios, AnotherMachineThreadCountSettingOrProgramGivesNoRatio) {
    const RunRecord script =
        onHost(testing::articleSettingsRun("s", "article-script", 20.0), "EPYC", 2);
    RunRecord otherCpu = onHost(testing::articleSettingsRun("a", "faithful", 16.0), "Xeon", 2);
    RunRecord otherThreads = onHost(testing::articleSettingsRun("b", "faithful", 16.0), "EPYC", 1);
    RunRecord otherBatch = onHost(testing::articleSettingsRun("c", "faithful", 16.0), "EPYC", 2);
    otherBatch.config.batchSize = 128;
    RunRecord tuned = onHost(testing::articleSettingsRun("d", "tuned", 12.0), "EPYC", 2);
    EXPECT_TRUE(
        programRatios(storeOf({script, otherCpu, otherThreads, otherBatch, tuned})).empty());
}

TEST(ProgramRatios, EachScriptRunIsPairedWithItsNearestTwinAndEachTwinOnce) {
    // A reproduction on one CPU twice: script, faithful, script, faithful.
    const RunSet store =
        storeOf({onHost(testing::articleSettingsRun("s1", "article-script", 20.0), "EPYC", 2),
                 onHost(testing::articleSettingsRun("f1", "faithful", 18.0), "EPYC", 2),
                 onHost(testing::articleSettingsRun("s2", "article-script", 20.0), "EPYC", 2),
                 onHost(testing::articleSettingsRun("f2", "faithful", 15.0), "EPYC", 2)});
    const std::vector<ProgramRatio> ratios = programRatios(store);
    ASSERT_EQ(ratios.size(), 2u);
    EXPECT_EQ(ratios[0].faithfulIndex, 1);
    EXPECT_DOUBLE_EQ(ratios[0].ratio, 0.9);
    EXPECT_EQ(ratios[1].faithfulIndex, 3);
    EXPECT_DOUBLE_EQ(ratios[1].ratio, 0.75);
}

} // namespace
} // namespace devicebench
