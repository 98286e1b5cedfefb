// SPDX-License-Identifier: MIT
#include "devicebench/run_types.h"

namespace devicebench {

const char *toString(RunStatus status) {
    switch (status) {
    case RunStatus::Finished:
        return "finished";
    case RunStatus::Cancelled:
        return "cancelled";
    case RunStatus::Diverged:
        return "diverged";
    case RunStatus::Failed:
        return "failed";
    }
    return "failed";
}

const char *toString(Workload workload) {
    return workload == Workload::Tuned ? "tuned" : "faithful";
}

bool parseWorkload(const std::string &text, Workload *workload) {
    if (text == "faithful") {
        *workload = Workload::Faithful;
        return true;
    }
    if (text == "tuned") {
        *workload = Workload::Tuned;
        return true;
    }
    return false;
}

} // namespace devicebench
