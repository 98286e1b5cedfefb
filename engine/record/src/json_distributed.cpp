// SPDX-License-Identifier: MIT
#include "json_distributed.h"

#include <cstddef>
#include <limits>

namespace devicebench::detail {

nlohmann::ordered_json distributedJson(const DistributedInfo &info) {
    nlohmann::ordered_json j;
    j["worldSize"] = info.worldSize;
    j["rank"] = info.rank;
    j["role"] = info.role;
    j["backend"] = info.backend;
    j["jobId"] = info.jobId;
    j["perRankBatchSize"] = info.perRankBatchSize;
    j["scaling"] = info.weakScaling ? "weak" : "strong";
    nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
    for (const RankPlacement &p : info.ranks) {
        nlohmann::ordered_json o;
        o["rank"] = p.rank;
        o["localRank"] = p.localRank;
        o["host"] = p.host;
        o["device"] = p.device;
        o["threads"] = p.threads;
        o["trainImages"] = p.trainImages;
        o["testImages"] = p.testImages;
        ranks.push_back(std::move(o));
    }
    j["ranks"] = std::move(ranks);
    return j;
}

DistributedInfo readDistributed(const FieldReader &reader, const nlohmann::json &started,
                                const std::string &startedPath) {
    DistributedInfo info;
    if (!started.contains("distributed"))
        return info;
    const std::string p = FieldReader::join(startedPath, "distributed");
    const nlohmann::json &o = reader.object(started, "distributed", startedPath);
    constexpr int kMaxInt = std::numeric_limits<int>::max();
    info.worldSize = static_cast<int>(reader.int64(o, "worldSize", p, 1, kMaxInt));
    info.rank = static_cast<int>(reader.int64(o, "rank", p, 0, info.worldSize - 1));
    info.role = reader.string(o, "role", p);
    if (info.role != "job" && info.role != "rank")
        reader.fail(FieldReader::join(p, "role"), "must be job or rank (got '" + info.role + "')");
    info.backend = reader.string(o, "backend", p);
    info.jobId = reader.string(o, "jobId", p);
    info.perRankBatchSize = reader.int64(o, "perRankBatchSize", p, 0);
    if (o.contains("scaling")) {
        const std::string scaling = reader.string(o, "scaling", p);
        if (scaling != "weak" && scaling != "strong")
            reader.fail(FieldReader::join(p, "scaling"),
                        "must be weak or strong (got '" + scaling + "')");
        info.weakScaling = scaling == "weak";
    }
    const nlohmann::json &ranks = reader.array(o, "ranks", p);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const std::string rp = FieldReader::join(p, "ranks[" + std::to_string(i) + "]");
        if (!ranks[i].is_object())
            reader.fail(rp, "must be an object");
        RankPlacement placement;
        placement.rank = static_cast<int>(reader.int64(ranks[i], "rank", rp, 0, kMaxInt));
        if (placement.rank != static_cast<int>(i) || placement.rank >= info.worldSize)
            reader.fail(FieldReader::join(rp, "rank"),
                        "must be " + std::to_string(i) + ", below worldSize " +
                            std::to_string(info.worldSize) + " (got " +
                            std::to_string(placement.rank) + ")");
        placement.localRank = static_cast<int>(reader.int64(ranks[i], "localRank", rp, 0, kMaxInt));
        placement.host = reader.string(ranks[i], "host", rp);
        placement.device = reader.string(ranks[i], "device", rp);
        placement.threads = static_cast<int>(reader.int64(ranks[i], "threads", rp, 0, kMaxInt));
        placement.trainImages = reader.int64(ranks[i], "trainImages", rp, 0);
        placement.testImages = reader.int64(ranks[i], "testImages", rp, 0);
        info.ranks.push_back(std::move(placement));
    }
    return info;
}

} // namespace devicebench::detail
