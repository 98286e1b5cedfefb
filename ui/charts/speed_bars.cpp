// SPDX-License-Identifier: MIT
// The runs' and groups' bars of the bar chart (speed_bars.h): what each bar says (its value,
// interval, category, hover, the busy-machine and machine-speed lines), worked out from the
// store before SpeedChart (speed_chart.cpp) draws anything.
#include "charts/speed_bars.h"

#include "charts/bar_labels.h"
#include "charts/bar_measure.h"
#include "charts/published_bars.h"
#include "store/run_store.h"

#include "devicebench/contention.h"
#include "devicebench/machine_drift.h"
#include "devicebench/machine_speed.h"

#include <QTextDocumentFragment>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

namespace devicebench {
namespace {

QString intervalText(double low, double high, int decimals) {
    if (std::isnan(low) || std::isnan(high))
        return QString();
    if (std::isinf(high)) // the run's interval reaches zero: unbounded above
        return QStringLiteral(" [%1, ∞]").arg(low, 0, 'f', decimals);
    return QStringLiteral(" [%1, %2]").arg(low, 0, 'f', decimals).arg(high, 0, 'f', decimals);
}

// Whether the machine kept its speed: during the run (its canary, machine_drift.h) and against
// the baseline (machine_speed.h); the hover label's last lines, "" when there is nothing to say.
QString machineSpeedHover(const StoredRun &run, int baselineNumber) {
    QString text;
    const std::string drift = driftSummary(run.record.epochs, run.warmupEpochs);
    const bool changed = !speedChangedStableEpochs(run.record.epochs, run.warmupEpochs).empty();
    if (!drift.empty())
        text += (changed ? QStringLiteral("\n⚠ ") : QStringLiteral("\n")) +
                QString::fromStdString(drift);
    const std::string across =
        machineSpeedWarning(run.machineSpeed, "run #" + std::to_string(run.number),
                            "run #" + std::to_string(baselineNumber));
    if (!across.empty())
        text += QStringLiteral("\n⚠ ") + QString::fromStdString(across);
    return text;
}

// Run, stable mean, interval, epochs and speed-up: the bar's hover label, after the
// measure's own line (measureHoverLine), before the run's cost (costHoverText).
QString barHoverText(const StoredRun &run, int baselineNumber, BarMeasure measure) {
    const QString first = measureHoverLine(run, measure);
    QString text = run.label + (first.isEmpty() ? QString() : QStringLiteral("\n") + first);
    const QString cost =
        measure == BarMeasure::Money ? QString() : QStringLiteral("\n") + costHoverText(run);
    const Summary &s = run.summary;
    if (!s.hasStable || !std::isfinite(s.stableMean))
        return text + QStringLiteral("\nno stable epochs (%1 finished, %2 warm-up)")
                          .arg(s.epochSeconds.size())
                          .arg(s.warmupEpochs);
    text += QStringLiteral("\nstable mean %1 s per epoch").arg(s.stableMean, 0, 'f', 3);
    if (std::isfinite(s.ciLow) && std::isfinite(s.ciHigh))
        text += QStringLiteral("\n95% interval [%1, %2] s")
                    .arg(s.ciLow, 0, 'f', 3)
                    .arg(s.ciHigh, 0, 'f', 3);
    text += QStringLiteral("\nepochs %1 to %2 (%3 stable, %4 warm-up)")
                .arg(s.warmupEpochs + 1)
                .arg(s.epochSeconds.size())
                .arg(s.stableCount)
                .arg(s.warmupEpochs);
    QStringList busy;
    for (int epoch : contendedStableEpochs(run.record.epochs, run.warmupEpochs))
        busy.append(QString::number(epoch));
    if (!busy.isEmpty())
        text += QStringLiteral("\n⚠ busy machine: epochs %1 contended")
                    .arg(busy.join(QStringLiteral(", ")));
    if (run.isBaseline)
        text += QStringLiteral("\nbaseline (speed-up 1.00x)");
    else if (!run.comparable())
        text += QStringLiteral("\nnot comparable with the baseline");
    else if (std::isfinite(run.speedUp.ratio))
        text += QStringLiteral("\nspeed-up %1x").arg(run.speedUp.ratio, 0, 'f', 2) +
                intervalText(run.speedUp.low, run.speedUp.high, 2);
    return text + machineSpeedHover(run, baselineNumber) + cost;
}

// The measured value, its interval and its text; nothing drawn (mean 0) without a stable mean.
ErrorBarItem::Bar measuredBar(const MeasuredRun &m, BarMeasure measure, const QString &currency) {
    return {m.value,      m.low,        m.high,
            std::nan(""), std::nan(""), measureValueText(measure, m.value, currency)};
}

// The category's second line: not comparable, no stable epochs (bars of stable means), baseline
// or the speed-up (`named`: "speed-up 2.31x", under bars that are not seconds).
QString verdictLine(const StoredRun &run, const QString &errorColour, BarMeasure measure) {
    const Summary &s = run.summary;
    const bool named = measure != BarMeasure::Seconds;
    if (!run.comparable()) {
        QStringList fields;
        for (const std::string &f : run.differences)
            fields.append(QString::fromStdString(f));
        // The fields on a line of their own (the label is wrapped within its bar's width,
        // CategoryLabelsItem). Dark red, or light red on the dark theme (readable on both).
        return QStringLiteral("<span style=\"color:%1\">⚠ not comparable:<br>%2</span>")
            .arg(errorColour, fields.join(QStringLiteral(", ")).toHtmlEscaped());
    }
    if (measure != BarMeasure::TimeToTarget && (!s.hasStable || !std::isfinite(s.stableMean)))
        return QStringLiteral("no stable epochs") +
               (run.state == RunState::Running ? QStringLiteral(" yet") : QString());
    if (run.isBaseline)
        return QStringLiteral("baseline (1.00x)");
    if (!std::isfinite(run.speedUp.ratio))
        return QString();
    const QString speedUp = (named ? QStringLiteral("speed-up ") : QString()) +
                            QStringLiteral("%1x").arg(run.speedUp.ratio, 0, 'f', 2) +
                            intervalText(run.speedUp.low, run.speedUp.high, 2);
    // The machine ran at another speed during the baseline: the speed-up mixes the two.
    if (run.machineSpeed.biased)
        return QStringLiteral("<span style=\"color:%1\">%2 ⚠ biased</span>")
            .arg(errorColour, speedUp);
    return speedUp;
}

// Stable epochs measured on a busy machine (the mean is not the device's alone): "⚠ busy
// machine:" and which epochs, on lines of their own; "" when none.
QString busyLines(const std::vector<int> &busy, const QString &errorColour) {
    if (busy.empty())
        return QString();
    QStringList epochs;
    for (int epoch : busy)
        epochs.append(QString::number(epoch));
    // On two lines, like "not comparable", so that the label stays short under its bar.
    // Beyond three epochs only their number; the epoch table and the bar's hover list them.
    const QString which = busy.size() <= 3
                              ? QStringLiteral("epoch%1 %2 contended")
                                    .arg(busy.size() == 1 ? QString() : QStringLiteral("s"),
                                         epochs.join(QStringLiteral(", ")))
                              : QStringLiteral("%1 stable epochs contended").arg(busy.size());
    return QStringLiteral("<br><span style=\"color:%1\">⚠ busy machine:<br>%2</span>")
        .arg(errorColour, which);
}

// Stable epochs during which the machine's speed changed (the canary, machine_drift.h): "⚠
// machine speed changed:" and which epochs with the largest change, on lines of their own; ""
// when none.
QString driftLines(const StoredRun &run, const std::vector<int> &changed,
                   const QString &errorColour) {
    if (changed.empty())
        return QString();
    QStringList epochs;
    for (int epoch : changed)
        epochs.append(QString::number(epoch));
    const QString which = changed.size() <= 3
                              ? QStringLiteral("epoch%1 %2")
                                    .arg(changed.size() == 1 ? QString() : QStringLiteral("s"),
                                         epochs.join(QStringLiteral(", ")))
                              : QStringLiteral("%1 stable epochs").arg(changed.size());
    const double drift = stableCanaryDrift(run.record.epochs, run.warmupEpochs);
    const QString upTo = QString::fromStdString(describeCanaryChange(drift))
                             .replace(QStringLiteral("canary "), QStringLiteral("canary up to "));
    return QStringLiteral("<br><span style=\"color:%1\">⚠ machine speed changed:<br>%2 (%3)</span>")
        .arg(errorColour, which, upTo);
}

// Beyond three runs (a job beside its rank records) a run's label does not fit its category:
// "#n" and a short verdict; the legend, table and hover say the rest.
QString compactCategory(const StoredRun &run, const std::vector<int> &busy, bool drifted,
                        const QString &errorColour) {
    const QString red = QStringLiteral("<span style=\"color:%1\">⚠ %2</span>").arg(errorColour);
    QString verdict = QStringLiteral("%1x").arg(run.speedUp.ratio, 0, 'f', 2);
    if (!run.comparable() || run.isBaseline || !std::isfinite(run.speedUp.ratio))
        verdict = !run.comparable() ? red.arg(QStringLiteral("not<br>comparable"))
                                    : (run.isBaseline ? QStringLiteral("baseline") : QString());
    if (run.machineSpeed.biased && !verdict.isEmpty())
        verdict += QStringLiteral("<br>") + red.arg(QStringLiteral("biased"));
    if (!busy.empty())
        verdict += QStringLiteral("<br>") + red.arg(QStringLiteral("busy"));
    if (drifted)
        verdict += QStringLiteral("<br>") + red.arg(QStringLiteral("speed changed"));
    return QStringLiteral("#%1<br>").arg(run.number) + verdict;
}

// A run's one-line label for the horizontal chart: "#12 CPU x4 @ host · 1.23x".
QString rowLabel(const StoredRun &run) {
    QString row = run.label;
    if (!run.comparable())
        return row + QStringLiteral(" · not comparable");
    if (run.isBaseline)
        return row + QStringLiteral(" · baseline");
    if (std::isfinite(run.speedUp.ratio))
        row += QStringLiteral(" · %1x").arg(run.speedUp.ratio, 0, 'f', 2);
    return row;
}

// Run `m`'s bar. `compact`: the short category (many bars).
void appendRunBar(SpeedBars &out, const StoredRun &run, const MeasuredRun &m, int baselineNumber,
                  const QString &errorColour, bool compact, BarMeasure measure,
                  const QString &currency) {
    const std::vector<int> busy = contendedStableEpochs(run.record.epochs, run.warmupEpochs);
    const std::vector<int> changed = speedChangedStableEpochs(run.record.epochs, run.warmupEpochs);
    const ErrorBarItem::Bar bar = measuredBar(m, measure, currency);
    out.categories.append(compact ? compactCategory(run, busy, !changed.empty(), errorColour)
                                  : run.label.toHtmlEscaped() + QStringLiteral("<br>") +
                                        verdictLine(run, errorColour, measure) +
                                        busyLines(busy, errorColour) +
                                        driftLines(run, changed, errorColour));
    out.values.push_back(bar.mean);
    out.flagged.push_back(!run.comparable());
    out.contended.push_back(!busy.empty());
    out.numbers.push_back(run.number);
    out.runIds.push_back({run.id});
    out.bars.push_back(bar);
    out.labels.append(run.label);
    out.rowLabels.append(rowLabel(run));
    out.hoverTexts.append(barHoverText(run, baselineNumber, measure));
}

// The group of run `index` when it is drawn as a group (two runs or more, seconds, not one by
// one); nullptr otherwise.
const RunGroup *drawnGroup(const RunStore &store, int index, bool grouped) {
    const RunGroups &groups = store.groups();
    if (!grouped || index >= static_cast<int>(groups.groupOfRun.size()))
        return nullptr;
    const RunGroup &group =
        groups.groups[static_cast<std::size_t>(groups.groupOfRun[static_cast<std::size_t>(index)])];
    return group.runs.size() >= 2 ? &group : nullptr;
}

} // namespace

int shownRunCount(const RunStore &store) {
    int shown = 0;
    for (int index = 0; index < store.runCount(); ++index)
        shown += store.isRunHidden(store.run(index).id) ? 0 : 1;
    return shown;
}

SpeedBars speedBars(const RunStore &store, const QString &errorColour, int publishedBars,
                    BarMeasure measure, bool grouped) {
    SpeedBars out;
    const MeasuredBars measured = measureBars(store, measure);
    out.currency = measured.currency;
    out.leftOut = measured.leftOut;
    const bool groups =
        grouped && (measure == BarMeasure::Seconds || measure == BarMeasure::TimeToTarget);
    std::vector<bool> drawn(store.groups().groups.size(), false);
    int count = publishedBars;
    for (const MeasuredRun &m : measured.runs) {
        const RunGroup *group = drawnGroup(store, m.index, groups);
        const auto g = group == nullptr
                           ? std::size_t{0}
                           : static_cast<std::size_t>(group - store.groups().groups.data());
        count += group == nullptr || !drawn[g] ? 1 : 0;
        if (group != nullptr)
            drawn[g] = true;
    }
    std::fill(drawn.begin(), drawn.end(), false);
    const bool compact = count > 3;
    const int baseline = store.baselineIndex();
    const int baselineNumber = baseline >= 0 ? store.run(baseline).number : 0;
    bool repeats = false;
    for (const MeasuredRun &m : measured.runs) {
        const StoredRun &run = store.run(m.index);
        repeats = repeats || drawnGroup(store, m.index, grouped) != nullptr;
        if (const RunGroup *group = drawnGroup(store, m.index, groups)) {
            const auto g = static_cast<std::size_t>(group - store.groups().groups.data());
            if (!drawn[g])
                appendGroupBar(out, store, *group, errorColour, compact, measure);
            drawn[g] = true;
            continue;
        }
        if (!groups || m.index >= static_cast<int>(store.groups().groupOfRun.size())) {
            appendRunBar(out, run, m, baselineNumber, errorColour, compact, measure,
                         measured.currency);
            continue;
        }
        // A group of one run: drawn as a run, its speed-up against the baseline group.
        const RunGroup &own = store.groups().groups[static_cast<std::size_t>(
            store.groups().groupOfRun[static_cast<std::size_t>(m.index)])];
        StoredRun shown = run;
        shown.speedUp = own.speedUp;
        shown.isBaseline = own.isBaseline;
        shown.differences = own.comparable || !own.differences.empty()
                                ? own.differences
                                : std::vector<std::string>{"precision"};
        appendRunBar(out, shown, m, baselineNumber, errorColour, compact, measure,
                     measured.currency);
    }
    if (repeats && !groups)
        out.leftOut.append(QStringLiteral("Repeated runs are shown one by one: groups average "
                                          "seconds and time to accuracy only."));
    return out;
}

void appendPublished(SpeedBars &out, const PublishedBars &published) {
    out.categories.append(published.categories);
    for (const double seconds : published.values) {
        out.values.push_back(seconds);
        out.bars.push_back({seconds, std::nan(""), std::nan(""), std::nan(""), std::nan(""),
                            measureValueText(BarMeasure::Seconds, seconds, QString())});
    }
    out.hoverTexts.append(published.hoverTexts);
}

} // namespace devicebench
