// SPDX-License-Identifier: MIT
#include "run_controller.h"

#include "devicebench/interleaved_run.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>
#include <any>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace devicebench {

void registerRunMetaTypes() {
    qRegisterMetaType<RunConfig>();
    qRegisterMetaType<RunRequest>();
    qRegisterMetaType<std::vector<RunRequest>>();
    qRegisterMetaType<RunStarted>();
    qRegisterMetaType<StepLoss>();
    qRegisterMetaType<std::vector<StepLoss>>();
    qRegisterMetaType<std::vector<SystemSample>>();
    qRegisterMetaType<EpochResult>();
    qRegisterMetaType<RunOutcome>();
    qRegisterMetaType<RunRecord>();
    qRegisterMetaType<RecordedRun>();
}

namespace {

QStringList toQStringList(const std::vector<std::string> &texts) {
    QStringList list;
    for (const std::string &text : texts)
        list.append(QString::fromStdString(text));
    return list;
}

// DeviceBench's child for interleaved runs: the devicebench-cli beside this program (installed
// and built together), or none (a test's program; a dashboard built alone): then the runs
// share this process.
std::optional<ChildProgram> childProgram() {
    const QFileInfo cli(QCoreApplication::applicationDirPath() +
                        QStringLiteral("/devicebench-cli"));
    if (!cli.isFile() || !cli.isExecutable())
        return std::nullopt;
    return ChildProgram{{cli.absoluteFilePath().toStdString(), "train-child"},
                        "devicebench-cli train-child"};
}

} // namespace

// Lives on a run's thread for the duration of that run, behind the run's recorder. It never
// touches the controller's members: each event is copied into a call posted through the job's
// context, which emits it, with the run's id, on the controller's thread while the job is
// current. The run's end is not posted here: it is the job's result (a RecordedRun).
class RunController::Observer final : public RecordObserver {
public:
    Observer(RunController *controller, const JobContext &job, int runId, RunConfig config)
        : m_controller(controller), m_job(job), m_runId(runId), m_config(std::move(config)) {}

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
    void onSystemSamples(const std::vector<SystemSample> &samples) override {
        post([samples](RunController *c, int id) { Q_EMIT c->systemSamples(id, samples); });
    }
    void onEpochFinished(const EpochResult &epoch) override {
        post([epoch](RunController *c, int id) { Q_EMIT c->epochFinished(id, epoch); });
    }
    void onRunEnded(const RunOutcome & /*outcome*/) override {}

private:
    template <typename F> void post(F emit) const {
        m_job.post([c = m_controller, id = m_runId, emit = std::move(emit)] { emit(c, id); });
    }
    RunController *m_controller;
    const JobContext &m_job;
    int m_runId;
    RunConfig m_config;
};

RunController::RunController(TrainFunction train, QObject *parent, JobRunner::ThreadStarter starter)
    : QObject(parent), m_train(std::move(train)), m_jobs(std::move(starter)) {
    registerRunMetaTypes();
    connect(&m_jobs, &JobRunner::finished, this, &RunController::onJobFinished);
    connect(&m_jobs, &JobRunner::failed, this, &RunController::onJobFailed);
}

RunController::~RunController() = default; // m_jobs stops and joins the worker first

QStringList RunController::problemsOf(const std::vector<RunRequest> &requests) const {
    QStringList problems;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const QString which = QStringLiteral("run %1 (%2): ")
                                  .arg(i + 1)
                                  .arg(QString::fromStdString(requests[i].config.device));
        for (const std::string &problem : checkRunRequest(requests[i]))
            problems.append(which + QString::fromStdString(problem));
    }
    return problems;
}

bool RunController::refuses(const std::vector<RunRequest> &requests, bool inSet) {
    QStringList reasons;
    if (isRunning())
        reasons.append(QStringLiteral("Run #%1 is still going: stop it or wait for it to end.")
                           .arg(currentJobId()));
    else if (requests.empty())
        reasons.append(QStringLiteral("A run set needs at least one run."));
    else if (inSet)
        reasons = problemsOf(requests);
    else
        reasons = toQStringList(checkRunRequest(requests.front()));
    if (reasons.isEmpty())
        return false;
    Q_EMIT runRejected(reasons);
    return true;
}

