// SPDX-License-Identifier: MIT
// Data-parallel job records made from a single-process example record (docs/examples), as
// rank 0 of a job writes them (run_types.h, DistributedInfo): the same workload (the
// global batch is the example's batch size, the image counts the whole job's), epochs that
// took `1 / speedUp` of the example's, and a share of each epoch in all-reduce. For the
// comparison, scaling and dashboard tests; no training.
#pragma once

#include "devicebench/run_record.h"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace devicebench::test {

// The example record `name` (e.g. "cpu-1-thread.json") of docs/examples.
inline RunRecord exampleRecord(const std::string &name) {
    return readRunRecord(std::string(DEVICEBENCH_EXAMPLES_DIR) + "/" + name);
}

// The job record of a `worldSize`-rank job of `base`'s workload on `base`'s device, one rank per
// host of `hosts` in turn, each with `base`'s threads: every epoch `speedUp` times as fast as
// base's, `allReduceShare` of it in all-reduce (NaN: none recorded).
inline RunRecord jobRecordFrom(const RunRecord &base, int worldSize, double speedUp,
                               double allReduceShare = 0.1, const std::string &backend = "gloo",
                               const std::vector<std::string> &hosts = {"host-a"}) {
    RunRecord r = base;
    const std::string suffix = "-job" + std::to_string(worldSize) + "-" + backend + "-x" +
                               std::to_string(static_cast<int>(std::lround(speedUp * 1000)));
    r.runId = base.runId + suffix;
    DistributedInfo &d = r.started.distributed;
    d.worldSize = worldSize;
    d.rank = 0;
    d.role = "job";
    d.backend = backend;
    d.jobId = "job" + suffix;
    d.perRankBatchSize = r.config.batchSize / worldSize;
    d.ranks.clear();
    for (int rank = 0; rank < worldSize; ++rank) {
        const std::string &host = hosts[static_cast<std::size_t>(rank) % hosts.size()];
        const int local = rank / static_cast<int>(hosts.size());
        const std::string device =
            base.started.device == "cpu" ? std::string("cpu") : "cuda:" + std::to_string(local);
        d.ranks.push_back({rank, local, host, device, base.started.threads,
                           base.started.trainImages / worldSize,
                           base.started.testImages / worldSize});
    }
    r.fingerprint.hostName = hosts.front();
    for (EpochResult &e : r.epochs) {
        e.seconds /= speedUp;
        e.imagesPerSecond *= speedUp;
        e.allReduceSeconds = allReduceShare * e.seconds;
    }
    return r;
}

// Rank `rank`'s own record of the job whose job record is `job`: the same workload and epochs
// (its clock here: the job's), role "rank".
inline RunRecord rankRecordOf(const RunRecord &job, int rank) {
    RunRecord r = job;
    r.runId = job.runId + "-rank" + std::to_string(rank);
    r.started.distributed.role = "rank";
    r.started.distributed.rank = rank;
    r.fingerprint.hostName = job.started.distributed.ranks[static_cast<std::size_t>(rank)].host;
    return r;
}

} // namespace devicebench::test
