// SPDX-License-Identifier: MIT
// Engine-internal (run): the workloads that train in a child Python process (their row's
// runner: the article's script, the user's script), each by its own program. The one place
// that picks between those programs, for the single run and the interleaved one alike.
#pragma once

#include "devicebench/child_run.h"
#include "devicebench/run_types.h"

#include <atomic>
#include <string>

namespace devicebench::detail {

// Whether this machine can run `config`'s Python workload (its Python, torch, script): "" when
// it can, else why not (checkArticleScriptPython, checkScriptRun). "" for an engine workload.
std::string pythonWorkloadProblem(const RunConfig &config);

// Trains `config` (a Python workload) in a child process, as runArticleScript and runScript do.
RunOutcome runPythonWorkload(const RunConfig &config, TrainingObserver &observer,
                             const std::atomic<bool> &stopRequested, TurnGate *gate,
                             ChildReport *report);

} // namespace devicebench::detail
