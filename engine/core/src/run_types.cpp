// SPDX-License-Identifier: MIT
#include "devicebench/run_types.h"

#include <algorithm>
#include <iterator>

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

bool isKnownModel(const std::string &name) {
    return std::find(std::begin(kModelNames), std::end(kModelNames), name) != std::end(kModelNames);
}

bool isSupportedImageSize(int pixels) {
    return std::find(std::begin(kImageSizes), std::end(kImageSizes), pixels) !=
           std::end(kImageSizes);
}

} // namespace devicebench
