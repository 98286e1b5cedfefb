// SPDX-License-Identifier: MIT
// Phase timing ("where the time goes"): a phase-timed run's six phases cover each
// epoch's wall time, a normal run has none, and timing the phases does not change what is
// computed. Also the phase summary (phase_summary.h) the CSV, CLI and dashboard share.
#include "devicebench/phase_summary.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <vector>

using namespace devicebench;

namespace {

class EpochObserver : public TrainingObserver {
public:
    void onStepLosses(const std::vector<StepLoss> &losses) override {
        steps.insert(steps.end(), losses.begin(), losses.end());
    }
    void onEpochFinished(const EpochResult &e) override { epochs.push_back(e); }
    void onRunEnded(const RunOutcome &o) override { outcome = o; }
    std::vector<StepLoss> steps;
    std::vector<EpochResult> epochs;
    RunOutcome outcome;
};

// Small enough for the ASan build: 8 steps of 32 images and 2 test batches per epoch.
RunConfig phaseConfig(bool phases) {
    RunConfig c;
    c.synthetic = true;
    c.epochs = 2;
    c.warmupEpochs = 1;
    c.batchSize = 32;
    c.trainImages = 256;
    c.testImages = 64;
    c.threads = 1;
    c.lossFetchInterval = 5; // fetches inside the pass and a partial one at its end
    c.phases = phases;
    return c;
}

// Half of phaseConfig's images: 4 steps and one test batch per epoch.
RunConfig smallerConfig(bool phases) {
    RunConfig c = phaseConfig(phases);
    c.trainImages = 128;
    c.testImages = 32;
    return c;
}

EpochObserver run(const RunConfig &config) {
    EpochObserver observer;
    std::atomic<bool> stop{false};
    runTraining(config, observer, stop);
    return observer;
}

EpochResult epochWithPhases(double data, double forward, double loss, double backward,
                            double optimizer, double test, int epoch) {
    EpochResult e;
    e.epoch = epoch;
    e.phases = {true, data, forward, loss, backward, optimizer, test};
    e.seconds = e.phases.total();
    return e;
}

} // namespace

TEST(PhaseTiming, PhasesOfEachEpochAddUpToItsWallTimeWithinFivePercent) {
    const EpochObserver observer = run(phaseConfig(true));
    ASSERT_EQ(observer.outcome.status, RunStatus::Finished) << observer.outcome.reason;
    ASSERT_EQ(observer.epochs.size(), 2u);
    for (const EpochResult &e : observer.epochs) {
        ASSERT_TRUE(e.phases.measured) << "epoch " << e.epoch;
        EXPECT_NEAR(e.phases.total(), e.seconds, 0.05 * e.seconds) << "epoch " << e.epoch;
        for (const PhaseField &f : phaseFields())
            EXPECT_GT(e.phases.*f.seconds, 0.0) << "epoch " << e.epoch << " phase " << f.name;
    }
    // The outcome's epochs (what the record keeps) carry the same phases.
    ASSERT_EQ(observer.outcome.epochs.size(), 2u);
    EXPECT_DOUBLE_EQ(observer.outcome.epochs[1].phases.backward,
                     observer.epochs[1].phases.backward);
}

TEST(PhaseTiming, ARunWithoutPhasesHasNoPhaseTimes) {
    const EpochObserver observer = run(smallerConfig(false));
    ASSERT_EQ(observer.outcome.status, RunStatus::Finished) << observer.outcome.reason;
    ASSERT_EQ(observer.epochs.size(), 2u);
    for (const EpochResult &e : observer.epochs) {
        EXPECT_FALSE(e.phases.measured);
        EXPECT_EQ(e.phases.total(), 0.0);
    }
}

TEST(PhaseTiming, TimingThePhasesDoesNotChangeWhatIsComputed) {
    for (const Workload workload : {Workload::Faithful, Workload::Tuned}) {
        RunConfig timed = smallerConfig(true);
        RunConfig normal = smallerConfig(false);
        timed.workload = normal.workload = workload;
        timed.epochs = normal.epochs = 1;
        timed.warmupEpochs = normal.warmupEpochs = 0;
        const EpochObserver a = run(timed);
        const EpochObserver b = run(normal);
        ASSERT_EQ(a.steps.size(), b.steps.size()) << toString(workload);
        for (std::size_t i = 0; i < a.steps.size(); ++i)
            EXPECT_EQ(a.steps[i].loss, b.steps[i].loss) << toString(workload) << " step " << i;
        ASSERT_EQ(a.epochs.size(), 1u);
        ASSERT_EQ(b.epochs.size(), 1u);
        EXPECT_EQ(a.epochs[0].testLoss, b.epochs[0].testLoss) << toString(workload);
    }
}

TEST(PhaseSummary, StableMeanLeavesOutWarmupAndUnmeasuredEpochs) {
    std::vector<EpochResult> epochs = {epochWithPhases(9, 9, 9, 9, 9, 9, 1),
                                       epochWithPhases(1, 2, 3, 4, 5, 6, 2),
                                       epochWithPhases(3, 4, 5, 6, 7, 8, 3)};
    EpochResult unmeasured;
    unmeasured.epoch = 4;
    unmeasured.seconds = 100.0;
    epochs.push_back(unmeasured);
    int count = -1;
    const PhaseTimes mean = stablePhaseMean(epochs, 1, &count);
    EXPECT_TRUE(mean.measured);
    EXPECT_EQ(count, 2);
    EXPECT_DOUBLE_EQ(mean.data, 2.0);
    EXPECT_DOUBLE_EQ(mean.forward, 3.0);
    EXPECT_DOUBLE_EQ(mean.loss, 4.0);
    EXPECT_DOUBLE_EQ(mean.backward, 5.0);
    EXPECT_DOUBLE_EQ(mean.optimizer, 6.0);
    EXPECT_DOUBLE_EQ(mean.test, 7.0);
}

TEST(PhaseSummary, NoMeasuredStableEpochMeansNotMeasured) {
    const std::vector<EpochResult> epochs = {epochWithPhases(1, 1, 1, 1, 1, 1, 1)};
    int count = -1;
    EXPECT_FALSE(stablePhaseMean(epochs, 1, &count).measured);
    EXPECT_EQ(count, 0);
    EXPECT_TRUE(std::isnan(phaseFractions(PhaseTimes{})[0]));
    EXPECT_EQ(phaseSplitText(PhaseTimes{}), "");
}

TEST(PhaseSummary, SplitTextGivesEachPhaseItsWholePercent) {
    const PhaseTimes phases = {true, 4.0, 31.0, 0.2, 52.8, 6.0, 6.0};
    EXPECT_EQ(phaseSplitText(phases),
              "data 4% forward 31% loss <1% backward 53% optimizer 6% test 6%");
    const auto fractions = phaseFractions(phases);
    EXPECT_DOUBLE_EQ(fractions[1], 0.31);
}
