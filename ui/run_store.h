// SPDX-License-Identifier: MIT
// RunStore: the model of every run in view, shared by the dashboard and the command-line
// runner (both fill it, both export from it). Keeps every step loss and every epoch, whatever
// the charts draw. Lives on one thread (the GUI thread in the dashboard); not thread-safe.
#pragma once

#include "devicebench/run_types.h"

#include <QObject>
#include <QString>

#include <vector>

namespace devicebench {

enum class RunState { Running, Finished, Cancelled, Diverged, Failed };

// "running", "finished", "cancelled", "diverged", "failed".
QString runStateName(RunState state);

// Everything known about one run.
struct RunRecord {
    int id = 0;                      // run id (RunController's, or the CLI's own numbering)
    QString label;                   // "#1 cpu x2 threads", "#2 cuda:0 Tesla T4"
    RunConfig config;                // as requested
    RunStarted info;                 // as started (canonical device, threads actually used, ...)
    std::vector<StepLoss> steps;     // every step loss received, in order
    std::vector<EpochResult> epochs; // every finished epoch, in order
    RunState state = RunState::Running;
    QString reason;  // why it ended, when not Finished; empty otherwise
    Summary summary; // summarize(epochs, config.warmupEpochs, train + test images)
};

class RunStore : public QObject {
    Q_OBJECT

public:
    explicit RunStore(QObject *parent = nullptr);

    // Adds run `id` in state Running with its default label (see defaultLabel) and returns its
    // index (0-based, runs keep the order in which they were added). If `id` is already in the
    // store, that run is reset to the new config/info and keeps its index.
    int addRun(int id, const RunConfig &config, const RunStarted &info);

    // Appends step losses (kept in full, NaN/inf included). Unknown ids are ignored.
    void appendStepLosses(int id, const std::vector<StepLoss> &losses);

    // Appends one finished epoch and updates the run's summary. Unknown ids are ignored.
    void addEpoch(int id, const EpochResult &epoch);

    // Sets the run's final state and reason. The outcome's epochs replace the stored ones when
    // they are at least as many (they are the authoritative list). Unknown ids are ignored and
    // return false (a run that failed before it started has no record).
    bool endRun(int id, const RunOutcome &outcome);

    // Replaces the label shown in charts, table and exports. Unknown ids are ignored.
    void setLabel(int id, const QString &label);

    // Removes every run.
    void clear();

    int runCount() const { return static_cast<int>(m_runs.size()); }
    // Precondition: 0 <= index < runCount().
    const RunRecord &run(int index) const;
    const std::vector<RunRecord> &runs() const { return m_runs; }
    // nullptr when `id` is not in the store.
    const RunRecord *findRun(int id) const;
    int indexOf(int id) const; // -1 when absent
    bool hasRun(int id) const { return indexOf(id) >= 0; }

    // Speed-up of run `index` against the slowest run: slowest stable mean / this stable mean,
    // over the runs that have a stable mean (Summary::hasStable). NaN when this run has none.
    double speedUp(int index) const;

    // True when any run trained on synthetic data (accuracy is meaningless then).
    bool anySynthetic() const;

    // "#<id> cpu x<threads> thread(s)" for CPU runs, "#<id> <device> <device name>" otherwise.
    static QString defaultLabel(int id, const RunStarted &info);

Q_SIGNALS:
    // Emitted after every modification. Views coalesce it (it may come hundreds of times a
    // second during a run).
    void changed();

private:
    RunRecord *find(int id);
    static void resummarize(RunRecord &run);

    std::vector<RunRecord> m_runs;
};

} // namespace devicebench
