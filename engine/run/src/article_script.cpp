// SPDX-License-Identifier: MIT
// The article's script as a child run (article_script.h).
#include "devicebench/article_script.h"

#include "devicebench/devices.h"
#include "devicebench/fingerprint.h"
#include "devicebench/resource_files.h"

#include "child_process.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace devicebench {
namespace {

// An interpreter that has not answered --check by then is taken as unusable.
constexpr auto kCheckTimeout = std::chrono::seconds(120);

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

// Sets `flag` when `limit` passes, unless finished first.
class Deadline {
public:
    Deadline(std::atomic<bool> &flag, std::chrono::seconds limit)
        : m_thread([this, &flag, limit] {
              std::unique_lock<std::mutex> lock(m_mutex);
              if (!m_done.wait_for(lock, limit, [this] { return m_finished; }))
                  flag = true;
          }) {}
    ~Deadline() {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_finished = true;
        }
        m_done.notify_all();
        m_thread.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_done;
    bool m_finished = false;
    std::thread m_thread; // last: started once the members above exist
};

// The --check line's "problem" ("" when usable), or why the line cannot be read.
std::string checkLineProblem(const std::string &line) {
    try {
        const nlohmann::json j = nlohmann::json::parse(line);
        const auto problem = j.find("problem");
        if (problem != j.end() && problem->is_string())
            return problem->get<std::string>();
    } catch (const nlohmann::json::exception &) {
    }
    return "it answered the article script's check with a line DeviceBench does not read: " +
           line.substr(0, 200);
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
    std::string line;
    std::string exit;
    std::string tail;
    try {
        detail::ChildProcess child({python, program, "--check", "--device", device});
        std::atomic<bool> late{false};
        {
            Deadline deadline(late, kCheckTimeout);
            if (child.readLine(&line, late) == detail::ChildProcess::Read::Stopped)
                return "Python " + python + " did not answer the article script's check within " +
                       std::to_string(kCheckTimeout.count()) + " s";
        }
        exit = child.wait();
        tail = child.stderrTail();
    } catch (const std::exception &e) {
        return "Python " + python + " cannot be started (" + e.what() +
               "): install Python 3 with torch and torchvision (apt install python3-torch "
               "python3-torchvision), or name another with --python";
    }
    if (line.empty())
        return "Python " + python + " did not run the article script's check (" +
               (exit.empty() ? std::string("no answer") : exit) + ")" +
               (tail.empty() ? std::string() : ": " + tail);
    const std::string problem = checkLineProblem(line);
    return problem.empty() ? std::string() : "Python " + python + ": " + problem;
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
    ChildProgram program;
    try {
        program = articleScriptProgram(config, gate != nullptr);
    } catch (const std::exception &e) {
        if (gate != nullptr)
            gate->leave();
        RunOutcome outcome;
        outcome.status = RunStatus::Failed;
        outcome.reason = e.what();
        observer.onRunEnded(outcome);
        return outcome;
    }
    return runChildTraining(program, config, observer, stopRequested, gate, report);
}

} // namespace devicebench