int RunController::accept(const std::vector<RunRequest> &requests, bool interleaved) {
    const int first = m_lastRunId + 1;
    m_lastRunId += static_cast<int>(requests.size());
    m_going.clear();
    m_waiting.clear();
    m_stopRequested = false;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const int id = first + static_cast<int>(i);
        m_going.push_back(id);
        if (interleaved && i > 0) {
            m_waiting.back().ids.push_back(id);
            m_waiting.back().requests.push_back(requests[i]);
        } else {
            m_waiting.push_back(Job{{id}, {requests[i]}, interleaved});
        }
    }
    startNextJob();
    return first;
}

int RunController::startRun(const RunRequest &request) {
    if (refuses({request}, false))
        return 0;
    const int id = accept({request}, false);
    Q_EMIT runAccepted(id, request);
    return id;
}

int RunController::startRunSet(std::vector<RunRequest> requests, bool interleave) {
    if (refuses(requests, true))
        return 0;
    const int count = static_cast<int>(requests.size());
    const bool interleaved = interleave && count > 1;
    const int first = accept(requests, interleaved);
    Q_EMIT runSetAccepted(first, count, interleaved);
    for (int i = 0; i < count; ++i)
        Q_EMIT runAccepted(first + i, requests[static_cast<std::size_t>(i)]);
    return first;
}

// A slot of runEnded may start the next run or set at once (the controller is idle inside the
// last runEnded): every loop that emits runEnded works on a copy, and nothing is started after
// it when a job was started meanwhile.
void RunController::startNextJob() {
    while (!m_waiting.empty() && m_jobId == 0) {
        m_job = std::move(m_waiting.front());
        m_waiting.erase(m_waiting.begin());
        if (!m_stopRequested) {
            m_jobId = m_jobs.start(
                [this, job = m_job](JobContext &context) { return runJob(context, job); });
            return;
        }
        RecordedRun cancelled; // a run of a stopped set: it ends without starting
        cancelled.outcome.status = RunStatus::Cancelled;
        cancelled.outcome.reason = "the run set was stopped before this run started";
        const std::vector<int> ids = m_job.ids;
        for (int id : ids)
            endRun(id, cancelled);
    }
}

// On the worker: one run, recorded as the CLI's; or an interleaved set, each run in a process of
// its own (childProgram) unless a train function was injected (tests: this process).
std::any RunController::runJob(JobContext &context, const Job &job) {
    std::vector<std::unique_ptr<Observer>> observers;
    std::vector<RecordObserver *> downstream;
    for (std::size_t i = 0; i < job.ids.size(); ++i) {
        observers.push_back(
            std::make_unique<Observer>(this, context, job.ids[i], job.requests[i].config));
        downstream.push_back(observers.back().get());
    }
    if (!job.interleaved)
        return std::any(std::vector<RecordedRun>{
            runRecorded(job.requests.front(), downstream.front(), context.stopFlag(), m_train)});
    const std::optional<ChildProgram> child = m_train ? std::nullopt : childProgram();
    return std::any(runRecordedInterleaved(job.requests, downstream, context.stopFlag(),
                                           child ? &*child : nullptr));
}

void RunController::stop() {
    if (!isRunning())
        return;
    m_stopRequested = true;
    m_jobs.stop();
}

void RunController::endRun(int id, const RecordedRun &run) {
    m_going.erase(std::remove(m_going.begin(), m_going.end(), id), m_going.end());
    Q_EMIT runEnded(id, run); // idle inside the last one: a slot may start again
}

void RunController::onJobFinished(int jobId, const std::any &result) {
    if (jobId != m_jobId)
        return;
    m_jobId = 0;
    const std::vector<int> ids = m_job.ids;
    const auto &runs = std::any_cast<const std::vector<RecordedRun> &>(result); // no copy
    for (std::size_t i = 0; i < ids.size(); ++i) {
        RecordedRun missing; // a run an interleaved set never reported (not expected)
        missing.outcome.status = RunStatus::Failed;
        missing.outcome.reason = "the run ended without a result";
        endRun(ids[i], i < runs.size() ? runs[i] : missing);
    }
    startNextJob();
}

// The work threw or never started: each run of the job, and every run waiting behind it, ends
// failed with the reason (a set does not go on after a failure of its machinery).
void RunController::onJobFailed(int jobId, JobFailure kind, const QString &reason) {
    if (jobId != m_jobId)
        return;
    m_jobId = 0;
    RecordedRun failed;
    failed.outcome.status = RunStatus::Failed;
    failed.outcome.reason = (kind == JobFailure::NoThread ? std::string("the run could not start: ")
                                                          : std::string("training stopped: ")) +
                            reason.toStdString();
    const std::vector<int> ids = m_going;
    m_waiting.clear();
    for (int id : ids)
        endRun(id, failed);
}

} // namespace devicebench
