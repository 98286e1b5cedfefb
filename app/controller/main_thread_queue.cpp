// SPDX-License-Identifier: MIT
#include "main_thread_queue.h"

#include <QPointer>

#include <utility>

namespace devicebench {

MainThreadQueue::MainThreadQueue(QObject *parent) : QObject(parent) {
    connect(this, &MainThreadQueue::wakeRequested, this, &MainThreadQueue::drain,
            Qt::QueuedConnection);
}

void MainThreadQueue::post(std::function<void()> call) {
    bool wake = false;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        wake = m_pending.empty(); // otherwise a wake-up for this batch is already queued
        m_pending.push_back(std::move(call));
    }
    if (wake) {
        Q_EMIT wakeRequested();
    }
}

void MainThreadQueue::drain() {
    std::deque<std::function<void()>> batch;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        batch.swap(m_pending);
    }
    const QPointer<MainThreadQueue> alive(this);
    for (auto &call : batch) {
        call();
        if (alive.isNull()) {
            return; // a call destroyed this queue (and its owner): drop the rest
        }
    }
}

} // namespace devicebench
