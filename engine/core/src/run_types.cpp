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

const char *toString(Precision precision) {
    switch (precision) {
    case Precision::BFloat16:
        return "bfloat16";
    case Precision::Float16:
        return "float16";
    case Precision::Float32:
        break;
    }
    return "float32";
}

const char *shortName(Precision precision) {
    switch (precision) {
    case Precision::BFloat16:
        return "bf16";
    case Precision::Float16:
        return "fp16";
    case Precision::Float32:
        break;
    }
    return "fp32";
}

bool parsePrecision(const std::string &text, Precision *precision) {
    for (Precision p : {Precision::Float32, Precision::BFloat16, Precision::Float16}) {
        if (text == shortName(p) || text == toString(p)) {
            *precision = p;
            return true;
        }
    }
    return false;
}

const char *toString(Tf32 tf32) {
    switch (tf32) {
    case Tf32::On:
        return "on";
    case Tf32::Off:
        return "off";
    case Tf32::Default:
        break;
    }
    return "default";
}

bool parseTf32(const std::string &text, Tf32 *tf32) {
    for (Tf32 t : {Tf32::Default, Tf32::On, Tf32::Off}) {
        if (text == toString(t)) {
            *tf32 = t;
            return true;
        }
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
