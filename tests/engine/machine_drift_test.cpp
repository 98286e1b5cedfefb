// SPDX-License-Identifier: MIT
// A machine that changes speed under a run: the canary, the rule that flags an epoch, the
// record fields (old records unflagged), the check across runs, and interleaved runs.
#include "devicebench/canary.h"
#include "devicebench/interleaved_run.h"
#include "devicebench/machine_drift.h"
#include "devicebench/machine_speed.h"
#include "devicebench/recorded_run.h"
#include "devicebench/run_record.h"
#include "devicebench/trainer.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace devicebench;

namespace {

CanaryTime canary(double seconds, double noise = 0.01) {
    CanaryTime c;
    c.measured = true;
    c.seconds = seconds;
    c.runThreadsSeconds = seconds;
    c.noise = noise;
    return c;
}

EpochResult epochWith(int number, double change, bool flagged) {
    EpochResult e;
    e.epoch = number;
    e.seconds = 1.0;
    e.canary = canary(0.01 * (1.0 + change));
    e.canaryChange = change;
    e.speedChanged = flagged;
    return e;
}

RunConfig tinyRun(int epochs, int threads = 1, std::uint64_t seed = 0) {
    RunConfig c;
    c.synthetic = true;
    c.epochs = epochs;
    c.warmupEpochs = 1;
    c.batchSize = 32;
    c.trainImages = 320;
    c.testImages = 64;
    c.threads = threads;
    c.seed = seed;
    return c;
}

// Collects the epochs; `afterEpoch` runs when an epoch has been told (the test hooks).
class Epochs : public TrainingObserver {
public:
    std::function<void(int)> afterEpoch;
    void onRunStarted(const RunStarted &info) override { started = info; }
    void onEpochFinished(const EpochResult &e) override {
        epochs.push_back(e);
        if (afterEpoch)
            afterEpoch(e.epoch);
    }
    void onRunEnded(const RunOutcome &o) override { outcome = o; }
    RunStarted started;
    std::vector<EpochResult> epochs;
    RunOutcome outcome;
};

// Resets the canary hook whatever the test's end.
struct HookReset {
    ~HookReset() { setCanaryHookForTesting({}); }
};

RunRecord recordOn(const std::string &host, double canarySeconds, double noise = 0.01) {
    RunRecord r;
    r.fingerprint.hostName = host;
    r.fingerprint.cpuModel = "AMD EPYC";
    r.started.device = "cpu";
    r.started.canary = canary(canarySeconds, noise);
    for (int i = 1; i <= 4; ++i) {
        EpochResult e;
        e.epoch = i;
        e.seconds = 1.0;
        e.warmup = i == 1;
        e.imagesPerSecond = 100.0;
        e.canary = canary(canarySeconds, noise);
        e.canaryChange = 0.0;
        r.epochs.push_back(e);
    }
    return r;
}

} // namespace

// ---- the rule ---------------------------------------------------------------------------------

TEST(MachineDriftRule, TheChangeIsTheLaterCanaryOverTheFirstMinusOne) {
    EXPECT_NEAR(canaryChange(canary(0.010), canary(0.0122)), 0.22, 1e-12);
    EXPECT_NEAR(canaryChange(canary(0.010), canary(0.009)), -0.10, 1e-12);
    EXPECT_TRUE(std::isnan(canaryChange(CanaryTime{}, canary(0.01))));
    EXPECT_TRUE(std::isnan(canaryChange(canary(0.01), CanaryTime{})));
}

TEST(MachineDriftRule, AChangeBeyondTheNoisePlusTheMarginIsFlaggedAndOneWithinIsNot) {
    ASSERT_EQ(kCanaryMargin, 0.10);
    const CanaryTime first = canary(0.010, 0.02);
    // margin 10 % + the larger noise 2 % = 12 %
    EXPECT_TRUE(judgeSpeedChange(first, canary(0.0113, 0.01), 0.13));
    EXPECT_FALSE(judgeSpeedChange(first, canary(0.0111, 0.01), 0.11));
    EXPECT_TRUE(judgeSpeedChange(first, canary(0.0087, 0.01), -0.13)) << "faster counts too";
    // a noisy later canary widens the band
    EXPECT_FALSE(judgeSpeedChange(first, canary(0.0119, 0.10), 0.19));
    EXPECT_FALSE(judgeSpeedChange(first, canary(0.01), std::nan("")));
}

