// SPDX-License-Identifier: MIT
// FetchController: "Get CIFAR-10…" / "Open archive…" as a job (job_runner.h): fetchCifar10()
// (devicebench/fetch.h) on a worker thread, its progress and its result as signals on the
// controller's (main) thread. Qt Core + engine only.
#pragma once

#include "job_runner.h"

#include "devicebench/fetch.h"

#include <QObject>
#include <QString>

#include <any>
#include <atomic>
#include <functional>

namespace devicebench {

class FetchController : public QObject {
    Q_OBJECT

public:
    // The fetch itself; runs on the worker thread. Default: fetchCifar10 (tests may inject).
    using FetchFunction =
        std::function<FetchResult(const FetchOptions &, const std::atomic<bool> &cancel)>;

    explicit FetchController(FetchFunction fetch = {}, QObject *parent = nullptr,
                             JobRunner::ThreadStarter starter = {});
    // Cancels a running fetch and waits for its worker (the engine polls the flag at least
    // once a second and removes what it had written), so nothing is left half-unpacked.
    ~FetchController() override;

    // Starts fetching with `options` (its onProgress is replaced by the controller's) and
    // emits fetchStarted(id) before returning the job id; 0 when a fetch is going.
    int start(FetchOptions options);
    // Cancels the running fetch; it ends as usual with status Cancelled. No effect when idle.
    void cancel();

    bool isBusy() const { return m_jobs.isBusy(); }

Q_SIGNALS:
    void fetchStarted(int jobId);
    // At most ~10 a second (the engine's rate), only while the job is current.
    void progress(int jobId, devicebench::FetchProgress progress);
    // Exactly one per started job, last. A job that could not run (no thread, the fetch
    // threw) ends with status Failed and the reason as message.
    void ended(int jobId, devicebench::FetchResult result);

private:
    // The job's end; `value` holds the fetch's FetchResult when it returned.
    void onJobEnded(int jobId, bool ok, JobFailure kind, const QString &reason,
                    const std::any &value);

    FetchFunction m_fetch;
    JobRunner m_jobs; // last member: destroyed (cancelled and joined) first
};

} // namespace devicebench
