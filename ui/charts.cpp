// SPDX-License-Identifier: MIT
#include "charts.h"

#include "run_store.h"
#include "theme.h"

#include <QFont>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace devicebench {

QList<QPointF> decimateMinMax(const QList<QPointF> &points, int maxPoints) {
    maxPoints = std::max(4, maxPoints);
    const qsizetype n = points.size();
    if (n <= maxPoints)
        return points;

    QList<QPointF> out;
    out.reserve(maxPoints);
    out.append(points.front());
    const qsizetype interior = n - 2; // points[1 .. n-2]
    const qsizetype buckets = (maxPoints - 2) / 2;
    for (qsizetype b = 0; b < buckets; ++b) {
        const qsizetype begin = 1 + b * interior / buckets;
        const qsizetype end = 1 + (b + 1) * interior / buckets;
        if (begin >= end)
            continue;
        qsizetype lo = begin;
        qsizetype hi = begin;
        for (qsizetype i = begin + 1; i < end; ++i) {
            if (points[i].y() < points[lo].y())
                lo = i;
            if (points[i].y() > points[hi].y())
                hi = i;
        }
        out.append(points[std::min(lo, hi)]);
        if (lo != hi)
            out.append(points[std::max(lo, hi)]);
    }
    out.append(points.back());
    return out;
}

ValueRange finiteYRange(const QList<QPointF> &points) {
    ValueRange range;
    for (const QPointF &p : points) {
        const double y = p.y();
        if (!std::isfinite(y))
            continue;
        if (!range.valid) {
            range.min = range.max = y;
            range.valid = true;
        } else {
            range.min = std::min(range.min, y);
            range.max = std::max(range.max, y);
        }
    }
    return range;
}

namespace {

ValueRange merge(ValueRange a, const ValueRange &b) {
    if (!b.valid)
        return a;
    if (!a.valid)
        return b;
    a.min = std::min(a.min, b.min);
    a.max = std::max(a.max, b.max);
    return a;
}

} // namespace

void styleChartTitle(QChart *chart, const QString &title, double scale) {
    QFont font = chart->titleFont();
    font.setPointSizeF(font.pointSizeF() * scale);
    font.setBold(true);
    chart->setTitleFont(font);
    chart->setTitle(title);
}

// ---------------------------------------------------------------------------------------------

LossChart::LossChart(QGraphicsItem *parent)
    : QChart(parent), m_axisX(new QValueAxis(this)), m_axisY(new QValueAxis(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleChartTitle(
        this, QStringLiteral("Loss: training loss per step (lines), test loss per epoch (dots)"),
        1.15);
    m_axisX->setTitleText(QStringLiteral("epoch"));
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisX->setRange(0.0, 1.0);
    m_axisY->setTitleText(QStringLiteral("loss (nats)"));
    m_axisY->setLabelFormat(QStringLiteral("%.2f"));
    m_axisY->setRange(0.0, 1.0);
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisY, Qt::AlignLeft);
    legend()->setAlignment(Qt::AlignBottom);
    legend()->setShowToolTips(true);
}

QLineSeries *LossChart::trainSeries(int runId) const {
    const auto it = m_series.find(runId);
    return it == m_series.end() ? nullptr : it->second.train;
}

QLineSeries *LossChart::testSeries(int runId) const {
    const auto it = m_series.find(runId);
    return it == m_series.end() ? nullptr : it->second.test;
}

