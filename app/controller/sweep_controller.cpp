// SPDX-License-Identifier: MIT
#include "sweep_controller.h"

#include <any>
#include <utility>

namespace devicebench {

namespace {

SweepOutcome outcomeOf(const std::any &result) {
    const auto *outcome = std::any_cast<SweepOutcome>(&result);
    return outcome != nullptr ? *outcome : SweepOutcome{};
}

void registerSweepMetaTypes() {
    qRegisterMetaType<SweepSpec>();
    qRegisterMetaType<SweepCell>();
    qRegisterMetaType<SweepCellRecord>();
    qRegisterMetaType<SweepProgress>();
    qRegisterMetaType<SweepOutcome>();
}

} // namespace

SweepController::SweepController(SweepFunction sweep, QObject *parent,
                                 JobRunner::ThreadStarter starter)
    : QObject(parent),
      m_sweep(sweep
                  ? std::move(sweep)
                  : SweepFunction([](const SweepSpec &spec, const std::string &folder,
                                     const SweepObserver &observer, const std::atomic<bool> &stop) {
                        return runSweep(spec, folder, observer, stop);
                    })),
      m_jobs(std::move(starter)) {
    registerSweepMetaTypes();
    connect(&m_jobs, &JobRunner::finished, this, [this](int jobId, const std::any &result) {
        Q_EMIT sweepEnded(jobId, outcomeOf(result), QString());
    });
    // A stopped sweep returns its own (cancelled) outcome through finished.
    connect(&m_jobs, &JobRunner::failed, this,
            [this](int jobId, JobFailure kind, const QString &reason) {
                SweepOutcome outcome;
                outcome.status = RunStatus::Failed;
                Q_EMIT sweepEnded(jobId, outcome,
                                  kind == JobFailure::NoThread
                                      ? QStringLiteral("the sweep could not start: ") + reason
                                      : QStringLiteral("the sweep stopped: ") + reason);
            });
}

SweepController::~SweepController() = default; // m_jobs stops and joins the worker first

int SweepController::start(const SweepSpec &spec, const QString &folder) {
    if (m_jobs.isBusy()) {
        Q_EMIT sweepRejected(QStringLiteral("A sweep is still going: stop it or wait for it."));
        return 0;
    }
    const std::string problem = validateSweepSpec(spec);
    if (!problem.empty()) {
        Q_EMIT sweepRejected(QString::fromStdString(problem));
        return 0;
    }
    if (folder.trimmed().isEmpty()) {
        Q_EMIT sweepRejected(QStringLiteral("no sweep folder: choose where the cells' records go"));
        return 0;
    }
    const int total = static_cast<int>(sweepCells(spec).size());
    const int id = m_jobs.start([this, spec, sweep = m_sweep,
                                 dir = folder.toStdString()](JobContext &job) {
        // Each report is copied into a call that runs on the controller's thread.
        SweepObserver observer;
        observer.cellStarted = [this, &job](const SweepCell &cell, const SweepProgress &progress) {
            job.post([this, id = job.jobId(), cell, progress] {
                Q_EMIT cellStarted(id, cell, progress);
            });
        };
        observer.cellEnded = [this, &job](const SweepCellRecord &record,
                                          const SweepProgress &progress, bool resumed) {
            job.post([this, id = job.jobId(), record, progress, resumed] {
                Q_EMIT cellEnded(id, record, progress, resumed);
            });
        };
        return std::any(sweep(spec, dir, observer, job.stopFlag()));
    });
    Q_EMIT sweepAccepted(id, total, folder);
    return id;
}

void SweepController::stop() { m_jobs.stop(); }

} // namespace devicebench
