// SPDX-License-Identifier: MIT
// Data-parallel runs in the run record (docs/run-record.md, started.distributed and
// epochs[i].allReduceSeconds): written, read back exactly, optional for older records, checked.
#include "devicebench/run_record.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

// A record written before data-parallel runs existed (docs/examples).
const std::string kOlderRecord = std::string(DEVICEBENCH_EXAMPLES_DIR) + "/cpu-1-thread.json";

RunRecord jobRecord() {
    RunRecord r = readRunRecord(kOlderRecord);
    DistributedInfo &d = r.started.distributed;
    d.worldSize = 2;
    d.rank = 0;
    d.role = "job";
    d.backend = "gloo";
    d.jobId = "20261130T220000Z-host-a-0011aabb";
    d.perRankBatchSize = r.config.batchSize / 2;
    d.ranks = {{0, 0, "host-a", "cpu", 1, 1000, 250}, {1, 1, "host-a", "cpu", 1, 1000, 250}};
    for (EpochResult &e : r.epochs)
        e.allReduceSeconds = 0.125 * e.seconds;
    return r;
}

std::string messageOf(const std::string &json) {
    try {
        parseRunRecord(json, "runs/job.json");
    } catch (const RecordError &e) {
        return e.what();
    }
    return "(accepted)";
}

std::string replaced(std::string json, const std::string &from, const std::string &to) {
    const auto at = json.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        json.replace(at, from.size(), to);
    return json;
}

} // namespace

TEST(DistributedRecord, JobAndRankPlacementsRoundTripExactly) {
    const RunRecord original = jobRecord();
    const RunRecord back = parseRunRecord(toJson(original), "mem.json");
    const DistributedInfo &d = back.started.distributed;
    EXPECT_EQ(d.worldSize, 2);
    EXPECT_TRUE(d.isJob());
    EXPECT_EQ(d.backend, "gloo");
    EXPECT_EQ(d.jobId, original.started.distributed.jobId);
    EXPECT_EQ(d.perRankBatchSize, original.config.batchSize / 2);
    ASSERT_EQ(d.ranks.size(), 2U);
    EXPECT_EQ(d.ranks[1].rank, 1);
    EXPECT_EQ(d.ranks[1].localRank, 1);
    EXPECT_EQ(d.ranks[1].host, "host-a");
    EXPECT_EQ(d.ranks[1].device, "cpu");
    EXPECT_EQ(d.ranks[1].trainImages, 1000);
    EXPECT_EQ(d.ranks[1].testImages, 250);
    ASSERT_EQ(back.epochs.size(), original.epochs.size());
    for (std::size_t i = 0; i < back.epochs.size(); ++i)
        EXPECT_EQ(back.epochs[i].allReduceSeconds, original.epochs[i].allReduceSeconds);
}

TEST(DistributedRecord, RecordsWrittenBeforeDataParallelRunsReadAsSingleProcess) {
    const RunRecord older = readRunRecord(kOlderRecord);
    EXPECT_EQ(older.started.distributed.worldSize, 0);
    EXPECT_FALSE(older.started.distributed.isJob());
    for (const EpochResult &e : older.epochs)
        EXPECT_TRUE(std::isnan(e.allReduceSeconds));
    const std::string json = toJson(older);
    EXPECT_EQ(json.find("distributed"), std::string::npos) << "single-process: no key written";
    EXPECT_EQ(json.find("allReduceSeconds"), std::string::npos);
}

TEST(DistributedRecord, BadFieldsAreRefusedNamingTheField) {
    const std::string json = toJson(jobRecord());
    EXPECT_NE(messageOf(replaced(json, "\"role\": \"job\"", "\"role\": \"boss\""))
                  .find("field 'started.distributed.role' must be job or rank (got 'boss')"),
              std::string::npos);
    EXPECT_NE(messageOf(replaced(json, "\"worldSize\": 2", "\"worldSize\": 0"))
                  .find("field 'started.distributed.worldSize' is out of range (0)"),
              std::string::npos);
    EXPECT_NE(messageOf(replaced(json, "\"rank\": 1,", "\"rank\": 7,"))
                  .find("field 'started.distributed.ranks[1].rank' must be 1"),
              std::string::npos);
    EXPECT_NE(messageOf(replaced(json, "\"allReduceSeconds\": ", "\"allReduceSeconds\": -"))
                  .find("allReduceSeconds' must be 0 or more"),
              std::string::npos);
}

TEST(DistributedRecord, TheLaunchExamplesImportAsAOneAndATwoRankJobWithTheirRankRecords) {
    // docs/examples/data-parallel: what `launch --nproc-per-node 2 -- run ... --out-dir DIR`
    // wrote (the 1-rank reference job, then the 2-rank job), kept so that later versions
    // still import them.
    int jobs = 0;
    int ranks = 0;
    std::vector<int> worldSizes;
    for (const auto &entry : std::filesystem::directory_iterator(
             std::string(DEVICEBENCH_EXAMPLES_DIR) + "/data-parallel")) {
        const RunRecord r = readRunRecord(entry.path().string());
        const DistributedInfo &d = r.started.distributed;
        EXPECT_EQ(r.status, "finished") << entry.path();
        EXPECT_EQ(d.backend, "gloo");
        EXPECT_TRUE(d.weakScaling);
        EXPECT_EQ(static_cast<int>(d.ranks.size()), d.worldSize);
        if (d.isJob()) {
            ++jobs;
            worldSizes.push_back(d.worldSize);
        } else {
            ++ranks;
        }
    }
    std::sort(worldSizes.begin(), worldSizes.end());
    EXPECT_EQ(jobs, 2);
    EXPECT_EQ(ranks, 3);
    EXPECT_EQ(worldSizes, (std::vector<int>{1, 2}));
}
