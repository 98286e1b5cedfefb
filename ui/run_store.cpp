// SPDX-License-Identifier: MIT
#include "run_store.h"

#include "devicebench/summary.h"

#include <QDateTime>
#include <QRandomGenerator>

#include <algorithm>
#include <cctype>
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
    case RunState::Interrupted:
        return QStringLiteral("interrupted");
    }
    return QStringLiteral("unknown");
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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

// A record's status as read from a file; "running" there means its process is gone.
RunState stateOfRecord(const std::string &status) {
    if (status == "finished")
        return RunState::Finished;
    if (status == "cancelled")
        return RunState::Cancelled;
    if (status == "diverged")
        return RunState::Diverged;
    if (status == "failed")
        return RunState::Failed;
    return RunState::Interrupted;
}

// The fingerprint is a fact of this process and machine: collect it once.
const Fingerprint &thisMachine() {
    static const Fingerprint fingerprint = collectFingerprint();
    return fingerprint;
}

std::string newRunId(const std::string &host) {
    const QString time =
        QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
    const QString hex = QString::number(QRandomGenerator::global()->generate(), 16)
                            .rightJustified(8, QLatin1Char('0'));
    std::string safeHost;
    for (const char ch : host)
        safeHost += (std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '.' || ch == '_')
                        ? ch
                        : '-';
    return time.toStdString() + "-" + (safeHost.empty() ? "host" : safeHost) + "-" +
           hex.toStdString();
}

} // namespace

RunStore::RunStore(QObject *parent) : QObject(parent) {}

QString RunStore::defaultLabel(int number, const RunRecord &record) {
    return QStringLiteral("#%1 ").arg(number) + QString::fromStdString(runLabel(record));
}

int RunStore::addRun(int id, const RunConfig &config, const RunStarted &info) {
    StoredRun run;
    run.id = id;
    run.origin = QStringLiteral("live");
    run.liveStart = std::chrono::steady_clock::now();
    RunRecord &r = run.record;
    r.config = config;
    r.workload = toString(config.workload);
    r.started = info;
    r.fingerprint = thisMachine();
    r.fingerprint.intraOpThreads = info.threads;
    r.runId = newRunId(r.fingerprint.hostName);
    r.createdUtc = QDateTime::currentDateTimeUtc()
                       .toString(QStringLiteral("yyyy-MM-dd'T'HH:mm:ss'Z'"))
                       .toStdString();
    try {
        r.data = identifyData(config, info.trainImages, info.testImages);
    } catch (const std::exception &) {
        // The identity is informative; a run whose files vanished meanwhile still shows.
        r.data.path = config.synthetic ? std::string() : config.dataDir;
        r.data.variant = config.synthetic ? "synthetic" : "cifar-10-binary";
        r.data.trainImages = info.trainImages;
        r.data.testImages = info.testImages;
    }
    r.status = "running";

    int index = indexOf(id);
    if (index >= 0) {
        run.number = m_runs[static_cast<std::size_t>(index)].number;
        run.label = defaultLabel(run.number, r);
        m_runs[static_cast<std::size_t>(index)] = std::move(run);
    } else {
        run.number = m_nextNumber++;
        run.label = defaultLabel(run.number, r);
        m_runs.push_back(std::move(run));
        index = runCount() - 1;
    }
    rederive();
    Q_EMIT changed();
    return index;
}

void RunStore::appendStepLosses(int id, const std::vector<StepLoss> &losses) {
    StoredRun *run = find(id);
    if (run == nullptr || losses.empty())
        return;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - run->liveStart).count();
    run->record.steps.reserve(run->record.steps.size() + losses.size());
    for (const StepLoss &s : losses)
        run->record.steps.push_back(TimedStepLoss{s.epoch, s.step, s.loss, seconds});
    Q_EMIT changed();
}

void RunStore::addEpoch(int id, const EpochResult &epoch) {
    StoredRun *run = find(id);
    if (run == nullptr)
        return;
    run->record.epochs.push_back(epoch);
    rederive();
    Q_EMIT changed();
}

bool RunStore::endRun(int id, const RunOutcome &outcome) {
    StoredRun *run = find(id);
    if (run == nullptr)
        return false;
    run->state = stateOf(outcome.status);
    run->reason = QString::fromStdString(outcome.reason);
    run->record.status = toString(outcome.status);
    run->record.reason = outcome.reason;
    if (outcome.epochs.size() >= run->record.epochs.size())
        run->record.epochs = outcome.epochs;
    rederive();
    Q_EMIT changed();
    return true;
}

int RunStore::addRecord(const RunRecord &record, const QString &origin) {
    if (!record.runId.empty()) {
        for (std::size_t i = 0; i < m_runs.size(); ++i) {
            if (m_runs[i].record.runId == record.runId)
                return static_cast<int>(i);
        }
    }
    StoredRun run;
    run.id = m_nextImportId--;
    run.number = m_nextNumber++;
    run.origin = origin;
    run.record = record;
    run.state = stateOfRecord(record.status);
    run.reason = QString::fromStdString(record.reason);
    if (run.state == RunState::Interrupted && run.reason.isEmpty())
        run.reason = QStringLiteral("the process that ran it ended during epoch %1")
                         .arg(record.epochs.size() + 1);
    run.label = defaultLabel(run.number, record);
    m_runs.push_back(std::move(run));
    rederive();
    Q_EMIT changed();
    return runCount() - 1;
}

