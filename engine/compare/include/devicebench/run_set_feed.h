// SPDX-License-Identifier: MIT
// RunSetFeed: one live run into a RunSet (run_set.h), from its first event to its end, the same
// way for the CLI (its console's set, which it prints and exports) and the dashboard (its store).
// It sits behind the run's recorder: the record it is told at the start becomes the run's entry,
// step losses, machine readings and epochs are appended as they come, and finish() puts the run's
// final record (RecordedRun, run_record.h) in its place: the one end of a live run. Plain C++;
// not thread-safe: the thread that owns the set calls it.
#pragma once

#include "devicebench/run_record.h"
#include "devicebench/run_set.h"

#include <functional>
#include <vector>

namespace devicebench {

class RunSetFeed final : public RecordObserver {
public:
    // What changed in the set: Appended (steps or readings: nothing derived changed) or
    // Rederived (the run was added, got an epoch or ended: summaries and speed-ups are new).
    enum class Change { Appended, Rederived };
    using ChangedFn = std::function<void(Change)>;

    // Feeds run `id` (the caller's key: the controller's run id, the CLI's run number) into
    // `set`; `changed` (may be empty) is called after each change of the set.
    RunSetFeed(RunSet &set, int id, ChangedFn changed = {});

    // The run's entry: added with the record its recorder made (RunSet::addRun).
    void onRecordStarted(const RunRecord &record) override;
    void onStepLosses(const std::vector<StepLoss> &losses) override;
    void onSystemSamples(const std::vector<SystemSample> &samples) override;
    void onEpochFinished(const EpochResult &epoch) override;
    // Nothing: the end of a run is finish(), with the record as written.
    void onRunEnded(const RunOutcome & /*outcome*/) override {}

    // Ends the run: its final record (every epoch and step, status and reason, as written)
    // replaces the live one, and the entry's state follows its status. Returns false, changing
    // nothing, for a run that never reached the set (it ended before it started: the data could
    // not be read, a run set was stopped first); true otherwise.
    bool finish(const RecordedRun &run);

    int id() const { return m_id; }
    // False once finish() was called.
    bool going() const { return m_going; }

private:
    void tell(Change change) const;

    RunSet &m_set;
    int m_id;
    ChangedFn m_changed;
    bool m_going = true;
};

} // namespace devicebench
