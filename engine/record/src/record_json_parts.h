// SPDX-License-Identifier: MIT
// Pieces of a run record's JSON (run_record_json.cpp), for the event lines of a child run
// (run_events.cpp): config, started and one epoch, written and read exactly as a record holds
// them. Readers throw RecordError naming the field (FieldReader).
#pragma once

#include "devicebench/run_types.h"
#include "json_field_reader.h"

#include <nlohmann/json.hpp>

#include <string>

namespace devicebench::detail {

nlohmann::ordered_json configPart(const RunConfig &config);
nlohmann::ordered_json startedPart(const RunStarted &started);
nlohmann::ordered_json epochPart(const EpochResult &epoch);

// `model`: used when the config object has none (readModelConfig).
RunConfig readConfigPart(const FieldReader &reader, const nlohmann::json &config,
                         const std::string &model);
RunStarted readStartedPart(const FieldReader &reader, const nlohmann::json &started,
                           const RunConfig &config);
EpochResult readEpochPart(const FieldReader &reader, const nlohmann::json &epoch);

} // namespace devicebench::detail
