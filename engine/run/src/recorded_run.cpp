// SPDX-License-Identifier: MIT
#include "devicebench/recorded_run.h"

#include "devicebench/article_script.h"
#include "devicebench/script_run.h"

#include "python_workload.h"
#include "sampling_observer.h"

#include "devicebench/devices.h"
#include "devicebench/planned_outputs.h"
#include "devicebench/tensorboard.h"
#include "devicebench/trainer.h"

#include <exception>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

namespace devicebench {
namespace {

// Behind the recorder: tells the TensorBoard writer, then the caller's observer, every event.
class FanOut final : public RecordObserver {
public:
    FanOut(TrainingObserver *board, RecordObserver *downstream)
        : m_board(board), m_downstream(downstream) {}

    void onRecordStarted(const RunRecord &record) override {
        if (m_downstream != nullptr)
            m_downstream->onRecordStarted(record);
    }
    void onRunStarted(const RunStarted &info) override {
        each([&](TrainingObserver &o) { o.onRunStarted(info); });
    }
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        each([&](TrainingObserver &o) { o.onStepLosses(losses); });
    }
    void onEpochFinished(const EpochResult &epoch) override {
        each([&](TrainingObserver &o) { o.onEpochFinished(epoch); });
    }
    void onSystemSamples(const std::vector<SystemSample> &samples) override {
        each([&](TrainingObserver &o) { o.onSystemSamples(samples); });
    }
    void onRunEnded(const RunOutcome &outcome) override {
        each([&](TrainingObserver &o) { o.onRunEnded(outcome); });
    }

private:
    template <typename F> void each(F &&tell) {
        if (m_board != nullptr)
            tell(*m_board);
        if (m_downstream != nullptr)
            tell(*m_downstream);
    }
    TrainingObserver *m_board;
    RecordObserver *m_downstream;
};

std::string recordPathOf(const RunRequest &request, const std::string &runId) {
    if (!request.recordFile.empty())
        return request.recordFile;
    if (request.recordsFolder.empty())
        return {};
    std::error_code ignored; // a folder that cannot be made: the record's write says why
    std::filesystem::create_directories(request.recordsFolder, ignored);
    return (std::filesystem::path(request.recordsFolder) / (runId + ".json")).string();
}

RunOutcome trainGuarded(const TrainFunction &train, const RunConfig &config,
                        TrainingObserver &observer, const std::atomic<bool> &stopRequested) {
    RunOutcome outcome;
    try {
        outcome = train ? train(config, observer, stopRequested)
                        : runTraining(config, observer, stopRequested);
    } catch (const std::exception &e) {
        outcome.status = RunStatus::Failed;
        outcome.reason = std::string("training stopped with an error: ") + e.what();
    } catch (...) {
        outcome.status = RunStatus::Failed;
        outcome.reason = "training stopped with an unknown error";
    }
    return outcome;
}

// The article's script and a user's script train in a child Python process; the record
// takes this machine's fingerprint with the script's torch in it.
void usePythonChild(TrainFunction *train, FingerprintSource *fingerprint,
                    std::function<int()> *process) {
    auto report = std::make_shared<ChildReport>();
    *process = [report] { return report->pid.load(); };
    *train = [report](const RunConfig &config, TrainingObserver &observer,
                      const std::atomic<bool> &stop) {
        return detail::runPythonWorkload(config, observer, stop, nullptr, report.get());
    };
    *fingerprint = [report] { return articleScriptFingerprint(collectFingerprint(), *report); };
}

} // namespace

std::vector<std::string> checkRunRequest(const RunRequest &request) {
    std::vector<std::string> problems = validateRunConfig(request.config);
    if (problems.empty()) {
        if (std::string python = detail::pythonWorkloadProblem(request.config); !python.empty())
            problems.push_back(std::move(python));
    }
    // The TensorBoard folder, checked only (its writer makes it when the run starts). The
    // record's file and folder are the front ends' to check (the CLI's outputs, the
    // dashboard's runs folder): a record that cannot be saved does not stop a run.
    for (std::string &problem :
         checkPlannedOutputs({{"the TensorBoard log folder", request.tensorBoardFolder, true}}))
        problems.push_back(std::move(problem));
    return problems;
}

RunConfig configAsRecorded(RunConfig config) {
    if (config.device.rfind("cuda", 0) != 0)
        config.tf32 = Tf32::Default;
    return config;
}

std::string tensorBoardRunName(const RunConfig &config, const std::string &runId) {
    const int threads = config.threads > 0 ? config.threads : availableCores();
    return runId + "_" + config.device + "_x" + std::to_string(threads);
}

RecordedRun runRecorded(const RunRequest &request, RecordObserver *downstream,
                        const std::atomic<bool> &stopRequested, const TrainFunction &givenTrain,
                        const FingerprintSource &givenFingerprint,
                        const std::function<int()> &trainingProcess) {
    TrainFunction train = givenTrain;
    FingerprintSource fingerprint = givenFingerprint;
    std::function<int()> process = trainingProcess;
    const WorkloadRow &workload = workloadRow(request.config.workload);
    if (!train && workload.pythonChild())
        usePythonChild(&train, &fingerprint, &process);
    RunConfig config = configAsRecorded(request.config);
    if (workload.userScript()) { // what ran: the file as it is now
        config.scriptHash = fileContentHash(config.script);
        config.model = kScriptModel; // until the script names its model
    }
    const std::string runId = request.runId.empty() ? newRunId() : request.runId;
    std::unique_ptr<TensorBoardObserver> board;
    if (!request.tensorBoardFolder.empty())
        board = std::make_unique<TensorBoardObserver>(config, request.tensorBoardFolder,
                                                      tensorBoardRunName(config, runId));
    FanOut fanOut(board.get(), downstream);
    RecordedRun result;
    result.recordPath = recordPathOf(request, runId);
    const RunClock clock; // the steps' and the readings' times count from here
    RunRecorder recorder(config, result.recordPath, &fanOut, runId,
                         fingerprint ? fingerprint : FingerprintSource(collectFingerprint), clock);
    const SamplerOptions options = detail::samplerOptionsFor(config, clock, process);
    std::unique_ptr<SystemSampler> sampler;
    std::unique_ptr<detail::SamplingObserver> sampling;
    if (options.periodSeconds > 0.0) { // 0: not sampled (the sampler's own cost measured)
        sampler = std::make_unique<SystemSampler>(options);
        sampler->start();
        sampling = std::make_unique<detail::SamplingObserver>(*sampler, recorder, clock);
    }
    TrainingObserver &first = sampling ? static_cast<TrainingObserver &>(*sampling) : recorder;
    result.outcome = trainGuarded(train, config, first, stopRequested);
    if (recorder.record().status == "running") // the train function threw or never ended
        first.onRunEnded(result.outcome);
    result.record = recorder.record();
    if (result.outcome.epochs.size() == result.record.epochs.size())
        result.outcome.epochs = result.record.epochs; // with each epoch's system readings
    result.recordError = recorder.writeError();
    if (board) {
        result.eventFile = board->filePath();
        result.eventError = board->writeError();
    }
    return result;
}

} // namespace devicebench
