// SPDX-License-Identifier: MIT
// Engine-internal (record): the JSON form of an epoch's phase times (PhaseTimes in
// run_types.h; docs/run-record.md, `epochs[i].phases`), for the run record codec
// (run_record_json.cpp).
//
// Shape: {"data": s, "forward": s, "loss": s, "backward": s, "optimizer": s, "test": s}, each
// a finite number of seconds, 0 or more. Written only when the phases were measured; absent
// (records of normal runs, and records written before phase timing) reads as not measured.
#pragma once

#include "json_field_reader.h"

#include "devicebench/run_types.h"

#include <nlohmann/json.hpp>

#include <string>

namespace devicebench::detail {

// The object above (keys in phaseFields() order).
nlohmann::ordered_json phasesJson(const PhaseTimes &phases);

// The epoch object `epoch`'s optional "phases" (its path `epochPath`, e.g. "epochs[2]"): not
// measured when absent. Throws RecordError naming the field, e.g. "<source>: field
// 'epochs[2].phases.forward' must be a finite number" or "... must be 0 or more (got -1)".
PhaseTimes readPhases(const FieldReader &reader, const nlohmann::json &epoch,
                      const std::string &epochPath);

} // namespace devicebench::detail
