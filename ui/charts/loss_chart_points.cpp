// SPDX-License-Identifier: MIT
// LossChart (charts.h): the points of one run built from its record, per x axis (steps,
// epochs, seconds): the raw and smoothed per-step losses and the test-loss dots, with rings on
// the epochs whose machine changed speed. Rebuilt only when the record grew or the options
// changed how points are built (the generation).
#include "charts/charts.h"

#include "charts/chart_math.h"
#include "store/run_store.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace devicebench {

void LossChart::build(RunSeries &entry, const StoredRun &run) {
    const RunRecord &record = run.record;
    const auto perEpoch = static_cast<double>(stepsPerEpochOf(record));
    if (entry.builtSteps != record.steps.size() || entry.builtGeneration != m_generation)
        buildStepPoints(entry, record, perEpoch);
    if (entry.builtEpochs != record.epochs.size() || entry.builtGeneration != m_generation)
        buildTestPoints(entry, record, perEpoch);
    entry.builtGeneration = m_generation;
    const double epochs = std::max(record.config.epochs, static_cast<int>(record.epochs.size()));
    switch (m_options.xAxis) {
    case XAxisMode::Steps:
        entry.xEnd = epochs * perEpoch;
        break;
    case XAxisMode::Epochs:
        entry.xEnd = epochs;
        break;
    case XAxisMode::Seconds:
        entry.xEnd = entry.rawPoints.isEmpty() ? 0.0 : entry.rawPoints.back().x();
        if (!entry.testPoints.isEmpty())
            entry.xEnd = std::max(entry.xEnd, entry.testPoints.back().x());
        break;
    }
}

void LossChart::buildStepPoints(RunSeries &entry, const RunRecord &record, double perEpoch) {
    const auto xOf = [&](const TimedStepLoss &s) {
        switch (m_options.xAxis) {
        case XAxisMode::Steps:
            return static_cast<double>(s.step);
        case XAxisMode::Epochs:
            return static_cast<double>(s.step) / perEpoch;
        case XAxisMode::Seconds:
            return s.seconds;
        }
        return 0.0;
    };
    entry.rawPoints.clear();
    entry.stepOf.clear();
    entry.epochOf.clear();
    entry.losses.clear();
    entry.rawPoints.reserve(static_cast<qsizetype>(record.steps.size()));
    entry.losses.reserve(record.steps.size());
    for (const TimedStepLoss &s : record.steps) {
        entry.losses.push_back(s.loss);
        if (!std::isfinite(s.loss))
            continue;
        entry.rawPoints.append(QPointF(xOf(s), s.loss));
        entry.stepOf.push_back(s.step);
        entry.epochOf.push_back(s.epoch);
    }
    if (m_options.xAxis == XAxisMode::Seconds)
        spreadTiedX(entry.rawPoints);
    entry.smoothPoints = smoothPointsY(entry.rawPoints, m_options.smoothing);
    entry.rawRange = finiteYRange(entry.rawPoints);
    entry.smoothRange = finiteYRange(entry.smoothPoints);
    entry.builtSteps = record.steps.size();
    entry.builtEpochs = static_cast<std::size_t>(-1); // the test dots' x may use the steps
}

void LossChart::buildTestPoints(RunSeries &entry, const RunRecord &record, double perEpoch) {
    entry.testPoints.clear();
    entry.speedPoints.clear();
    entry.speedChangeOf.clear();
    for (const EpochResult &e : record.epochs) {
        if (!std::isfinite(e.testLoss))
            continue;
        double x = e.epoch; // Epochs
        if (m_options.xAxis == XAxisMode::Steps)
            x = e.epoch * perEpoch;
        else if (m_options.xAxis == XAxisMode::Seconds) {
            // The time of the epoch's last step (its test pass follows it).
            x = std::nan("");
            for (auto it = record.steps.rbegin(); it != record.steps.rend(); ++it)
                if (it->epoch <= e.epoch) {
                    x = it->seconds;
                    break;
                }
            if (!std::isfinite(x))
                continue;
        }
        entry.testPoints.append(QPointF(x, e.testLoss));
        if (e.speedChanged) { // the machine changed speed during this epoch: ring its dot
            entry.speedPoints.append(QPointF(x, e.testLoss));
            entry.speedChangeOf[e.epoch] = e.canaryChange;
        }
    }
    entry.testRange = finiteYRange(entry.testPoints);
    entry.builtEpochs = record.epochs.size();
}

} // namespace devicebench
