// SPDX-License-Identifier: MIT
#include "run_controller.h"

#include "devicebench/run_record.h"
#include "devicebench/tensorboard.h"
#include "devicebench/trainer.h"

#include <exception>
#include <memory>
#include <utility>

namespace devicebench {

void registerRunMetaTypes() {
    qRegisterMetaType<RunConfig>();
    qRegisterMetaType<RunStarted>();
    qRegisterMetaType<StepLoss>();
    qRegisterMetaType<std::vector<StepLoss>>();
    qRegisterMetaType<EpochResult>();
    qRegisterMetaType<RunOutcome>();
}

// Lives on the worker thread for the duration of one run. It never touches the controller's
// members: each event is copied into a call posted through the job's context, which runs it
// on the controller's thread while the run is current (KDAB/hotspot's pattern).
class RunController::Observer final : public TrainingObserver {
public:
    Observer(RunController *controller, const JobContext &job)
        : m_controller(controller), m_job(job) {}

    void onRunStarted(const RunStarted &info) override {
        m_job.post([c = m_controller, id = m_job.jobId(), info] { c->deliverStarted(id, info); });
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
};

RunController::RunController(TrainFunction train, QObject *parent,
                             JobRunner::ThreadStarter starter)
    : QObject(parent),
      m_train(train ? std::move(train)
                    : TrainFunction(static_cast<RunOutcome (*)(const RunConfig &,
                                                               TrainingObserver &,
                                                               const std::atomic<bool> &)>(
                          &runTraining))),
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
    const int runId = m_jobs.start([this, config, train = m_train,
                                    logDir = m_tensorBoardLogDir.toStdString()](JobContext &job) {
        Observer observer(this, job);
        // TensorBoard (when a log folder is set) sees every event before the observer does.
        std::unique_ptr<TensorBoardObserver> board;
        if (!logDir.empty()) {
            board = std::make_unique<TensorBoardObserver>(
                config, logDir,
                newRunId() + "_" + config.device + "_x" + std::to_string(config.threads),
                &observer);
        }
        TrainingObserver &target = board ? static_cast<TrainingObserver &>(*board) : observer;
        RunOutcome outcome;
        try {
            outcome = train(config, target, job.stopFlag());
        } catch (const std::exception &e) {
            outcome.status = RunStatus::Failed;
            outcome.reason = std::string("training stopped with an error: ") + e.what();
        } catch (...) {
            outcome.status = RunStatus::Failed;
            outcome.reason = "training stopped with an unknown error";
        }
        if (board && !board->writeError().empty()) {
            job.post([this, runId = job.jobId(),
                      message = QString::fromStdString(board->writeError())] {
                Q_EMIT tensorBoardFailed(runId, message);
            });
        }
        job.post([this, outcome] { m_outcome = outcome; });
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

void RunController::deliverStarted(int runId, const RunStarted &info) {
    Q_EMIT runStarted(runId, m_config, info);
}

void RunController::deliverStepLosses(int runId, const std::vector<StepLoss> &losses) {
    Q_EMIT stepLosses(runId, losses);
}

void RunController::deliverEpoch(int runId, const EpochResult &epoch) {
    Q_EMIT epochFinished(runId, epoch);
}

void RunController::onJobFinished(int jobId) { Q_EMIT runEnded(jobId, m_outcome); }

void RunController::onJobFailed(int jobId, JobFailure kind, const QString &reason) {
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
