// SPDX-License-Identifier: MIT
// Child runs: a training run made by another process, which reports its events as lines on
// its stdout (run_events.h; docs/child-runs.md). Interleaved runs give each run a process of
// its own this way (interleaved_run.h), and the article's Python script runs as a child too.
// LibTorch- and Qt-free header.
#pragma once

#include "devicebench/epoch_turns.h"
#include "devicebench/fingerprint.h"
#include "devicebench/run_types.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace devicebench {

// The program of a child run: argv[0] is a path or a name looked up in PATH; `name` is how
// messages call it (e.g. "devicebench-cli", "/usr/bin/python3").
struct ChildProgram {
    std::vector<std::string> argv;
    std::string name;
    bool echoStderr = false; // its stderr also goes to this process's stderr, as it comes
    // A user's script (script_run.h): the lines go both ways on a socket of their own, the
    // child's descriptor 3 (named in $DEVICEBENCH_CHANNEL_FD), not on stdin and stdout, which
    // the script keeps for itself (its stdout joins its stderr). Such a child always takes
    // turns, and between its turns this process measures the canary and each epoch's load
    // (its process tree's CPU), as the engine's loop does for its own runs.
    bool channel = false;
    std::vector<std::string> environment{}; // "NAME=value" added to the child's environment
    int startSeconds = 0; // > 0: the "started" event must come within this, else it fails
    // Why a child that ended well without telling a single event failed, and what to change
    // (a user's script that never called devicebench.run()); "" for "ended without saying how".
    std::string silentExitHint{};
};

// What a child run told besides its events.
struct ChildReport {
    std::optional<Fingerprint> fingerprint; // its "started" event's, when it sent one
    std::string program;                    // its "started" event's "program" object (JSON)
    std::optional<PythonRuntime> python;    // that program's Python (the article's script)
    int threads = 0;                        // its "started" event's intra-op threads
    // The child's process id once it started (0 before): whose CPU and memory the system
    // sampler reads. Set on the run's thread, read on the sampler's.
    std::atomic<int> pid{0};
};

// Runs `program` as a child in a process group of its own and tells `observer` its events,
// in TrainingObserver's order, onRunEnded included. Stop: the group gets SIGTERM (the child
// should end "cancelled"), SIGKILL one second later if it has not ended. A child that dies,
// cannot start or writes a line that is not an event ends the run Failed, keeping its finished
// epochs, with the reason and the child's last stderr lines. `gate` (may be null): the child
// trains only while this process holds the gate: each turn, "take" is written to its stdin and
// the turn lasts until it writes a "pass" event or ends. `report` (may be null) receives the
// fingerprint before observer.onRunStarted is called.
RunOutcome runChildTraining(const ChildProgram &program, const RunConfig &config,
                            TrainingObserver &observer, const std::atomic<bool> &stopRequested,
                            TurnGate *gate = nullptr, ChildReport *report = nullptr);

// runChildTraining of the program `makeProgram` makes; when that throws, the run ends Failed
// with its message (told to `observer`, `gate` left) and nothing is started.
RunOutcome runChildTrainingOf(const std::function<ChildProgram()> &makeProgram,
                              const RunConfig &config, TrainingObserver &observer,
                              const std::atomic<bool> &stopRequested, TurnGate *gate = nullptr,
                              ChildReport *report = nullptr);

// The child's side, for DeviceBench's own child (`devicebench-cli train-child`): runs `config`
// with runTraining, writing its events as lines on stdout (with the machine's fingerprint,
// collected after the run set its threads). With `takeTurns`, it trains only in turns: it
// waits for a "take" line on stdin before its set-up and each epoch, and writes a "pass" line
// after; stdin's end counts as a stop. Returns the outcome (also written as the "ended" line).
RunOutcome runAsChild(const RunConfig &config, bool takeTurns, std::atomic<bool> &stopRequested);

} // namespace devicebench
