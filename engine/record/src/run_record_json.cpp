// SPDX-License-Identifier: MIT
// Run records (docs/run-record.md): the JSON text, written in the documented field order and
// read strictly (every error names the source and the field).
#include "devicebench/json_error.h"
#include "devicebench/precision_text.h"
#include "devicebench/run_record.h"
#include "devicebench/time_to_target.h"

#include "json_canary.h"
#include "json_distributed.h"
#include "json_epoch.h"
#include "json_field_reader.h"
#include "json_fingerprint.h"
#include "json_model.h"
#include "json_phases.h"
#include "json_system.h"
#include "record_json_parts.h"
#include "script_settings.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

using Json = nlohmann::json;
using detail::FieldReader;
using OrderedJson = nlohmann::ordered_json; // keeps the documented field order in files

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::array<const char *, 5> kStatuses = {"running", "finished", "cancelled", "diverged",
                                                   "failed"};

// ---- writing ---------------------------------------------------------------------------------

OrderedJson configJson(const RunConfig &c) {
    OrderedJson j;
    j["device"] = c.device;
    j["epochs"] = c.epochs;
    j["batchSize"] = c.batchSize;
    j["learningRate"] = c.learningRate;
    j["warmupEpochs"] = c.warmupEpochs;
    j["threads"] = c.threads;
    j["seed"] = c.seed;
    j["dataDir"] = c.dataDir;
    j["synthetic"] = c.synthetic;
    j["trainImages"] = c.trainImages;
    j["testImages"] = c.testImages;
    j["lossFetchInterval"] = c.lossFetchInterval;
    j["dataOnDevice"] = c.dataOnDevice;
    detail::writeModelConfig(j, c);
    j["phases"] = c.phases;
    j["tf32"] = toString(c.tf32);
    j["python"] = c.python; // the article script's interpreter asked for ("" = the default)
    if (c.targetAccuracy)   // absent: no target (every epoch runs)
        j["targetAccuracy"] = *c.targetAccuracy;
    return j;
}

OrderedJson startedJson(const RunStarted &s) {
    OrderedJson j;
    j["device"] = s.device;
    j["deviceName"] = s.deviceName;
    j["threads"] = s.threads;
    j["trainImages"] = s.trainImages;
    j["testImages"] = s.testImages;
    j["stepsPerEpoch"] = s.stepsPerEpoch;
    j["dataDescription"] = s.dataDescription;
    j["synthetic"] = s.synthetic;
    j["deviceInitSeconds"] = s.deviceInitSeconds; // NaN is written as null
    detail::writeModelStarted(j, s);
    j["precisionNative"] = s.precisionNative;
    j["precisionNote"] = s.precisionNote;
    detail::writeCanary(j, s.canary); // absent: no canary (older records)
    if (s.distributed.worldSize > 0)  // absent: a single-process run
        j["distributed"] = detail::distributedJson(s.distributed);
    return j;
}

OrderedJson dataJson(const DataIdentity &d) {
    OrderedJson j;
    j["path"] = d.path;
    j["variant"] = d.variant;
    j["trainImages"] = d.trainImages;
    j["testImages"] = d.testImages;
    j["contentHash"] = d.contentHash;
    return j;
}

// The run's time to its target (time_to_target.h), written for readers of the file; read back,
// it is computed again from the epochs.
OrderedJson targetJson(const TargetResult &t) {
    OrderedJson j;
    j["accuracy"] = t.target;
    j["reached"] = t.reached;
    j["epoch"] = t.epoch;                     // 0: not reached
    j["epochs"] = t.epochs;                   // epochs run
    j["seconds"] = t.seconds;                 // null: not reached
    j["trainingSeconds"] = t.trainingSeconds; // null: not reached, or a test time unknown
    return j;
}

// ---- strict reading --------------------------------------------------------------------------

RunConfig readConfig(const FieldReader &r, const Json &j) {
    const std::string p = "config";
    RunConfig c;
    c.device = r.string(j, "device", p);
    c.epochs = r.integer(j, "epochs", p);
    c.batchSize = r.integer(j, "batchSize", p);
    c.learningRate = r.numberOrNull(j, "learningRate", p); // null: a script that did not say
    c.warmupEpochs = r.integer(j, "warmupEpochs", p);
    c.threads = r.integer(j, "threads", p);
    c.seed = r.uint64(j, "seed", p);
    c.dataDir = r.string(j, "dataDir", p);
    c.synthetic = r.boolean(j, "synthetic", p);
    c.trainImages = r.int64(j, "trainImages", p);
    c.testImages = r.int64(j, "testImages", p);
    c.lossFetchInterval = r.integer(j, "lossFetchInterval", p);
    // Added after schema 1 was first written: optional, absent means false (data on the host).
    if (j.contains("dataOnDevice"))
        c.dataOnDevice = r.boolean(j, "dataOnDevice", p);
    // Phase timing: optional, absent means false (a normal run).
    if (j.contains("phases"))
        c.phases = r.boolean(j, "phases", p);
    // TF32: optional, absent means LibTorch's default was left as it was. (The precision is
    // recorded once, at the top level: parseRunRecord.)
    if (j.contains("tf32")) {
        const std::string text = r.string(j, "tf32", p);
        if (!parseTf32(text, &c.tf32))
            r.fail(p + ".tf32", "must be default, on or off (got '" + text + "')");
    }
    // The article script's interpreter: article-script records only.
    if (j.contains("python"))
        c.python = r.string(j, "python", p);
    // Time to accuracy: absent in runs without a target (and every record before targets).
    if (j.contains("targetAccuracy")) {
        c.targetAccuracy = r.finite(j, "targetAccuracy", p);
        if (std::string problem = targetAccuracyProblem(*c.targetAccuracy); !problem.empty())
            r.fail(p + ".targetAccuracy", problem);
    }
    return c;
}

