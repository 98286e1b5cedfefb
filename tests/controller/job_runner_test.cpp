// SPDX-License-Identifier: MIT
// JobRunner (app/controller/job_runner.h): one job at a time on a worker thread, results on
// the main thread before exactly one terminal signal that carries the work's value, stale results
// dropped, and a refused thread ending the job with a clear error instead of leaving the runner
// busy.
#include "controller_support.h"
#include "job_runner.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QThread>

#include <any>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace devicebench {
namespace {

using test::waitUntil;

// A thread starter as std::thread's constructor fails when the system has no thread to give.
std::thread refuseThread(std::function<void()> /*body*/) {
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                            "Resource temporarily unavailable");
}

// Records the terminal signals of `runner` in order, as "finished <id>" or
// "failed <id> <kind> <reason>".
std::shared_ptr<std::vector<std::string>> recordEnds(JobRunner &runner) {
    auto ends = std::make_shared<std::vector<std::string>>();
    QObject::connect(&runner, &JobRunner::finished, &runner, [ends](int id, const std::any &) {
        ends->push_back("finished " + std::to_string(id));
    });
    QObject::connect(&runner, &JobRunner::failed, &runner,
                     [ends](int id, JobFailure kind, const QString &reason) {
                         ends->push_back("failed " + std::to_string(id) + " " +
                                         std::to_string(static_cast<int>(kind)) + " " +
                                         reason.toStdString());
                     });
    return ends;
}

TEST(JobRunner, PostedResultsArriveOnTheMainThreadInOrderBeforeOneFinished) {
    JobRunner runner;
    auto ends = recordEnds(runner);
    std::vector<int> seen;
    bool onMainThread = true;
    const QThread *mainThread = QThread::currentThread();
    const int id = runner.start([&](JobContext &job) {
        for (int i = 0; i < 100; ++i)
            job.post([&, i] {
                onMainThread = onMainThread && QThread::currentThread() == mainThread;
                seen.push_back(i);
                EXPECT_TRUE(ends->empty()) << "a result after the terminal signal";
            });
        return std::any();
    });
    EXPECT_EQ(id, 1);
    EXPECT_TRUE(runner.isBusy());
    EXPECT_EQ(runner.currentJobId(), 1);
    ASSERT_TRUE(waitUntil([&] { return !ends->empty(); }));
    waitUntil([] { return false; }, 100); // nothing may follow
    EXPECT_EQ(*ends, std::vector<std::string>{"finished 1"});
    ASSERT_EQ(seen.size(), 100U);
    for (int i = 0; i < 100; ++i)
        EXPECT_EQ(seen[static_cast<std::size_t>(i)], i);
    EXPECT_TRUE(onMainThread);
    EXPECT_FALSE(runner.isBusy());
}

TEST(JobRunner, ASecondStartWhileBusyIsRefusedAndIdsCountUp) {
    JobRunner runner;
    auto ends = recordEnds(runner);
    const int first = runner.start([](JobContext &job) {
        while (!job.stopRequested())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return std::any();
    });
    EXPECT_EQ(first, 1);
    EXPECT_EQ(runner.start([](JobContext &) { return std::any(); }), 0);
    runner.stop();
    ASSERT_TRUE(waitUntil([&] { return ends->size() == 1; }));
    EXPECT_EQ(runner.start([](JobContext &) { return std::any(); }), 2);
    ASSERT_TRUE(waitUntil([&] { return ends->size() == 2; }));
    EXPECT_EQ((*ends)[1], "finished 2");
}

TEST(JobRunner, AStoppedJobThatReturnsHasFinishedNotFailed) {
    JobRunner runner;
    auto ends = recordEnds(runner);
    runner.start([](JobContext &job) {
        while (!job.stopRequested())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return std::any();
    });
    runner.stop();
    ASSERT_TRUE(waitUntil([&] { return !ends->empty(); }));
    waitUntil([] { return false; }, 50);
    EXPECT_EQ(*ends, std::vector<std::string>{"finished 1"});
}

TEST(JobRunner, AThrowingJobFailsWithTheExceptionsText) {
    JobRunner runner;
    auto ends = recordEnds(runner);
    runner.start([](JobContext &) -> std::any { throw std::runtime_error("disk on fire"); });
    ASSERT_TRUE(waitUntil([&] { return !ends->empty(); }));
    waitUntil([] { return false; }, 50);
    EXPECT_EQ(*ends, std::vector<std::string>{"failed 1 " +
                                              std::to_string(static_cast<int>(JobFailure::Error)) +
                                              " disk on fire"});
}

