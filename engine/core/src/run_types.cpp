// SPDX-License-Identifier: MIT
#include "devicebench/run_types.h"
#include "devicebench/precision_text.h"

#include <algorithm>
#include <iterator>
#include <utility>

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

namespace {

// Each precision's record text and short name; each TF32 mode's text.
struct PrecisionName {
    Precision precision;
    const char *recordText;
    const char *shortText;
};
constexpr PrecisionName kPrecisionNames[] = {{Precision::Float32, "float32", "fp32"},
                                             {Precision::BFloat16, "bfloat16", "bf16"},
                                             {Precision::Float16, "float16", "fp16"}};
constexpr std::pair<Tf32, const char *> kTf32Names[] = {
    {Tf32::Default, "default"}, {Tf32::On, "on"}, {Tf32::Off, "off"}};

const PrecisionName &namesOf(Precision precision) {
    for (const PrecisionName &names : kPrecisionNames) {
        if (names.precision == precision)
            return names;
    }
    return kPrecisionNames[0];
}

} // namespace

const char *toString(Precision precision) { return namesOf(precision).recordText; }

const char *shortName(Precision precision) { return namesOf(precision).shortText; }

bool parsePrecision(const std::string &text, Precision *precision) {
    for (const PrecisionName &names : kPrecisionNames) {
        if (text == names.shortText || text == names.recordText) {
            *precision = names.precision;
            return true;
        }
    }
    return false;
}

bool isRecordedPrecision(const std::string &text) {
    for (const PrecisionName &names : kPrecisionNames) {
        if (text == names.recordText)
            return true;
    }
    return false;
}

std::string precisionShortText(const std::string &recordText) {
    for (const PrecisionName &names : kPrecisionNames) {
        if (recordText == names.recordText)
            return names.shortText;
    }
    return recordText;
}

const char *toString(Tf32 tf32) {
    for (const auto &[mode, text] : kTf32Names) {
        if (mode == tf32)
            return text;
    }
    return "default";
}

bool parseTf32(const std::string &text, Tf32 *tf32) {
    for (const auto &[mode, name] : kTf32Names) {
        if (text == name) {
            *tf32 = mode;
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
