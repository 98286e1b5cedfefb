// SPDX-License-Identifier: MIT
// RunStore: the dashboard's Qt adapter over the engine's RunSet (devicebench/run_set.h), which
// holds every run in view and derives the comparison (summaries with the warm-up setting,
// baseline, speed-ups with intervals, comparability, control pairs). The store adds what the
// views need from Qt: QString labels, origins and reasons, and the changed() signal.
// Lives on one thread (the GUI thread in the dashboard); not thread-safe. It writes no file:
// live runs are recorded by the engine's RunRecorder on the worker side of the RunController,
// whose events feed the store's runs (liveRun) and whose end hands it the record as written
// (finishRun). It is also where the window asks whether a run is going.
#pragma once

#include "devicebench/comparison.h"
#include "devicebench/published.h"
#include "devicebench/run_groups.h"
#include "devicebench/run_record.h"
#include "devicebench/run_set.h"
#include "devicebench/run_set_feed.h"
#include "devicebench/run_types.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace devicebench {

// "running", "finished", "cancelled", "diverged", "failed", "interrupted" (toString(RunState)).
QString runStateName(RunState state);

// One run as the views read it: the RunSet entry with its texts as QString. `record` refers to
// the set's record (valid until the store adds or removes a run); the other members are copies
// refreshed after every change.
struct StoredRun {
    explicit StoredRun(const RunEntry &entry);
    void update(const RunEntry &entry); // everything but `record`, which it refers to

    int id = 0;              // key: the RunController's run id (or the CLI's run number);
                             // negative for records added with addRecord()
    int number = 0;          // 1, 2, ... in the order runs were added: the "#<n>" of the label
    QString label;           // "#<n> " + runLabel(record), e.g. "#1 Tesla T4 @ host-a"
    QString origin;          // "live" for a run of this process, else the file it was read from
    const RunRecord &record; // config, device as started, fingerprint, data, epochs, steps
    RunState state = RunState::Running;
    QString reason; // why it ended, when not Finished; empty otherwise

    // Derived by the set (see RunEntry):
    int warmupEpochs = 0;
    Summary summary;
    SpeedUp speedUp;
    bool isBaseline = false;
    std::vector<std::string> differences; // empty = comparable with the baseline
    double maxTestLossDiff = 0.0;
    MachineSpeedDifference machineSpeed; // the machine's speed against during the baseline
    RunCost cost;                        // what it costs under the store's prices (cost.h)

    bool comparable() const { return differences.empty(); }
    // True when epoch `epoch` (from 1) is warm-up under the store's current setting.
    bool isWarmup(int epoch) const { return epoch <= warmupEpochs; }
};

class RunStore : public QObject {
    Q_OBJECT

public:
    explicit RunStore(QObject *parent = nullptr);

    // ---- live runs (the run controller's events, in its order) -----------------------------
    // Each live run is fed into the set by a RunSetFeed (run_set_feed.h), as the CLI's runs are.
    // Run `id` was accepted: it is going (isRunGoing) until finishRun, and gets its entry in the
    // store once its recorder has the record (liveRun(id)->onRecordStarted).
    void acceptRun(int id);
    // The runs firstId .. firstId + runs - 1 were accepted as one set, `interleaved` or one after
    // another (before their acceptRun): liveSet() says so while any of them goes.
    void acceptRunSet(int firstId, int runs, bool interleaved);
    // Where going run `id`'s events go (record started, step losses with the recorder's seconds,
    // machine readings, epochs); the store emits changed() after each. nullptr when `id` is not
    // going.
    RecordObserver *liveRun(int id);
    // Ends run `id` with its result: its final record, as written, replaces the live one
    // (RunSetFeed::finish). False when the run has no entry (it ended before it started); either
    // way it is no longer going.
    bool finishRun(int id, const RecordedRun &run);
    // True from an acceptRun until its finishRun, for any run.
    bool isRunGoing() const { return !m_live.empty(); }
    // The going run whose event came last (the first accepted until one reports; after one
    // ends, the next going); 0 when none is going.
    int followedRun() const { return m_followed; }
    // The run set going: its size (0 for a lone run or none) and whether it is interleaved.
    struct LiveSet {
        int runs = 0;
        bool interleaved = false;
    };
    const LiveSet &liveSet() const { return m_liveSet; }

    // ---- records made elsewhere ----------------------------------------------------------
    // Adds an imported or reloaded record; `origin` names its file. A record whose status is
    // "running" is shown as Interrupted (its process is gone). A record whose runId is already
    // in the store is not added twice: returns the existing index. Returns the run's index;
    // its id (negative) is run(index).id.
    int addRecord(const RunRecord &record, const QString &origin);
    // The same for many records at once (an import of a folder): the comparison is derived
    // and changed() emitted once, not after each record. `origins` holds one file per record.
    // Returns each record's index.
    std::vector<int> addRecords(const std::vector<RunRecord> &records, const QStringList &origins);