TEST(MachineDriftRule, MarkSetsTheEpochsChangeAndFlag) {
    EpochResult e;
    e.canary = canary(0.0122);
    markSpeedChange(canary(0.010), e);
    EXPECT_NEAR(e.canaryChange, 0.22, 1e-12);
    EXPECT_TRUE(e.speedChanged);
    EXPECT_EQ(describeCanaryChange(e.canaryChange), "canary +22 %");
    EXPECT_EQ(describeCanaryChange(-0.094), "canary -9 %");
    EXPECT_EQ(describeCanaryChange(std::nan("")), "");
}

TEST(MachineDriftRule, TheSummaryCountsFlaggedStableEpochsAndNamesTheLargestDrift) {
    const std::vector<EpochResult> epochs = {epochWith(1, 0.30, true), epochWith(2, 0.02, false),
                                             epochWith(3, 0.12, true), epochWith(4, 0.22, true)};
    EXPECT_EQ(speedChangedStableEpochs(epochs, 1), (std::vector<int>{3, 4})) << "warm-up left out";
    EXPECT_NEAR(stableCanaryDrift(epochs, 1), 0.22, 1e-12);
    EXPECT_EQ(driftSummary(epochs, 1),
              "machine speed changed: canary up to +22 % over the stable epochs, 2 of 3 (3, 4) "
              "flagged; the stable mean mixes a faster and a slower machine: rerun on an idle "
              "machine before comparing");
    const std::vector<EpochResult> steady = {epochWith(1, 0.01, false), epochWith(2, -0.03, false)};
    EXPECT_EQ(driftSummary(steady, 0),
              "machine speed steady: canary within 3 % of the first over the stable epochs");
}

TEST(MachineDriftRule, ACanaryThatMovedWithinItsOwnLargeNoiseIsNotCalledSteady) {
    std::vector<EpochResult> noisy = {epochWith(1, 0.02, false), epochWith(2, 0.48, false)};
    noisy[1].canary.noise = 0.55;
    EXPECT_EQ(driftSummary(noisy, 0),
              "machine speed not judged: canary up to +48 % over the stable epochs, within the "
              "canary's own noise (up to 55 %): the machine was busy or unsteady");
}

TEST(MachineDriftRule, EpochsWithoutACanarySayNothing) {
    std::vector<EpochResult> epochs(3);
    for (int i = 0; i < 3; ++i)
        epochs[static_cast<std::size_t>(i)].epoch = i + 1;
    EXPECT_TRUE(std::isnan(stableCanaryDrift(epochs, 1)));
    EXPECT_EQ(driftSummary(epochs, 1), "");
    EXPECT_TRUE(speedChangedStableEpochs(epochs, 1).empty());
}

// ---- the canary kernel ------------------------------------------------------------------------

TEST(CanaryKernel, OneThreadMeasuresOnceAndTwoThreadsMeasureBothWays) {
    Canary one("cpu", 1);
    const CanaryTime a = one.measure();
    EXPECT_TRUE(a.measured);
    EXPECT_GT(a.seconds, 0.0);
    EXPECT_EQ(a.runThreadsSeconds, a.seconds) << "a one-thread run's canary is measured once";
    EXPECT_GE(a.noise, 0.0);
    Canary two("cpu", 2);
    const CanaryTime b = two.measure();
    EXPECT_GT(b.seconds, 0.0);
    EXPECT_GT(b.runThreadsSeconds, 0.0);
    EXPECT_NE(b.runThreadsSeconds, b.seconds) << "two measurements, not one copied";
}

TEST(CanaryKernel, TheHookRunsInsideEveryTimedRepetition) {
    HookReset reset;
    Canary one("cpu", 1); // its untimed first measurement before the hook
    int calls = 0;
    setCanaryHookForTesting([&calls] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    });
    const CanaryTime slowed = one.measure();
    EXPECT_EQ(calls, kCanaryRepetitions);
    EXPECT_GE(slowed.seconds, 0.020);
}

