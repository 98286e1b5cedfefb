// SPDX-License-Identifier: MIT
// The event lines of a child run: a training run in another process (DeviceBench's own, for
// interleaved runs; the article's Python script) reports on its stdout, one JSON object per
// line, what a TrainingObserver is told. Objects hold the keys of a run record
// (docs/run-record.md); the protocol is docs/child-runs.md. LibTorch-free (engine_record).
//   {"event":"started","started":{...},"fingerprint":{...}}  fingerprint optional
//   {"event":"steps","steps":[{"epoch":1,"step":100,"loss":2.30}]}
//   {"event":"epoch","epoch":{...}}
//   {"event":"pass"}            an interleaved child hands the turn back (child_run.h)
//   {"event":"ended","status":"finished","reason":""}
#pragma once

#include "devicebench/fingerprint.h"
#include "devicebench/run_types.h"

#include <optional>
#include <string>
#include <vector>

namespace devicebench {

enum class RunEventKind { Started, Steps, Epoch, Pass, Ended };

// One parsed line; only the members of its kind are filled.
struct RunEvent {
    RunEventKind kind = RunEventKind::Ended;
    RunStarted started;                     // Started
    std::optional<Fingerprint> fingerprint; // Started, when the child sent one
    std::string program;                    // Started: the child's "program" object as JSON text
    // Started: the Python of that program object, when it is article_workload.py's (its keys
    // python, pythonExecutable, torch, torchvision, cuda, cudnn, tensorboard, programNote).
    std::optional<PythonRuntime> python;
    std::vector<StepLoss> steps;          // Steps
    EpochResult epoch;                    // Epoch
    RunStatus status = RunStatus::Failed; // Ended
    std::string reason;                   // Ended
};

std::string startedEventLine(const RunStarted &started, const Fingerprint *fingerprint);
std::string stepsEventLine(const std::vector<StepLoss> &steps);
std::string epochEventLine(const EpochResult &epoch);
std::string passEventLine();
std::string endedEventLine(RunStatus status, const std::string &reason);

// Parses one line (without its newline). `config` is the run's (for the started object's
// model counts); `source` names the child in errors. Throws RecordError, e.g. "child run
// (python3): event line 3: field 'epoch.seconds' is missing" or "... is not JSON".
RunEvent parseRunEvent(const std::string &line, const RunConfig &config, const std::string &source);

// A whole RunConfig as one JSON object (the record's config keys plus "workload" and
// "precision"), to hand a run to a child; and back. Throws RecordError naming `source`.
std::string runConfigJson(const RunConfig &config);
RunConfig parseRunConfigJson(const std::string &json, const std::string &source);

} // namespace devicebench
