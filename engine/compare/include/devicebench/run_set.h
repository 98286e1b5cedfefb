// SPDX-License-Identifier: MIT
// RunSet: every run in view, as the CLI's `compare`/`run` and the dashboard show them, in plain
// C++ (no Qt, no LibTorch). Each run is a devicebench::RunRecord (run_record.h), live in this
// process or read from a file: the two are the same thing. On top of the records the set
// derives, after every change, what the comparison shows: each run's Summary (with the set's
// warm-up setting), the baseline, each run's speed-up against it with its interval, the
// workload fields in which it differs from the baseline (comparison.h) and the test-loss
// control between comparable runs (MEASURING.md, lesson 1 and the speed-up rules).
// Keeps every step loss and every epoch. Not thread-safe: one thread owns it.
#pragma once

#include "devicebench/comparison.h"
#include "devicebench/cost.h"
#include "devicebench/machine_speed.h"
#include "devicebench/run_record.h"
#include "devicebench/run_types.h"
#include "devicebench/time_to_target.h"

#include <string>
#include <vector>

namespace devicebench {

// Interrupted: a record saved as "running" by a process that is gone (killed or crashed); its
// finished epochs are all there.
enum class RunState { Running, Finished, Cancelled, Diverged, Failed, Interrupted };

// "running", "finished", "cancelled", "diverged", "failed", "interrupted".
const char *toString(RunState state);

// The state a record's `status` field stands for when the record is read from a file:
// "finished", "cancelled", "diverged", "failed"; anything else ("running": its process is
// gone) is Interrupted.
RunState stateOfRecordStatus(const std::string &status);

// One run in the set: the record plus what the set derives and shows.
struct RunEntry {
    int id = 0;         // key: the caller's run id (the controller's or the CLI's); negative for
                        // records added with addRecord()
    int number = 0;     // 1, 2, ... in the order runs were added: the "#<n>" of the label
    std::string label;  // "#<n> " + runLabel(record), e.g. "#1 Tesla T4 @ host-a" (UTF-8)
    std::string origin; // "live" for a run of this process, else the file it was read from
    RunRecord record;   // config, device as started, fingerprint, data, epochs, steps, status
    RunState state = RunState::Running;
    std::string reason; // why it ended, when not Finished; empty otherwise

    // Derived by the set (recomputed after every change; do not set):
    int warmupEpochs = 0; // warm-up epochs in effect (the set's setting or the run's own)
    Summary summary;      // summarize(record.epochs, warmupEpochs, train + test images)
    TargetResult target;  // timeToTarget(record.epochs, record.config.targetAccuracy)
    // Against the baseline: the ratio of stable means, or of times to target when the two are
    // compared by time to target (no interval then); NaN when either has no such time.
    SpeedUp speedUp;
    bool isBaseline = false;
    std::vector<std::string>
        differences;              // comparisonDifferences(baseline, this): empty = comparable
    double maxTestLossDiff = 0.0; // maxTestLossDifference(baseline, this); NaN if none
    // The machine's speed during this run against during the baseline (machine_speed.h); not
    // compared for the baseline itself.
    MachineSpeedDifference machineSpeed;
    RunCost cost; // costOfRun under the set's prices (setCostSettings)

    bool comparable() const { return differences.empty(); }
    // True when epoch `epoch` (from 1) is warm-up under the set's current setting.
    bool isWarmup(int epoch) const { return epoch <= warmupEpochs; }
};

// The control for one pair of mutually comparable runs.
struct ControlPair {
    int indexA = 0; // set indices, indexA < indexB
    int indexB = 0;
    double maxTestLossDiff = 0.0; // maxTestLossDifference; NaN when no epoch in common
    bool warning = false;         // maxTestLossDiff > kTestLossWarning
};

class RunSet {
public:
    // ---- live runs ------------------------------------------------------------------------
    // Adds run `id` with `record` (made by the RunRecorder that records it: run id, creation
    // time, config, started, fingerprint, data identity) in state Running, origin "live", and
    // returns its index (0-based; runs keep the order in which they were added). If `id` is
    // already in the set, that run is replaced and keeps its index and number.
    int addRun(int id, RunRecord record);

