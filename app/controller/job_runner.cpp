// SPDX-License-Identifier: MIT
#include "job_runner.h"

#include <exception>
#include <system_error>
#include <utility>

namespace devicebench {

void JobContext::post(std::function<void()> call) const {
    JobRunner *runner = m_runner;
    const int id = m_jobId;
    // The queue is the runner's member: when the runner is gone, the call is discarded with it.
    runner->m_events.post([runner, id, call = std::move(call)] {
        if (runner->m_currentJobId == id)
            call();
    });
}

JobRunner::JobRunner(ThreadStarter starter, QObject *parent)
    : QObject(parent),
      m_starter(starter ? std::move(starter) : ThreadStarter([](std::function<void()> body) {
          return std::thread(std::move(body));
      })) {}

JobRunner::~JobRunner() {
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join(); // events still queued are discarded with m_events
}

int JobRunner::start(Work work) {
    if (m_currentJobId != 0)
        return 0;
    const int jobId = ++m_lastJobId;
    m_currentJobId = jobId;
    m_stop.store(false);
    auto body = [this, jobId, work = std::move(work)] {
        JobContext context(this, jobId, m_stop);
        bool ok = true;
        JobFailure kind = JobFailure::Error;
        QString reason;
        std::any result;
        try {
            result = work(context);
        } catch (const std::exception &e) {
            ok = false;
            reason = QString::fromUtf8(e.what());
        } catch (...) {
            ok = false;
            reason = QStringLiteral("unknown error");
        }
        // The last act of the worker: the terminal call follows everything the work posted.
        m_events.post([this, jobId, ok, kind, reason, result = std::move(result)] {
            deliverEnd(jobId, ok, kind, reason, result);
        });
    };
    try {
        m_thread = m_starter(std::move(body));
    } catch (const std::exception &e) {
        // std::system_error from std::thread (EAGAIN: too many threads, or memory). The job
        // still ends through the queue, so callers see one way of ending.
        const QString reason =
            QStringLiteral("the system refused a worker thread: ") + QString::fromUtf8(e.what());
        m_events.post([this, jobId, reason] {
            deliverEnd(jobId, false, JobFailure::NoThread, reason, std::any());
        });
    }
    return jobId;
}

void JobRunner::stop() {
    if (m_currentJobId != 0)
        m_stop.store(true);
}

void JobRunner::deliverEnd(int jobId, bool ok, JobFailure kind, const QString &reason,
                           const std::any &result) {
    if (jobId != m_currentJobId)
        return; // stale
    // Posted by the worker as its last act: the wait is only for the thread to unwind.
    if (m_thread.joinable())
        m_thread.join();
    m_currentJobId = 0;
    if (ok)
        Q_EMIT finished(jobId, result);
    else
        Q_EMIT failed(jobId, kind, reason);
}

} // namespace devicebench