RunStarted readStarted(const FieldReader &r, const Json &j) {
    const std::string p = "started";
    RunStarted s;
    s.device = r.string(j, "device", p);
    s.deviceName = r.string(j, "deviceName", p);
    s.threads = r.integer(j, "threads", p);
    s.trainImages = r.int64(j, "trainImages", p);
    s.testImages = r.int64(j, "testImages", p);
    s.stepsPerEpoch = r.int64(j, "stepsPerEpoch", p);
    s.dataDescription = r.string(j, "dataDescription", p);
    s.synthetic = r.boolean(j, "synthetic", p);
    // Added after schema 1 was first written: optional; absent or null reads as NaN (unknown).
    s.deviceInitSeconds =
        j.contains("deviceInitSeconds") ? r.numberOrNull(j, "deviceInitSeconds", p) : kNaN;
    if (s.deviceInitSeconds < 0.0 || std::isinf(s.deviceInitSeconds)) {
        r.fail(p + ".deviceInitSeconds", "must be a finite number, 0 or more, or null");
    }
    // Optional: absent in records written before precision was a setting (all float32).
    if (j.contains("precisionNative"))
        s.precisionNative = r.boolean(j, "precisionNative", p);
    if (j.contains("precisionNote"))
        s.precisionNote = r.string(j, "precisionNote", p);
    s.canary = detail::readCanary(r, j, p);
    s.distributed = detail::readDistributed(r, j, p);
    return s;
}

DataIdentity readData(const FieldReader &r, const Json &j) {
    const std::string p = "data";
    DataIdentity d;
    d.path = r.string(j, "path", p);
    d.variant = r.string(j, "variant", p);
    d.trainImages = r.int64(j, "trainImages", p);
    d.testImages = r.int64(j, "testImages", p);
    d.contentHash = r.string(j, "contentHash", p);
    return d;
}

std::string indexed(const char *array, std::size_t i) {
    return std::string(array) + "[" + std::to_string(i) + "]";
}

const Json &element(const FieldReader &r, const Json &array, std::size_t i, const char *name) {
    const Json &e = array[i];
    if (!e.is_object()) {
        r.fail(indexed(name, i), "must be an object");
    }
    return e;
}

OrderedJson stepJson(const TimedStepLoss &s) {
    OrderedJson o;
    o["epoch"] = s.epoch;
    o["step"] = s.step;
    o["loss"] = s.loss;
    o["seconds"] = s.seconds;
    return o;
}

// `json` parsed; throws RecordError for empty text, invalid JSON, a number beyond a double and
// anything but an object.
Json parseObject(const std::string &json, const std::string &source) {
    if (json.find_first_not_of(" \t\r\n") == std::string::npos) {
        throw RecordError(source + " is empty (" + std::to_string(json.size()) +
                          " bytes): not a run record");
    }
    Json j;
    try {
        j = Json::parse(json);
    } catch (const Json::parse_error &e) {
        throw RecordError(source + " is " + invalidJsonText(e.byte, json.size(), e));
    } catch (const Json::out_of_range &e) { // 1e999: a number beyond a double
        throw RecordError(source + " holds a number that is not finite: " + jsonErrorText(e));
    }
    if (!j.is_object()) {
        throw RecordError(source + " is not a run record: its JSON is not an object");
    }
    return j;
}

// The schema version this DeviceBench reads, else RecordError saying which side is older.
int readSchemaVersion(const FieldReader &r, const Json &j, const std::string &source) {
    const int version = r.integer(j, "schemaVersion", "");
    if (version < kRunRecordSchemaVersion) {
        throw RecordError(source + ": schema version " + std::to_string(version) +
                          " is older than this DeviceBench reads (" +
                          std::to_string(kRunRecordSchemaVersion) + ")");
    }
    if (version > kRunRecordSchemaVersion) {
        throw RecordError(source + ": schema version " + std::to_string(version) +
                          " is newer than this DeviceBench reads (" +
                          std::to_string(kRunRecordSchemaVersion) +
                          "); update DeviceBench to read it");
    }
    return version;
}

std::string readStatus(const FieldReader &r, const Json &j) {
    const std::string status = r.string(j, "status", "");
    bool known = false;
    for (const char *s : kStatuses) {
        known = known || status == s;
    }
    if (!known) {
        r.fail("status",
               "must be running, finished, cancelled, diverged or failed (got '" + status + "')");
    }
    return status;
}

