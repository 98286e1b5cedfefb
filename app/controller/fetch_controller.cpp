// SPDX-License-Identifier: MIT
#include "fetch_controller.h"

#include <any>
#include <utility>

namespace devicebench {

FetchController::FetchController(FetchFunction fetch, QObject *parent,
                                 JobRunner::ThreadStarter starter)
    : QObject(parent), m_fetch(fetch ? std::move(fetch) : FetchFunction(&fetchCifar10)),
      m_jobs(std::move(starter)) {
    connect(&m_jobs, &JobRunner::finished, this, [this](int jobId, const std::any &result) {
        onJobEnded(jobId, true, JobFailure::Error, QString(), result);
    });
    connect(&m_jobs, &JobRunner::failed, this,
            [this](int jobId, JobFailure kind, const QString &reason) {
                onJobEnded(jobId, false, kind, reason, std::any());
            });
}

FetchController::~FetchController() = default; // m_jobs cancels and joins first

int FetchController::start(FetchOptions options) {
    if (m_jobs.isBusy())
        return 0;
    const int jobId = m_jobs.start(
        [this, options = std::move(options), fetch = m_fetch](JobContext &job) mutable {
            options.onProgress = [this, &job](const FetchProgress &p) {
                job.post([this, id = job.jobId(), p] { Q_EMIT progress(id, p); });
            };
            return std::any(fetch(options, job.stopFlag()));
        });
    Q_EMIT fetchStarted(jobId);
    return jobId;
}

void FetchController::cancel() { m_jobs.stop(); }

void FetchController::onJobEnded(int jobId, bool ok, JobFailure kind, const QString &reason,
                                 const std::any &value) {
    const auto *returned = std::any_cast<FetchResult>(&value);
    FetchResult result = returned != nullptr ? *returned : FetchResult{};
    // A stopped fetch saw the flag and returned its own (cancelled) result: ok.
    if (!ok) {
        result.status = FetchStatus::Failed;
        result.dataDir.clear();
        result.message = (kind == JobFailure::NoThread ? "the download could not start: "
                                                       : "the download stopped: ") +
                         reason.toStdString();
    }
    Q_EMIT ended(jobId, result);
}

} // namespace devicebench
