// SPDX-License-Identifier: MIT
#include "devicebench/interleaved_run.h"

#include "devicebench/article_script.h"
#include "python_workload.h"

#include "devicebench/epoch_turns.h"
#include "devicebench/run_events.h"

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

namespace devicebench {
namespace {

// The training of one seat: in this process, or in a child process of its own whose
// fingerprint the record takes. A Python script (the article's, or a user's) is always a child.
struct SeatTraining {
    TrainFunction train;
    FingerprintSource fingerprint; // empty: this process's
};

SeatTraining seatTraining(EpochTurns &turns, int seat, const ChildProgram *child,
                          const std::shared_ptr<ChildReport> &report) {
    FingerprintSource childFingerprint = [report] {
        if (report->python) // a Python script: this machine with the script's torch
            return articleScriptFingerprint(collectFingerprint(), *report);
        return report->fingerprint ? *report->fingerprint : collectFingerprint();
    };
    TrainFunction train = [&turns, seat, child, report](const RunConfig &config,
                                                        TrainingObserver &o,
                                                        const std::atomic<bool> &stop) {
        const bool python = workloadRow(config.workload).pythonChild();
        if (!python && child == nullptr)
            return runTrainingInTurns(config, o, stop, turns, seat);
        SeatGate gate(turns, seat);
        if (python)
            return detail::runPythonWorkload(config, o, stop, &gate, report.get());
        ChildProgram program = *child;
        program.argv.insert(program.argv.end(),
                            {"--config-json", runConfigJson(config), "--turns"});
        return runChildTraining(program, config, o, stop, &gate, report.get());
    };
    return {std::move(train), std::move(childFingerprint)};
}

} // namespace

std::vector<RecordedRun> runRecordedInterleaved(const std::vector<RunRequest> &requests,
                                                const std::vector<RecordObserver *> &downstream,
                                                const std::atomic<bool> &stopRequested,
                                                const ChildProgram *child) {
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
            const auto report = std::make_shared<ChildReport>();
            const SeatTraining training = seatTraining(turns, seat, child, report);
            RecordedRun &result = results[static_cast<std::size_t>(seat)];
            try {
                result = runRecorded(requests[static_cast<std::size_t>(seat)], observer,
                                     stopRequested, training.train, training.fingerprint,
                                     [report] { return report->pid.load(); });
            } catch (const std::exception &e) {
                result.outcome.reason = std::string("the run stopped with an error: ") + e.what();
            } catch (...) {
                result.outcome.reason = "the run stopped with an unknown error";
            }
            turns.leave(seat); // whatever happened: the others never wait for this seat
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    return results;
}

} // namespace devicebench