    // Replaces the label shown in charts, table and exports. Unknown ids are ignored.
    void setLabel(int id, const QString &label);

    // Removes run `id` (live or from a record) and re-derives the comparison; the other runs
    // keep their numbers. A baseline set to this run falls back to the default. Returns false
    // for an unknown id.
    bool removeRun(int id);

    // Removes every run (the settings below stay).
    void clear();

    // Replaces every run and setting by a copy of `runs` (the CLI's PNG: its RunSet drawn by
    // the dashboard's charts).
    void assign(const RunSet &runs);

    // ---- comparison settings -------------------------------------------------------------
    // Warm-up epochs applied to every run; -1 (the default): each run's own config. Values
    // below -1 count as -1. Re-derives every Summary without re-running.
    void setWarmupEpochs(int warmupEpochs);
    int warmupEpochs() const { return m_set.warmupEpochs(); }

    // Baseline of the speed-ups and of the comparability check, by run id; 0 (the default) or
    // an id not in the store: the slowest run with a stable mean (else the first run).
    void setBaseline(int id);
    int baselineSetting() const { return m_set.baselineSetting(); }
    // Index of the baseline in effect; -1 when the store is empty.
    int baselineIndex() const { return m_set.baselineIndex(); }

    // The prices each run's cost is worked out with (RunSet::setCostSettings); re-derives every
    // run's cost and emits changed(), so that the charts and the Compare box follow an edit.
    void setCostSettings(CostSettings settings);
    const CostSettings &costSettings() const { return m_set.costSettings(); }

    // ---- shown and hidden runs (a view setting: exports and the comparison keep every run) -
    // Hides or shows run `id` in the charts; remembered by the record's runId, so that it holds
    // for the same run after a restart or a re-import. Emits changed() when it changes.
    void setRunHidden(int id, bool hidden);
    bool isRunHidden(int id) const;
    // The runIds of the hidden runs (also of runs not in the store now), for QSettings.
    QStringList hiddenRunKeys() const;
    void setHiddenRunKeys(const QStringList &keys);

    // ---- access --------------------------------------------------------------------------
    int runCount() const { return static_cast<int>(m_runs.size()); }
    // Precondition: 0 <= index < runCount().
    const StoredRun &run(int index) const;
    const std::vector<StoredRun> &runs() const { return m_runs; }
    // nullptr when `id` is not in the store.
    const StoredRun *findRun(int id) const;
    int indexOf(int id) const { return m_set.indexOf(id); } // -1 when absent
    bool hasRun(int id) const { return indexOf(id) >= 0; }
    // The engine's run set behind the store (for the CSV writers, csv_export.h).
    const RunSet &runSet() const { return m_set; }

    // Speed-up ratio of run `index` against the baseline (run(index).speedUp.ratio).
    // NaN when this run or the baseline has no stable mean.
    double speedUp(int index) const;

    // Every pair of runs whose workloads do not differ, with their largest test-loss
    // difference; in store order.
    std::vector<ControlPair> controlPairs() const { return m_set.controlPairs(); }

    // The runs as groups of repeated runs (groupRuns, run_groups.h: one configuration on one
    // machine), refreshed with every change; what the bar chart and the loss chart draw as one
    // bar and one band unless ChartOptions::runsOneByOne.
    const RunGroups &groups() const { return m_groups; }

    // The control without listing every pair (summarizeControl, run_groups.h): the largest
    // test-loss difference and its pair, and every pair above the warning.
    ControlSummary controlSummary() const { return summarizeControl(m_set); }

    // True when any run trained on synthetic data (accuracy is meaningless then).
    bool anySynthetic() const { return m_set.anySynthetic(); }

    // ---- published results (devicebench/published.h): drawn beside the runs --------------
    // The reference files' sets (the article's table, the user's own); none until set (the
    // window loads them: ComparePanel::loadPublished). Shown by default.
    void setPublished(std::vector<PublishedSet> sets);
    const std::vector<PublishedSet> &publishedSets() const { return m_published; }
    void setPublishedShown(bool shown);
    bool publishedShown() const { return m_publishedShown; }
    // Every published row against the runs' baseline (publishedBeside; a published row is
    // never the baseline here); no rows when hidden or none are loaded.
    PublishedBeside publishedRows() const;

    // "#<number> " + runLabel(record).
    static QString defaultLabel(int number, const RunRecord &record);

Q_SIGNALS:
    // Emitted after every modification. Views coalesce it (it may come hundreds of times a
    // second during a run).
    void changed();

private:
    void sync(); // refreshes m_runs from m_set, then emits changed()

    RunSet m_set;
    std::map<int, std::unique_ptr<RunSetFeed>> m_live; // the going runs, by id
    int m_followed = 0;
    LiveSet m_liveSet;
    std::vector<StoredRun> m_runs;
    RunGroups m_groups;
    std::set<std::string> m_hidden; // runIds of hidden runs
    std::vector<PublishedSet> m_published;
    bool m_publishedShown = true;
};

} // namespace devicebench
