// SPDX-License-Identifier: MIT
// A group of repeated runs as one bar of the bar chart (speed_bars.h).
#include "charts/speed_bars.h"

#include "charts/bar_measure.h"
#include "store/run_store.h"

#include "devicebench/time_to_target.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace devicebench {

namespace {

QString number(double value, int decimals) { return QString::number(value, 'f', decimals); }

// " [1.10, 1.38]"; "" when not known.
QString interval(double low, double high, int decimals) {
    if (!std::isfinite(low) || std::isnan(high))
        return QString();
    return QStringLiteral(" [%1, %2]")
        .arg(number(low, decimals),
             std::isinf(high) ? QStringLiteral("∞") : number(high, decimals));
}

bool comparableWithBaseline(const RunGroup &group) {
    return group.comparable && group.differences.empty();
}

// "baseline (1.00x)", "1.23x [1.10, 1.38]", "not comparable: fields" or "" (no stable mean).
QString verdict(const RunGroup &group, const QString &errorColour, bool compact) {
    if (!comparableWithBaseline(group)) {
        QStringList fields;
        for (const std::string &f : group.differences)
            fields.append(QString::fromStdString(f));
        return QStringLiteral("<span style=\"color:%1\">⚠ not comparable%2</span>")
            .arg(errorColour, compact || fields.isEmpty()
                                  ? QString()
                                  : QString(QStringLiteral(":<br>") +
                                            fields.join(QStringLiteral(", ")).toHtmlEscaped()));
    }
    if (group.isBaseline)
        return compact ? QStringLiteral("baseline") : QStringLiteral("baseline (1.00x)");
    if (!std::isfinite(group.speedUp.ratio))
        return QString();
    return number(group.speedUp.ratio, 2) + QStringLiteral("x") +
           (compact ? QString() : interval(group.speedUp.low, group.speedUp.high, 2));
}

// "n = 5", or "n = 4 of 5" when a run has no stable mean.
QString countText(const RunGroup &group) {
    const auto runs = static_cast<int>(group.runs.size());
    return group.stats.n == runs ? QStringLiteral("n = %1").arg(runs)
                                 : QStringLiteral("n = %1 of %2").arg(group.stats.n).arg(runs);
}

QString hoverText(const RunStore &store, const RunGroup &group) {
    const GroupStats &s = group.stats;
    QString text = QString::fromStdString(group.label) +
                   QStringLiteral("\ngroup %1: %2 repeated runs (%3), one configuration on one "
                                  "machine")
                       .arg(group.number)
                       .arg(group.runs.size())
                       .arg(QString::fromStdString(runNumbersText(store.runSet(), group.runs)));
    if (s.n == 0)
        return text + QStringLiteral("\nno stable epochs in any of its runs");
    text += QStringLiteral("\nmean of %1 runs' stable means %2 s per epoch")
                .arg(s.n)
                .arg(number(s.mean, 3));
    if (std::isfinite(s.ciLow) && std::isfinite(s.ciHigh))
        text += QStringLiteral("\n95% interval%1 [%2, %3] s (error bar)")
                    .arg(s.n >= 2 ? QStringLiteral(" over the runs") : QString(),
                         number(s.ciLow, 3), number(s.ciHigh, 3));
    if (s.n >= 2)
        text += QStringLiteral("\nruns from %1 to %2 s (thin whisker), standard deviation %3 s")
                    .arg(number(s.min, 3), number(s.max, 3), number(s.stddev, 3));
    if (!comparableWithBaseline(group))
        text += QStringLiteral("\nnot comparable with the baseline group");
    else if (group.isBaseline)
        text += QStringLiteral("\nbaseline group (speed-up 1.00x)");
    else if (std::isfinite(group.speedUp.ratio))
        text += QStringLiteral("\nspeed-up %1x%2 against the baseline group (the epochs' and "
                               "the runs' spread)")
                    .arg(number(group.speedUp.ratio, 2),
                         interval(group.speedUp.low, group.speedUp.high, 2));
    if (std::isfinite(group.maxTestLossDiff))
        text += QStringLiteral("\ncontrol: largest test-loss difference between its runs %1")
                    .arg(QString::number(group.maxTestLossDiff, 'g', 3));
    return text + QStringLiteral("\n\"Runs one by one\" draws each run");
}

// "n = 5, 4 reached": the group's runs with the target and how many reached it.
QString targetCountText(const RunGroup &group) {
    const TargetScore &t = group.target;
    return t.reached == t.runs ? QStringLiteral("n = %1").arg(t.runs)
                               : QStringLiteral("n = %1, %2 reached").arg(t.runs).arg(t.reached);
}

QString targetHoverText(const RunStore &store, const RunGroup &group) {
    QString text =
        QString::fromStdString(group.label) +
        QStringLiteral("\ngroup %1: %2 repeated runs (%3)\ntime to %4: %5")
            .arg(group.number)
            .arg(group.runs.size())
            .arg(QString::fromStdString(runNumbersText(store.runSet(), group.runs)))
            .arg(QString::fromStdString(targetText(
                store.run(group.runs.front()).record.config.targetAccuracy.value_or(0.0))))
            .arg(QString::fromStdString(describeScore(group.target)));
    if (!comparableWithBaseline(group))
        text += QStringLiteral("\nnot comparable with the baseline group");
    else if (group.isBaseline)
        text += QStringLiteral("\nbaseline group (speed-up 1.00x)");
    else if (std::isfinite(group.speedUp.ratio))
        text += QStringLiteral("\nspeed-up %1x against the baseline group (time to accuracy)")
                    .arg(number(group.speedUp.ratio, 2));
    return text + QStringLiteral("\n\"Runs one by one\" draws each run");
}

// What a group's bar shows under `measure`: its value, interval, whisker, count and hover.
struct GroupFigures {
    double value = 0.0; // 0: no bar (no stable mean; the target not reached reliably)
    double low = std::nan("");
    double high = std::nan("");
    double min = std::nan("");
    double max = std::nan("");
    QString count;
    QString hover;
};

GroupFigures groupFigures(const RunStore &store, const RunGroup &group, BarMeasure measure) {
    GroupFigures f;
    if (measure == BarMeasure::TimeToTarget) {
        const TargetScore &t = group.target;
        f.value = std::isfinite(t.seconds) ? t.seconds : 0.0;
        f.min = t.reached >= 2 ? t.min : std::nan("");
        f.max = t.reached >= 2 ? t.max : std::nan("");
        f.count = targetCountText(group);
        f.hover = targetHoverText(store, group);
        return f;
    }
    const GroupStats &s = group.stats;
    f.value = s.n > 0 ? s.mean : 0.0;
    f.low = s.ciLow;
    f.high = s.ciHigh;
    f.min = s.n >= 2 ? s.min : std::nan("");
    f.max = s.n >= 2 ? s.max : std::nan("");
    f.count = countText(group);
    f.hover = hoverText(store, group);
    return f;
}

} // namespace