    // Appends step losses (kept in full, NaN/inf included) with their recorder times, as
    // given (StepLoss::seconds: the RunRecorder's). Unknown ids are ignored.
    void appendSteps(int id, const std::vector<StepLoss> &steps);

    // Appends the machine's readings (SystemSample::seconds on the steps' clock) to the run's
    // record.samples, as given. Unknown ids are ignored.
    void appendSamples(int id, const std::vector<SystemSample> &samples);

    // Appends one finished epoch. Unknown ids are ignored.
    void addEpoch(int id, const EpochResult &epoch);

    // Replaces the run's record by `record` (the recorder's final one: same run id, its step
    // times) and sets the state from its status ("running" stays Running). Unknown ids: false.
    // How a live run ends (RunSetFeed::finish, run_set_feed.h).
    bool replaceRecord(int id, RunRecord record);

    // ---- records made elsewhere -------------------------------------------------------------
    // Adds an imported or reloaded record; `origin` names its file. A record whose status is
    // "running" is Interrupted (its process is gone; reason "the process that ran it ended
    // during epoch N" unless it has one). A record whose runId is already in the set is not
    // added twice: returns the existing index. Its id (negative) is run(index).id.
    int addRecord(const RunRecord &record, const std::string &origin);
    // The same for many records at once (a folder imported): the comparison is derived once,
    // after the last, not after each (n records: linear, not quadratic). `origins[i]` names
    // record i's file ("" where missing). Returns each record's index.
    std::vector<int> addRecords(const std::vector<RunRecord> &records,
                                const std::vector<std::string> &origins);

    // Replaces the label shown in charts, table and exports. Unknown ids are ignored.
    void setLabel(int id, const std::string &label);

    // Removes run `id` (the others keep their numbers). False when it is not in the set.
    bool removeRun(int id);

    // Removes every run (the settings below stay); numbering starts again at 1.
    void clear();

    // ---- comparison settings ----------------------------------------------------------------
    // Warm-up epochs applied to every run; -1 (the default): each run's own config. Values
    // below -1 count as -1. Returns false when nothing changed.
    bool setWarmupEpochs(int warmupEpochs);
    int warmupEpochs() const { return m_warmupOverride; }

    // Baseline of the speed-ups and of the comparability check, by run id; 0 (the default) or
    // an id not in the set: the slowest run with a stable mean (else the first run). Returns
    // false when nothing changed.
    bool setBaseline(int id);
    int baselineSetting() const { return m_baselineId; }
    // Index of the baseline in effect; -1 when the set is empty.
    int baselineIndex() const;

    // The prices every run's cost is worked out with (cost.h); none by default, so that each
    // run's cost says "no price for ...". Always re-derives.
    void setCostSettings(CostSettings settings);
    const CostSettings &costSettings() const { return m_cost; }

    // ---- access -----------------------------------------------------------------------------
    int runCount() const { return static_cast<int>(m_runs.size()); }
    // Throws std::out_of_range unless 0 <= index < runCount().
    const RunEntry &run(int index) const;
    const std::vector<RunEntry> &runs() const { return m_runs; }
    const RunEntry *findRun(int id) const; // nullptr when absent
    int indexOf(int id) const;             // -1 when absent
    bool hasRun(int id) const { return indexOf(id) >= 0; }

    // Every pair of runs whose workloads do not differ, with their largest test-loss
    // difference; in set order.
    std::vector<ControlPair> controlPairs() const;

    // True when any run trained on synthetic data (accuracy is meaningless then).
    bool anySynthetic() const;

    // "#<number> " + runLabel(record).
    static std::string defaultLabel(int number, const RunRecord &record);

private:
    RunEntry *find(int id);
    // addRecord without deriving: the new run's index, or the existing one (runId `known`).
    int appendRecord(const RunRecord &record, const std::string &origin, int known);
    void rederive(); // summaries, baseline, speed-ups, differences

    std::vector<RunEntry> m_runs;
    CostSettings m_cost;
    int m_warmupOverride = -1;
    int m_baselineId = 0;
    int m_nextNumber = 1;
    int m_nextImportId = -1;
};

} // namespace devicebench
