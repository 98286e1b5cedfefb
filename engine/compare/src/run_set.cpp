// SPDX-License-Identifier: MIT
#include "devicebench/run_set.h"
#include "devicebench/precision_text.h"

#include "devicebench/summary.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace devicebench {

const char *toString(RunState state) {
    switch (state) {
    case RunState::Running:
        return "running";
    case RunState::Finished:
        return "finished";
    case RunState::Cancelled:
        return "cancelled";
    case RunState::Diverged:
        return "diverged";
    case RunState::Failed:
        return "failed";
    case RunState::Interrupted:
        return "interrupted";
    }
    return "unknown";
}

RunState stateOfRecordStatus(const std::string &status) {
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

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The time a run is ranked by: its time to target when it has a target (NaN when not reached),
// else its stable mean seconds per epoch (NaN without a stable epoch).
double headlineSeconds(const RunEntry &run) {
    if (run.target.set)
        return run.target.reached ? run.target.seconds : kNaN;
    return run.summary.hasStable ? run.summary.stableMean : kNaN;
}

} // namespace

std::string RunSet::defaultLabel(int number, const RunRecord &record) {
    return "#" + std::to_string(number) + " " + runLabel(record);
}

int RunSet::addRun(int id, RunRecord record) {
    RunEntry run;
    run.id = id;
    run.origin = "live";
    run.record = std::move(record);
    run.record.status = "running";
    run.state = RunState::Running;
    int index = indexOf(id);
    if (index >= 0) {
        RunEntry &old = m_runs[static_cast<std::size_t>(index)];
        run.number = old.number;
        run.label = defaultLabel(run.number, run.record);
        old = std::move(run);
    } else {
        run.number = m_nextNumber++;
        run.label = defaultLabel(run.number, run.record);
        m_runs.push_back(std::move(run));
        index = runCount() - 1;
    }
    rederive();
    return index;
}

void RunSet::appendSteps(int id, const std::vector<StepLoss> &steps) {
    RunEntry *run = find(id);
    if (run == nullptr)
        return;
    for (const StepLoss &s : steps)
        run->record.steps.push_back(TimedStepLoss{s.epoch, s.step, s.loss, s.seconds});
}

void RunSet::appendSamples(int id, const std::vector<SystemSample> &samples) {
    RunEntry *run = find(id);
    if (run == nullptr)
        return;
    run->record.samples.insert(run->record.samples.end(), samples.begin(), samples.end());
}

void RunSet::addEpoch(int id, const EpochResult &epoch) {
    RunEntry *run = find(id);
    if (run == nullptr)
        return;
    devicebench::addEpoch(run->record, epoch); // the free function: counts a script's steps
    rederive();
}

bool RunSet::replaceRecord(int id, RunRecord record) {
    RunEntry *run = find(id);
    if (run == nullptr)
        return false;
    run->record = std::move(record);
    run->state = run->record.status == "running" ? RunState::Running
                                                 : stateOfRecordStatus(run->record.status);
    run->reason = run->record.reason;
    rederive();
    return true;
}

int RunSet::appendRecord(const RunRecord &record, const std::string &origin, int known) {
    if (known >= 0)
        return known;
    RunEntry run;
    run.id = m_nextImportId--;
    run.number = m_nextNumber++;
    run.origin = origin;
    run.record = record;
    run.state = stateOfRecordStatus(record.status);
    run.reason = record.reason;
    if (run.state == RunState::Interrupted && run.reason.empty())
        run.reason = "the process that ran it ended during epoch " +
                     std::to_string(record.epochs.size() + 1);
    run.label = defaultLabel(run.number, record);
    m_runs.push_back(std::move(run));
    return runCount() - 1;
}

int RunSet::addRecord(const RunRecord &record, const std::string &origin) {
    int known = -1;
    for (std::size_t i = 0; known < 0 && !record.runId.empty() && i < m_runs.size(); ++i)
        if (m_runs[i].record.runId == record.runId)
            known = static_cast<int>(i);
    const int index = appendRecord(record, origin, known);
    if (known < 0)
        rederive();
    return index;
}

std::vector<int> RunSet::addRecords(const std::vector<RunRecord> &records,
                                    const std::vector<std::string> &origins) {
    std::unordered_map<std::string, int> indexOfRunId;
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (!m_runs[i].record.runId.empty())
            indexOfRunId.emplace(m_runs[i].record.runId, static_cast<int>(i));
    std::vector<int> indices;
    indices.reserve(records.size());
    m_runs.reserve(m_runs.size() + records.size());
    const int before = runCount();
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto it =
            records[i].runId.empty() ? indexOfRunId.end() : indexOfRunId.find(records[i].runId);
        const int index = appendRecord(records[i], i < origins.size() ? origins[i] : "",
                                       it == indexOfRunId.end() ? -1 : it->second);
        if (!records[i].runId.empty())
            indexOfRunId.emplace(records[i].runId, index);
        indices.push_back(index);
    }
    if (runCount() != before)
        rederive();
    return indices;
}