TEST(CanaryKernel, AnUnknownDeviceIsRefusedNamingIt) {
    try {
        Canary bad("tpu", 1);
        FAIL() << "no error";
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("tpu"), std::string::npos) << e.what();
    }
}

// ---- a run ------------------------------------------------------------------------------------

TEST(MachineDriftRun, ACanaryMadeSlowerAfterEpochOneFlagsTheLaterEpochsWithTheirSize) {
    HookReset reset;
    Epochs observer;
    observer.afterEpoch = [](int epoch) {
        // From now on each repetition takes 200 ms longer: over ten times slower, and still
        // several times on a machine so busy that the first canary took three times as long.
        if (epoch == 1)
            setCanaryHookForTesting(
                [] { std::this_thread::sleep_for(std::chrono::milliseconds(200)); });
    };
    std::atomic<bool> stop{false};
    const RunOutcome outcome = runTraining(tinyRun(3), observer, stop);
    ASSERT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    ASSERT_TRUE(observer.started.canary.measured);
    ASSERT_EQ(observer.epochs.size(), 3U);
    // Epoch 1's canary ran before the hook: nowhere near the slowed ones (on a machine shared
    // with other tests it may still move by more than the margin, so no flag is asserted).
    EXPECT_LT(observer.epochs[0].canaryChange, observer.epochs[1].canaryChange / 2.0);
    for (int i : {1, 2}) {
        const EpochResult &e = observer.epochs[static_cast<std::size_t>(i)];
        EXPECT_TRUE(e.speedChanged) << "epoch " << e.epoch;
        EXPECT_GT(e.canaryChange, 1.0) << "epoch " << e.epoch;
    }
    const std::vector<int> flagged = speedChangedStableEpochs(outcome.epochs, 1);
    EXPECT_EQ(flagged, (std::vector<int>{2, 3}));
    EXPECT_NE(driftSummary(outcome.epochs, 1).find("machine speed changed"), std::string::npos);
}

TEST(MachineDriftRun, EveryEpochRecordsWhenItBeganAndItsCanary) {
    Epochs observer;
    std::atomic<bool> stop{false};
    const auto before =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    ASSERT_EQ(runTraining(tinyRun(2), observer, stop).status, RunStatus::Finished);
    ASSERT_EQ(observer.epochs.size(), 2U);
    EXPECT_GE(observer.epochs[0].startedUnixSeconds, before);
    EXPECT_GT(observer.epochs[1].startedUnixSeconds,
              observer.epochs[0].startedUnixSeconds + observer.epochs[0].seconds * 0.99);
    for (const EpochResult &e : observer.epochs) {
        EXPECT_TRUE(e.canary.measured);
        EXPECT_FALSE(std::isnan(e.canaryChange));
    }
}

// The CPU quota of this process lowered during a run, a real slower machine: needs root and a
// writable cgroup cpu controller (v1 cpu.cfs_quota_us or v2 cpu.max); skipped otherwise.
namespace {

struct Throttle {
    fs::path group;     // the cgroup made for the test
    fs::path procsBack; // the cgroup.procs the process came from
    bool active = false;

    static bool write(const fs::path &file, const std::string &text) {
        std::ofstream out(file);
        out << text;
        out.flush();
        return static_cast<bool>(out);
    }

    // Makes a cgroup allowing `percent` % of one CPU; false when this machine does not let us.
    bool prepare(int percent) {
        if (::geteuid() != 0)
            return false;
        const std::string name = "devicebench-test-" + std::to_string(::getpid());
        std::error_code ec;
        if (fs::exists("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", ec)) { // v1
            group = fs::path("/sys/fs/cgroup/cpu") / name;
            procsBack = "/sys/fs/cgroup/cpu/cgroup.procs";
            if (!fs::create_directory(group, ec))
                return false;
            return write(group / "cpu.cfs_period_us", "100000") &&
                   write(group / "cpu.cfs_quota_us", std::to_string(1000 * percent));
        }
        if (fs::exists("/sys/fs/cgroup/cgroup.controllers", ec)) { // v2
            group = fs::path("/sys/fs/cgroup") / name;
            procsBack = "/sys/fs/cgroup/cgroup.procs";
            if (!fs::create_directory(group, ec))
                return false;
            return write(group / "cpu.max", std::to_string(1000 * percent) + " 100000");
        }
        return false;
    }
    bool enter() { return active = write(group / "cgroup.procs", std::to_string(::getpid())); }
    ~Throttle() {
        if (active)
            write(procsBack, std::to_string(::getpid()));
        std::error_code ec;
        if (!group.empty())
            fs::remove(group, ec);
    }
};

} // namespace

