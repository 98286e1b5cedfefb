// SPDX-License-Identifier: MIT
// Recorded runs interleaved epoch by epoch (epoch_turns.h): each request is a recorded run
// (recorded_run.h) on a thread of its own, taking its turns, so that its record is the one it
// would have written alone, with each epoch's start time showing the alternation. LibTorch- and
// Qt-free header.
#pragma once

#include "devicebench/child_run.h"
#include "devicebench/recorded_run.h"

#include <atomic>
#include <vector>

namespace devicebench {

// Runs `requests` interleaved and returns their results in request order, when all have ended.
// `downstream` holds one observer per request (entries may be null), or is empty; the observers
// are called on the runs' threads, one run at a time (never two at once). A stop request ends
// every run as cancelled. Precondition: every request passed checkRunRequest. Throws
// std::invalid_argument when `downstream` is neither empty nor of the requests' size.
//
// `child` (may be null): each run trains in a process of its own, `child.argv` followed by
// "--config-json <runConfigJson> --turns" (DeviceBench's `devicebench-cli train-child`,
// runAsChild in child_run.h), so that no run inherits another's process-wide kernel state
// (docs/MEASURING.md, "Interleaved runs"); the record is made here, with the child's
// fingerprint. Null: each run trains on a thread of this process.
std::vector<RecordedRun> runRecordedInterleaved(const std::vector<RunRequest> &requests,
                                                const std::vector<RecordObserver *> &downstream,
                                                const std::atomic<bool> &stopRequested,
                                                const ChildProgram *child = nullptr);

} // namespace devicebench
