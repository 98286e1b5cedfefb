// SPDX-License-Identifier: MIT
#include "run_controller.h"

#include "devicebench/interleaved_run.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <memory>
#include <optional>
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
// current. The run's end is not posted here: it comes with the run's RecordedRun.
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

int RunController::startRun(const RunRequest &request) {
    if (isRunning()) {
        Q_EMIT runRejected({QStringLiteral("Run #%1 is still going: stop it or wait for it to end.")
                                .arg(currentJobId())});
        return 0;
    }
    if (const std::vector<std::string> problems = checkRunRequest(request); !problems.empty()) {
        Q_EMIT runRejected(toQStringList(problems));
        return 0;
    }
    const int runId = ++m_lastRunId;
    m_firstRunId = runId;
    m_runCount = 1;
    m_endedRuns = 0;
    m_jobs.start(
        [this, request, runId](JobContext &job) { return runInOrder(job, {request}, runId); });
    Q_EMIT runAccepted(runId, request);
    return runId;
}

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

int RunController::startRunSet(std::vector<RunRequest> requests, bool interleave) {
    if (isRunning()) {
        Q_EMIT runRejected({QStringLiteral("Run #%1 is still going: stop it or wait for it to end.")
                                .arg(currentJobId())});
        return 0;
    }
    if (requests.empty()) {
        Q_EMIT runRejected({QStringLiteral("A run set needs at least one run.")});
        return 0;
    }
    if (const QStringList problems = problemsOf(requests); !problems.isEmpty()) {
        Q_EMIT runRejected(problems);
        return 0;
    }
    const int firstId = m_lastRunId + 1;
    const int count = static_cast<int>(requests.size());
    const bool interleaved = interleave && count > 1;
    m_lastRunId += count;
    m_firstRunId = firstId;
    m_runCount = count;
    m_endedRuns = 0;
    m_jobs.start([this, requests, firstId, interleaved](JobContext &job) {
        return interleaved ? runInterleaved(job, requests, firstId)
                           : runInOrder(job, requests, firstId);
    });
    Q_EMIT runSetAccepted(firstId, count, interleaved);
    for (int i = 0; i < count; ++i)
        Q_EMIT runAccepted(firstId + i, requests[static_cast<std::size_t>(i)]);
    return firstId;
}

// On the worker: each run in turn (the first one even when a stop came early, so that it ends
// with its record as a lone run does). The end of a run that another follows is posted at once,
// so the window shows it ended while the next one goes (ends are delivered in run order, so the
// next run not ended is its run); the last run that ran is the job's result.
std::any RunController::runInOrder(JobContext &job, const std::vector<RunRequest> &requests,
                                   int firstId) {
    std::vector<RecordedRun> notEnded;
    for (std::size_t i = 0; i < requests.size() && (i == 0 || !job.stopRequested()); ++i) {
        Observer observer(this, job, firstId + static_cast<int>(i), requests[i].config);
        RecordedRun run = runRecorded(requests[i], &observer, job.stopFlag(), m_train);
        if (i + 1 < requests.size() && !job.stopRequested()) {
            job.post([this, run = std::move(run)] { deliverResult(run); });
            continue;
        }
        notEnded.push_back(std::move(run));
    }
    return std::any(std::move(notEnded));
}

// On the worker: the runs in processes of their own (childProgram), their epochs in turns;
// every run's end is the job's result.
std::any RunController::runInterleaved(JobContext &job, const std::vector<RunRequest> &requests,
                                       int firstId) {
    std::vector<std::unique_ptr<Observer>> observers;
    std::vector<RecordObserver *> downstream;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        observers.push_back(std::make_unique<Observer>(this, job, firstId + static_cast<int>(i),
                                                       requests[i].config));
        downstream.push_back(observers.back().get());
    }
    // An injected train function (tests) trains in this process; otherwise each run in a child.
    const std::optional<ChildProgram> child = m_train ? std::nullopt : childProgram();
    return std::any(
        runRecordedInterleaved(requests, downstream, job.stopFlag(), child ? &*child : nullptr));
}

void RunController::stop() { m_jobs.stop(); }

void RunController::deliverResult(const RecordedRun &run) {
    const int runId = currentJobId();
    if (!run.eventError.empty())
        Q_EMIT tensorBoardFailed(runId, QString::fromStdString(run.eventError));
    if (!run.recordError.empty())
        Q_EMIT recordFailed(runId, QString::fromStdString(run.recordError));
    Q_EMIT recordEnded(runId, run.record);
    deliverEnd(run.outcome);
}

void RunController::deliverEnd(const RunOutcome &outcome) {
    const int runId = currentJobId();
    if (++m_endedRuns == m_runCount)
        m_firstRunId = 0; // idle inside the last runEnded: a slot may start again
    Q_EMIT runEnded(runId, outcome);
}

void RunController::endRemainingRuns(const std::vector<RecordedRun> *runs,
                                     const RunOutcome *failure) {
    std::size_t next = 0;
    while (isRunning()) {
        if (failure != nullptr) {
            deliverEnd(*failure);
        } else if (runs != nullptr && next < runs->size()) {
            deliverResult((*runs)[next++]);
        } else {
            RunOutcome cancelled;
            cancelled.status = RunStatus::Cancelled;
            cancelled.reason = "the run set was stopped before this run started";
            deliverEnd(cancelled);
        }
    }
}

void RunController::onJobFinished(int /*jobId*/, const std::any &result) {
    // No copy of the records.
    endRemainingRuns(&std::any_cast<const std::vector<RecordedRun> &>(result), nullptr);
}

void RunController::onJobFailed(int /*jobId*/, JobFailure kind, const QString &reason,
                                const std::any &result) {
    const auto *runs = std::any_cast<std::vector<RecordedRun>>(&result);
    if (kind == JobFailure::Stopped && runs != nullptr) {
        endRemainingRuns(runs, nullptr); // the train function's own (cancelled) outcomes
        return;
    }
    RunOutcome outcome;
    outcome.status = RunStatus::Failed;
    outcome.reason = (kind == JobFailure::NoThread ? std::string("the run could not start: ")
                                                   : std::string("training stopped: ")) +
                     reason.toStdString();
    endRemainingRuns(nullptr, &outcome);
}

} // namespace devicebench