TEST(MachineDriftRun, AsRootACpuQuotaLoweredDuringTheRunIsFlagged) {
    Throttle throttle;
    if (!throttle.prepare(10))
        GTEST_SKIP() << "needs root and a writable cgroup cpu controller to lower the CPU quota";
    Epochs observer;
    bool entered = false;
    observer.afterEpoch = [&](int epoch) {
        if (epoch == 1)
            entered = throttle.enter();
    };
    std::atomic<bool> stop{false};
    const RunOutcome outcome = runTraining(tinyRun(2), observer, stop);
    ASSERT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    if (!entered)
        GTEST_SKIP() << "the kernel refused to move this process into " << throttle.group;
    ASSERT_EQ(observer.epochs.size(), 2U);
    EXPECT_LT(observer.epochs[0].canaryChange, 0.5) << "before the quota";
    EXPECT_TRUE(observer.epochs[1].speedChanged)
        << describeCanaryChange(observer.epochs[1].canaryChange);
    EXPECT_GT(observer.epochs[1].canaryChange, 0.5);
}

// ---- records ------------------------------------------------------------------------------------

namespace {

// recordOn's record, complete enough for the record reader's checks.
RunRecord finishedRecordOn(const std::string &host, double canarySeconds) {
    RunRecord r = recordOn(host, canarySeconds);
    r.schemaVersion = kRunRecordSchemaVersion;
    r.runId = "x";
    r.status = "finished";
    r.model = "small-cnn";
    r.precision = "float32";
    r.workload = "faithful";
    r.config.synthetic = true;
    r.config.epochs = 4;
    return r;
}

} // namespace

TEST(MachineDriftRecord, TheCanaryAndTheFlagSurviveTheRecord) {
    RunRecord r = finishedRecordOn("vm", 0.010);
    r.started.canary.runThreadsSeconds = std::nan(""); // as on CUDA
    r.epochs[2].canary = canary(0.0125);
    r.epochs[2].canaryChange = 0.25;
    r.epochs[2].speedChanged = true;
    r.epochs[2].startedUnixSeconds = 1764600000.25;
    const RunRecord back = parseRunRecord(toJson(r), "mem.json");
    EXPECT_TRUE(back.started.canary.measured);
    EXPECT_TRUE(std::isnan(back.started.canary.runThreadsSeconds));
    EXPECT_DOUBLE_EQ(back.epochs[2].canary.seconds, 0.0125);
    EXPECT_DOUBLE_EQ(back.epochs[2].canaryChange, 0.25);
    EXPECT_TRUE(back.epochs[2].speedChanged);
    EXPECT_DOUBLE_EQ(back.epochs[2].startedUnixSeconds, 1764600000.25);
    EXPECT_FALSE(back.epochs[1].speedChanged);
    EXPECT_TRUE(std::isnan(back.epochs[1].startedUnixSeconds));
}

TEST(MachineDriftRecord, ACanaryChangeThatDoesNotFollowFromTheCanariesIsRefused) {
    RunRecord r = finishedRecordOn("vm", 0.010);
    r.epochs[2].canaryChange = 5.0; // the canaries say 0
    try {
        parseRunRecord(toJson(r), "mem.json");
        FAIL() << "accepted";
    } catch (const RecordError &e) {
        EXPECT_NE(std::string(e.what()).find("epochs[2].canaryChange"), std::string::npos)
            << e.what();
    }
    RunRecord orphan = finishedRecordOn("vm", 0.010);
    orphan.epochs[1].canary = CanaryTime{}; // written without a canary, then given a flag
    nlohmann::json edited = nlohmann::json::parse(toJson(orphan));
    edited["epochs"][1]["speedChanged"] = true;
    try {
        parseRunRecord(edited.dump(), "mem.json");
        FAIL() << "a flag without its canary was accepted";
    } catch (const RecordError &e) {
        EXPECT_NE(std::string(e.what()).find("epochs[1].speedChanged"), std::string::npos)
            << e.what();
    }
}

