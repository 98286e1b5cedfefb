// SPDX-License-Identifier: MIT
#include "run_controller.h"

#include "devicebench/run_record.h"
#include "devicebench/tensorboard.h"
#include "devicebench/trainer.h"

#include <exception>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

namespace devicebench {

void registerRunMetaTypes() {
    qRegisterMetaType<RunConfig>();
    qRegisterMetaType<RunStarted>();
    qRegisterMetaType<StepLoss>();
    qRegisterMetaType<std::vector<StepLoss>>();
    qRegisterMetaType<EpochResult>();
    qRegisterMetaType<RunOutcome>();
    qRegisterMetaType<RunRecord>();
}

// Lives on the worker thread for the duration of one run. It never touches the controller's
// members: each event is copied into a call posted through the job's context, which runs it
// on the controller's thread while the run is current (KDAB/hotspot's pattern). It sits behind
// the run's RunRecorder, so that at onRunStarted the recorder's record already holds the
// fingerprint and the data identity.
class RunController::Observer final : public TrainingObserver {
public:
    Observer(RunController *controller, const JobContext &job)
        : m_controller(controller), m_job(job) {}
    void setRecorder(const RunRecorder *recorder) { m_recorder = recorder; }

    void onRunStarted(const RunStarted &info) override {
        m_job.post([c = m_controller, id = m_job.jobId(), record = m_recorder->record(), info] {
            c->deliverStarted(id, record, info);
        });
    }
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        m_job.post(
            [c = m_controller, id = m_job.jobId(), losses] { c->deliverStepLosses(id, losses); });
    }
    void onEpochFinished(const EpochResult &epoch) override {
        m_job.post([c = m_controller, id = m_job.jobId(), epoch] { c->deliverEpoch(id, epoch); });
    }
    // The outcome is posted by the worker after the train function has returned (with its
    // return value), and runEnded is sent on the job's terminal signal: exactly once, even if
    // the function throws or no thread could be started.
    void onRunEnded(const RunOutcome & /*outcome*/) override {}

private:
    RunController *m_controller;
    const JobContext &m_job;
    const RunRecorder *m_recorder = nullptr;
};

RunController::RunController(TrainFunction train, QObject *parent, JobRunner::ThreadStarter starter)
    : QObject(parent),
      m_train(train ? std::move(train)
                    : TrainFunction(
                          static_cast<RunOutcome (*)(const RunConfig &, TrainingObserver &,
                                                     const std::atomic<bool> &)>(&runTraining))),
      m_jobs(std::move(starter)) {
    registerRunMetaTypes();
    connect(&m_jobs, &JobRunner::finished, this, &RunController::onJobFinished);
    connect(&m_jobs, &JobRunner::failed, this, &RunController::onJobFailed);
}

RunController::~RunController() = default; // m_jobs stops and joins the worker first

int RunController::startRun(const RunConfig &config) {
    if (m_jobs.isBusy()) {
        Q_EMIT runRejected(QStringLiteral("Run #%1 is still going: stop it or wait for it to end.")
                               .arg(m_jobs.currentJobId()));
        return 0;
    }
    m_config = config;
    m_outcome = RunOutcome{};
    m_record = RunRecord{};
    const int runId = m_jobs.start([this, config, train = m_train,
                                    logDir = m_tensorBoardLogDir.toStdString(),
                                    recordsDir = m_recordsFolder.toStdString()](JobContext &job) {
        Observer observer(this, job);
        // One run id for the record, its file and the TensorBoard folder (as in the CLI).
        const std::string recordId = newRunId();
        // TensorBoard (when a log folder is set) sees every event before the observer does.
        std::unique_ptr<TensorBoardObserver> board;
        if (!logDir.empty()) {
            board = std::make_unique<TensorBoardObserver>(
                config, logDir,
                recordId + "_" + config.device + "_x" + std::to_string(config.threads), &observer);
        }
        TrainingObserver &next = board ? static_cast<TrainingObserver &>(*board) : observer;
        std::string recordPath;
        if (!recordsDir.empty()) {
            std::error_code ignored; // a folder that cannot be made: the write says why
            std::filesystem::create_directories(recordsDir, ignored);
            recordPath = (std::filesystem::path(recordsDir) / (recordId + ".json")).string();
        }
        // The recorder sees every event first, as in the CLI, and writes the record file here,
        // on the worker thread.
        RunRecorder recorder(config, recordPath, &next, recordId);
        observer.setRecorder(&recorder);
        RunOutcome outcome;
        try {
            outcome = train(config, recorder, job.stopFlag());
        } catch (const std::exception &e) {
            outcome.status = RunStatus::Failed;
            outcome.reason = std::string("training stopped with an error: ") + e.what();
        } catch (...) {
            outcome.status = RunStatus::Failed;
            outcome.reason = "training stopped with an unknown error";
        }
        if (recorder.record().status == "running") // the train function threw or never ended
            recorder.onRunEnded(outcome);
        if (board && !board->writeError().empty()) {
            job.post(
                [this, runId = job.jobId(), message = QString::fromStdString(board->writeError())] {
                    Q_EMIT tensorBoardFailed(runId, message);
                });
        }
        if (!recorder.writeError().empty()) {
            job.post([this, runId = job.jobId(),
                      message = QString::fromStdString(recorder.writeError())] {
                Q_EMIT recordFailed(runId, message);
            });
        }
        job.post([this, outcome, record = recorder.record()] {
            m_outcome = outcome;
            m_record = record;
        });
    });
    Q_EMIT runAccepted(runId, config);
    return runId;
}

void RunController::requestRun(const RunConfig &config, const QString &tensorBoardDir) {
    setTensorBoardLogDir(tensorBoardDir);
    startRun(config);
}

void RunController::stop() { m_jobs.stop(); }

void RunController::setTensorBoardLogDir(const QString &dir) { m_tensorBoardLogDir = dir; }

void RunController::setRecordsFolder(const QString &dir) { m_recordsFolder = dir; }

void RunController::deliverStarted(int runId, const RunRecord &record, const RunStarted &info) {
    Q_EMIT recordStarted(runId, record);
    Q_EMIT runStarted(runId, m_config, info);
}

void RunController::deliverStepLosses(int runId, const std::vector<StepLoss> &losses) {
    Q_EMIT stepLosses(runId, losses);
}

void RunController::deliverEpoch(int runId, const EpochResult &epoch) {
    Q_EMIT epochFinished(runId, epoch);
}

void RunController::onJobFinished(int jobId) {
    Q_EMIT recordEnded(jobId, m_record);
    Q_EMIT runEnded(jobId, m_outcome);
}

void RunController::onJobFailed(int jobId, JobFailure kind, const QString &reason) {
    if (!m_record.runId.empty()) // the recorder ran (not so when no thread could start)
        Q_EMIT recordEnded(jobId, m_record);
    if (kind == JobFailure::Stopped) {
        Q_EMIT runEnded(jobId, m_outcome); // the train function's own (cancelled) outcome
        return;
    }
    RunOutcome outcome = m_outcome;
    outcome.status = RunStatus::Failed;
    outcome.reason = (kind == JobFailure::NoThread ? std::string("the run could not start: ")
                                                   : std::string("training stopped: ")) +
                     reason.toStdString();
    Q_EMIT runEnded(jobId, outcome);
}

} // namespace devicebench
