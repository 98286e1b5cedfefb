// SPDX-License-Identifier: MIT
// RunRecorder: fills a run record from a run's events and rewrites its file as the run goes.
#include "devicebench/run_record.h"

#include "record_time.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>
#include <functional>
#include <utility>

namespace devicebench {
namespace {

double steadySeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

RunRecorder::RunRecorder(const RunConfig &config, std::string path, TrainingObserver *next,
                         std::string runId, FingerprintSource fingerprint)
    : path_(std::move(path)), next_(next), fingerprint_(std::move(fingerprint)),
      startSeconds_(steadySeconds()) {
    record_.runId = runId.empty() ? newRunId() : std::move(runId);
    record_.createdUtc = detail::utcTime(false);
    record_.config = config;
    record_.workload = toString(config.workload);
    record_.status = "running";
}

void RunRecorder::onRunStarted(const RunStarted &info) {
    record_.started = info;
    // After the engine set its thread count, so the fingerprint's intra-op threads are the run's.
    record_.fingerprint = takeFingerprint();
    record_.data = identifyData(record_.config, info.trainImages, info.testImages);
    save();
    if (next_ != nullptr) {
        next_->onRunStarted(info);
    }
}

void RunRecorder::onStepLosses(const std::vector<StepLoss> &losses) {
    const double seconds = steadySeconds() - startSeconds_;
    for (const auto &l : losses) {
        record_.steps.push_back({l.epoch, l.step, l.loss, seconds});
    }
    if (next_ != nullptr) {
        next_->onStepLosses(losses);
    }
}

void RunRecorder::onEpochFinished(const EpochResult &epoch) {
    record_.epochs.push_back(epoch);
    save();
    if (next_ != nullptr) {
        next_->onEpochFinished(epoch);
    }
}

void RunRecorder::onRunEnded(const RunOutcome &outcome) {
    if (record_.started.device.empty()) {
        // Ended before it started (e.g. the data could not be read): still say on what.
        record_.fingerprint = takeFingerprint();
        record_.data =
            identifyData(record_.config, record_.config.trainImages, record_.config.testImages);
    }
    record_.epochs = outcome.epochs;
    record_.status = toString(outcome.status);
    record_.reason = outcome.reason;
    save();
    if (next_ != nullptr) {
        next_->onRunEnded(outcome);
    }
}

Fingerprint RunRecorder::takeFingerprint() const {
    if (!fingerprint_) {
        return {};
    }
    try {
        return fingerprint_();
    } catch (const std::exception &e) { // an observer must not throw (run_types.h)
        spdlog::error("collecting the machine fingerprint failed: {}", e.what());
        return {};
    }
}

void RunRecorder::save() {
    if (path_.empty()) {
        return;
    }
    try {
        writeRunRecord(path_, record_);
        writeError_.clear();
    } catch (const std::exception &e) {
        if (writeError_ != e.what()) {
            spdlog::error("{}", e.what());
        }
        writeError_ = e.what();
    }
}

} // namespace devicebench