void RunSet::setLabel(int id, const std::string &label) {
    if (RunEntry *run = find(id))
        run->label = label;
}

bool RunSet::removeRun(int id) {
    const int index = indexOf(id);
    if (index < 0)
        return false;
    m_runs.erase(m_runs.begin() + index);
    rederive();
    return true;
}

void RunSet::clear() {
    m_runs.clear();
    m_nextNumber = 1;
}

bool RunSet::setWarmupEpochs(int warmupEpochs) {
    const int value = std::max(-1, warmupEpochs);
    if (value == m_warmupOverride)
        return false;
    m_warmupOverride = value;
    rederive();
    return true;
}

bool RunSet::setBaseline(int id) {
    if (id == m_baselineId)
        return false;
    m_baselineId = id;
    rederive();
    return true;
}

int RunSet::baselineIndex() const {
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        if (m_runs[i].isBaseline)
            return static_cast<int>(i);
    }
    return -1;
}

const RunEntry &RunSet::run(int index) const {
    if (index < 0 || index >= runCount())
        throw std::out_of_range("RunSet::run: index " + std::to_string(index) + " outside 0.." +
                                std::to_string(runCount() - 1));
    return m_runs[static_cast<std::size_t>(index)];
}

const RunEntry *RunSet::findRun(int id) const {
    const int index = indexOf(id);
    return index < 0 ? nullptr : &m_runs[static_cast<std::size_t>(index)];
}

int RunSet::indexOf(int id) const {
    const auto it =
        std::find_if(m_runs.begin(), m_runs.end(), [id](const RunEntry &r) { return r.id == id; });
    return it == m_runs.end() ? -1 : static_cast<int>(it - m_runs.begin());
}

RunEntry *RunSet::find(int id) {
    const int index = indexOf(id);
    return index < 0 ? nullptr : &m_runs[static_cast<std::size_t>(index)];
}

void RunSet::setCostSettings(CostSettings settings) {
    m_cost = std::move(settings);
    rederive();
}

std::vector<ControlPair> RunSet::controlPairs() const {
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

bool RunSet::anySynthetic() const {
    return std::any_of(m_runs.begin(), m_runs.end(), [](const RunEntry &r) {
        return r.record.started.synthetic || r.record.config.synthetic ||
               r.record.data.variant == "synthetic";
    });
}

void RunSet::rederive() {
    // 1. Summaries under the warm-up setting in effect.
    for (RunEntry &run : m_runs) {
        const RunRecord &r = run.record;
        run.warmupEpochs =
            m_warmupOverride >= 0 ? m_warmupOverride : std::max(0, r.config.warmupEpochs);
        const double imagesPerEpoch =
            static_cast<double>(r.started.trainImages + r.started.testImages);
        run.summary = summarize(r.epochs, run.warmupEpochs, imagesPerEpoch);
        run.target = timeToTarget(r.epochs, r.config.targetAccuracy);
        run.cost = costOfRun(r, run.summary, run.warmupEpochs, m_cost);
    }
    // 2. The baseline: the chosen run, else the slowest run with a headline time, else the
    // first.
    int baseline = m_baselineId != 0 ? indexOf(m_baselineId) : -1;
    if (baseline < 0) {
        double slowest = -1.0;
        for (std::size_t i = 0; i < m_runs.size(); ++i) {
            const double seconds = headlineSeconds(m_runs[i]);
            if (std::isfinite(seconds) && seconds > slowest) {
                slowest = seconds;
                baseline = static_cast<int>(i);
            }
        }
    }
    if (baseline < 0 && !m_runs.empty())
        baseline = 0;
    // 3. Against the baseline: speed-up, workload differences, control.
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        RunEntry &run = m_runs[i];
        run.isBaseline = static_cast<int>(i) == baseline;
        const RunEntry &base = m_runs[static_cast<std::size_t>(baseline)];
        // A baseline of a precision this version does not know is not comparable either.
        run.differences = !run.isBaseline ? comparisonDifferences(base.record, run.record)
                          : isRecordedPrecision(run.record.precision)
                              ? std::vector<std::string>()
                              : std::vector<std::string>{"precision"};
        if (comparedByTimeToTarget(base.record, run.record)) {
            run.speedUp = SpeedUp{headlineSeconds(base) / headlineSeconds(run), kNaN, kNaN};
        } else if (base.summary.hasStable && run.summary.hasStable &&
                   run.summary.stableMean > 0.0) {
            run.speedUp = devicebench::speedUp(base.summary, run.summary);
        } else {
            run.speedUp = SpeedUp{kNaN, kNaN, kNaN};
        }
        run.maxTestLossDiff =
            run.isBaseline ? kNaN : maxTestLossDifference(base.record, run.record);
        // Without a speed-up there is nothing for a machine of another speed to bias.
        run.machineSpeed = run.isBaseline || std::isnan(run.speedUp.ratio)
                               ? MachineSpeedDifference{}
                               : machineSpeedDifference(base.record, run.record);
    }
}

} // namespace devicebench
