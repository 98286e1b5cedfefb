// SPDX-License-Identifier: MIT
// Engine-internal (record): the JSON form of the canary (CanaryTime, run_types.h;
// docs/run-record.md, `started.canary` and `epochs[i].canary`) and of an epoch's drift fields,
// for the run record codec (run_record_json.cpp).
//
// Shape: {"seconds": s, "runThreadsSeconds": s or null, "noise": fraction}; an epoch adds
// "canaryChange" (a fraction or null) and "speedChanged" (boolean) beside it. Written only when
// measured; absent (records written before the canary) reads as not measured, not flagged.
#pragma once

#include "json_field_reader.h"

#include "devicebench/run_types.h"

#include <nlohmann/json.hpp>

#include <string>

namespace devicebench::detail {

// Adds "canary" (and, for an epoch, "canaryChange", "speedChanged") to `object` when measured.
void writeCanary(nlohmann::ordered_json &object, const CanaryTime &canary);
void writeEpochCanary(nlohmann::ordered_json &epochObject, const EpochResult &epoch);

// `object`'s optional "canary" (its path `path`, e.g. "started" or "epochs[2]"). Throws
// RecordError naming the field: seconds above 0, runThreadsSeconds above 0 or null, noise 0
// or more.
CanaryTime readCanary(const FieldReader &reader, const nlohmann::json &object,
                      const std::string &path);
// The epoch's canary and its drift fields into `epoch`.
void readEpochCanary(const FieldReader &reader, const nlohmann::json &epochObject,
                     const std::string &path, EpochResult &epoch);

} // namespace devicebench::detail
