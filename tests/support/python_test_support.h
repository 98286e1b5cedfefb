// SPDX-License-Identifier: MIT
// Helpers of the tests that run Python children (the article's script, a user's script):
// which Python, and an observer that acts when a run's first epoch has finished.
#pragma once

#include "devicebench/run_record.h"

#include <cstdlib>
#include <functional>
#include <string>
#include <utility>

namespace devicebench::testing {

// $DEVICEBENCH_TEST_PYTHON when set and not empty, else `builtIn` (the Python CMake found).
inline std::string testPythonOr(const char *builtIn) {
    const char *fromEnv = std::getenv("DEVICEBENCH_TEST_PYTHON");
    return fromEnv != nullptr && *fromEnv != '\0' ? fromEnv : builtIn;
}

// Calls `act` when the run's first epoch has finished (e.g. to stop it, or to kill its child).
class AfterFirstEpoch : public RecordObserver {
public:
    explicit AfterFirstEpoch(std::function<void()> act) : m_act(std::move(act)) {}
    void onEpochFinished(const EpochResult &epoch) override {
        if (epoch.epoch == 1)
            m_act();
    }
    void onRunEnded(const RunOutcome & /*outcome*/) override {}

private:
    std::function<void()> m_act;
};

} // namespace devicebench::testing
