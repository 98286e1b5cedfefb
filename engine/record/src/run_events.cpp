// SPDX-License-Identifier: MIT
// Event lines of a child run (run_events.h): the record's JSON pieces, one object per line.
#include "devicebench/run_events.h"
#include "devicebench/json_error.h"

#include "devicebench/run_record.h"

#include "json_field_reader.h"
#include "json_fingerprint.h"
#include "record_json_parts.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <utility>

namespace devicebench {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;
using detail::FieldReader;

// One line of text: dump() escapes newlines inside strings, so a line is one event.
std::string line(const OrderedJson &object) {
    return object.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json parseLine(const std::string &text, const std::string &source) {
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::parse_error &e) {
        throw RecordError(source + " is not JSON (" + jsonErrorText(e) +
                          "): " + text.substr(0, 200));
    }
    if (!j.is_object())
        throw RecordError(source + " is not a JSON object: " + text.substr(0, 200));
    return j;
}

RunStatus readStatus(const FieldReader &r, const Json &j) {
    constexpr std::array<RunStatus, 4> kEnded = {RunStatus::Finished, RunStatus::Cancelled,
                                                 RunStatus::Diverged, RunStatus::Failed};
    const std::string text = r.string(j, "status", "");
    for (RunStatus status : kEnded) {
        if (text == toString(status))
            return status;
    }
    r.fail("status", "must be finished, cancelled, diverged or failed (got '" + text + "')");
}

std::vector<StepLoss> readSteps(const FieldReader &r, const Json &j) {
    const Json &steps = r.field(j, "steps", "");
    if (!steps.is_array())
        r.fail("steps", "must be an array");
    std::vector<StepLoss> out;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string p = "steps[" + std::to_string(i) + "]";
        if (!steps[i].is_object())
            r.fail(p, "must be an object");
        StepLoss s;
        s.epoch = r.integer(steps[i], "epoch", p);
        s.step = r.int64(steps[i], "step", p);
        s.loss = r.numberOrNull(steps[i], "loss", p); // null: not finite (a diverged step)
        out.push_back(s);
    }
    return out;
}

// The article script's program object (docs/article-workload.md, "Event lines").
PythonRuntime readPython(const FieldReader &r, const Json &program) {
    PythonRuntime py;
    py.python = r.string(program, "python", "program");
    py.executable = r.string(program, "pythonExecutable", "program");
    py.torch = r.string(program, "torch", "program");
    py.torchvision = r.string(program, "torchvision", "program");
    py.cuda = r.string(program, "cuda", "program");
    py.cudnn = r.string(program, "cudnn", "program");
    py.tensorboard = r.boolean(program, "tensorboard", "program");
    py.note = r.string(program, "programNote", "program");
    return py;
}

void readStarted(const FieldReader &r, const Json &j, const RunConfig &config, RunEvent *event) {
    event->started = detail::readStartedPart(r, r.object(j, "started", ""), config);
    if (j.contains("fingerprint"))
        event->fingerprint = fingerprintFromJson(r.object(j, "fingerprint", ""), r.source());
    if (!j.contains("program"))
        return;
    const Json &program = r.object(j, "program", "");
    event->program = program.dump();
    if (program.contains("torch"))
        event->python = readPython(r, program);
}

} // namespace

std::string startedEventLine(const RunStarted &started, const Fingerprint *fingerprint) {
    OrderedJson j;
    j["event"] = "started";
    j["started"] = detail::startedPart(started);
    if (fingerprint != nullptr)
        j["fingerprint"] = toJson(*fingerprint);
    return line(j);
}

std::string stepsEventLine(const std::vector<StepLoss> &steps) {
    OrderedJson list = OrderedJson::array();
    for (const StepLoss &s : steps)
        list.push_back({{"epoch", s.epoch}, {"step", s.step}, {"loss", s.loss}});
    OrderedJson j;
    j["event"] = "steps";
    j["steps"] = std::move(list);
    return line(j);
}

std::string epochEventLine(const EpochResult &epoch) {
    OrderedJson j;
    j["event"] = "epoch";
    j["epoch"] = detail::epochPart(epoch);
    return line(j);
}

std::string passEventLine() { return R"({"event":"pass"})"; }

std::string endedEventLine(RunStatus status, const std::string &reason) {
    OrderedJson j;
    j["event"] = "ended";
    j["status"] = toString(status);
    j["reason"] = reason;
    return line(j);
}

RunEvent parseRunEvent(const std::string &text, const RunConfig &config,
                       const std::string &source) {
    const Json j = parseLine(text, source);
    const FieldReader r(source);
    const std::string kind = r.string(j, "event", "");
    RunEvent event;
    if (kind == "started") {
        event.kind = RunEventKind::Started;
        readStarted(r, j, config, &event);
    } else if (kind == "steps") {
        event.kind = RunEventKind::Steps;
        event.steps = readSteps(r, j);
    } else if (kind == "epoch") {
        event.kind = RunEventKind::Epoch;
        event.epoch = detail::readEpochPart(r, r.object(j, "epoch", ""));
    } else if (kind == "pass") {
        event.kind = RunEventKind::Pass;
    } else if (kind == "ended") {
        event.kind = RunEventKind::Ended;
        event.status = readStatus(r, j);
        event.reason = r.string(j, "reason", "");
    } else {
        r.fail("event", "must be started, steps, epoch, pass or ended (got '" + kind + "')");
    }
    return event;
}

std::string runConfigJson(const RunConfig &config) {
    OrderedJson j = detail::configPart(config);
    j["workload"] = toString(config.workload);
    j["precision"] = toString(config.precision);
    return line(j);
}

RunConfig parseRunConfigJson(const std::string &json, const std::string &source) {
    const Json j = parseLine(json, source);
    const FieldReader r(source);
    RunConfig config = detail::readConfigPart(r, j, r.string(j, "model", ""));
    const std::string workload = r.string(j, "workload", "");
    if (!parseWorkload(workload, &config.workload))
        r.fail("workload", "is not a workload this DeviceBench knows (got '" + workload + "')");
    const std::string precision = r.string(j, "precision", "");
    if (!parsePrecision(precision, &config.precision))
        r.fail("precision", "is not a precision this DeviceBench knows (got '" + precision + "')");
    return config;
}

} // namespace devicebench
