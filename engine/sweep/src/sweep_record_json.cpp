// SPDX-License-Identifier: MIT
// A sweep cell's record as JSON (docs/sweep-record.md), its file, and a folder of them.
#include "devicebench/atomic_file.h"
#include "devicebench/json_error.h"
#include "devicebench/run_record.h"
#include "devicebench/sweep.h"

#include "json_field_reader.h"
#include "json_fingerprint.h"
#include "json_phases.h"
#include "json_system.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

namespace devicebench {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json; // keeps the documented field order in files
using detail::FieldReader;

constexpr int kSchemaVersion = 1;
constexpr const char *kKind = "devicebench-sweep-cell";
constexpr std::array<RunStatus, 4> kStatuses = {RunStatus::Finished, RunStatus::Cancelled,
                                                RunStatus::Diverged, RunStatus::Failed};
constexpr std::int64_t kMaxCount = 1000000; // steps of any kind

// A number that may be NaN (written as null).
OrderedJson numberOrNull(double value) {
    return std::isfinite(value) ? OrderedJson(value) : OrderedJson(nullptr);
}

OrderedJson resultJson(const StepBenchResult &r) {
    OrderedJson j;
    j["status"] = toString(r.status);
    j["reason"] = r.reason;
    j["device"] = r.device;
    j["deviceName"] = r.deviceName;
    j["threads"] = r.threads;
    j["modelParameters"] = r.modelParameters;
    j["multiplyAddsPerImage"] = r.multiplyAddsPerImage;
    j["setupSeconds"] = r.setupSeconds;
    j["warmupSeconds"] = r.warmupSeconds;
    j["stepSeconds"] = r.stepSeconds;
    j["imagesPerSecond"] = numberOrNull(r.imagesPerSecond);
    j["imagesPerSecondLow"] = numberOrNull(r.imagesPerSecondLow);
    j["imagesPerSecondHigh"] = numberOrNull(r.imagesPerSecondHigh);
    j["achievedGflops"] = numberOrNull(r.achievedGflops);
    j["phaseSteps"] = r.phaseSteps;
    // The run record's phase object (json_phases.h), null when the cell had no phase-timed step.
    j["phases"] = r.phases.measured ? detail::phasesJson(r.phases) : OrderedJson(nullptr);
    return j;
}

double nonNegative(const FieldReader &r, const Json &parent, const char *key,
                   const std::string &prefix) {
    const double v = r.finite(parent, key, prefix);
    if (v < 0.0) {
        r.fail(FieldReader::join(prefix, key),
               "must be 0 or more (got " + parent.at(key).dump() + ")");
    }
    return v;
}

std::int64_t count(const FieldReader &r, const Json &parent, const char *key,
                   const std::string &prefix, std::int64_t min = 0, std::int64_t max = kMaxCount) {
    return r.int64(parent, key, prefix, min, max);
}

PhaseTimes readCellPhases(const FieldReader &r, const Json &parent) {
    if (r.field(parent, "phases", "result").is_null()) {
        return {};
    }
    return detail::readPhases(r, parent, "result"); // the run record's reader and its checks
}

StepBenchResult readResult(const FieldReader &r, const Json &parent) {
    const Json &j = r.object(parent, "result", "");
    const std::string p = "result";
    StepBenchResult res;
    const std::string status = r.string(j, "status", p);
    const auto known = std::find_if(kStatuses.begin(), kStatuses.end(),
                                    [&](RunStatus s) { return status == toString(s); });
    if (known == kStatuses.end()) {
        r.fail("result.status",
               "must be finished, cancelled, diverged or failed (got '" + status + "')");
    }
    res.status = *known;
    res.reason = r.string(j, "reason", p);
    res.device = r.string(j, "device", p);
    res.deviceName = r.string(j, "deviceName", p);
    res.threads = static_cast<int>(count(r, j, "threads", p, 0, 1024));
    res.modelParameters =
        r.int64(j, "modelParameters", p, 0, std::numeric_limits<std::int64_t>::max());
    res.multiplyAddsPerImage =
        r.int64(j, "multiplyAddsPerImage", p, 0, std::numeric_limits<std::int64_t>::max());
    res.setupSeconds = nonNegative(r, j, "setupSeconds", p);
    res.warmupSeconds = nonNegative(r, j, "warmupSeconds", p);
    const Json &steps = r.array(j, "stepSeconds", p);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string field = "result.stepSeconds[" + std::to_string(i) + "]";
        if (!steps[i].is_number() || !std::isfinite(steps[i].get<double>())) {
            r.fail(field, "must be a finite number");
        }
        if (steps[i].get<double>() <= 0.0) {
            r.fail(field, "must be above 0 (got " + steps[i].dump() + ")");
        }
        res.stepSeconds.push_back(steps[i].get<double>());
    }
    res.imagesPerSecond = r.numberOrNull(j, "imagesPerSecond", p);
    res.imagesPerSecondLow = r.numberOrNull(j, "imagesPerSecondLow", p);
    res.imagesPerSecondHigh = r.numberOrNull(j, "imagesPerSecondHigh", p);
    res.achievedGflops = r.numberOrNull(j, "achievedGflops", p);
    res.phaseSteps = static_cast<int>(count(r, j, "phaseSteps", p));
    res.phases = readCellPhases(r, j);
    return res;
}

