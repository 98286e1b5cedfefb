// SPDX-License-Identifier: MIT
// A user's script as a child run (script_run.h).
#include "devicebench/script_run.h"

#include "devicebench/article_script.h"
#include "devicebench/devices.h"
#include "devicebench/resource_files.h"

#include "child_process.h"
#include "python_check.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace devicebench {
namespace {

std::string moduleFolder() {
    const std::string path = resourcePath(kScriptModuleResource);
    std::error_code ec;
    if (path.empty() || !std::filesystem::is_regular_file(path + "/__init__.py", ec))
        throw std::runtime_error(
            "DeviceBench's Python module (" + std::string(kScriptModuleResource) +
            ") is not in DeviceBench's data folder " +
            (resourceDir().empty() ? std::string("(unknown)") : resourceDir()) +
            "; set DEVICEBENCH_RESOURCES to the folder that holds it");
    return path;
}

// PYTHONPATH with the module's parent folder first.
std::string pythonPath(const std::string &module) {
    const std::string parent = std::filesystem::path(module).parent_path().string();
    const char *existing = std::getenv("PYTHONPATH");
    return "PYTHONPATH=" + parent +
           (existing != nullptr && *existing != '\0' ? ":" + std::string(existing) : "");
}

std::string settingsJson(const RunConfig &config) {
    nlohmann::ordered_json j;
    j["device"] = config.device;
    j["threads"] = config.threads > 0 ? config.threads : availableCores();
    j["epochs"] = config.epochs;
    j["warmupEpochs"] = config.warmupEpochs;
    if (config.targetAccuracy) // absent: every epoch runs
        j["targetAccuracy"] = *config.targetAccuracy;
    j["seed"] = config.seed;
    j["lossFetchInterval"] = config.lossFetchInterval;
    return j.dump();
}

} // namespace

std::string checkScriptRun(const RunConfig &config) {
    std::string module;
    try {
        module = moduleFolder();
    } catch (const std::exception &e) {
        return e.what();
    }
    return detail::pythonCheckProblem({articleScriptPython(config), "-m", "devicebench", "--check",
                                       config.script, "--device", config.device},
                                      "DeviceBench's script check", {pythonPath(module)});
}

ChildProgram scriptProgram(const RunConfig &config) {
    ChildProgram program;
    program.name = articleScriptPython(config);
    program.argv = {program.name, config.script};
    program.argv.insert(program.argv.end(), config.scriptArgs.begin(), config.scriptArgs.end());
    program.channel = true;
    program.echoStderr = true; // the script's own prints and progress, as if run alone
    program.environment = {pythonPath(moduleFolder()),
                           std::string(kScriptSettingsVariable) + "=" + settingsJson(config),
                           std::string(kScriptChannelVariable) + "=" +
                               std::to_string(detail::kChannelFd)};
    program.startSeconds = config.scriptStartSeconds;
    // The first mistake of a new user: the script as it was, unchanged.
    program.silentExitHint =
        "ended without calling devicebench.run(): DeviceBench times a script through its module. "
        "Add the lines of docs/YOUR-SCRIPT.md:\n"
        "  import devicebench\n"
        "  run = devicebench.run(model=net, batch_size=128)\n"
        "  for epoch in run.epochs(10):      # your epoch loop\n"
        "      ... run.step(loss)             # after each training step\n"
        "      run.test(loss=test_loss, accuracy=correct / total)   # optional";
    return program;
}

RunOutcome runScript(const RunConfig &config, TrainingObserver &observer,
                     const std::atomic<bool> &stopRequested, TurnGate *gate, ChildReport *report) {
    return runChildTrainingOf([&config] { return scriptProgram(config); }, config, observer,
                              stopRequested, gate, report);
}

} // namespace devicebench
