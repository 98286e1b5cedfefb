// SPDX-License-Identifier: MIT
#include "store/run_store.h"

#include <cstddef>
#include <exception>
#include <string>
#include <utility>

namespace devicebench {

QString runStateName(RunState state) { return QString::fromLatin1(toString(state)); }

StoredRun::StoredRun(const RunEntry &entry) : record(entry.record) { update(entry); }

void StoredRun::update(const RunEntry &entry) {
    id = entry.id;
    number = entry.number;
    label = QString::fromStdString(entry.label);
    origin = QString::fromStdString(entry.origin);
    state = entry.state;
    reason = QString::fromStdString(entry.reason);
    warmupEpochs = entry.warmupEpochs;
    summary = entry.summary;
    speedUp = entry.speedUp;
    isBaseline = entry.isBaseline;
    differences = entry.differences;
    maxTestLossDiff = entry.maxTestLossDiff;
    machineSpeed = entry.machineSpeed;
    cost = entry.cost;
}

RunStore::RunStore(QObject *parent) : QObject(parent) {}

QString RunStore::defaultLabel(int number, const RunRecord &record) {
    return QString::fromStdString(RunSet::defaultLabel(number, record));
}

void RunStore::sync() {
    const std::vector<RunEntry> &entries = m_set.runs();
    bool sameRecords = entries.size() == m_runs.size();
    for (std::size_t i = 0; sameRecords && i < entries.size(); ++i)
        sameRecords = &m_runs[i].record == &entries[i].record;
    if (sameRecords) {
        for (std::size_t i = 0; i < entries.size(); ++i)
            m_runs[i].update(entries[i]);
    } else {
        m_runs.clear();
        m_runs.reserve(entries.size());
        for (const RunEntry &entry : entries)
            m_runs.emplace_back(entry);
    }
    m_groups = groupRuns(m_set);
    Q_EMIT changed();
}

void RunStore::acceptRun(int id) {
    if (m_live.empty())
        m_followed = id;
    m_live[id] = std::make_unique<RunSetFeed>(m_set, id, [this, id](RunSetFeed::Change change) {
        m_followed = id;
        if (change == RunSetFeed::Change::Rederived)
            sync();
        else
            Q_EMIT changed(); // steps or readings: no derived value changed
    });
}

void RunStore::acceptRunSet(int /*firstId*/, int runs, bool interleaved) {
    m_liveSet = {runs, interleaved};
}

RecordObserver *RunStore::liveRun(int id) {
    const auto live = m_live.find(id);
    return live == m_live.end() ? nullptr : live->second.get();
}

bool RunStore::finishRun(int id, const RecordedRun &run) {
    const auto live = m_live.find(id);
    if (live == m_live.end())
        return false;
    const bool entered = live->second->finish(run); // re-derived, when it has an entry
    m_live.erase(live);
    if (m_live.empty())
        m_liveSet = {};
    if (m_followed == id)
        m_followed = m_live.empty() ? 0 : m_live.begin()->first; // the set's next run
    Q_EMIT changed();                                            // no longer going
    return entered;
}

int RunStore::addRecord(const RunRecord &record, const QString &origin) {
    const int before = m_set.runCount();
    const int index = m_set.addRecord(record, origin.toStdString());
    if (m_set.runCount() != before)
        sync();
    return index;
}

std::vector<int> RunStore::addRecords(const std::vector<RunRecord> &records,
                                      const QStringList &origins) {
    std::vector<std::string> files;
    files.reserve(static_cast<std::size_t>(origins.size()));
    for (const QString &origin : origins)
        files.push_back(origin.toStdString());
    const int before = m_set.runCount();
    std::vector<int> indices = m_set.addRecords(records, files);
    if (m_set.runCount() != before)
        sync(); // once: the views' runs and the groups are rebuilt here
    return indices;
}

void RunStore::setLabel(int id, const QString &label) {
    if (!m_set.hasRun(id))
        return;
    m_set.setLabel(id, label.toStdString());
    sync();
}

bool RunStore::removeRun(int id) {
    if (!m_set.removeRun(id))
        return false;
    sync();
    return true;
}

void RunStore::clear() {
    m_set.clear();
    sync();
}

void RunStore::assign(const RunSet &runs) {
    m_runs.clear(); // refers to the set about to be replaced
    m_set = runs;
    sync();
}

void RunStore::setWarmupEpochs(int warmupEpochs) {
    if (m_set.setWarmupEpochs(warmupEpochs))
        sync();
}

void RunStore::setCostSettings(CostSettings settings) {
    m_set.setCostSettings(std::move(settings));
    sync();
}

void RunStore::setBaseline(int id) {
    if (m_set.setBaseline(id))
        sync();
}

const StoredRun &RunStore::run(int index) const {
    return m_runs.at(static_cast<std::size_t>(index));
}

const StoredRun *RunStore::findRun(int id) const {
    const int index = indexOf(id);
    return index < 0 ? nullptr : &m_runs[static_cast<std::size_t>(index)];
}

double RunStore::speedUp(int index) const { return run(index).speedUp.ratio; }

namespace {

// A run's key among the hidden ones: its record's runId, or "#<id>" for a record without one.
std::string hiddenKey(const StoredRun &run) {
    return run.record.runId.empty() ? "#" + std::to_string(run.id) : run.record.runId;
}

} // namespace

void RunStore::setRunHidden(int id, bool hidden) {
    const StoredRun *run = findRun(id);
    if (run == nullptr || isRunHidden(id) == hidden)
        return;
    if (hidden)
        m_hidden.insert(hiddenKey(*run));
    else
        m_hidden.erase(hiddenKey(*run));
    Q_EMIT changed();
}

bool RunStore::isRunHidden(int id) const {
    const StoredRun *run = findRun(id);
    return run != nullptr && m_hidden.count(hiddenKey(*run)) > 0;
}

QStringList RunStore::hiddenRunKeys() const {
    QStringList keys;
    for (const std::string &key : m_hidden)
        keys.append(QString::fromStdString(key));
    return keys;
}

void RunStore::setHiddenRunKeys(const QStringList &keys) {
    std::set<std::string> next;
    for (const QString &key : keys)
        if (!key.isEmpty())
            next.insert(key.toStdString());
    if (next == m_hidden)
        return;
    m_hidden = std::move(next);
    Q_EMIT changed();
}

} // namespace devicebench