void appendGroupBar(SpeedBars &out, const RunStore &store, const RunGroup &group,
                    const QString &errorColour, bool compact, BarMeasure measure) {
    const GroupFigures f = groupFigures(store, group, measure);
    const QString label = QString::fromStdString(group.label);
    const QString said = verdict(group, errorColour, compact);
    const QString head =
        compact ? QStringLiteral("group %1<br>%2").arg(group.number).arg(f.count)
                : QString(label.toHtmlEscaped() +
                          QStringLiteral("<br>group %1, %2").arg(group.number).arg(f.count));
    const QString joint = compact ? QStringLiteral("<br>") : QStringLiteral(" · ");
    out.categories.append(said.isEmpty() ? head : QString(head + joint + said));
    out.values.push_back(f.value);
    out.flagged.push_back(!comparableWithBaseline(group));
    out.contended.push_back(false);
    const int first = group.runs.front();
    out.numbers.push_back(store.run(first).number);
    std::vector<int> ids;
    for (const int index : group.runs)
        ids.push_back(store.run(index).id);
    out.runIds.push_back(ids);
    out.bars.push_back(
        {f.value, f.low, f.high, f.min, f.max, measureValueText(measure, f.value, QString())});
    out.labels.append(label);
    QString row = label + QStringLiteral(" · ") + f.count;
    if (comparableWithBaseline(group) && std::isfinite(group.speedUp.ratio))
        row += group.isBaseline ? QStringLiteral(" · baseline")
                                : QStringLiteral(" · %1x").arg(number(group.speedUp.ratio, 2));
    out.rowLabels.append(row);
    out.hoverTexts.append(f.hover);
}

void sortRunBars(SpeedBars &out, int runBars) {
    std::vector<int> order(static_cast<std::size_t>(runBars));
    std::iota(order.begin(), order.end(), 0);
    const auto key = [&](int i) {
        const double v = out.values[static_cast<std::size_t>(i)];
        return v > 0.0 ? -v : -std::numeric_limits<double>::infinity();
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
    const auto apply = [&](auto &list) {
        auto copy = list;
        for (std::size_t i = 0; i < order.size(); ++i)
            list[static_cast<decltype(list.size())>(i)] =
                copy[static_cast<decltype(list.size())>(order[i])];
    };
    apply(out.categories);
    apply(out.values);
    apply(out.flagged);
    apply(out.contended);
    apply(out.numbers);
    apply(out.runIds);
    apply(out.bars);
    apply(out.labels);
    apply(out.rowLabels);
    apply(out.hoverTexts);
}

} // namespace devicebench
