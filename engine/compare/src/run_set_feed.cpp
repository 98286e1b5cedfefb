// SPDX-License-Identifier: MIT
#include "devicebench/run_set_feed.h"

#include <utility>

namespace devicebench {

RunSetFeed::RunSetFeed(RunSet &set, int id, ChangedFn changed)
    : m_set(set), m_id(id), m_changed(std::move(changed)) {}

void RunSetFeed::tell(Change change) const {
    if (m_changed)
        m_changed(change);
}

void RunSetFeed::onRecordStarted(const RunRecord &record) {
    m_set.addRun(m_id, record);
    tell(Change::Rederived);
}

void RunSetFeed::onStepLosses(const std::vector<StepLoss> &losses) {
    if (losses.empty() || !m_set.hasRun(m_id))
        return;
    m_set.appendSteps(m_id, losses); // with the recorder's seconds
    tell(Change::Appended);
}

void RunSetFeed::onSystemSamples(const std::vector<SystemSample> &samples) {
    if (samples.empty() || !m_set.hasRun(m_id))
        return;
    m_set.appendSamples(m_id, samples);
    tell(Change::Appended);
}

void RunSetFeed::onEpochFinished(const EpochResult &epoch) {
    if (!m_set.hasRun(m_id))
        return;
    m_set.addEpoch(m_id, epoch);
    tell(Change::Rederived);
}

bool RunSetFeed::finish(const RecordedRun &run) {
    m_going = false;
    // A record still "running" would be a bug of its recorder; the outcome says how it ended.
    RunRecord record = run.record;
    if (record.status == "running") {
        record.status = toString(run.outcome.status);
        record.reason = run.outcome.reason;
    }
    if (!m_set.replaceRecord(m_id, std::move(record)))
        return false;
    tell(Change::Rederived);
    return true;
}

} // namespace devicebench
