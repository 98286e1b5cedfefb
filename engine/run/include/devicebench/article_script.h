// SPDX-License-Identifier: MIT
// The article's script as a workload (Workload::ArticleScript): DeviceBench's copy of the
// published training script, resources/python/article_workload.py, run in a child Python
// process (child_run.h) whose event lines become the run's events, so that its record is like
// any other run's. The program, its event lines and its data cache: docs/article-workload.md.
// LibTorch- and Qt-free header.
#pragma once

#include "devicebench/child_run.h"
#include "devicebench/fingerprint.h"
#include "devicebench/run_types.h"

#include <atomic>
#include <string>

namespace devicebench {

// The program's place among the built-in data files (resource_files.h).
inline constexpr const char *kArticleScriptResource = "python/article_workload.py";

// Set by the runner bundle's launcher to the Python whose PyTorch it runs on.
inline constexpr const char *kArticleScriptPythonVariable = "DEVICEBENCH_PYTHON";

// The Python an article-script run uses: config.python; when that is "", $DEVICEBENCH_PYTHON
// when set, else "python3".
std::string articleScriptPython(const RunConfig &config);

// Asks `python` (a path or a name in PATH) whether it can run the script on `device` ("cpu",
// "cuda", "cuda:N"), by the program's own --check (it imports torch: a few seconds). "" when it
// can; otherwise why not, naming the Python: it cannot be started, lacks torch or torchvision
// (and how to install them), has a torch without CUDA for a CUDA device, or the program file
// is missing from the data folder.
std::string checkArticleScriptPython(const std::string &python, const std::string &device);

// The child program of an article-script run of `config`: the Python, the program's path, the
// run's settings as its options (threads 0 given as availableCores(), as the engine counts
// them), the data cache in userCacheDir(), and "--turns" with `takeTurns`. Throws
// std::runtime_error when the program file cannot be found.
ChildProgram articleScriptProgram(const RunConfig &config, bool takeTurns);

// The record's fingerprint of an article-script run: `machine` (this machine's, collected
// here) with its LibTorch fields replaced by the script's torch, as `report` tells it (the
// "started" event's program and threads). `machine` unchanged when the report has no Python.
Fingerprint articleScriptFingerprint(Fingerprint machine, const ChildReport &report);

// Runs `config` (an article-script run) as a child Python process and tells `observer` its
// events, as runChildTraining does (Stop, a dying child, turns with `gate`, `report`).
RunOutcome runArticleScript(const RunConfig &config, TrainingObserver &observer,
                            const std::atomic<bool> &stopRequested, TurnGate *gate = nullptr,
                            ChildReport *report = nullptr);

} // namespace devicebench