SweepCell readCell(const FieldReader &r, const Json &parent) {
    const Json &j = r.object(parent, "cell", "");
    SweepCell cell;
    cell.model = r.string(j, "model", "cell");
    if (!isKnownModel(cell.model)) {
        r.fail("cell.model", "must be small-cnn, resnet18 or vit-tiny (got '" + cell.model + "')");
    }
    cell.batchSize = static_cast<int>(count(r, j, "batchSize", "cell", 1, 1024));
    cell.imageSize = r.integer(j, "imageSize", "cell");
    if (!isSupportedImageSize(cell.imageSize)) {
        r.fail("cell.imageSize", "must be 32, 64 or 128 (got " + j.at("imageSize").dump() + ")");
    }
    cell.device.device = r.string(j, "device", "cell");
    if (cell.device.device != "cpu" && cell.device.device.rfind("cuda:", 0) != 0) {
        r.fail("cell.device", "must be cpu or cuda:N (got '" + cell.device.device + "')");
    }
    cell.device.threads = static_cast<int>(count(r, j, "threads", "cell", 0, 1024));
    // Absent in records written before precision was an axis: those cells ran fp32.
    if (j.contains("precision")) {
        const std::string text = r.string(j, "precision", "cell");
        if (!parsePrecision(text, &cell.precision))
            r.fail("cell.precision", "must be fp32, bf16 or fp16 (got '" + text + "')");
    }
    return cell;
}

// Grid order of loadSweepFolder: CPU (by threads) before CUDA (by index), then models in
// kModelNames order, image sizes, batch sizes, precisions.
auto gridOrder(const SweepCellRecord &r) {
    const bool cuda = r.cell.device.device != "cpu";
    const std::size_t modelIndex = static_cast<std::size_t>(
        std::find(std::begin(kModelNames), std::end(kModelNames), r.cell.model) -
        std::begin(kModelNames));
    const std::string index = cuda ? r.cell.device.device.substr(5) : std::string();
    return std::make_tuple(cuda, r.cell.device.threads, index.size(), index, modelIndex,
                           r.cell.imageSize, r.cell.batchSize, r.cell.precision);
}

} // namespace