void LossChart::sync(const RunStore &store) {
    // Drop the series of runs that left the store.
    for (auto it = m_series.begin(); it != m_series.end();) {
        if (store.findRun(it->first) == nullptr) {
            removeSeries(it->second.train);
            removeSeries(it->second.test);
            delete it->second.train;
            delete it->second.test;
            it = m_series.erase(it);
        } else {
            ++it;
        }
    }

    double maxEpochs = 1.0;
    ValueRange yRange;
    for (int index = 0; index < store.runCount(); ++index) {
        const StoredRun &run = store.run(index);
        const RunRecord &record = run.record;
        maxEpochs =
            std::max(maxEpochs, static_cast<double>(std::max(
                                    record.config.epochs, static_cast<int>(record.epochs.size()))));

        RunSeries &entry = m_series[run.id];
        // One colour per run, by its number: kept when other runs come and go.
        const QColor colour = theme::runColour(run.number);
        if (entry.train == nullptr) {
            entry.train = new QLineSeries(this);
            entry.test = new QLineSeries(this);
            addSeries(entry.train);
            addSeries(entry.test);
            for (QXYSeries *s :
                 {static_cast<QXYSeries *>(entry.train), static_cast<QXYSeries *>(entry.test)}) {
                s->attachAxis(m_axisX);
                s->attachAxis(m_axisY);
            }
            entry.test->setPointsVisible(true);
            entry.test->setMarkerSize(9.0);
            // One legend entry per run: the test-loss line shares the training line's colour.
            for (QLegendMarker *marker : legend()->markers(entry.test))
                marker->setVisible(false);
        }
        // Pens and names only when they change: setting them marks the series dirty and
        // repaints it, and this runs several times a second during a run. A chart theme set
        // since (QChart::setTheme recolours every series) counts as a change.
        if (entry.colour != colour || entry.test->color() != colour) {
            // Slightly translucent: runs with the same seed and data overlay exactly (that is
            // the control that only the hardware changed), and both should stay visible.
            QColor trainColour = colour;
            trainColour.setAlpha(200);
            QPen trainPen(trainColour);
            // One device pixel wide and cosmetic: the raster engine's fast line path. A wider
            // pen is stroked as a polygon, and ten runs of 7,820 steps then took 200 ms per
            // redraw instead of 10 (bench/dashboard_scale, docs/PERFORMANCE.md).
            trainPen.setWidthF(1.0);
            trainPen.setCosmetic(true);
            entry.train->setPen(trainPen);
            // The test-loss dots and their dashed line in the run's own colour, opaque.
            QPen testPen(colour);
            testPen.setWidthF(2.0);
            testPen.setStyle(Qt::DashLine);
            entry.test->setPen(testPen);
            entry.test->setColor(colour);
            entry.colour = colour;
        }
        if (entry.name != run.label) {
            entry.train->setName(run.label);
            entry.test->setName(run.label + QStringLiteral(" (test)"));
            entry.name = run.label;
        }

        if (entry.drawnSteps != record.steps.size()) {
            const double perEpoch = record.started.stepsPerEpoch > 0
                                        ? static_cast<double>(record.started.stepsPerEpoch)
                                        : 1.0;
            QList<QPointF> points;
            points.reserve(static_cast<qsizetype>(record.steps.size()));
            for (const TimedStepLoss &s : record.steps) {
                if (std::isfinite(s.loss))
                    points.append(QPointF(static_cast<double>(s.step) / perEpoch, s.loss));
            }
            entry.trainRange = finiteYRange(points);
            entry.train->replace(decimateMinMax(points, kMaxDrawnPoints));
            entry.drawnSteps = record.steps.size();
        }
        if (entry.drawnEpochs != record.epochs.size()) {
            QList<QPointF> points;
            for (const EpochResult &e : record.epochs) {
                if (std::isfinite(e.testLoss))
                    points.append(QPointF(e.epoch, e.testLoss));
            }
            entry.testRange = finiteYRange(points);
            entry.test->replace(points);
            entry.drawnEpochs = record.epochs.size();
        }
        yRange = merge(merge(yRange, entry.trainRange), entry.testRange);
    }

    m_axisX->setRange(0.0, maxEpochs);
    m_axisX->setTickCount(std::min(11, static_cast<int>(maxEpochs) + 1));
    if (yRange.valid) {
        const double span = std::max(yRange.max - yRange.min, 1e-3);
        double lo = yRange.min - 0.05 * span;
        if (yRange.min >= 0.0)
            lo = std::max(0.0, lo); // losses are never negative: do not show a negative axis
        m_axisY->setRange(lo, yRange.max + 0.05 * span);
        m_axisY->setTickCount(6);
        m_axisY->applyNiceNumbers();
    } else {
        m_axisY->setRange(0.0, 1.0);
    }
    // Enough decimals that neighbouring tick labels differ (losses often move in the third).
    const double tick = (m_axisY->max() - m_axisY->min()) / std::max(1, m_axisY->tickCount() - 1);
    const int decimals =
        tick > 0.0 ? std::clamp(static_cast<int>(std::ceil(-std::log10(tick))), 1, 6) : 2;
    const QString format = QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f");
    if (m_axisY->labelFormat() != format)
        m_axisY->setLabelFormat(format);
}

} // namespace devicebench
