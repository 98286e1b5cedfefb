// SPDX-License-Identifier: MIT
#include "python_workload.h"

#include "devicebench/article_script.h"
#include "devicebench/script_run.h"

#include <stdexcept>

namespace devicebench::detail {

std::string pythonWorkloadProblem(const RunConfig &config) {
    switch (workloadRow(config.workload).runner) {
    case WorkloadRunner::ArticleScript:
        return checkArticleScriptPython(articleScriptPython(config), config.device);
    case WorkloadRunner::UserScript:
        return checkScriptRun(config);
    case WorkloadRunner::EngineLoop:
    case WorkloadRunner::EngineRecipe:
        break;
    }
    return {};
}

RunOutcome runPythonWorkload(const RunConfig &config, TrainingObserver &observer,
                             const std::atomic<bool> &stopRequested, TurnGate *gate,
                             ChildReport *report) {
    switch (workloadRow(config.workload).runner) {
    case WorkloadRunner::ArticleScript:
        return runArticleScript(config, observer, stopRequested, gate, report);
    case WorkloadRunner::UserScript:
        return runScript(config, observer, stopRequested, gate, report);
    case WorkloadRunner::EngineLoop:
    case WorkloadRunner::EngineRecipe:
        break;
    }
    throw std::logic_error(std::string("workload ") + toString(config.workload) +
                           " trains in the engine, not in a Python child");
}

} // namespace devicebench::detail