std::string toJson(const SweepCellRecord &record) {
    OrderedJson j;
    j["kind"] = kKind;
    j["schemaVersion"] = record.schemaVersion;
    j["createdUtc"] = record.createdUtc;
    j["cell"] = {{"model", record.cell.model},
                 {"batchSize", record.cell.batchSize},
                 {"imageSize", record.cell.imageSize},
                 {"device", record.cell.device.device},
                 {"threads", record.cell.device.threads},
                 {"precision", shortName(record.cell.precision)}};
    j["warmupSteps"] = record.warmupSteps;
    j["steps"] = record.steps;
    j["phaseSteps"] = record.phaseSteps;
    j["workload"] = record.workload;
    j["synthetic"] = record.synthetic;
    j["seed"] = record.seed;
    j["learningRate"] = record.learningRate;
    j["result"] = resultJson(record.result);
    j["peakGflops"] = numberOrNull(record.peakGflops);
    j["peakMethod"] = record.peakMethod;
    j["fractionOfPeak"] = numberOrNull(record.fractionOfPeak);
    j["fingerprint"] = OrderedJson(toJson(record.fingerprint));
    detail::writeEpochSystem(j, record.system); // absent: not sampled (older records)
    return j.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

SweepCellRecord readSweepCellRecord(const std::string &jsonText, const std::string &source) {
    Json j;
    try {
        j = Json::parse(jsonText);
    } catch (const Json::parse_error &e) {
        throw RecordError(source + " is " + invalidJsonText(e.byte, jsonText.size(), e));
    } catch (const Json::exception &e) { // a number beyond a double
        throw RecordError(source + " is not valid JSON: " + jsonErrorText(e));
    }
    if (!j.is_object()) {
        throw RecordError(source + " is not a sweep cell record: its JSON is not an object");
    }
    const FieldReader r(source);
    if (r.string(j, "kind", "") != kKind) {
        r.fail("kind", "must be \"" + std::string(kKind) + "\" (got " + j.at("kind").dump() +
                           "): not a sweep cell record");
    }
    SweepCellRecord record;
    record.schemaVersion = r.integer(j, "schemaVersion", "");
    if (record.schemaVersion != kSchemaVersion) {
        r.fail("schemaVersion", "is " + std::to_string(record.schemaVersion) +
                                    "; this DeviceBench reads version " +
                                    std::to_string(kSchemaVersion));
    }
    record.createdUtc = r.string(j, "createdUtc", "");
    record.cell = readCell(r, j);
    record.warmupSteps = static_cast<int>(count(r, j, "warmupSteps", ""));
    record.steps = static_cast<int>(count(r, j, "steps", "", 2));
    record.phaseSteps = static_cast<int>(count(r, j, "phaseSteps", ""));
    record.workload = r.string(j, "workload", "");
    if (const WorkloadRow *row = findWorkload(record.workload); !row || row->pythonChild()) {
        r.fail("workload", "must be " + workloadChoices(trainsInEngineLoop) + " (got '" +
                               record.workload + "')");
    }
    record.synthetic = r.boolean(j, "synthetic", "");
    if (j.contains("seed")) {
        record.seed = r.uint64(j, "seed", "");
    }
    if (j.contains("learningRate")) {
        record.learningRate = r.finite(j, "learningRate", "");
    }
    record.result = readResult(r, j);
    if (record.result.status == RunStatus::Finished &&
        record.result.stepSeconds.size() != static_cast<std::size_t>(record.steps)) {
        r.fail("result.stepSeconds",
               "holds " + std::to_string(record.result.stepSeconds.size()) +
                   " steps, but a finished cell times steps = " + std::to_string(record.steps));
    }
    record.peakGflops = r.numberOrNull(j, "peakGflops", "");
    record.peakMethod = r.string(j, "peakMethod", "");
    record.fractionOfPeak = r.numberOrNull(j, "fractionOfPeak", "");
    record.fingerprint = fingerprintFromJson(r.object(j, "fingerprint", ""), source);
    record.system = detail::readEpochSystem(r, j, "");
    return record;
}

std::string sweepRecordPath(const std::string &folder, const SweepCell &cell) {
    return (fs::path(folder) / (cell.key() + ".json")).string();
}

void writeSweepCellRecord(const std::string &folder, const SweepCellRecord &record) {
    const std::string path = sweepRecordPath(folder, record.cell);
    try {
        writeFileAtomically(path, toJson(record));
    } catch (const AtomicWriteError &e) {
        throw std::runtime_error("cannot write sweep record " + path + ": " + e.what());
    }
}

std::vector<SweepCellRecord> loadSweepFolder(const std::string &folder,
                                             std::vector<std::string> *errors) {
    std::vector<SweepCellRecord> records;
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".json") {
            files.push_back(it->path());
        }
    }
    if (ec) {
        if (errors != nullptr) {
            errors->push_back("cannot list " + folder + ": " + ec.message());
        }
        return {};
    }
    std::sort(files.begin(), files.end());
    for (const fs::path &file : files) {
        try {
            std::ifstream in(file, std::ios::binary);
            if (!in) {
                throw RecordError("cannot open " + file.string() + " for reading");
            }
            std::ostringstream text;
            text << in.rdbuf();
            records.push_back(readSweepCellRecord(text.str(), file.string()));
        } catch (const std::exception &e) {
            if (errors != nullptr) {
                // Every error names the file first: "skipped <file>: <reason>".
                errors->push_back(std::string("skipped ") + e.what());
            }
        }
    }
    std::stable_sort(records.begin(), records.end(),
                     [](const SweepCellRecord &a, const SweepCellRecord &b) {
                         return gridOrder(a) < gridOrder(b);
                     });
    return records;
}

} // namespace devicebench
