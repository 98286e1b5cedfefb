// SPDX-License-Identifier: MIT
// Helpers shared by the ui tests: those of the controller tests, and a live run in a store.
#pragma once

#include "controller_support.h"

#include "devicebench/run_record.h"
#include "devicebench/run_types.h"

#include "store/run_store.h"

#include <string>

namespace devicebench::test {

// Adds a live run to `store` with the record the engine's RunRecorder makes when run `config`
// starts as `info` (what RunController::recordStarted delivers in the dashboard): the same
// record author as the CLI's, nothing made up on the GUI thread.
// In a real run the engine has set the intra-op thread count to info.threads before the
// recorder takes the fingerprint; here the fingerprint says so directly.
inline int addLiveRun(RunStore &store, int id, const RunConfig &config, const RunStarted &info) {
    RunRecorder recorder(config, /*path=*/std::string(), /*next=*/nullptr, /*runId=*/{}, [&info] {
        Fingerprint fingerprint = collectFingerprint();
        fingerprint.intraOpThreads = info.threads;
        return fingerprint;
    });
    recorder.onRunStarted(info);
    return store.addRun(id, recorder.record());
}

} // namespace devicebench::test
