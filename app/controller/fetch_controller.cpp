// SPDX-License-Identifier: MIT
#include "fetch_controller.h"

#include <utility>

namespace devicebench {

FetchController::FetchController(FetchFunction fetch, QObject *parent,
                                 JobRunner::ThreadStarter starter)
    : QObject(parent), m_fetch(fetch ? std::move(fetch) : FetchFunction(&fetchCifar10)),
      m_jobs(std::move(starter)) {
    connect(&m_jobs, &JobRunner::finished, this,
            [this](int jobId) { onJobEnded(jobId, true, JobFailure::Error, QString()); });
    connect(&m_jobs, &JobRunner::failed, this,
            [this](int jobId, JobFailure kind, const QString &reason) {
                onJobEnded(jobId, false, kind, reason);
            });
}

FetchController::~FetchController() = default; // m_jobs cancels and joins first

int FetchController::start(FetchOptions options) {
    if (m_jobs.isBusy())
        return 0;
    m_result = FetchResult{};
    const int jobId = m_jobs.start(
        [this, options = std::move(options), fetch = m_fetch](JobContext &job) mutable {
            options.onProgress = [this, &job](const FetchProgress &p) {
                job.post([this, id = job.jobId(), p] { Q_EMIT progress(id, p); });
            };
            FetchResult result = fetch(options, job.stopFlag());
            job.post([this, result = std::move(result)] { m_result = result; });
        });
    Q_EMIT fetchStarted(jobId);
    return jobId;
}

void FetchController::cancel() { m_jobs.stop(); }

void FetchController::onJobEnded(int jobId, bool ok, JobFailure kind, const QString &reason) {
    FetchResult result = m_result;
    // Stopped: the fetch saw the flag and returned its own (cancelled) result.
    if (!ok && kind != JobFailure::Stopped) {
        result.status = FetchStatus::Failed;
        result.dataDir.clear();
        result.message = (kind == JobFailure::NoThread ? "the download could not start: "
                                                       : "the download stopped: ") +
                         reason.toStdString();
    }
    Q_EMIT ended(jobId, result);
}

} // namespace devicebench