TEST(MachineDriftRecord, ANegativeCanaryIsRefusedNamingTheField) {
    RunRecord r = finishedRecordOn("vm", 0.010);
    r.epochs[1].canary.seconds = -1.0;
    try {
        parseRunRecord(toJson(r), "mem.json");
        FAIL() << "accepted";
    } catch (const RecordError &e) {
        EXPECT_NE(std::string(e.what()).find("epochs[1].canary.seconds"), std::string::npos)
            << e.what();
    }
}

TEST(MachineDriftRecord, RecordsWrittenBeforeTheCanaryImportUnflagged) {
    for (const char *name : {"cpu-1-thread.json", "cpu-2-threads.json",
                             "cpu-2-threads-batch32.json", "busy-machine/cpu-1-thread-idle.json"}) {
        const RunRecord r = readRunRecord((fs::path(DEVICEBENCH_EXAMPLES_DIR) / name).string());
        ASSERT_FALSE(r.epochs.empty()) << name;
        EXPECT_FALSE(r.started.canary.measured) << name;
        for (const EpochResult &e : r.epochs) {
            EXPECT_FALSE(e.canary.measured) << name;
            EXPECT_FALSE(e.speedChanged) << name;
            EXPECT_TRUE(std::isnan(e.startedUnixSeconds)) << name;
        }
        EXPECT_EQ(driftSummary(r.epochs, r.config.warmupEpochs), "") << name;
        EXPECT_FALSE(runCanary(r).known) << name;
    }
}

// ---- across runs --------------------------------------------------------------------------------

TEST(MachineSpeedAcrossRuns, TwoRunsOfOneMachineWithCanaries18PercentApartAreBiased) {
    const MachineSpeedDifference d =
        machineSpeedDifference(recordOn("vm", 0.0100), recordOn("vm", 0.0118));
    EXPECT_TRUE(d.compared);
    EXPECT_NEAR(d.change, 0.18, 1e-9);
    EXPECT_TRUE(d.biased);
    EXPECT_EQ(machineSpeedWarning(d, "run #2", "run #1"),
              "the machine was 18 % slower during run #2 than during run #1 (one-thread "
              "canary): the speed-up is biased; rerun the two close together on an idle "
              "machine");
}

TEST(MachineSpeedAcrossRuns, TheVerdictIsTheSameWhicheverRunIsTheBaseline) {
    const RunRecord slow = recordOn("vm", 0.0125, 0.12);
    const RunRecord fast = recordOn("vm", 0.0100, 0.12);
    // 25 % apart, beyond 12 % noise + 5 % margin, either way round (-20 % seen from the slow).
    EXPECT_TRUE(machineSpeedDifference(fast, slow).biased);
    EXPECT_TRUE(machineSpeedDifference(slow, fast).biased);
    EXPECT_NEAR(machineSpeedDifference(slow, fast).change, -0.20, 1e-9);
}

TEST(MachineSpeedAcrossRuns, CanariesWithinTheNoisePlusTheMarginAreNotBiased) {
    const MachineSpeedDifference d =
        machineSpeedDifference(recordOn("vm", 0.0100, 0.03), recordOn("vm", 0.0107, 0.03));
    EXPECT_TRUE(d.compared);
    EXPECT_FALSE(d.biased) << "7 % is within 3 % noise + 5 % margin";
    EXPECT_EQ(machineSpeedWarning(d, "run #2", "run #1"), "");
}

