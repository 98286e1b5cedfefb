// SPDX-License-Identifier: MIT
// RunStore: the model of every run in view, shared by the dashboard and the command-line
// runner (both fill it, both export from it). Every run is a devicebench::RunRecord
// (run_record.h), whether it is live in this process, reloaded from the dashboard's own folder
// or imported from a file made elsewhere: live runs and imported records are the same thing.
// On top of the records the store derives, after every change, what the comparison shows:
// each run's Summary (with the store's warm-up setting), the baseline, each run's speed-up
// against it with its interval, the workload fields in which it differs from the baseline
// (comparison.h) and the test-loss control between comparable runs.
// Keeps every step loss and every epoch, whatever the charts draw. Lives on one thread (the
// GUI thread in the dashboard); not thread-safe.
#pragma once

#include "devicebench/comparison.h"
#include "devicebench/run_record.h"
#include "devicebench/run_types.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <string>
#include <vector>

namespace devicebench {

// Interrupted: a record saved as "running" by a process that is gone (killed or crashed); its
// finished epochs are all there.
enum class RunState { Running, Finished, Cancelled, Diverged, Failed, Interrupted };

// "running", "finished", "cancelled", "diverged", "failed", "interrupted".
QString runStateName(RunState state);

// One run in the store: the engine record plus what the dashboard derives and shows.
struct StoredRun {
    int id = 0;       // key: the RunController's (or the CLI's) run id; negative for records
                      // added with addRecord()
    int number = 0;   // 1, 2, ... in the order runs were added: the "#<n>" of the label
    QString label;    // "#<n> " + runLabel(record), e.g. "#1 Tesla T4 @ host-a"
    QString origin;   // "live" for a run of this process, else the file it was read from
    RunRecord record; // config, device as started, fingerprint, data, epochs, steps, status
    RunState state = RunState::Running;
    QString reason; // why it ended, when not Finished; empty otherwise
    std::chrono::steady_clock::time_point liveStart; // live runs: addRun time (step wall times)

    // Derived by the store (recomputed after every change; do not set):
    int warmupEpochs = 0; // warm-up epochs in effect (the store's setting or the run's own)
    Summary summary;      // summarize(record.epochs, warmupEpochs, train + test images)
    SpeedUp speedUp;      // against the baseline; NaN when either has no stable mean
    bool isBaseline = false;
    std::vector<std::string> differences; // workloadDifferences(baseline, this): empty = comparable
    double maxTestLossDiff = 0.0;         // maxTestLossDifference(baseline, this); NaN if none

    bool comparable() const { return differences.empty(); }
    // True when epoch `epoch` (from 1) is warm-up under the store's current setting.
    bool isWarmup(int epoch) const { return epoch <= warmupEpochs; }
};

// The control (issue 3, point 6) for one pair of mutually comparable runs.
struct ControlPair {
    int indexA = 0; // store indices, indexA < indexB
    int indexB = 0;
    double maxTestLossDiff = 0.0; // maxTestLossDifference; NaN when no epoch in common
    bool warning = false;         // maxTestLossDiff > kTestLossWarning
};

class RunStore : public QObject {
    Q_OBJECT

public:
    explicit RunStore(QObject *parent = nullptr);

    // ---- live runs (RunController / CLI events) ----------------------------------------
    // Adds run `id` in state Running and returns its index (0-based; runs keep the order in
    // which they were added). The record gets a new runId, the creation time, this machine's
    // fingerprint (intra-op threads = info.threads) and the data identity. If `id` is already
    // in the store, that run is reset to the new config/info and keeps its index and number.
    int addRun(int id, const RunConfig &config, const RunStarted &info);

    // Appends step losses (kept in full, NaN/inf included) with the time since addRun as
    // their wall time. Unknown ids are ignored.
    void appendStepLosses(int id, const std::vector<StepLoss> &losses);

    // Appends one finished epoch and re-derives the comparison. Unknown ids are ignored.
    void addEpoch(int id, const EpochResult &epoch);

    // Sets the run's final state and reason. The outcome's epochs replace the stored ones when
    // they are at least as many (they are the authoritative list). Unknown ids are ignored and
    // return false (a run that failed before it started has no record).
    bool endRun(int id, const RunOutcome &outcome);

    // ---- records made elsewhere ----------------------------------------------------------
    // Adds an imported or reloaded record; `origin` names its file. A record whose status is
    // "running" is shown as Interrupted (its process is gone). A record whose runId is already
    // in the store is not added twice: returns the existing index. Returns the run's index;
    // its id (negative) is run(index).id.
    int addRecord(const RunRecord &record, const QString &origin);

    // Replaces the label shown in charts, table and exports. Unknown ids are ignored.
    void setLabel(int id, const QString &label);

    // Removes run `id` (live or from a record) and re-derives the comparison; the other runs
    // keep their numbers. A baseline set to this run falls back to the default. Returns false
    // for an unknown id.
    bool removeRun(int id);

    // Removes every run (the settings below stay).
    void clear();

    // ---- comparison settings -------------------------------------------------------------
    // Warm-up epochs applied to every run; -1 (the default): each run's own config. Values
    // below -1 count as -1. Re-derives every Summary without re-running.
    void setWarmupEpochs(int warmupEpochs);
    int warmupEpochs() const { return m_warmupOverride; }

    // Baseline of the speed-ups and of the comparability check, by run id; 0 (the default) or
    // an id not in the store: the slowest run with a stable mean (else the first run).
    void setBaseline(int id);
    int baselineSetting() const { return m_baselineId; }
    // Index of the baseline in effect; -1 when the store is empty.
    int baselineIndex() const;

    // ---- access --------------------------------------------------------------------------
    int runCount() const { return static_cast<int>(m_runs.size()); }
    // Precondition: 0 <= index < runCount().
    const StoredRun &run(int index) const;
    const std::vector<StoredRun> &runs() const { return m_runs; }
    // nullptr when `id` is not in the store.
    const StoredRun *findRun(int id) const;
    int indexOf(int id) const; // -1 when absent
    bool hasRun(int id) const { return indexOf(id) >= 0; }

    // Speed-up ratio of run `index` against the baseline (run(index).speedUp.ratio).
    // NaN when this run or the baseline has no stable mean.
    double speedUp(int index) const;

    // Every pair of runs whose workloads do not differ, with their largest test-loss
    // difference; in store order.
    std::vector<ControlPair> controlPairs() const;

    // True when any run trained on synthetic data (accuracy is meaningless then).
    bool anySynthetic() const;

    // "#<number> " + runLabel(record).
    static QString defaultLabel(int number, const RunRecord &record);

Q_SIGNALS:
    // Emitted after every modification. Views coalesce it (it may come hundreds of times a
    // second during a run).
    void changed();

private:
    StoredRun *find(int id);
    void rederive(); // summaries, baseline, speed-ups, differences

    std::vector<StoredRun> m_runs;
    int m_warmupOverride = -1;
    int m_baselineId = 0;
    int m_nextNumber = 1;
    int m_nextImportId = -1;
};

} // namespace devicebench
