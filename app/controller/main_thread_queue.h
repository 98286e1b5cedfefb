// SPDX-License-Identifier: MIT
// MainThreadQueue: hands work from worker threads to the thread a QObject lives on.
// Qt Core only.
#pragma once

#include <QObject>

#include <deque>
#include <functional>
#include <mutex>

namespace devicebench {

// Calls functions posted from any thread, in the order they were posted, on the thread this
// object lives on (the thread that constructed it, normally the GUI thread), from its event
// loop.
//
// Why not QMetaObject::invokeMethod(receiver, lambda, Qt::QueuedConnection), as Qt's
// documentation suggests: the hand-off would then be synchronised only inside Qt's event
// queue, whose lock Debian's Qt builds on futexes that ThreadSanitizer cannot see, so every
// posted event would be reported as a data race between the worker that built the lambda and
// the thread that runs it (docs/SANITIZERS.md). Here the functions pass through a std::mutex
// that TSan does see; Qt only carries an argument-less wake-up, allocated and freed inside Qt.
//
// Wake-ups are coalesced: one queued event per batch of posts, however many the worker makes
// before the receiving thread drains them.
//
// Lifetime: functions still pending when the object is destroyed are discarded, never run.
// The owner must make sure no thread posts during or after destruction (join it first). If a
// function destroys this queue (e.g. a slot deleting the queue's owner), the rest of the batch
// is discarded too.
class MainThreadQueue final : public QObject {
    Q_OBJECT

public:
    explicit MainThreadQueue(QObject *parent = nullptr);

    // Thread-safe. `call` runs later on this object's thread; never inline, even when posted
    // from that thread.
    void post(std::function<void()> call);

    // Runs every pending function now, on the calling thread (must be this object's thread).
    // Normally called by the event loop; public for owners that must flush before a decision.
    void drain();

Q_SIGNALS:
    void wakeRequested(); // emitted from posting threads; queued to drain()

private:
    std::mutex m_mutex;
    std::deque<std::function<void()>> m_pending; // guarded by m_mutex
};

} // namespace devicebench
