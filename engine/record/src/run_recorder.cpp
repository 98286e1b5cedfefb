// SPDX-License-Identifier: MIT
// RunRecorder: fills a run record from a run's events and rewrites its file as the run goes.
#include "devicebench/run_record.h"

#include "record_time.h"
#include "script_settings.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace devicebench {
namespace {

double steadySeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

RunClock::RunClock() : m_startSeconds(steadySeconds()) {}

double RunClock::seconds() const { return steadySeconds() - m_startSeconds; }

RunRecorder::RunRecorder(const RunConfig &config, std::string path, RecordObserver *next,
                         std::string runId, FingerprintSource fingerprint, RunClock clock)
    : m_path(std::move(path)), m_next(next), m_fingerprint(std::move(fingerprint)), m_clock(clock) {
    m_record.runId = runId.empty() ? newRunId() : std::move(runId);
    m_record.createdUtc = detail::utcTime(false);
    m_record.config = config;
    m_record.model = config.model; // the record's top-level model is the one trained
    m_record.workload = toString(config.workload);
    m_record.precision = toString(config.precision);
    m_record.status = "running";
}

void RunRecorder::onRunStarted(const RunStarted &info) {
    m_record.started = info;
    detail::adoptScriptSettings(m_record); // a script's own model, batch size, learning rate
    // After the engine set its thread count, so the fingerprint's intra-op threads are the run's.
    m_record.fingerprint = takeFingerprint();
    m_record.data = identifyData(m_record.config, info.trainImages, info.testImages);
    save();
    if (m_next != nullptr) {
        m_next->onRecordStarted(m_record);
        m_next->onRunStarted(info);
    }
}

void RunRecorder::onStepLosses(const std::vector<StepLoss> &losses) {
    const double seconds = m_clock.seconds();
    std::vector<StepLoss> timed = losses;
    for (StepLoss &l : timed) {
        l.seconds = seconds;
        m_record.steps.push_back({l.epoch, l.step, l.loss, seconds});
    }
    if (m_next != nullptr) {
        m_next->onStepLosses(timed);
    }
}

void addEpoch(RunRecord &record, const EpochResult &epoch) {
    record.epochs.push_back(epoch);
    RunStarted &started = record.started;
    if (started.stepsPerEpoch == 0 && epoch.steps > 0) {
        started.stepsPerEpoch = epoch.steps;
        started.trainImages = std::max<std::int64_t>(0, epoch.trainImages);
    }
}

std::int64_t stepsPerEpochOf(const RunRecord &record) {
    if (record.started.stepsPerEpoch > 0)
        return record.started.stepsPerEpoch;
    return std::max<std::int64_t>(1, static_cast<std::int64_t>(record.steps.size()));
}

void RunRecorder::onEpochFinished(const EpochResult &epoch) {
    addEpoch(m_record, epoch);
    save();
    if (m_next != nullptr) {
        m_next->onEpochFinished(epoch);
    }
}

void RunRecorder::onSystemSamples(const std::vector<SystemSample> &samples) {
    m_record.samples.insert(m_record.samples.end(), samples.begin(), samples.end());
    if (m_next != nullptr)
        m_next->onSystemSamples(samples);
}

void RunRecorder::onSamplingChanged(const SamplingInfo &sampling) { m_record.sampling = sampling; }

void RunRecorder::onRunEnded(const RunOutcome &outcome) {
    if (m_record.started.device.empty()) {
        // Ended before it started (e.g. the data could not be read): still say on what.
        m_record.fingerprint = takeFingerprint();
        m_record.data =
            identifyData(m_record.config, m_record.config.trainImages, m_record.config.testImages);
    }
    m_record.epochs = outcome.epochs;
    m_record.status = toString(outcome.status);
    m_record.reason = outcome.reason;
    save();
    if (m_next != nullptr)
        m_next->onRunEnded(outcome);
}

Fingerprint RunRecorder::takeFingerprint() const {
    if (!m_fingerprint) {
        return {};
    }
    try {
        return m_fingerprint();
    } catch (const std::exception &e) { // an observer must not throw (run_types.h)
        spdlog::error("collecting the machine fingerprint failed: {}", e.what());
        return {};
    }
}

void RunRecorder::save() {
    if (m_path.empty()) {
        return;
    }
    try {
        writeRunRecord(m_path, m_record);
        m_writeError.clear();
    } catch (const std::exception &e) {
        if (m_writeError != e.what()) {
            spdlog::error("{}", e.what());
        }
        m_writeError = e.what();
    }
}

} // namespace devicebench
