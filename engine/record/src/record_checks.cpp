// SPDX-License-Identifier: MIT
// What a real run can produce (run_record.h, checkRunRecord): every imported record is held
// against it, so an impossible one (a hand-edited or corrupted file) is refused naming the file
// and the field, like a truncated one, instead of being compared.
#include "devicebench/run_record.h"

#include "json_field_reader.h"

#include "devicebench/machine_drift.h"
#include "devicebench/phase_summary.h"
#include "devicebench/time_to_target.h"
#include "devicebench/workloads.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace devicebench {
namespace {

constexpr double kLongestEpochSeconds = 1e7;

std::string text(double value) {
    std::ostringstream s;
    s.precision(17);
    s << value;
    return s.str();
}

// The JSON reader's failures (FieldReader::fail: "<source>: field '<path>' <problem>") and the
// checks of values a real run cannot produce.
class Checker : public detail::FieldReader {
public:
    using FieldReader::FieldReader;

    void atLeast(const std::string &field, std::int64_t value, std::int64_t min) const {
        if (value < min) {
            fail(field, "must be at least " + std::to_string(min) + " (got " +
                            std::to_string(value) + ")");
        }
    }
    // A loss (mean cross-entropy, nats): 0 or more; NaN/inf only where `mayBeNonFinite`.
    void loss(const std::string &field, double value, bool mayBeNonFinite) const {
        if (!std::isfinite(value)) {
            if (!mayBeNonFinite) {
                fail(field, "must be a finite number in a run that did not diverge (got " +
                                std::string(std::isnan(value) ? "null" : text(value)) + ")");
            }
            if (value < 0.0) {
                fail(field, "must not be negative (got -inf): a cross-entropy is 0 or more");
            }
            return;
        }
        if (value < 0.0) {
            fail(field,
                 "must not be negative (got " + text(value) + "): a cross-entropy is 0 or more");
        }
    }
};

// The model settings of a run that trained: the image size is one of kImageSizes.
// The model's name is not checked: a record from another tool may name a model this version
// does not know; it is kept as text, and the comparison says such runs differ.
void checkModelSettings(const Checker &c, const RunConfig &config) {
    if (!isSupportedImageSize(config.imageSize)) {
        c.fail("config.imageSize",
               "must be 32, 64 or 128 pixels (got " + std::to_string(config.imageSize) + ")");
    }
}

std::string at(const char *array, std::size_t i, const char *key) {
    return std::string(array) + "[" + std::to_string(i) + "]." + key;
}

// Phase times: each a finite number of seconds, 0 or more, and present exactly in
// the epochs of a phase-timed run (config.phases).
void checkPhases(const Checker &c, const EpochResult &e, std::size_t i, bool phaseTimed) {
    const std::string path = at("epochs", i, "phases");
    if (e.phases.measured != phaseTimed) {
        c.fail(path, phaseTimed ? "is missing: config.phases says the run was phase-timed"
                                : "is present, but config.phases says the run was not "
                                  "phase-timed");
    }
    if (!e.phases.measured)
        return;
    for (const PhaseField &f : phaseFields()) {
        const double seconds = e.phases.*f.seconds;
        if (!std::isfinite(seconds) || seconds < 0.0) {
            c.fail(path + "." + f.name,
                   "must be a finite number of seconds, 0 or more (got " + text(seconds) + ")");
        }
    }
}

// Settings: a run that finished an epoch had them validated before it started
// (validateRunConfig, trainer.h). A record of a run refused before its first epoch keeps the
// refused settings, with the reason.
void checkSettings(const Checker &c, const RunRecord &r) {
    const auto epochCount = static_cast<std::int64_t>(r.epochs.size());
    if (epochCount == 0)
        return;
    c.atLeast("config.epochs", r.config.epochs, 1);
    // A script's batch size and learning rate are what it stated: 0 and null when it did not.
    const bool script = !workloadRow(r.config.workload).engineModel;
    c.atLeast("config.batchSize", r.config.batchSize, script ? 0 : 1);
    if (!(r.config.learningRate > 0.0) && !(script && std::isnan(r.config.learningRate))) {
        c.fail("config.learningRate", "must be above 0 (got " + text(r.config.learningRate) + ")");
    }
    c.atLeast("config.warmupEpochs", r.config.warmupEpochs, 0);
    c.atLeast("config.threads", r.config.threads, 0);
    c.atLeast("config.trainImages", r.config.trainImages, 0);
    c.atLeast("config.testImages", r.config.testImages, 0);
    c.atLeast("config.lossFetchInterval", r.config.lossFetchInterval, 1);
    checkModelSettings(c, r.config);
    if (epochCount > r.config.epochs) {
        c.fail("epochs", "holds " + std::to_string(epochCount) + " epochs; the run was set to " +
                             std::to_string(r.config.epochs) + " (config.epochs)");
    }
}

// Counts: none negative; the steps per epoch those of the training images in batches.
void checkCounts(const Checker &c, const RunRecord &r) {
    c.atLeast("started.threads", r.started.threads, 0);
    c.atLeast("started.trainImages", r.started.trainImages, 0);
    c.atLeast("started.testImages", r.started.testImages, 0);
    c.atLeast("started.stepsPerEpoch", r.started.stepsPerEpoch, 0);
    c.atLeast("data.trainImages", r.data.trainImages, 0);
    c.atLeast("data.testImages", r.data.testImages, 0);
    c.atLeast("started.modelParameters", r.started.modelParameters, 0);
    c.atLeast("started.multiplyAddsPerImage", r.started.multiplyAddsPerImage, 0);
    // A script's steps are counted, not derived: its sampler may drop or repeat images.
    if (!r.epochs.empty() && r.started.trainImages > 0 && r.started.stepsPerEpoch > 0 &&
        r.config.batchSize > 0 && workloadRow(r.config.workload).engineModel) {
        const std::int64_t steps =
            (r.started.trainImages + r.config.batchSize - 1) / r.config.batchSize;
        if (r.started.stepsPerEpoch != steps) {
            c.fail("started.stepsPerEpoch",
                   "is " + std::to_string(r.started.stepsPerEpoch) + "; " +
                       std::to_string(r.started.trainImages) + " training images in batches of " +
                       std::to_string(r.config.batchSize) + " make " + std::to_string(steps));
        }
    }
}

// Epoch i: numbered i + 1, took time, fractions and losses in range.
// An epoch's canaryChange is its canary against the run's first: the arithmetic, not the rule
// (whose margin a later version may change), is held against the record.
void checkCanary(const Checker &c, const RunRecord &r, std::size_t i) {
    const EpochResult &e = r.epochs[i];
    if (!e.canary.measured) {
        if (!std::isnan(e.canaryChange) || e.speedChanged)
            c.fail(at("epochs", i, e.speedChanged ? "speedChanged" : "canaryChange"),
                   "is there without the epoch's canary");
        return;
    }
    const double expected = canaryChange(r.started.canary, e.canary);
    const bool same = std::isnan(expected) ? std::isnan(e.canaryChange)
                                           : std::abs(e.canaryChange - expected) <=
                                                 1e-9 * std::max(1.0, std::abs(expected));
    if (!same)
        c.fail(at("epochs", i, "canaryChange"),
               "is " + text(e.canaryChange) +
                   ", but the epoch's canary against started.canary "
                   "gives " +
                   text(expected));
}

void checkEpoch(const Checker &c, const RunRecord &r, std::size_t i, bool diverged) {
    const EpochResult &e = r.epochs[i];
    if (e.epoch != static_cast<int>(i) + 1) {
        c.fail(at("epochs", i, "epoch"), "is " + std::to_string(e.epoch) + "; epochs are " +
                                             "numbered 1, 2, ... in order (expected " +
                                             std::to_string(i + 1) + ")");
    }
    if (!(e.seconds > 0.0) || !std::isfinite(e.seconds)) {
        c.fail(at("epochs", i, "seconds"),
               "must be above 0 (got " + text(e.seconds) + "): no real epoch takes no time");
    }
    // 10^7 s is 116 days: a number beyond it is an edit or a broken writer, and would overflow
    // the sums and intervals made of it.
    if (e.seconds > kLongestEpochSeconds) {
        c.fail(at("epochs", i, "seconds"),
               "must be at most 1e7 (got " + text(e.seconds) + "): no real epoch takes 116 days");
    }
    // A workload that need not test (a user's script): its test numbers may be null.
    const WorkloadRow *workload = findWorkload(r.workload);
    const bool untested = workload != nullptr && !workload->alwaysTests;
    if (!(e.testAccuracy >= 0.0 && e.testAccuracy <= 1.0) &&
        !(untested && std::isnan(e.testAccuracy))) {
        c.fail(at("epochs", i, "testAccuracy"),
               "must be a fraction from 0 to 1 (got " + text(e.testAccuracy) + ")");
    }
    c.loss(at("epochs", i, "trainLoss"), e.trainLoss, diverged);
    c.loss(at("epochs", i, "testLoss"), e.testLoss,
           diverged || (untested && std::isnan(e.testLoss)));
    if (e.imagesPerSecond < 0.0 || std::isinf(e.imagesPerSecond)) {
        c.fail(at("epochs", i, "imagesPerSecond"),
               "must be a finite number, 0 or more, or null (got " + text(e.imagesPerSecond) + ")");
    }
    checkPhases(c, e, i, r.config.phases);
    checkCanary(c, r, i);
    // Only a float16 run has a loss scaler, and it cannot skip more steps than an epoch has.
    if (e.skippedSteps >= 0 && r.precision != "float16")
        c.fail(at("epochs", i, "skippedSteps"),
               "belongs to float16 runs only (this record's precision is '" + r.precision + "')");
    if (e.skippedSteps > r.started.stepsPerEpoch && r.started.stepsPerEpoch > 0)
        c.fail(at("epochs", i, "skippedSteps"),
               "is " + std::to_string(e.skippedSteps) + ", more than the epoch's " +
                   std::to_string(r.started.stepsPerEpoch) + " steps");
}

// Steps: numbered from 1, increasing, in epochs from 1; losses as the epochs'.
void checkSteps(const Checker &c, const std::vector<TimedStepLoss> &steps, bool diverged) {
    std::int64_t previous = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const TimedStepLoss &s = steps[i];
        if (s.epoch < 1) {
            c.fail(at("steps", i, "epoch"),
                   "must be at least 1 (got " + std::to_string(s.epoch) + ")");
        }
        if (s.step <= previous) {
            c.fail(at("steps", i, "step"), "is " + std::to_string(s.step) +
                                               "; steps count up from 1 (the one before is " +
                                               std::to_string(previous) + ")");
        }
        previous = s.step;
        if (s.seconds < 0.0) {
            c.fail(at("steps", i, "seconds"), "must be 0 or more (got " + text(s.seconds) + ")");
        }
        c.loss(at("steps", i, "loss"), s.loss, diverged);
    }
}

} // namespace

