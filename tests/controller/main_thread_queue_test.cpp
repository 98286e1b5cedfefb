// SPDX-License-Identifier: MIT
#include "controller_support.h"
#include "main_thread_queue.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QThread>

#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

namespace devicebench {
namespace {

using test::waitUntil;

TEST(MainThreadQueue, CallsPostedFromAWorkerRunOnTheQueuesThreadInPostingOrder) {
    MainThreadQueue queue;
    const QThread *mainThread = QThread::currentThread();
    std::vector<int> seen; // touched only on the main thread
    bool allOnMainThread = true;
    constexpr int kCalls = 1000;
    std::thread worker([&queue, &seen, &allOnMainThread, mainThread] {
        for (int i = 0; i < kCalls; ++i) {
            queue.post([i, &seen, &allOnMainThread, mainThread] {
                allOnMainThread = allOnMainThread && QThread::currentThread() == mainThread;
                seen.push_back(i);
            });
        }
    });
    worker.join();
    ASSERT_TRUE(waitUntil([&] { return seen.size() == kCalls; }))
        << "only " << seen.size() << " of " << kCalls << " calls ran";
    EXPECT_TRUE(allOnMainThread);
    for (int i = 0; i < kCalls; ++i) {
        ASSERT_EQ(seen[static_cast<std::size_t>(i)], i) << "call " << i << " ran out of order";
    }
}

TEST(MainThreadQueue, ACallPostedOnTheQueuesOwnThreadRunsLaterNotInline) {
    MainThreadQueue queue;
    bool ran = false;
    queue.post([&ran] { ran = true; });
    EXPECT_FALSE(ran);
    EXPECT_TRUE(waitUntil([&] { return ran; }));
}

TEST(MainThreadQueue, CallsStillPendingWhenTheQueueIsDestroyedNeverRun) {
    bool ran = false;
    {
        MainThreadQueue queue;
        queue.post([&ran] { ran = true; });
    }
    waitUntil([] { return false; }, 100); // let the queued wake-up arrive, if any survived
    EXPECT_FALSE(ran);
}

TEST(MainThreadQueue, ACallThatDestroysTheQueueDropsTheRestOfItsBatch) {
    auto *queue = new MainThreadQueue;
    int ran = 0;
    queue->post([&ran, queue] {
        ++ran;
        delete queue;
    });
    queue->post([&ran] { ++ran; }); // same batch: only one wake-up was queued for both
    waitUntil([] { return false; }, 100);
    EXPECT_EQ(ran, 1);
}

} // namespace
} // namespace devicebench
