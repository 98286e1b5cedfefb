// SPDX-License-Identifier: MIT
// A user's own training script as a workload (Workload::Script): the script, which times its
// epochs with DeviceBench's Python module (resources/python/devicebench; docs/YOUR-SCRIPT.md),
// runs in a child Python process (child_run.h) whose events come on a channel of their own,
// so that its record is like any other run's. LibTorch- and Qt-free header.
#pragma once

#include "devicebench/child_run.h"
#include "devicebench/run_types.h"

#include <atomic>
#include <string>

namespace devicebench {

// The module's folder among the built-in data files (resource_files.h): it goes on the
// script's PYTHONPATH, so that `import devicebench` finds it.
inline constexpr const char *kScriptModuleResource = "python/devicebench";

// The variables the module reads: the channel's descriptor, and the run's settings as JSON
// (device, threads, epochs, warmupEpochs, targetAccuracy when set, seed, lossFetchInterval).
inline constexpr const char *kScriptChannelVariable = "DEVICEBENCH_CHANNEL_FD";
inline constexpr const char *kScriptSettingsVariable = "DEVICEBENCH_RUN";

// A script run's config.model until the script names its model (RunStarted::modelName).
inline constexpr const char *kScriptModel = "script";

// Asks the run's Python (articleScriptPython) whether it can run `config.script` on
// `config.device`, by the module's own check (it imports torch: a few seconds): "" when it
// can; otherwise why not, naming the Python or the file: the module is missing from the data
// folder, the Python cannot be started or lacks torch, its torch cannot use a CUDA device asked
// for, or the script is not Python (not text, or a syntax error, with its line).
std::string checkScriptRun(const RunConfig &config);

// The child program of a script run: the Python, the script and config.scriptArgs; the module
// on PYTHONPATH; the settings and the channel in the environment; the time to start; its
// output (stdout and stderr) echoed on this process's stderr.
// Throws std::runtime_error when the module cannot be found.
ChildProgram scriptProgram(const RunConfig &config);

// Runs `config` (a script run) as a child Python process and tells `observer` its events, as
// runChildTraining does (Stop, a dying child, turns with `gate`, `report`).
RunOutcome runScript(const RunConfig &config, TrainingObserver &observer,
                     const std::atomic<bool> &stopRequested, TurnGate *gate = nullptr,
                     ChildReport *report = nullptr);

} // namespace devicebench
