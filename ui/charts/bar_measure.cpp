// SPDX-License-Identifier: MIT
// What the bar chart measures (bar_measure.h).
#include "charts/bar_measure.h"

#include "store/run_store.h"

#include "devicebench/cost.h"
#include "devicebench/run_energy.h"
#include "devicebench/time_to_target.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace devicebench {

namespace {

// `value` with `digits` significant digits (more when it has more integer digits): 850.3 ->
// "850", 12.46 -> "12.5", 0.01234 -> "0.0123".
QString significantText(double value, int digits) {
    if (value == 0.0 || !std::isfinite(value))
        return QString::number(value);
    const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
    return QString::number(value, 'f', std::max(0, digits - 1 - magnitude));
}

QString joulesText(double joules) {
    return joules >= 1e4 ? significantText(joules / 1e3, 3) + QStringLiteral(" kJ")
                         : significantText(joules, 3) + QStringLiteral(" J");
}

MeasuredRun seconds(const StoredRun &run, MeasuredRun m) {
    const Summary &s = run.summary;
    m.value = 0.0; // no stable mean: the "no stable epochs" bar, drawn empty
    if (s.hasStable && std::isfinite(s.stableMean)) {
        m.value = s.stableMean;
        m.low = s.ciLow;
        m.high = s.ciHigh;
    }
    return m;
}

MeasuredRun joules(const StoredRun &run, MeasuredRun m) {
    const EnergySummary energy = summarizeEnergy(run.record.epochs, run.warmupEpochs);
    if (energy.epochs > 0 && std::isfinite(energy.meanJoules)) {
        m.value = energy.meanJoules;
        return m;
    }
    if (!run.summary.hasStable) {
        m.why = QStringLiteral("no stable epochs");
        return m;
    }
    const std::string reason = energyNotMeasuredReason(run.record.epochs);
    m.why = !run.record.sampling.sampled && reason.empty()
                ? QStringLiteral("energy not sampled (a record from before sampling)")
                : QStringLiteral("no energy measured") +
                      (reason.empty() ? QString()
                                      : QStringLiteral(": ") + QString::fromStdString(reason));
    return m;
}

MeasuredRun money(const StoredRun &run, MeasuredRun m) {
    const RunCost &cost = run.cost;
    m.currency = QString::fromStdString(cost.currency);
    switch (cost.basis) {
    case CostBasis::Hourly:
    case CostBasis::Energy:
        m.value = cost.perEpoch;
        break;
    case CostBasis::Free: // nothing to pay per epoch: no figure to compare, say what to set
        m.why = QStringLiteral("free: ") + QString::fromStdString(costBasisText(cost));
        break;
    case CostBasis::None:
        m.why = QString::fromStdString(cost.reason);
        if (!cost.price.found && cost.reason == cost.price.reason) // where to give one
            m.why += QStringLiteral(" (Settings > Prices)");
        break;
    }
    return m;
}

// The run's time to its target; without one, why: not reached (yet), or no target.
MeasuredRun toTarget(const StoredRun &run, MeasuredRun m) {
    const TargetResult t = timeToTarget(run.record.epochs, run.record.config.targetAccuracy);
    if (t.reached) {
        m.value = t.seconds;
        return m;
    }
    if (!t.set)
        m.why = QStringLiteral("no target accuracy");
    else if (run.state == RunState::Running)
        m.why = QStringLiteral("%1 not reached yet (%2 of %3 epochs)")
                    .arg(QString::fromStdString(targetText(t.target)))
                    .arg(t.epochs)
                    .arg(run.record.config.epochs);
    else
        m.why = QString::fromStdString(describeTarget(t));
    return m;
}

QString percentText(double target) { return QString::fromStdString(targetText(target)); }

} // namespace

std::optional<double> sharedTarget(const RunStore &store) {
    std::optional<double> shared;
    for (const StoredRun &run : store.runs()) {
        if (store.isRunHidden(run.id))
            continue;
        const std::optional<double> &target = run.record.config.targetAccuracy;
        if (!target || (shared && *shared != *target))
            return std::nullopt;
        shared = target;
    }
    return shared;
}

