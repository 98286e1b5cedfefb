// SPDX-License-Identifier: MIT
// Engine-internal (run): the system sampler of one recorded run, in front of its RunRecorder.
// It hands the sampler's readings on with the step losses (on the run's thread, so observers
// behind never see another thread), gives each finished epoch its EpochSystem (the readings of
// the epoch's own seconds), and keeps the recorder's SamplingInfo current.
#pragma once

#include "devicebench/run_record.h"
#include "devicebench/system_sampler.h"

#include <map>

namespace devicebench::detail {

class SamplingObserver final : public TrainingObserver {
public:
    // `sampler` is started by the caller; `recorder` receives every event after this.
    SamplingObserver(SystemSampler &sampler, RunRecorder &recorder);
    void onRunStarted(const RunStarted &info) override;
    void onStepLosses(const std::vector<StepLoss> &losses) override;
    void onEpochFinished(const EpochResult &epoch) override;
    // Readings a train function made itself are handed on as they are.
    void onSystemSamples(const std::vector<SystemSample> &samples) override;
    void onRunEnded(const RunOutcome &outcome) override;

private:
    void handOnSamples();
    SystemSampler &m_sampler;
    RunRecorder &m_recorder;
    double m_unixAtZero; // the system clock when the recorder's clock read 0
    std::map<int, EpochSystem> m_epochs;
};

// The sampler's options for a run of `config` (samplerOptionsFor, system_sampler.h): `process`
// the root of its process tree, the recorder's clock.
SamplerOptions samplerOptionsFor(const RunConfig &config, const RunRecorder &recorder,
                                 std::function<int()> process);

} // namespace devicebench::detail
