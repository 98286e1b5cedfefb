// SPDX-License-Identifier: MIT
#include "charts.h"

#include "run_store.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QFont>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>

namespace devicebench {

QColor runColor(int index) {
    // Okabe-Ito-like palette: distinguishable, also for colour-blind readers.
    static const std::array<QColor, 8> kPalette = {
        QColor(0, 114, 178), QColor(213, 94, 0),   QColor(0, 158, 115),   QColor(204, 121, 167),
        QColor(230, 159, 0), QColor(86, 180, 233), QColor(120, 120, 120), QColor(160, 40, 40)};
    const auto n = static_cast<int>(kPalette.size());
    return kPalette[static_cast<std::size_t>(((index % n) + n) % n)];
}

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

void styleTitle(QChart *chart, const QString &title, double scale) {
    QFont font = chart->titleFont();
    font.setPointSizeF(font.pointSizeF() * scale);
    font.setBold(true);
    chart->setTitleFont(font);
    chart->setTitle(title);
}

} // namespace

// ---------------------------------------------------------------------------------------------

LossChart::LossChart(QGraphicsItem *parent)
    : QChart(parent), m_axisX(new QValueAxis(this)), m_axisY(new QValueAxis(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleTitle(this,
               QStringLiteral("Loss: training loss per step (lines), test loss per epoch (dots)"),
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
        const RunRecord &run = store.run(index);
        maxEpochs = std::max(
            maxEpochs,
            static_cast<double>(std::max(run.config.epochs, static_cast<int>(run.epochs.size()))));

        RunSeries &entry = m_series[run.id];
        const QColor colour = runColor(index);
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
        // Slightly translucent: runs with the same seed and data overlay exactly (that is the
        // control that only the hardware changed), and both should stay visible.
        QColor trainColour = colour;
        trainColour.setAlpha(200);
        QPen trainPen(trainColour);
        trainPen.setWidthF(1.5);
        entry.train->setPen(trainPen);
        QPen testPen(colour.darker(130));
        testPen.setWidthF(2.0);
        testPen.setStyle(Qt::DashLine);
        entry.test->setPen(testPen);
        entry.test->setColor(colour.darker(130));
        entry.train->setName(run.label);
        entry.test->setName(run.label + QStringLiteral(" (test)"));

        if (entry.drawnSteps != run.steps.size()) {
            const double perEpoch =
                run.info.stepsPerEpoch > 0 ? static_cast<double>(run.info.stepsPerEpoch) : 1.0;
            QList<QPointF> points;
            points.reserve(static_cast<qsizetype>(run.steps.size()));
            for (const StepLoss &s : run.steps) {
                if (std::isfinite(s.loss))
                    points.append(QPointF(static_cast<double>(s.step) / perEpoch, s.loss));
            }
            entry.trainRange = finiteYRange(points);
            entry.train->replace(decimateMinMax(points, kMaxDrawnPoints));
            entry.drawnSteps = run.steps.size();
        }
        if (entry.drawnEpochs != run.epochs.size()) {
            QList<QPointF> points;
            for (const EpochResult &e : run.epochs) {
                if (std::isfinite(e.testLoss))
                    points.append(QPointF(e.epoch, e.testLoss));
            }
            entry.testRange = finiteYRange(points);
            entry.test->replace(points);
            entry.drawnEpochs = run.epochs.size();
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
    m_axisY->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

// ---------------------------------------------------------------------------------------------

SpeedChart::SpeedChart(QGraphicsItem *parent)
    : QChart(parent), m_series(new QBarSeries(this)), m_axisX(new QBarCategoryAxis(this)),
      m_axisY(new QValueAxis(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleTitle(this, QStringLiteral("Stable mean seconds per epoch (epochs after warm-up)"), 1.0);
    legend()->setVisible(false);
    m_series->setLabelsVisible(true);
    m_series->setLabelsFormat(QStringLiteral("@value s"));
    m_series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    m_series->setLabelsPrecision(3);
    addSeries(m_series);
    m_axisY->setTitleText(QStringLiteral("seconds per epoch"));
    m_axisY->setLabelFormat(QStringLiteral("%.1f"));
    m_axisY->setRange(0.0, 1.0);
    // Two-line category labels (run, then mean and speed-up) must not be elided to "#1 cpu...".
    m_axisX->setTruncateLabels(false);
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
}

void SpeedChart::sync(const RunStore &store) {
    QStringList categories;
    std::vector<double> values;
    for (int index = 0; index < store.runCount(); ++index) {
        const RunRecord &run = store.run(index);
        const Summary &s = run.summary;
        if (s.hasStable && std::isfinite(s.stableMean)) {
            categories.append(QStringLiteral("%1<br>%2 s · %3x")
                                  .arg(run.label.toHtmlEscaped())
                                  .arg(s.stableMean, 0, 'f', s.stableMean < 10.0 ? 2 : 1)
                                  .arg(store.speedUp(index), 0, 'f', 2));
            values.push_back(s.stableMean);
        } else {
            categories.append(
                run.label.toHtmlEscaped() + QStringLiteral("<br>no stable epochs") +
                (run.state == RunState::Running ? QStringLiteral(" yet") : QString()));
            values.push_back(0.0);
        }
    }
    if (categories == m_categories && values == m_values)
        return; // nothing new: keep the bars as they are
    m_categories = categories;
    m_values = values;

    m_series->clear();
    m_axisX->clear();
    if (values.empty()) {
        m_axisY->setRange(0.0, 1.0);
        return;
    }
    auto *set = new QBarSet(QStringLiteral("stable mean s/epoch"));
    set->setColor(runColor(0));
    set->setLabelColor(Qt::black);
    for (const double v : values)
        set->append(v);
    m_series->append(set);
    m_axisX->append(categories);
    const double top = *std::max_element(values.begin(), values.end());
    m_axisY->setRange(0.0, top > 0.0 ? top * 1.15 : 1.0);
    m_axisY->setTickCount(6);
    m_axisY->applyNiceNumbers();
    const double tick = (m_axisY->max() - m_axisY->min()) / 5.0;
    const int decimals =
        tick >= 1.0 ? 0 : std::clamp(static_cast<int>(std::ceil(-std::log10(tick))), 1, 4);
    m_axisY->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

} // namespace devicebench
