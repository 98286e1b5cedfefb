// SPDX-License-Identifier: MIT
// LossChart (charts.h): the x axis modes' names, its axes' ranges (the automatic one, the user's
// zoom) and the hover label.
#include "charts/charts.h"

#include "charts/chart_items.h"
#include "theme/theme.h"

#include "devicebench/machine_drift.h"

#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace devicebench {

QString xAxisModeName(XAxisMode mode) {
    switch (mode) {
    case XAxisMode::Steps:
        return QStringLiteral("steps");
    case XAxisMode::Epochs:
        return QStringLiteral("epochs");
    case XAxisMode::Seconds:
        return QStringLiteral("time");
    }
    return QStringLiteral("epochs"); // not reached
}

bool parseXAxisMode(const QString &name, XAxisMode *mode) {
    for (const XAxisMode m : {XAxisMode::Steps, XAxisMode::Epochs, XAxisMode::Seconds}) {
        if (name == xAxisModeName(m)) {
            *mode = m;
            return true;
        }
    }
    return false;
}

namespace {

void widen(ValueRange *range, const QList<QPointF> &points, IndexRange slice) {
    for (qsizetype i = slice.first; i < slice.last; ++i) {
        const double y = points[i].y();
        if (!std::isfinite(y))
            continue;
        if (!range->valid) {
            range->min = range->max = y;
            range->valid = true;
        } else {
            range->min = std::min(range->min, y);
            range->max = std::max(range->max, y);
        }
    }
}

} // namespace

void LossChart::fitY(double xMin, double xMax, double *yMin, double *yMax) const {
    ValueRange range;
    const bool full = xMin <= 0.0 && xMax >= m_autoXMax;
    for (const auto &[id, entry] : m_series) {
        if (entry.hidden)
            continue;
        // With smoothing the raw band is drawn too: the axis fits it.
        for (const QList<QPointF> *points : {&entry.rawPoints, &entry.testPoints}) {
            if (full) {
                widen(&range, *points, IndexRange{0, points->size()});
                continue;
            }
            IndexRange slice = visibleIndexRange(*points, xMin, xMax);
            // Only the points inside the range, not the neighbours beyond its edges.
            while (slice.first < slice.last && (*points)[slice.first].x() < xMin)
                ++slice.first;
            while (slice.last > slice.first && (*points)[slice.last - 1].x() > xMax)
                --slice.last;
            widen(&range, *points, slice);
        }
    }
    for (const auto &[key, group] : m_groups) {
        if (group.hidden)
            continue;
        for (const QList<QPointF> *points :
             {&group.lowerPoints, &group.upperPoints, &group.testPoints}) {
            IndexRange slice =
                full ? IndexRange{0, points->size()} : visibleIndexRange(*points, xMin, xMax);
            widen(&range, *points, slice);
        }
    }
    if (!range.valid) {
        *yMin = m_options.logScale ? 0.1 : 0.0;
        *yMax = m_options.logScale ? 10.0 : 1.0;
        return;
    }
    if (m_options.logScale) {
        // Losses are positive; a log axis cannot show 0 or below.
        const double lo = range.min > 0.0 ? range.min : std::max(range.max * 1e-3, 1e-6);
        *yMin = lo / 1.1;
        *yMax = std::max(range.max, lo) * 1.1;
        return;
    }
    const double span = std::max(range.max - range.min, 1e-3);
    double lo = range.min - 0.05 * span;
    if (range.min >= 0.0)
        lo = std::max(0.0, lo); // losses are never negative: do not show a negative axis
    *yMin = lo;
    *yMax = range.max + 0.05 * span;
}

