// SPDX-License-Identifier: MIT
// The article's script as a child run (article_script.h).
#include "devicebench/article_script.h"

#include "devicebench/devices.h"
#include "devicebench/fingerprint.h"
#include "devicebench/resource_files.h"

#include "python_check.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace devicebench {
namespace {

std::string programFile() {
    const std::string path = resourcePath(kArticleScriptResource);
    std::error_code ec;
    if (path.empty() || !std::filesystem::is_regular_file(path, ec))
        throw std::runtime_error(
            "the article's script (" + std::string(kArticleScriptResource) +
            ") is not in DeviceBench's data folder " +
            (resourceDir().empty() ? std::string("(unknown)") : resourceDir()) +
            "; set DEVICEBENCH_RESOURCES to the folder that holds it");
    return path;
}

// Full precision, so that the script trains at exactly the run's learning rate.
std::string exactNumber(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

} // namespace

std::string articleScriptPython(const RunConfig &config) {
    if (!config.python.empty())
        return config.python;
    const char *launcher = std::getenv(kArticleScriptPythonVariable);
    return launcher != nullptr && *launcher != '\0' ? launcher : "python3";
}

std::string checkArticleScriptPython(const std::string &python, const std::string &device) {
    std::string program;
    try {
        program = programFile();
    } catch (const std::exception &e) {
        return e.what();
    }
    return detail::pythonCheckProblem({python, program, "--check", "--device", device},
                                      "the article script's check");
}

ChildProgram articleScriptProgram(const RunConfig &config, bool takeTurns) {
    const int threads = config.threads > 0 ? config.threads : availableCores();
    const std::string cache =
        userCacheDir().empty() ? std::string(".devicebench-cache") : userCacheDir();
    ChildProgram program;
    program.name = articleScriptPython(config);
    program.argv = {program.name,
                    programFile(),
                    "--data-dir",
                    config.dataDir,
                    "--cache-dir",
                    cache,
                    "--device",
                    config.device,
                    "--threads",
                    std::to_string(threads),
                    "--epochs",
                    std::to_string(config.epochs),
                    "--batch-size",
                    std::to_string(config.batchSize),
                    "--lr",
                    exactNumber(config.learningRate),
                    "--seed",
                    std::to_string(config.seed),
                    "--warmup-epochs",
                    std::to_string(config.warmupEpochs),
                    "--train-images",
                    std::to_string(config.trainImages),
                    "--test-images",
                    std::to_string(config.testImages)};
    if (config.targetAccuracy) // the script stops after the epoch that reaches it
        program.argv.insert(program.argv.end(),
                            {"--target-accuracy", exactNumber(*config.targetAccuracy)});
    if (takeTurns)
        program.argv.emplace_back("--turns");
    return program;
}

Fingerprint articleScriptFingerprint(Fingerprint machine, const ChildReport &report) {
    if (!report.python)
        return machine;
    const PythonRuntime &py = *report.python;
    machine.python = py;
    machine.libtorchVersion.clear(); // not DeviceBench's LibTorch: the torch is py.torch
    machine.blasLibrary.clear();     // the Python process's is not known here
    machine.intraOpThreads = report.threads;
    machine.cudaBuilt = !py.cuda.empty();
    machine.cudaRuntimeVersion = py.cuda;
    machine.cudnnVersion = py.cudnn;
    machine.cudnnBenchmark = false; // the script leaves torch's default
    machine.tf32Matmul.reset();
    machine.tf32Cudnn.reset();
    return machine;
}

RunOutcome runArticleScript(const RunConfig &config, TrainingObserver &observer,
                            const std::atomic<bool> &stopRequested, TurnGate *gate,
                            ChildReport *report) {
    return runChildTrainingOf(
        [&config, gate] { return articleScriptProgram(config, gate != nullptr); }, config, observer,
        stopRequested, gate, report);
}

} // namespace devicebench