BarMeasure shownMeasure(BarMeasure chosen, const std::optional<double> &shared) {
    return chosen == BarMeasure::Seconds && shared ? BarMeasure::TimeToTarget : chosen;
}

QString barMeasureName(BarMeasure measure) {
    switch (measure) {
    case BarMeasure::TimeToTarget:
        return QStringLiteral("target");
    case BarMeasure::Joules:
        return QStringLiteral("joules");
    case BarMeasure::Money:
        return QStringLiteral("money");
    case BarMeasure::Seconds:
        break;
    }
    return QStringLiteral("seconds");
}

bool parseBarMeasure(const QString &name, BarMeasure *measure) {
    for (BarMeasure m : {BarMeasure::Seconds, BarMeasure::Joules, BarMeasure::Money}) {
        if (name == barMeasureName(m)) {
            *measure = m;
            return true;
        }
    }
    return false;
}

QString barMeasureText(BarMeasure measure) {
    switch (measure) {
    case BarMeasure::TimeToTarget:
        return QStringLiteral("Seconds to target");
    case BarMeasure::Joules:
        return QStringLiteral("Joules per epoch");
    case BarMeasure::Money:
        return QStringLiteral("Money per epoch");
    case BarMeasure::Seconds:
        break;
    }
    return QStringLiteral("Seconds per epoch");
}

MeasuredRun measureRun(const StoredRun &run, int index, BarMeasure measure) {
    MeasuredRun m;
    m.index = index;
    switch (measure) {
    case BarMeasure::Joules:
        return joules(run, m);
    case BarMeasure::Money:
        return money(run, m);
    case BarMeasure::TimeToTarget:
        return toTarget(run, m);
    case BarMeasure::Seconds:
        break;
    }
    return seconds(run, m);
}

MeasuredBars measureBars(const RunStore &store, BarMeasure measure) {
    MeasuredBars bars;
    bool currencySet = false;
    for (int index = 0; index < store.runCount(); ++index) {
        const StoredRun &run = store.run(index);
        if (store.isRunHidden(run.id))
            continue; // hidden from the charts by the user: no bar, no note
        MeasuredRun m = measureRun(run, index, measure);
        if (m.has() && measure == BarMeasure::Money) {
            if (!currencySet) {
                bars.currency = m.currency;
                currencySet = true;
            } else if (m.currency != bars.currency) {
                m.why = QStringLiteral("priced in %1, the bars show %2")
                            .arg(m.currency.isEmpty() ? QStringLiteral("no currency") : m.currency,
                                 bars.currency.isEmpty() ? QStringLiteral("no currency")
                                                         : bars.currency);
                m.value = std::nan("");
            }
        }
        if (m.has())
            bars.runs.push_back(m);
        else
            bars.leftOut.append(run.label + QStringLiteral(": no bar: ") + m.why);
    }
    return bars;
}

QString measureAxisTitle(BarMeasure measure, const QString &currency, double target) {
    switch (measure) {
    case BarMeasure::TimeToTarget:
        return QStringLiteral("seconds to ") + percentText(target);
    case BarMeasure::Joules:
        return QStringLiteral("joules per epoch");
    case BarMeasure::Money:
        return (currency.isEmpty() ? QStringLiteral("money") : currency) +
               QStringLiteral(" per epoch");
    case BarMeasure::Seconds:
        break;
    }
    return QStringLiteral("seconds per epoch");
}