TEST(MachineSpeedAcrossRuns, RecordsOfAnotherMachineOrWithoutCanariesAreNotHeldAgainstEachOther) {
    EXPECT_FALSE(machineSpeedDifference(recordOn("vm-a", 0.010), recordOn("vm-b", 0.020)).compared);
    RunRecord otherLibrary = recordOn("vm", 0.020);
    otherLibrary.fingerprint.libtorchVersion = "2.11.0";
    EXPECT_FALSE(machineSpeedDifference(recordOn("vm", 0.010), otherLibrary).compared)
        << "another LibTorch computes the canary with other kernels";
    RunRecord old = recordOn("vm", 0.010);
    old.started.canary = CanaryTime{};
    for (EpochResult &e : old.epochs)
        e.canary = CanaryTime{};
    EXPECT_FALSE(machineSpeedDifference(old, recordOn("vm", 0.020)).compared);
    const RunCanary c = runCanary(recordOn("vm", 0.010));
    EXPECT_TRUE(c.known);
    EXPECT_DOUBLE_EQ(c.seconds, 0.010);
    EXPECT_EQ(c.count, 5);
    RunRecord cuda = recordOn("vm", 0.010);
    cuda.started.device = "cuda:0";
    EXPECT_FALSE(runCanary(cuda).known) << "a CUDA run's canary is the device's";
}

TEST(MachineSpeedAcrossRuns, TheCanariesOfContendedEpochsAreNotReadAsTheMachinesSpeed) {
    // Run #2's epochs ran beside other work: their canaries took 38 % longer. The busy machine
    // is the contention flag's to report; its speed, from the first canary, was run #1's.
    RunRecord contended = recordOn("vm", 0.0100);
    for (EpochResult &e : contended.epochs) {
        e.canary = canary(0.0138, 0.01);
        e.load.measured = true;
        e.load.contended = true;
    }
    const RunCanary c = runCanary(contended);
    EXPECT_TRUE(c.known);
    EXPECT_EQ(c.count, 1) << "only the first canary, taken before the epochs";
    EXPECT_DOUBLE_EQ(c.seconds, 0.0100);
    const MachineSpeedDifference d = machineSpeedDifference(recordOn("vm", 0.0100), contended);
    EXPECT_TRUE(d.compared);
    EXPECT_FALSE(d.biased);
    EXPECT_EQ(machineSpeedWarning(d, "run #2", "run #1"), "");
    // The same canaries on epochs that were not contended are the machine's drift.
    for (EpochResult &e : contended.epochs)
        e.load.contended = false;
    EXPECT_TRUE(machineSpeedDifference(recordOn("vm", 0.0100), contended).biased);
}

// ---- interleaved runs ---------------------------------------------------------------------------

namespace {

std::vector<RunRequest> twoRequests() {
    RunRequest a;
    a.config = tinyRun(3, 1, 0);
    RunRequest b;
    b.config = tinyRun(3, 2, 7);
    return {a, b};
}

} // namespace

TEST(InterleavedRuns, EachRunsLossesEqualItsRunAlone) {
    const std::vector<RunRequest> requests = twoRequests();
    std::atomic<bool> stop{false};
    const std::vector<RecordedRun> together = runRecordedInterleaved(requests, {}, stop);
    ASSERT_EQ(together.size(), 2U);
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const RecordedRun alone = runRecorded(requests[i], nullptr, stop);
        const RecordedRun &mixed = together[i];
        ASSERT_EQ(mixed.outcome.status, RunStatus::Finished) << mixed.outcome.reason;
        ASSERT_EQ(mixed.record.epochs.size(), alone.record.epochs.size());
        for (std::size_t e = 0; e < alone.record.epochs.size(); ++e) {
            EXPECT_EQ(mixed.record.epochs[e].trainLoss, alone.record.epochs[e].trainLoss)
                << "run " << i + 1 << " epoch " << e + 1;
            EXPECT_EQ(mixed.record.epochs[e].testLoss, alone.record.epochs[e].testLoss)
                << "run " << i + 1 << " epoch " << e + 1;
        }
        ASSERT_EQ(mixed.record.steps.size(), alone.record.steps.size());
        for (std::size_t s = 0; s < alone.record.steps.size(); ++s)
            EXPECT_EQ(mixed.record.steps[s].loss, alone.record.steps[s].loss) << "step " << s;
        EXPECT_EQ(mixed.record.started.threads, requests[i].config.threads);
    }
}