void RunStore::setLabel(int id, const QString &label) {
    StoredRun *run = find(id);
    if (run == nullptr)
        return;
    run->label = label;
    Q_EMIT changed();
}

bool RunStore::removeRun(int id) {
    const int index = indexOf(id);
    if (index < 0)
        return false;
    m_runs.erase(m_runs.begin() + index);
    if (m_baselineId == id)
        m_baselineId = 0;
    rederive();
    Q_EMIT changed();
    return true;
}

void RunStore::clear() {
    m_runs.clear();
    m_nextNumber = 1;
    Q_EMIT changed();
}

void RunStore::setWarmupEpochs(int warmupEpochs) {
    const int value = std::max(-1, warmupEpochs);
    if (value == m_warmupOverride)
        return;
    m_warmupOverride = value;
    rederive();
    Q_EMIT changed();
}

void RunStore::setBaseline(int id) {
    if (id == m_baselineId)
        return;
    m_baselineId = id;
    rederive();
    Q_EMIT changed();
}

int RunStore::baselineIndex() const {
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        if (m_runs[i].isBaseline)
            return static_cast<int>(i);
    }
    return -1;
}

const StoredRun &RunStore::run(int index) const {
    return m_runs.at(static_cast<std::size_t>(index));
}

const StoredRun *RunStore::findRun(int id) const {
    const int index = indexOf(id);
    return index < 0 ? nullptr : &m_runs[static_cast<std::size_t>(index)];
}

int RunStore::indexOf(int id) const {
    const auto it =
        std::find_if(m_runs.begin(), m_runs.end(), [id](const StoredRun &r) { return r.id == id; });
    return it == m_runs.end() ? -1 : static_cast<int>(it - m_runs.begin());
}

StoredRun *RunStore::find(int id) {
    const int index = indexOf(id);
    return index < 0 ? nullptr : &m_runs[static_cast<std::size_t>(index)];
}

double RunStore::speedUp(int index) const { return run(index).speedUp.ratio; }

std::vector<ControlPair> RunStore::controlPairs() const {
    std::vector<ControlPair> pairs;
    for (std::size_t a = 0; a < m_runs.size(); ++a) {
        for (std::size_t b = a + 1; b < m_runs.size(); ++b) {
            if (!workloadDifferences(m_runs[a].record, m_runs[b].record).empty())
                continue;
            ControlPair pair;
            pair.indexA = static_cast<int>(a);
            pair.indexB = static_cast<int>(b);
            pair.maxTestLossDiff = maxTestLossDifference(m_runs[a].record, m_runs[b].record);
            pair.warning = pair.maxTestLossDiff > kTestLossWarning; // false for NaN
            pairs.push_back(pair);
        }
    }
    return pairs;
}

bool RunStore::anySynthetic() const {
    return std::any_of(m_runs.begin(), m_runs.end(), [](const StoredRun &r) {
        return r.record.started.synthetic || r.record.config.synthetic ||
               r.record.data.variant == "synthetic";
    });
}

void RunStore::rederive() {
    // 1. Summaries under the warm-up setting in effect.
    for (StoredRun &run : m_runs) {
        const RunRecord &r = run.record;
        run.warmupEpochs =
            m_warmupOverride >= 0 ? m_warmupOverride : std::max(0, r.config.warmupEpochs);
        const double imagesPerEpoch =
            static_cast<double>(r.started.trainImages + r.started.testImages);
        run.summary = summarize(r.epochs, run.warmupEpochs, imagesPerEpoch);
    }
    // 2. The baseline: the chosen run, else the slowest run with a stable mean, else the first.
    int baseline = m_baselineId != 0 ? indexOf(m_baselineId) : -1;
    if (baseline < 0) {
        double slowest = -1.0;
        for (std::size_t i = 0; i < m_runs.size(); ++i) {
            const Summary &s = m_runs[i].summary;
            if (s.hasStable && std::isfinite(s.stableMean) && s.stableMean > slowest) {
                slowest = s.stableMean;
                baseline = static_cast<int>(i);
            }
        }
    }
    if (baseline < 0 && !m_runs.empty())
        baseline = 0;
    // 3. Against the baseline: speed-up, workload differences, control.
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        StoredRun &run = m_runs[i];
        run.isBaseline = static_cast<int>(i) == baseline;
        const StoredRun &base = m_runs[static_cast<std::size_t>(baseline)];
        run.differences = run.isBaseline ? std::vector<std::string>()
                                         : workloadDifferences(base.record, run.record);
        if (base.summary.hasStable && run.summary.hasStable && run.summary.stableMean > 0.0) {
            run.speedUp = devicebench::speedUp(base.summary, run.summary);
        } else {
            run.speedUp = SpeedUp{kNaN, kNaN, kNaN};
        }
        run.maxTestLossDiff =
            run.isBaseline ? kNaN : maxTestLossDifference(base.record, run.record);
    }
}

} // namespace devicebench