QStringList measureTitles(BarMeasure measure, const QString &currency, double target) {
    const QString money = currency.isEmpty() ? QStringLiteral("Money") : currency;
    switch (measure) {
    case BarMeasure::TimeToTarget:
        return {QStringLiteral("Seconds to %1 test accuracy (time to accuracy: training and "
                               "evaluation up to the epoch that reached it)")
                    .arg(percentText(target)),
                QStringLiteral("Seconds to %1 test accuracy").arg(percentText(target)),
                QStringLiteral("Seconds to %1").arg(percentText(target))};
    case BarMeasure::Joules:
        return {QStringLiteral("Stable mean joules per epoch (after warm-up), energy measured "
                               "during the run"),
                QStringLiteral("Stable mean joules per epoch after warm-up"),
                QStringLiteral("Stable J/epoch")};
    case BarMeasure::Money:
        return {money + QStringLiteral(" per stable epoch (after warm-up) at the prices in "
                                       "Settings > Prices"),
                money + QStringLiteral(" per stable epoch at your prices"),
                money + QStringLiteral(" per stable epoch")};
    case BarMeasure::Seconds:
        break;
    }
    return {
        QStringLiteral("Stable mean seconds per epoch (after warm-up), 95% interval as error bar"),
        QStringLiteral("Stable mean s/epoch after warm-up, 95% interval"),
        QStringLiteral("Stable s/epoch, 95% interval")};
}

QString measureValueText(BarMeasure measure, double value, const QString &currency) {
    switch (measure) {
    case BarMeasure::Joules:
        return joulesText(value);
    case BarMeasure::Money:
        return QString::fromStdString(moneyText(value, currency.toStdString()));
    case BarMeasure::TimeToTarget:
    case BarMeasure::Seconds:
        break;
    }
    return QStringLiteral("%1 s").arg(value, 0, 'f', value < 10.0 ? 2 : 1);
}

QString measureHoverLine(const StoredRun &run, BarMeasure measure) {
    if (measure == BarMeasure::TimeToTarget)
        return QString::fromStdString(
            describeTarget(timeToTarget(run.record.epochs, run.record.config.targetAccuracy)));
    if (measure == BarMeasure::Money)
        return run.cost.basis == CostBasis::Hourly || run.cost.basis == CostBasis::Energy
                   ? costHoverText(run)
                   : QString();
    if (measure != BarMeasure::Joules)
        return QString();
    const EnergySummary energy = summarizeEnergy(run.record.epochs, run.warmupEpochs);
    if (energy.epochs == 0)
        return QString();
    return QStringLiteral("stable mean %1 per epoch (%2 epoch%3, %4 in all; %5)")
        .arg(joulesText(energy.meanJoules))
        .arg(energy.epochs)
        .arg(energy.epochs == 1 ? QString() : QStringLiteral("s"))
        .arg(joulesText(energy.totalJoules), QString::fromStdString(energy.methods));
}

QString costHoverText(const StoredRun &run) {
    // The hover sits inside a plot area that may be 500 px wide: the figures wrapped at their
    // commas, then what they rest on, its source (often a long page address) cut short.
    constexpr qsizetype kLineChars = 56;
    QString line = QString::fromStdString(costLine(run.cost));
    const qsizetype split = line.indexOf(QStringLiteral("; "));
    QString basis = split > 0 ? line.mid(split + 2) : QString();
    if (split > 0)
        line.truncate(split);
    QStringList lines;
    for (const QString &part : line.split(QStringLiteral(", "))) {
        if (!lines.isEmpty() && lines.back().size() + 2 + part.size() <= kLineChars)
            lines.back() += QStringLiteral(", ") + part;
        else
            lines.append(part);
    }
    if (basis.size() > kLineChars + 8)
        basis = basis.left(kLineChars + 7) + QStringLiteral("…");
    if (!basis.isEmpty())
        lines.append(basis);
    return lines.join(QLatin1Char('\n'));
}

QString publishedLeftOutLine(BarMeasure measure, int rows) {
    if (measure == BarMeasure::Seconds || rows <= 0)
        return QString();
    const QString what = measure == BarMeasure::Joules  ? QStringLiteral("energy")
                         : measure == BarMeasure::Money ? QStringLiteral("price")
                                                        : QStringLiteral("time to accuracy");
    return QStringLiteral("Published results: %1 row%2 not drawn (they publish seconds per "
                          "epoch, no %3)")
        .arg(rows)
        .arg(rows == 1 ? QString() : QStringLiteral("s"))
        .arg(what);
}

} // namespace devicebench