void checkRunRecord(const RunRecord &r, const std::string &source) {
    const Checker c(source);
    // A loss that is not finite ends a run as diverged; a "running" record whose process died
    // at that step may hold it before the status says so.
    const bool diverged = r.status == "diverged" || r.status == "running";
    checkSettings(c, r);
    checkCounts(c, r);
    const auto epochCount = static_cast<std::int64_t>(r.epochs.size());
    // A run with a target ends at the epoch that reached it (time_to_target.h), before its
    // budget; no epoch may follow that one.
    const TargetResult target = timeToTarget(r.epochs, r.config.targetAccuracy);
    const bool reachedEarly = target.reached && target.epoch == epochCount;
    if (r.status == "finished" && epochCount != r.config.epochs && !reachedEarly) {
        c.fail("status", "is finished, but the record holds " + std::to_string(epochCount) +
                             " of its " + std::to_string(r.config.epochs) + " epochs");
    }
    if (target.reached && target.epoch < epochCount && r.status != "running")
        c.fail("epochs", "go on after epoch " + std::to_string(target.epoch) +
                             ", which reached the target accuracy");
    for (std::size_t i = 0; i < r.epochs.size(); ++i)
        checkEpoch(c, r, i, diverged);
    checkSteps(c, r.steps, diverged);
}

} // namespace devicebench
