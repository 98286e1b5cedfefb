// SPDX-License-Identifier: MIT
// Engine-internal (record): the JSON form of what the system sampler read (system_metrics.h;
// docs/run-record.md, `sampling`, `samples` and `epochs[i].system`), for the run record codec.
//
// An epoch's "system": {"samples": n, "processCores": {"mean": m, "peak": p}, ... (only the
// quantities read), "energy": {"gpu": {"method", "joules", "note"}, "cpu": {...}}}. The run's
// "sampling": {"periodSeconds": s, "notes": [...]}, and "samples" as columns of equal length,
// {"seconds": [...], "processCores": [...], ...}, a column only for a quantity read at least
// once (null where a reading is missing), rounded to what the sources resolve, so that a
// 10-epoch record stays small. All absent: not sampled (records written before sampling).
#pragma once

#include "json_field_reader.h"

#include "devicebench/system_metrics.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace devicebench::detail {

// Adds "system" to an epoch's object when it was sampled.
void writeEpochSystem(nlohmann::ordered_json &epochObject, const EpochSystem &system);
// The epoch's optional "system" (absent: not sampled). Throws RecordError naming the field:
// means and peaks 0 or more (utilisation at most 1), peak not below mean, joules 0 or more,
// a method this version knows.
EpochSystem readEpochSystem(const FieldReader &reader, const nlohmann::json &epochObject,
                            const std::string &path);

// Adds "sampling" and "samples" to the record's object when the run was sampled.
void writeSampling(nlohmann::ordered_json &record, const SamplingInfo &sampling,
                   const std::vector<SystemSample> &samples);
// The record's optional "sampling" and "samples"; columns of equal length, seconds 0 or more
// and not decreasing, readings 0 or more (or null), utilisation at most 1.
void readSampling(const FieldReader &reader, const nlohmann::json &record, SamplingInfo *sampling,
                  std::vector<SystemSample> *samples);

} // namespace devicebench::detail
