// SPDX-License-Identifier: MIT
#include "devicebench/interleaved_run.h"

#include "devicebench/epoch_turns.h"

#include <exception>
#include <stdexcept>
#include <thread>

namespace devicebench {

std::vector<RecordedRun> runRecordedInterleaved(const std::vector<RunRequest> &requests,
                                                const std::vector<RecordObserver *> &downstream,
                                                const std::atomic<bool> &stopRequested) {
    if (!downstream.empty() && downstream.size() != requests.size())
        throw std::invalid_argument("interleaved runs: " + std::to_string(downstream.size()) +
                                    " observers for " + std::to_string(requests.size()) + " runs");
    std::vector<RecordedRun> results(requests.size());
    if (requests.empty())
        return results;
    EpochTurns turns(static_cast<int>(requests.size()));
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const int seat = static_cast<int>(i);
        RecordObserver *observer = downstream.empty() ? nullptr : downstream[i];
        threads.emplace_back([&, seat, observer] {
            const TrainFunction inTurns = [&](const RunConfig &config, TrainingObserver &o,
                                              const std::atomic<bool> &stop) {
                return runTrainingInTurns(config, o, stop, turns, seat);
            };
            try {
                results[static_cast<std::size_t>(seat)] = runRecorded(
                    requests[static_cast<std::size_t>(seat)], observer, stopRequested, inTurns);
            } catch (const std::exception &e) {
                results[static_cast<std::size_t>(seat)].outcome.reason =
                    std::string("the run stopped with an error: ") + e.what();
            } catch (...) {
                results[static_cast<std::size_t>(seat)].outcome.reason =
                    "the run stopped with an unknown error";
            }
            turns.leave(seat); // whatever happened: the others never wait for this seat
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    return results;
}

} // namespace devicebench