TimedStepLoss readStep(const FieldReader &r, const Json &o, const std::string &p) {
    TimedStepLoss s;
    s.epoch = r.integer(o, "epoch", p);
    s.step = r.int64(o, "step", p);
    s.loss = r.numberOrNull(o, "loss", p);
    s.seconds = r.finite(o, "seconds", p);
    return s;
}

// Each element of the array `name` (objects), read by `read`.
template <class T, class Read>
std::vector<T> readArray(const FieldReader &r, const Json &j, const char *name, Read read) {
    const Json &array = r.array(j, name, "");
    std::vector<T> items;
    items.reserve(array.size());
    for (std::size_t i = 0; i < array.size(); ++i)
        items.push_back(read(r, element(r, array, i, name), indexed(name, i)));
    return items;
}

} // namespace

std::string toJson(const RunRecord &record) {
    OrderedJson j;
    j["schemaVersion"] = record.schemaVersion;
    j["runId"] = record.runId;
    j["createdUtc"] = record.createdUtc;
    j["status"] = record.status;
    j["reason"] = record.reason;
    j["model"] = record.model;
    j["precision"] = record.precision;
    j["workload"] = record.workload;
    j["config"] = configJson(record.config);
    j["started"] = startedJson(record.started);
    j["data"] = dataJson(record.data);
    j["fingerprint"] = OrderedJson(toJson(record.fingerprint));
    OrderedJson epochs = OrderedJson::array();
    for (const auto &e : record.epochs)
        epochs.push_back(detail::epochJson(e));
    j["epochs"] = std::move(epochs);
    OrderedJson steps = OrderedJson::array();
    for (const auto &s : record.steps)
        steps.push_back(stepJson(s));
    j["steps"] = std::move(steps);
    if (record.config.targetAccuracy) // derived from the epochs, for readers of the file
        j["target"] = targetJson(timeToTarget(record.epochs, record.config.targetAccuracy));
    detail::writeSampling(j, record.sampling, record.samples); // absent: not sampled
    // Host names and paths need not be UTF-8: replace what is not, rather than fail a run.
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

RunRecord parseRunRecord(const std::string &json, const std::string &source) {
    const Json j = parseObject(json, source);
    const FieldReader r(source);
    RunRecord record;
    record.schemaVersion = readSchemaVersion(r, j, source);
    record.runId = r.string(j, "runId", "");
    record.createdUtc = r.string(j, "createdUtc", "");
    record.status = readStatus(r, j);
    record.reason = r.string(j, "reason", "");
    record.model = r.string(j, "model", "");
    record.precision = r.string(j, "precision", "");
    record.workload = r.string(j, "workload", "");
    record.config = readConfig(r, r.object(j, "config", ""));
    detail::readModelConfig(r, j.at("config"), record.model, &record.config);
    // The workload is recorded once, at the top level; records from other tools may name one
    // this version does not know: it stays as text (and makes them not comparable).
    parseWorkload(record.workload, &record.config.workload);
    // The same for the precision: "float32" in every record written before it was a setting;
    // a name this version does not know stays as text (and is never comparable).
    if (isRecordedPrecision(record.precision))
        parsePrecision(record.precision, &record.config.precision);
    record.started = readStarted(r, r.object(j, "started", ""));
    detail::readModelStarted(r, j.at("started"), record.config, &record.started);
    record.data = readData(r, r.object(j, "data", ""));
    record.fingerprint = fingerprintFromJson(r.object(j, "fingerprint", ""), source);
    record.epochs = readArray<EpochResult>(r, j, "epochs", detail::readEpoch);
    record.steps = readArray<TimedStepLoss>(r, j, "steps", readStep);
    detail::readSampling(r, j, &record.sampling, &record.samples);
    detail::adoptScriptSettings(record);
    checkRunRecord(record, source);
    return record;
}

} // namespace devicebench

// The record's pieces for the event lines of a child run (run_events.cpp): the same JSON as in
// a record file, so that a child's run and a record read back are one format.
namespace devicebench::detail {

nlohmann::ordered_json configPart(const RunConfig &config) { return configJson(config); }

nlohmann::ordered_json startedPart(const RunStarted &started) { return startedJson(started); }

nlohmann::ordered_json epochPart(const EpochResult &epoch) { return epochJson(epoch); }

RunConfig readConfigPart(const FieldReader &reader, const nlohmann::json &config,
                         const std::string &model) {
    RunConfig c = readConfig(reader, config);
    readModelConfig(reader, config, model, &c);
    return c;
}

RunStarted readStartedPart(const FieldReader &reader, const nlohmann::json &started,
                           const RunConfig &config) {
    RunStarted s = readStarted(reader, started);
    readModelStarted(reader, started, config, &s);
    return s;
}

EpochResult readEpochPart(const FieldReader &reader, const nlohmann::json &epoch) {
    return readEpoch(reader, epoch, "epoch");
}

} // namespace devicebench::detail
