// SPDX-License-Identifier: MIT
#include "devicebench/workloads.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace devicebench;

TEST(WorkloadTable, EveryWorkloadHasOneRowWithAUniqueName) {
    std::set<std::string> names;
    std::set<Workload> ids;
    for (const WorkloadRow &row : kWorkloads) {
        EXPECT_TRUE(names.insert(row.name).second) << row.name;
        EXPECT_TRUE(ids.insert(row.id).second) << row.name;
        EXPECT_EQ(&workloadRow(row.id), &row) << row.name;
        EXPECT_STRNE(row.label, "") << row.name;
        EXPECT_STRNE(row.help, "") << row.name;
    }
    for (Workload w : {Workload::Faithful, Workload::Tuned, Workload::ArticleScript,
                       Workload::Script, Workload::Speedrun})
        EXPECT_EQ(ids.count(w), 1u) << toString(w);
}

TEST(WorkloadTable, NamesParseBackToTheirRowAndUnknownNamesAreNull) {
    for (const WorkloadRow &row : kWorkloads) {
        Workload w = Workload::Faithful;
        ASSERT_TRUE(parseWorkload(row.name, &w)) << row.name;
        EXPECT_EQ(w, row.id);
        EXPECT_EQ(findWorkload(row.name), &row);
    }
    EXPECT_EQ(findWorkload("airbench-of-another-tool"), nullptr);
}

TEST(WorkloadTable, RowsSayWhereEachWorkloadTrainsAndWhatItReads) {
    // The records and the checks of earlier versions rest on these: a user's script trains in
    // a Python child on its own data and model and need not test; the article's script trains
    // in a Python child on CIFAR-10; the engine's two train in this process.
    const WorkloadRow &script = workloadRow(Workload::Script);
    EXPECT_TRUE(script.pythonChild());
    EXPECT_TRUE(script.userScript());
    EXPECT_TRUE(script.ownData);
    EXPECT_FALSE(script.engineModel);
    EXPECT_FALSE(script.alwaysTests);
    const WorkloadRow &article = workloadRow(Workload::ArticleScript);
    EXPECT_TRUE(article.pythonChild());
    EXPECT_FALSE(article.userScript());
    EXPECT_FALSE(article.ownData);
    for (Workload w : {Workload::Faithful, Workload::Tuned}) {
        EXPECT_FALSE(workloadRow(w).pythonChild()) << toString(w);
        EXPECT_TRUE(workloadRow(w).alwaysTests) << toString(w);
        EXPECT_FALSE(workloadRow(w).recipe()) << toString(w);
    }
    // The speedrun: a recipe in this process, on CIFAR-10, its own network, batch and target.
    const WorkloadRow &speedrun = workloadRow(Workload::Speedrun);
    EXPECT_FALSE(speedrun.pythonChild());
    EXPECT_TRUE(speedrun.recipe());
    EXPECT_FALSE(speedrun.ownData);
    EXPECT_STREQ(speedrun.recipeModel, "airbench94");
    EXPECT_EQ(speedrun.defaultBatchSize, 1024);
    EXPECT_DOUBLE_EQ(speedrun.defaultTargetPercent, 94.0);
}

TEST(WorkloadTable, ChoicesListTheRowsAFilterKeepsInTableOrder) {
    EXPECT_EQ(workloadChoices(), "faithful, tuned, article-script, script or speedrun");
    EXPECT_EQ(workloadChoices(trainsInEngine), "faithful, tuned or speedrun");
    EXPECT_EQ(workloadNames(trainsInEngineLoop), (std::vector<std::string>{"faithful", "tuned"}));
}
