// SPDX-License-Identifier: MIT
// The signals that end a program in a person's hands, and the words a run's record says each
// with ("stopped by <cause> during epoch N"; stop_cause.h): the parameters of the CLI's and the
// dashboard's tests of them.
#pragma once

#include <gtest/gtest.h>

#include <csignal>
#include <string>

namespace devicebench::testing {

struct StopSignal {
    int number;
    const char *name;  // the test's name: "Sighup"
    const char *cause; // in the record's reason
};

inline auto stopSignals() {
    return ::testing::Values(StopSignal{SIGINT, "Sigint", "the user"},
                             StopSignal{SIGTERM, "Sigterm", "SIGTERM (asked to end)"},
                             StopSignal{SIGHUP, "Sighup", "SIGHUP (the terminal closed)"},
                             StopSignal{SIGQUIT, "Sigquit", "SIGQUIT (Ctrl-\\)"});
}

inline std::string stopSignalName(const ::testing::TestParamInfo<StopSignal> &info) {
    return info.param.name;
}

} // namespace devicebench::testing
