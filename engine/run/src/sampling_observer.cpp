// SPDX-License-Identifier: MIT
#include "sampling_observer.h"

#include "devicebench/gpu_bus.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

namespace devicebench::detail {
namespace {

double unixNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

SamplerOptions samplerOptionsFor(const RunConfig &config, RunClock clock,
                                 std::function<int()> process) {
    const int index = cudaDeviceIndex(config.device);
    SamplerOptions options =
        devicebench::samplerOptionsFor(config.device, index >= 0 ? cudaPciBusId(index) : "");
    options.process = std::move(process);
    options.clock = [clock] { return clock.seconds(); };
    return options;
}

SamplingObserver::SamplingObserver(SystemSampler &sampler, TrainingObserver &next, RunClock clock)
    : m_sampler(sampler), m_next(next), m_clock(clock), m_unixAtZero(unixNow() - clock.seconds()),
      m_told(sampler.info()) {
    m_next.onSamplingChanged(m_told);
}

void SamplingObserver::tellSampling() {
    SamplingInfo info = m_sampler.info();
    if (info.sampled == m_told.sampled && info.periodSeconds == m_told.periodSeconds &&
        info.notes == m_told.notes)
        return;
    m_told = std::move(info);
    m_next.onSamplingChanged(m_told);
}

void SamplingObserver::handOnSamples() {
    std::vector<SystemSample> samples = m_sampler.takeNew();
    if (!samples.empty())
        m_next.onSystemSamples(samples);
}

void SamplingObserver::onRunStarted(const RunStarted &info) {
    tellSampling(); // the GPU's notes, now that the sources are open
    m_next.onRunStarted(info);
    handOnSamples(); // after the start: observers learn of the run before its readings
}

void SamplingObserver::onStepLosses(const std::vector<StepLoss> &losses) {
    m_next.onStepLosses(losses);
    handOnSamples();
}

void SamplingObserver::onSystemSamples(const std::vector<SystemSample> &samples) {
    m_next.onSystemSamples(samples);
}

void SamplingObserver::onSamplingChanged(const SamplingInfo &sampling) {
    m_next.onSamplingChanged(sampling); // a train function's own (none does today)
}

void SamplingObserver::onEpochFinished(const EpochResult &epoch) {
    // The epoch's own seconds on the recorder's clock: from when it began (system clock), else
    // back from now (then the canary's time after the epoch shifts the window a little).
    m_sampler.readNow(); // a reading after the epoch's end, outside every epoch's clock
    const double end = std::isnan(epoch.startedUnixSeconds)
                           ? m_clock.seconds()
                           : epoch.startedUnixSeconds - m_unixAtZero + epoch.seconds;
    EpochResult sampled = epoch;
    sampled.system = m_sampler.epoch(end - epoch.seconds, end);
    m_epochs[epoch.epoch] = sampled.system;
    tellSampling();
    handOnSamples();
    m_next.onEpochFinished(sampled);
}

void SamplingObserver::onRunEnded(const RunOutcome &outcome) {
    m_sampler.stop();
    handOnSamples();
    tellSampling();
    RunOutcome sampled = outcome; // the outcome's epochs are what the record keeps
    for (EpochResult &e : sampled.epochs) {
        const auto it = m_epochs.find(e.epoch);
        if (it != m_epochs.end())
            e.system = it->second;
    }
    m_next.onRunEnded(sampled);
}

} // namespace devicebench::detail
