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

} // namespace devicebench
