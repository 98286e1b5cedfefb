// SPDX-License-Identifier: MIT
// Engine-internal (record): one epoch of a run record as JSON (EpochResult in run_types.h;
// docs/run-record.md, `epochs[i]`), for the record codec (run_record_json.cpp) and a child
// run's event lines (record_json_parts.h). NaN and inf are written as null; the optional parts
// (the machine's load, phases, all-reduce, loss scaler, start time, canary, system readings)
// are absent when not measured, and read back as not measured, so older records import.
#pragma once

#include "json_field_reader.h"

#include "devicebench/run_types.h"

#include <nlohmann/json.hpp>

#include <string>

namespace devicebench::detail {

// The epoch object, fields in the documented order.
nlohmann::ordered_json epochJson(const EpochResult &epoch);

// The epoch object `epoch` at path `epochPath` ("epochs[2]"), read strictly. Throws
// RecordError naming the field, e.g. "<source>: field 'epochs[2].seconds' must be a finite
// number".
EpochResult readEpoch(const FieldReader &reader, const nlohmann::json &epoch,
                      const std::string &epochPath);

} // namespace devicebench::detail
