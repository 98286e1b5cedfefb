// SPDX-License-Identifier: MIT
// Engine-internal (run): the system sampler of one recorded run, in front of its RunRecorder.
// It hands the sampler's readings on with the step losses (on the run's thread, so observers
// behind never see another thread), gives each finished epoch its EpochSystem (the readings of
// the epoch's own seconds, on the run's clock), and tells how the run is sampled as an event
// (onSamplingChanged). It knows the observer behind it only as a TrainingObserver.
#pragma once

#include "devicebench/run_record.h"
#include "devicebench/system_sampler.h"

#include <functional>
#include <map>
#include <vector>

namespace devicebench::detail {

class SamplingObserver final : public TrainingObserver {
public:
    // `sampler` is started by the caller and reads on `clock`; `next` (the run's recorder)
    // receives every event after this.
    SamplingObserver(SystemSampler &sampler, TrainingObserver &next, RunClock clock);
    void onRunStarted(const RunStarted &info) override;
    void onStepLosses(const std::vector<StepLoss> &losses) override;
    void onEpochFinished(const EpochResult &epoch) override;
    // Readings a train function made itself are handed on as they are.
    void onSystemSamples(const std::vector<SystemSample> &samples) override;
    void onSamplingChanged(const SamplingInfo &sampling) override;
    void onRunEnded(const RunOutcome &outcome) override;

private:
    void handOnSamples();
    void tellSampling(); // onSamplingChanged behind, when the sampler's info changed
    SystemSampler &m_sampler;
    TrainingObserver &m_next;
    RunClock m_clock;
    double m_unixAtZero; // the system clock when the run's clock read 0
    SamplingInfo m_told; // the info last told behind
    std::map<int, EpochSystem> m_epochs;
};

// The sampler's options for a run of `config` (samplerOptionsFor, system_sampler.h): `process`
// the root of its process tree, `clock` the run's.
SamplerOptions samplerOptionsFor(const RunConfig &config, RunClock clock,
                                 std::function<int()> process);

} // namespace devicebench::detail