TEST(InterleavedRuns, TheEpochsAlternateRunByRun) {
    std::atomic<bool> stop{false};
    const std::vector<RecordedRun> runs = runRecordedInterleaved(twoRequests(), {}, stop);
    ASSERT_EQ(runs.size(), 2U);
    const auto &a = runs[0].record.epochs;
    const auto &b = runs[1].record.epochs;
    ASSERT_EQ(a.size(), 3U);
    ASSERT_EQ(b.size(), 3U);
    for (std::size_t e = 0; e < 3; ++e) {
        EXPECT_LT(a[e].startedUnixSeconds, b[e].startedUnixSeconds) << "epoch " << e + 1;
        if (e + 1 < 3) {
            EXPECT_LT(b[e].startedUnixSeconds, a[e + 1].startedUnixSeconds) << "epoch " << e + 1;
        }
    }
}

TEST(InterleavedRuns, ARunThatFailsLeavesAndTheOthersFinish) {
    std::vector<RunRequest> requests = twoRequests();
    requests[0].config.synthetic = false;
    requests[0].config.dataDir = "/nonexistent/cifar";
    std::atomic<bool> stop{false};
    const std::vector<RecordedRun> runs = runRecordedInterleaved(requests, {}, stop);
    ASSERT_EQ(runs.size(), 2U);
    EXPECT_EQ(runs[0].outcome.status, RunStatus::Failed);
    EXPECT_NE(runs[0].outcome.reason.find("/nonexistent/cifar"), std::string::npos)
        << runs[0].outcome.reason;
    EXPECT_EQ(runs[1].outcome.status, RunStatus::Finished) << runs[1].outcome.reason;
}

TEST(InterleavedRuns, AStopRequestCancelsEveryRun) {
    std::atomic<bool> stop{true};
    const std::vector<RecordedRun> runs = runRecordedInterleaved(twoRequests(), {}, stop);
    ASSERT_EQ(runs.size(), 2U);
    for (const RecordedRun &run : runs) {
        EXPECT_EQ(run.outcome.status, RunStatus::Cancelled) << run.outcome.reason;
        EXPECT_NE(run.outcome.reason.find("before its set-up"), std::string::npos)
            << run.outcome.reason;
    }
}

TEST(InterleavedRuns, ARunStoppedWhileWaitingForItsTurnSaysSoNotDuringAnEpoch) {
    // Stop once the first run's epoch 1 is over: the second is waiting to begin its epoch 1.
    struct StopAfterFirstEpoch : RecordObserver {
        explicit StopAfterFirstEpoch(std::atomic<bool> &stop) : m_stop(stop) {}
        void onEpochFinished(const EpochResult & /*epoch*/) override { m_stop = true; }
        void onRunEnded(const RunOutcome & /*outcome*/) override {}
        std::atomic<bool> &m_stop;
    };
    std::atomic<bool> stop{false};
    StopAfterFirstEpoch stopper(stop);
    const std::vector<RecordedRun> runs =
        runRecordedInterleaved(twoRequests(), {&stopper, nullptr}, stop);
    ASSERT_EQ(runs.size(), 2U);
    EXPECT_EQ(runs[1].outcome.status, RunStatus::Cancelled);
    EXPECT_TRUE(runs[1].record.epochs.empty());
    EXPECT_NE(runs[1].outcome.reason.find("before epoch 1, while waiting for its turn"),
              std::string::npos)
        << runs[1].outcome.reason;
}

TEST(InterleavedRuns, ObserversOfAnotherCountThanTheRunsAreRefused) {
    std::atomic<bool> stop{false};
    std::vector<RecordObserver *> one{nullptr};
    EXPECT_THROW(runRecordedInterleaved(twoRequests(), one, stop), std::invalid_argument);
}

// The machine steady: run serially (ctest RUN_SERIAL), so that no other test shares its CPUs.
TEST(MachineDriftSerial, NoEpochOfAShortRunOnASteadyMachineIsFlagged) {
    Epochs observer;
    std::atomic<bool> stop{false};
    const RunOutcome outcome = runTraining(tinyRun(4), observer, stop);
    ASSERT_EQ(outcome.status, RunStatus::Finished) << outcome.reason;
    for (const EpochResult &e : observer.epochs)
        EXPECT_FALSE(e.speedChanged)
            << "epoch " << e.epoch << ": " << describeCanaryChange(e.canaryChange) << " (noise "
            << e.canary.noise << ", first " << observer.started.canary.noise << ")";
}