TEST(JobRunner, ARefusedThreadEndsTheJobWithAClearErrorAndLeavesTheRunnerIdle) {
    bool refuse = true;
    JobRunner runner([&refuse](std::function<void()> body) {
        return refuse ? refuseThread(std::move(body)) : std::thread(std::move(body));
    });
    auto ends = recordEnds(runner);
    bool ran = false;
    const int id = runner.start([&ran](JobContext &) {
        ran = true;
        return std::any();
    });
    EXPECT_EQ(id, 1);
    EXPECT_TRUE(ends->empty()) << "the end is queued, never emitted inside start()";
    ASSERT_TRUE(waitUntil([&] { return !ends->empty(); }));
    waitUntil([] { return false; }, 50);
    ASSERT_EQ(ends->size(), 1U);
    EXPECT_EQ((*ends)[0].rfind("failed 1 " +
                                   std::to_string(static_cast<int>(JobFailure::NoThread)) +
                                   " the system refused a worker thread: ",
                               0),
              0U)
        << (*ends)[0];
    EXPECT_NE((*ends)[0].find("Resource temporarily unavailable"), std::string::npos);
    EXPECT_FALSE(ran);
    EXPECT_FALSE(runner.isBusy());

    refuse = false; // the system has threads again: the next job runs
    EXPECT_EQ(runner.start([&ran](JobContext &) {
        ran = true;
        return std::any();
    }),
              2);
    ASSERT_TRUE(waitUntil([&] { return ends->size() == 2; }));
    EXPECT_EQ((*ends)[1], "finished 2");
    EXPECT_TRUE(ran);
}

TEST(JobRunner, ResultsPostedByAJobStillGoingWhenTheRunnerIsDestroyedAreDropped) {
    int delivered = 0;
    int ends = 0;
    std::atomic<bool> started{false};
    {
        JobRunner runner;
        QObject::connect(&runner, &JobRunner::finished, [&ends] { ++ends; });
        QObject::connect(&runner, &JobRunner::failed, [&ends] { ++ends; });
        runner.start([&](JobContext &job) {
            started = true;
            while (!job.stopRequested())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            job.post([&delivered] { ++delivered; }); // during the runner's destruction
            return std::any();
        });
        ASSERT_TRUE(waitUntil([&] { return started.load(); }));
    } // stops and joins; the late result is discarded, never run
    waitUntil([] { return false; }, 100);
    EXPECT_EQ(delivered, 0);
    EXPECT_EQ(ends, 0);
}

TEST(JobRunner, TheValueTheWorkReturnsArrivesWithFinishedAfterItsPostedCalls) {
    JobRunner runner;
    std::vector<std::string> order;
    QObject::connect(&runner, &JobRunner::finished, [&order](int id, const std::any &result) {
        order.push_back("finished " + std::to_string(id) + " " +
                        std::any_cast<std::string>(result));
    });
    runner.start([&order](JobContext &job) {
        job.post([&order] { order.emplace_back("posted"); });
        return std::any(std::string("the result"));
    });
    ASSERT_TRUE(waitUntil([&] { return order.size() == 2; }));
    EXPECT_EQ(order, (std::vector<std::string>{"posted", "finished 1 the result"}));
}

TEST(JobRunner, AStoppedJobDeliversWhatItsWorkReturnedAndAThrowingOneOnlyItsReason) {
    JobRunner runner;
    std::vector<std::string> ends;
    QObject::connect(&runner, &JobRunner::finished, [&ends](int, const std::any &result) {
        ends.push_back("finished " + std::to_string(std::any_cast<int>(result)));
    });
    QObject::connect(&runner, &JobRunner::failed, [&ends](int, JobFailure, const QString &reason) {
        ends.push_back("failed " + reason.toStdString());
    });
    runner.start([](JobContext &job) {
        while (!job.stopRequested())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return std::any(42);
    });
    runner.stop();
    ASSERT_TRUE(waitUntil([&] { return ends.size() == 1; }));
    runner.start([](JobContext &) -> std::any { throw std::runtime_error("no"); });
    ASSERT_TRUE(waitUntil([&] { return ends.size() == 2; }));
    EXPECT_EQ(ends, (std::vector<std::string>{"finished 42", "failed no"}));
}

} // namespace
} // namespace devicebench
