// SPDX-License-Identifier: MIT
#include "run_controller.h"

#include <utility>

namespace devicebench {

void registerRunMetaTypes() {
    qRegisterMetaType<RunConfig>();
    qRegisterMetaType<RunRequest>();
    qRegisterMetaType<RunStarted>();
    qRegisterMetaType<StepLoss>();
    qRegisterMetaType<std::vector<StepLoss>>();
    qRegisterMetaType<EpochResult>();
    qRegisterMetaType<RunOutcome>();
    qRegisterMetaType<RunRecord>();
}

namespace {

QStringList toQStringList(const std::vector<std::string> &texts) {
    QStringList list;
    for (const std::string &text : texts)
        list.append(QString::fromStdString(text));
    return list;
}

} // namespace

// Lives on the worker thread for the duration of one run, behind the run's recorder. It never
// touches the controller's members: each event is copied into a call posted through the job's
// context, which emits it on the controller's thread while the run is current. The run's end
// is not posted: it is the job's result (RecordedRun), delivered with the terminal signal.
class RunController::Observer final : public RecordObserver {
public:
    Observer(RunController *controller, const JobContext &job, RunConfig config)
        : m_controller(controller), m_job(job), m_config(std::move(config)) {}

    void onRecordStarted(const RunRecord &record) override {
        post([record](RunController *c, int id) { Q_EMIT c->recordStarted(id, record); });
    }
    void onRunStarted(const RunStarted &info) override {
        post([info, config = m_config](RunController *c, int id) {
            Q_EMIT c->runStarted(id, config, info);
        });
    }
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        post([losses](RunController *c, int id) { Q_EMIT c->stepLosses(id, losses); });
    }
    void onEpochFinished(const EpochResult &epoch) override {
        post([epoch](RunController *c, int id) { Q_EMIT c->epochFinished(id, epoch); });
    }
    void onRunEnded(const RunOutcome & /*outcome*/) override {}

private:
    template <typename F> void post(F emit) const {
        m_job.post([c = m_controller, id = m_job.jobId(), emit = std::move(emit)] { emit(c, id); });
    }
    RunController *m_controller;
    const JobContext &m_job;
    RunConfig m_config;
};

RunController::RunController(TrainFunction train, QObject *parent, JobRunner::ThreadStarter starter)
    : QObject(parent), m_train(std::move(train)), m_jobs(std::move(starter)) {
    registerRunMetaTypes();
    connect(&m_jobs, &JobRunner::finished, this, &RunController::onJobFinished);
    connect(&m_jobs, &JobRunner::failed, this, &RunController::onJobFailed);
}

RunController::~RunController() = default; // m_jobs stops and joins the worker first

int RunController::startRun(const RunRequest &request) {
    if (m_jobs.isBusy()) {
        Q_EMIT runRejected({QStringLiteral("Run #%1 is still going: stop it or wait for it to end.")
                                .arg(m_jobs.currentJobId())});
        return 0;
    }
    if (const std::vector<std::string> problems = checkRunRequest(request); !problems.empty()) {
        Q_EMIT runRejected(toQStringList(problems));
        return 0;
    }
    const int jobId = m_jobs.start([this, request, train = m_train](JobContext &job) {
        Observer observer(this, job, request.config);
        return std::any(runRecorded(request, &observer, job.stopFlag(), train));
    });
    Q_EMIT runAccepted(jobId, request);
    return jobId;
}

void RunController::stop() { m_jobs.stop(); }

void RunController::deliverResult(int jobId, const RecordedRun &run, const RunOutcome &outcome) {
    if (!run.eventError.empty())
        Q_EMIT tensorBoardFailed(jobId, QString::fromStdString(run.eventError));
    if (!run.recordError.empty())
        Q_EMIT recordFailed(jobId, QString::fromStdString(run.recordError));
    Q_EMIT recordEnded(jobId, run.record);
    Q_EMIT runEnded(jobId, outcome);
}

void RunController::onJobFinished(int jobId, const std::any &result) {
    const auto &run = std::any_cast<const RecordedRun &>(result); // no copy of the record
    deliverResult(jobId, run, run.outcome);
}

void RunController::onJobFailed(int jobId, JobFailure kind, const QString &reason,
                                const std::any &result) {
    const auto *run = std::any_cast<RecordedRun>(&result);
    if (kind == JobFailure::Stopped && run != nullptr) {
        deliverResult(jobId, *run, run->outcome); // the train function's own (cancelled) outcome
        return;
    }
    RunOutcome outcome;
    outcome.status = RunStatus::Failed;
    outcome.reason = (kind == JobFailure::NoThread ? std::string("the run could not start: ")
                                                   : std::string("training stopped: ")) +
                     reason.toStdString();
    Q_EMIT runEnded(jobId, outcome);
}

} // namespace devicebench
