// SPDX-License-Identifier: MIT
// JSON form of the fingerprint, shared by run records (run_record_json.cpp) and by
// `devicebench-cli devices --json` (devicesJson in devices.h, engine_device). Engine-internal
// (record; engine_device includes it too): it exposes nlohmann::json, which the engine
// libraries link privately.
//
// Shape (keys are the struct members' names, see fingerprint.h for units):
//   {"hostName": str, "os": str, "cpuModel": str, "physicalCores": int, "logicalCores": int,
//    "cpuQuota": str, "cpuQuotaCores": number, "affinity": str, "affinityCount": int,
//    "ompNumThreads": str, "intraOpThreads": int, "blasLibrary": str, "libtorchVersion": str,
//    "cudaBuilt": bool, "cudaRuntimeVersion": str, "cudnnVersion": str, "driverVersion": str,
//    "gpus": [{"index": int, "name": str, "computeMajor": int, "computeMinor": int,
//              "memoryBytes": int}],
//    "cudnnBenchmark": bool, "tf32Matmul": bool or null, "tf32Cudnn": bool or null,
//    "appVersion": str}
//   tf32Matmul and tf32Cudnn may be absent (records written before they were recorded).
#pragma once

#include "devicebench/fingerprint.h"

#include <nlohmann/json.hpp>

#include <string>

namespace devicebench {

nlohmann::json toJson(const Fingerprint &fingerprint);

// Reads the object written by toJson(Fingerprint). Every key is required. Throws RecordError
// (run_record.h) "<where>: field 'fingerprint.<key>' is missing" or "... must be <type>",
// e.g. "runs/a.json: field 'fingerprint.gpus[0].name' must be a string"; `where` names the
// source (normally the file). cpuQuotaCores must be finite and not negative.
Fingerprint fingerprintFromJson(const nlohmann::json &json, const std::string &where);

} // namespace devicebench
