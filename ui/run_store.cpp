// SPDX-License-Identifier: MIT
#include "run_store.h"

#include "devicebench/summary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace devicebench {

QString runStateName(RunState state) {
    switch (state) {
    case RunState::Running:
        return QStringLiteral("running");
    case RunState::Finished:
        return QStringLiteral("finished");
    case RunState::Cancelled:
        return QStringLiteral("cancelled");
    case RunState::Diverged:
        return QStringLiteral("diverged");
    case RunState::Failed:
        return QStringLiteral("failed");
    }
    return QStringLiteral("unknown");
}

namespace {

RunState stateOf(RunStatus status) {
    switch (status) {
    case RunStatus::Finished:
        return RunState::Finished;
    case RunStatus::Cancelled:
        return RunState::Cancelled;
    case RunStatus::Diverged:
        return RunState::Diverged;
    case RunStatus::Failed:
        return RunState::Failed;
    }
    return RunState::Failed;
}

} // namespace

RunStore::RunStore(QObject *parent) : QObject(parent) {}

QString RunStore::defaultLabel(int id, const RunStarted &info) {
    const QString device = QString::fromStdString(info.device);
    if (info.device.rfind("cpu", 0) == 0) {
        return QStringLiteral("#%1 %2 x%3 %4")
            .arg(id)
            .arg(device)
            .arg(info.threads)
            .arg(info.threads == 1 ? QStringLiteral("thread") : QStringLiteral("threads"));
    }
    const QString name = QString::fromStdString(info.deviceName);
    return name.isEmpty() ? QStringLiteral("#%1 %2").arg(id).arg(device)
                          : QStringLiteral("#%1 %2 %3").arg(id).arg(device, name);
}

int RunStore::addRun(int id, const RunConfig &config, const RunStarted &info) {
    RunRecord record;
    record.id = id;
    record.label = defaultLabel(id, info);
    record.config = config;
    record.info = info;
    resummarize(record);

    int index = indexOf(id);
    if (index >= 0) {
        m_runs[static_cast<std::size_t>(index)] = std::move(record);
    } else {
        m_runs.push_back(std::move(record));
        index = runCount() - 1;
    }
    Q_EMIT changed();
    return index;
}

void RunStore::appendStepLosses(int id, const std::vector<StepLoss> &losses) {
    RunRecord *run = find(id);
    if (run == nullptr || losses.empty())
        return;
    run->steps.insert(run->steps.end(), losses.begin(), losses.end());
    Q_EMIT changed();
}

void RunStore::addEpoch(int id, const EpochResult &epoch) {
    RunRecord *run = find(id);
    if (run == nullptr)
        return;
    run->epochs.push_back(epoch);
    resummarize(*run);
    Q_EMIT changed();
}

bool RunStore::endRun(int id, const RunOutcome &outcome) {
    RunRecord *run = find(id);
    if (run == nullptr)
        return false;
    run->state = stateOf(outcome.status);
    run->reason = QString::fromStdString(outcome.reason);
    if (outcome.epochs.size() >= run->epochs.size())
        run->epochs = outcome.epochs;
    resummarize(*run);
    Q_EMIT changed();
    return true;
}

void RunStore::setLabel(int id, const QString &label) {
    RunRecord *run = find(id);
    if (run == nullptr)
        return;
    run->label = label;
    Q_EMIT changed();
}

void RunStore::clear() {
    m_runs.clear();
    Q_EMIT changed();
}

const RunRecord &RunStore::run(int index) const {
    return m_runs.at(static_cast<std::size_t>(index));
}

const RunRecord *RunStore::findRun(int id) const {
    const int index = indexOf(id);
    return index < 0 ? nullptr : &m_runs[static_cast<std::size_t>(index)];
}

int RunStore::indexOf(int id) const {
    const auto it =
        std::find_if(m_runs.begin(), m_runs.end(), [id](const RunRecord &r) { return r.id == id; });
    return it == m_runs.end() ? -1 : static_cast<int>(it - m_runs.begin());
}

RunRecord *RunStore::find(int id) {
    const int index = indexOf(id);
    return index < 0 ? nullptr : &m_runs[static_cast<std::size_t>(index)];
}

double RunStore::speedUp(int index) const {
    const RunRecord &self = run(index);
    if (!self.summary.hasStable || !(self.summary.stableMean > 0.0))
        return std::numeric_limits<double>::quiet_NaN();
    double slowest = 0.0;
    for (const RunRecord &r : m_runs) {
        if (r.summary.hasStable && std::isfinite(r.summary.stableMean))
            slowest = std::max(slowest, r.summary.stableMean);
    }
    return slowest / self.summary.stableMean;
}

bool RunStore::anySynthetic() const {
    return std::any_of(m_runs.begin(), m_runs.end(),
                       [](const RunRecord &r) { return r.info.synthetic || r.config.synthetic; });
}

void RunStore::resummarize(RunRecord &run) {
    const double imagesPerEpoch = static_cast<double>(run.info.trainImages + run.info.testImages);
    run.summary = summarize(run.epochs, std::max(0, run.config.warmupEpochs), imagesPerEpoch);
}

} // namespace devicebench
