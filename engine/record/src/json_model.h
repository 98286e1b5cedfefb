// SPDX-License-Identifier: MIT
// Engine-internal (record): the model fields of a run record (docs/run-record.md),
// written and read beside the other config and started fields by run_record_json.cpp:
//   config.model (string), config.imageSize (integer),
//   started.modelParameters (integer), started.multiplyAddsPerImage (integer);
// and a script run's model, the user's script: config.script (string), config.scriptArgs
// (array of strings), config.scriptHash (string), config.scriptStartSeconds (integer), written
// together when any is set; started.modelName (string), started.batchSize (integer), each
// written when set.
// All are optional when read: records written before they existed hold none of them.
#pragma once

#include "devicebench/run_types.h"
#include "json_field_reader.h"

#include <nlohmann/json.hpp>

#include <string>

namespace devicebench::detail {

// Adds "model" and "imageSize" to the config object `config`.
void writeModelConfig(nlohmann::ordered_json &config, const RunConfig &c);

// Adds "modelParameters" and "multiplyAddsPerImage" to the started object `started`.
void writeModelStarted(nlohmann::ordered_json &started, const RunStarted &s);

// Reads "model" and "imageSize" of the config object `config` into *c. Absent model: the
// record's top-level `topLevelModel` ("small-cnn" in every record written before), absent
// imageSize: 32. Any text is kept as the model (a record from another tool may name a model
// this version does not know; the comparison then says the runs differ). Throws RecordError
// naming the field when one is present with the wrong type.
void readModelConfig(const FieldReader &r, const nlohmann::json &config,
                     const std::string &topLevelModel, RunConfig *c);

// Reads "modelParameters" and "multiplyAddsPerImage" of the started object `started` into *s.
// Absent (older records): small-cnn at 32 x 32 that started (s->device not empty) gets its
// known counts, kSmallCnnParameters and kSmallCnnMultiplyAdds (run_types.h); anything else 0,
// unknown. Throws RecordError naming the field when one is present but not a whole number.
void readModelStarted(const FieldReader &r, const nlohmann::json &started, const RunConfig &c,
                      RunStarted *s);

} // namespace devicebench::detail
