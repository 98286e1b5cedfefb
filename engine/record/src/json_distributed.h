// SPDX-License-Identifier: MIT
// Engine-internal (record): the JSON form of a data-parallel run's DistributedInfo
// (run_types.h; docs/run-record.md, `started.distributed`), for the run record codec
// (run_record_json.cpp).
//
// Shape: {"worldSize": n, "rank": r, "role": "job"|"rank", "backend": "gloo"|"nccl",
// "jobId": "...", "perRankBatchSize": b, "ranks": [{"rank", "localRank", "host", "device",
// "threads", "trainImages", "testImages"}, ...]}. Written only for data-parallel runs
// (worldSize >= 1); absent (single-process runs, records written before data-parallel runs existed)
// reads as worldSize 0.
#pragma once

#include "json_field_reader.h"

#include "devicebench/run_types.h"

#include <nlohmann/json.hpp>

#include <string>

namespace devicebench::detail {

// The object above.
nlohmann::ordered_json distributedJson(const DistributedInfo &info);

// The started object's optional "distributed" (`startedPath` is "started"). Throws RecordError
// naming the field, e.g. "<source>: field 'started.distributed.rank' is out of range (2)" when
// rank is not below worldSize, role is not "job" or "rank", or ranks[] does not hold ranks
// 0..worldSize-1 in order.
DistributedInfo readDistributed(const FieldReader &reader, const nlohmann::json &started,
                                const std::string &startedPath);

} // namespace devicebench::detail
