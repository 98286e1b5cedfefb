// SPDX-License-Identifier: MIT
// JobRunner: one background job at a time on a worker thread, each job named by an id and ended
// by exactly one terminal signal on the runner's own (main) thread, which carries the value the
// job returned: a job returns its result, nothing sets a member from the worker (as KDAB/
// hotspot's JobTracker). Qt Core only.
#pragma once

#include "main_thread_queue.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <any>
#include <atomic>
#include <functional>
#include <thread>

namespace devicebench {

// Why a job failed (the `kind` of JobRunner::failed). A job that was asked to stop and returned
// is not a failure: it finished, and its result says how far it got.
enum class JobFailure {
    Error,    // the work threw; the reason is the exception's text
    NoThread, // the system refused a worker thread (std::system_error); the work never ran
};

class JobRunner;

// What the work of one job gets, on the worker thread.
class JobContext {
public:
    // The stop flag of this job: true once JobRunner::stop() was called (or the runner is
    // being destroyed). Work must poll it and return soon after it turns true.
    const std::atomic<bool> &stopFlag() const { return m_stop; }
    bool stopRequested() const { return m_stop.load(); }
    int jobId() const { return m_jobId; }

    // Thread-safe. Runs `call` later on the runner's thread, in posting order, and before the
    // job's terminal signal, provided this job is still the runner's current job then (calls
    // of a stale job, or arriving after the runner was destroyed, are dropped, never run).
    void post(std::function<void()> call) const;

private:
    friend class JobRunner;
    JobContext(JobRunner *runner, int jobId, const std::atomic<bool> &stop)
        : m_runner(runner), m_jobId(jobId), m_stop(stop) {}

    JobRunner *m_runner;
    int m_jobId;
    const std::atomic<bool> &m_stop;
};

// Runs at most one job at a time. For each accepted job, in this order on the runner's thread:
// the calls the work posted (JobContext::post), then exactly one of finished(id, result) or
// failed(id, kind, reason). Before that terminal signal the worker thread has been joined
// and the runner is idle, so a slot may start the next job at once. Even when no thread can be
// started, start() returns an id and the job ends with failed(id, NoThread, reason), queued
// like any other end (never emitted inside start()).
class JobRunner : public QObject {
    Q_OBJECT

public:
    // The work of one job; it runs on the worker thread and returns the job's result (any
    // value; the owner knows its type). Throwing ends the job as failed (JobFailure::Error,
    // with the exception's text).
    using Work = std::function<std::any(JobContext &)>;
    // Starts a thread running `body`, as std::thread's constructor does (and throws
    // std::system_error as it does when the system refuses one). Tests inject failures.
    using ThreadStarter = std::function<std::thread(std::function<void()> body)>;

    // `starter` defaults to constructing a std::thread. A std::thread, not a QThread:
    // ThreadSanitizer ignores threads started from inside an uninstrumented Qt
    // (docs/SANITIZERS.md).
    explicit JobRunner(ThreadStarter starter = {}, QObject *parent = nullptr);
    // Asks the current job to stop and waits for its thread to return (never terminates
    // it). No terminal signal is emitted for a job still going then.
    ~JobRunner() override;

    JobRunner(const JobRunner &) = delete;
    JobRunner &operator=(const JobRunner &) = delete;

    // Starts `work` as a new job and returns its id (1, 2, ... per runner); 0, doing nothing,
    // when a job is already going.
    int start(Work work);

    // Sets the current job's stop flag; the job then ends as usual, with finished() when the
    // work returns (its result says it stopped). No effect when idle.
    void stop();

    // True from an accepted start() until its terminal signal has been emitted.
    bool isBusy() const { return m_currentJobId != 0; }
    // Id of the job that is going, or 0 when idle.
    int currentJobId() const { return m_currentJobId; }

Q_SIGNALS:
    // The work returned `result` (also after stop()).
    void finished(int jobId, std::any result);
    // The work threw, or never ran.
    void failed(int jobId, devicebench::JobFailure kind, QString reason);

private:
    friend class JobContext;
    void deliverEnd(int jobId, bool ok, JobFailure kind, const QString &reason,
                    const std::any &result);

    ThreadStarter m_starter;
    MainThreadQueue m_events; // worker -> runner's thread; lives on the constructing thread
    std::thread m_thread;     // worker of the current job
    std::atomic<bool> m_stop{false};
    int m_currentJobId = 0; // 0 when idle; read and written on the runner's thread only
    int m_lastJobId = 0;
};

} // namespace devicebench

Q_DECLARE_METATYPE(std::any)