void LossChart::applyRange(double xMin, double xMax, double yMin, double yMax) {
    m_settingRange = true;
    // Epochs: a tick per epoch (up to 11); steps and seconds: round ticks, unless zoomed.
    if (!m_userZoomed && m_options.xAxis == XAxisMode::Epochs)
        setXAxisRange(xMin, xMax, std::clamp(static_cast<int>(xMax - xMin) + 1, 2, 11), false);
    else
        setXAxisRange(xMin, xMax, 6, !m_userZoomed);
    if (m_options.logScale) {
        // Ticks sit at powers of the base: 10 when the losses span a decade or more, else a
        // base that puts about five log-spaced ticks in the range (losses often stay within
        // one decade, where base 10 would label nothing).
        const double ratio = yMin > 0.0 ? yMax / yMin : 10.0;
        const double base = ratio >= 10.0 ? 10.0 : std::max(1.001, std::pow(ratio, 1.0 / 5.0));
        if (m_logY->base() != base)
            m_logY->setBase(base);
        m_logY->setMinorTickCount(ratio >= 10.0 ? -1 : 0);
        m_logY->setRange(yMin, yMax);
    } else {
        m_axisY->setRange(yMin, yMax);
        m_axisY->setTickCount(6);
        m_axisY->applyNiceNumbers();
        // Enough decimals that neighbouring tick labels differ (losses often move in the third).
        const double tick =
            (m_axisY->max() - m_axisY->min()) / std::max(1, m_axisY->tickCount() - 1);
        const int decimals =
            tick > 0.0 ? std::clamp(static_cast<int>(std::ceil(-std::log10(tick))), 1, 6) : 2;
        const QString format =
            QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f");
        if (m_axisY->labelFormat() != format)
            m_axisY->setLabelFormat(format);
    }
    m_settingRange = false;
}

void LossChart::setXRange(double min, double max) {
    if (!(max > min))
        return;
    double yMin = 0.0;
    double yMax = 1.0;
    fitY(min, max, &yMin, &yMax);
    m_userZoomed = true;
    applyRange(min, max, yMin, yMax);
    redecimate();
}

void LossChart::resetView() {
    m_userZoomed = false;
    double yMin = 0.0;
    double yMax = 1.0;
    fitY(0.0, m_autoXMax, &yMin, &yMax);
    applyRange(0.0, m_autoXMax, yMin, yMax);
    redecimate();
}

QString LossChart::showHover(int runId, double x) {
    const auto it = m_series.find(runId);
    if (it == m_series.end() || it->second.hidden || it->second.rawPoints.isEmpty()) {
        hideHover();
        return {};
    }
    const RunSeries &entry = it->second;
    const QList<QPointF> &points = entry.rawPoints;
    auto at = std::lower_bound(points.begin(), points.end(), x,
                               [](const QPointF &p, double v) { return p.x() < v; });
    qsizetype i = std::min<qsizetype>(at - points.begin(), points.size() - 1);
    if (i > 0 && std::abs(points[i - 1].x() - x) <= std::abs(points[i].x() - x))
        --i;
    const auto k = static_cast<std::size_t>(i);
    QString text = entry.label + QLatin1Char('\n') +
                   QStringLiteral("epoch %1 · step %2").arg(entry.epochOf[k]).arg(entry.stepOf[k]);
    if (m_options.xAxis == XAxisMode::Seconds)
        text += QStringLiteral(" · %1 s").arg(points[i].x(), 0, 'f', 1);
    text += QLatin1Char('\n') + QStringLiteral("loss %1").arg(points[i].y(), 0, 'f', 4);
    if (m_options.smoothing > 0.0)
        text += QStringLiteral(" · smoothed %1 (%2)")
                    .arg(entry.smoothPoints[i].y(), 0, 'f', 4)
                    .arg(m_options.smoothing, 0, 'f', 2);
    // An epoch during which the machine changed speed (its test dot is ringed).
    const auto changed = entry.speedChangeOf.find(entry.epochOf[k]);
    if (changed != entry.speedChangeOf.end())
        text += QStringLiteral("\n⚠ epoch %1: machine speed changed (%2)")
                    .arg(entry.epochOf[k])
                    .arg(QString::fromStdString(describeCanaryChange(changed->second)));
    const QPointF anchor = mapToPosition(entry.smoothPoints[i], entry.train);
    m_hover->show(text, anchor, theme::runColour(entry.number));
    return text;
}

QString LossChart::showHoverAtStep(int runId, std::int64_t step) {
    const auto it = m_series.find(runId);
    if (it == m_series.end() || it->second.stepOf.empty()) {
        hideHover();
        return {};
    }
    const std::vector<std::int64_t> &steps = it->second.stepOf;
    const auto at = std::lower_bound(steps.begin(), steps.end(), step);
    const auto i = std::min(static_cast<qsizetype>(at - steps.begin()),
                            static_cast<qsizetype>(steps.size()) - 1);
    return showHover(runId, it->second.rawPoints[i].x());
}

void LossChart::hideHover() { m_hover->hide(); }

QString LossChart::hoverText() const { return m_hover->text(); }

} // namespace devicebench
