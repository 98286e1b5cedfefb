// SPDX-License-Identifier: MIT
#include "charts.h"

#include "run_store.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBrush>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QStackedBarSeries>
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
        const StoredRun &run = store.run(index);
        const RunRecord &record = run.record;
        maxEpochs =
            std::max(maxEpochs, static_cast<double>(std::max(
                                    record.config.epochs, static_cast<int>(record.epochs.size()))));

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
        // Pens and names only when they change: setting them marks the series dirty and
        // repaints it, and this runs several times a second during a run.
        if (entry.colourIndex != index) {
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
            QPen testPen(colour.darker(130));
            testPen.setWidthF(2.0);
            testPen.setStyle(Qt::DashLine);
            entry.test->setPen(testPen);
            entry.test->setColor(colour.darker(130));
            entry.colourIndex = index;
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

// ---------------------------------------------------------------------------------------------

// Error bars and mean labels over the bar chart's plot area (Qt Charts has no error bars).
// A child item of the chart, so the dashboard's view and the exported PNG both draw it; it
// maps values with QChart::mapToPosition at paint time, so it follows every resize.
class ErrorBarItem : public QGraphicsItem {
public:
    struct Bar {
        double mean = 0.0; // seconds; <= 0: nothing drawn
        double low = std::nan("");
        double high = std::nan("");
    };

    ErrorBarItem(QChart *chart, QAbstractSeries *series)
        : QGraphicsItem(chart), m_chart(chart), m_series(series) {
        setZValue(100.0); // above the bars
    }

    void setBars(std::vector<Bar> bars) {
        if (sameBars(bars, m_bars))
            return;
        prepareGeometryChange();
        m_bars = std::move(bars);
        update();
    }
    // NaN-safe: an interval that is not known (NaN) equals another one that is not known.
    static bool sameBars(const std::vector<Bar> &a, const std::vector<Bar> &b) {
        const auto same = [](double x, double y) {
            return x == y || (std::isnan(x) && std::isnan(y));
        };
        return a.size() == b.size() &&
               std::equal(a.begin(), a.end(), b.begin(), [&](const Bar &p, const Bar &q) {
                   return same(p.mean, q.mean) && same(p.low, q.low) && same(p.high, q.high);
               });
    }
    void geometryChanged() {
        prepareGeometryChange();
        update();
    }
    const std::vector<Bar> &bars() const { return m_bars; }

    QRectF boundingRect() const override { return m_chart->rect(); }

    void paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/,
               QWidget * /*widget*/) override {
        if (m_bars.empty())
            return;
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setClipRect(m_chart->plotArea().adjusted(-2, -40, 2, 2));
        QFont font = m_chart->font();
        font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.95));
        painter->setFont(font);
        const QFontMetricsF metrics(font);
        // The title's colour: near-black on the light theme, near-white on the dark one.
        const QColor ink = m_chart->titleBrush().color();
        for (std::size_t i = 0; i < m_bars.size(); ++i) {
            const Bar &bar = m_bars[i];
            if (!(bar.mean > 0.0))
                continue;
            const double x = static_cast<double>(i);
            const QPointF centre = m_chart->mapToPosition(QPointF(x, bar.mean), m_series);
            const QPointF edge = m_chart->mapToPosition(QPointF(x + 0.5, bar.mean), m_series);
            const double halfCategory = std::abs(edge.x() - centre.x());
            const double cap = std::clamp(halfCategory * 0.25, 4.0, 16.0);
            double top = centre.y();
            if (std::isfinite(bar.low) && std::isfinite(bar.high)) {
                const QPointF lo = m_chart->mapToPosition(QPointF(x, bar.low), m_series);
                const QPointF hi = m_chart->mapToPosition(QPointF(x, bar.high), m_series);
                QPen pen(ink);
                pen.setWidthF(1.6);
                painter->setPen(pen);
                painter->drawLine(QPointF(centre.x(), lo.y()), QPointF(centre.x(), hi.y()));
                painter->drawLine(QPointF(centre.x() - cap, lo.y()),
                                  QPointF(centre.x() + cap, lo.y()));
                painter->drawLine(QPointF(centre.x() - cap, hi.y()),
                                  QPointF(centre.x() + cap, hi.y()));
                top = std::min(top, hi.y());
            }
            const QString text =
                QStringLiteral("%1 s").arg(bar.mean, 0, 'f', bar.mean < 10.0 ? 2 : 1);
            const double width = metrics.horizontalAdvance(text) + 6.0;
            const QRectF box(centre.x() - width / 2.0, top - metrics.height() - 3.0, width,
                             metrics.height());
            painter->setPen(ink);
            painter->drawText(box, Qt::AlignCenter, text);
        }
        painter->restore();
    }

private:
    QChart *m_chart;
    QAbstractSeries *m_series;
    std::vector<Bar> m_bars;
};

SpeedChart::SpeedChart(QGraphicsItem *parent)
    : QChart(parent), m_series(new QStackedBarSeries(this)), m_axisX(new QBarCategoryAxis(this)),
      m_axisY(new QValueAxis(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleTitle(this,
               QStringLiteral("Stable mean seconds per epoch (after warm-up), 95% interval as "
                              "error bar"),
               1.0);
    legend()->setVisible(false);
    m_series->setLabelsVisible(false); // the means are written above the error bars
    addSeries(m_series);
    m_axisY->setTitleText(QStringLiteral("seconds per epoch"));
    m_axisY->setLabelFormat(QStringLiteral("%.1f"));
    m_axisY->setRange(0.0, 1.0);
    // Two-line category labels (run, then speed-up) must not be elided to "#1 cpu...".
    m_axisX->setTruncateLabels(false);
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    m_errorBars = new ErrorBarItem(this, m_series);
    connect(this, &QChart::plotAreaChanged, this, [this] { m_errorBars->geometryChanged(); });
}

std::vector<std::pair<double, double>> SpeedChart::errorBars() const {
    std::vector<std::pair<double, double>> bars;
    for (const ErrorBarItem::Bar &bar : m_errorBars->bars()) {
        if (bar.mean > 0.0 && std::isfinite(bar.low) && std::isfinite(bar.high))
            bars.emplace_back(bar.low, bar.high);
    }
    return bars;
}

namespace {

QString intervalText(double low, double high, int decimals) {
    if (std::isnan(low) || std::isnan(high))
        return QString();
    if (std::isinf(high)) // the run's interval reaches zero: unbounded above
        return QStringLiteral(" [%1, ∞]").arg(low, 0, 'f', decimals);
    return QStringLiteral(" [%1, %2]").arg(low, 0, 'f', decimals).arg(high, 0, 'f', decimals);
}

} // namespace

void SpeedChart::sync(const RunStore &store) {
    QStringList categories;
    std::vector<double> values;
    std::vector<bool> flagged;
    std::vector<ErrorBarItem::Bar> bars;
    for (int index = 0; index < store.runCount(); ++index) {
        const StoredRun &run = store.run(index);
        const Summary &s = run.summary;
        QString second;
        ErrorBarItem::Bar bar;
        if (!run.comparable()) {
            QStringList fields;
            for (const std::string &f : run.differences)
                fields.append(QString::fromStdString(f));
            // Two lines, so that the label fits under its bar (a wider one would be hidden).
            // Dark red, or light red on the dark theme (readable on both backgrounds).
            second = QStringLiteral("<span style=\"color:%1\">⚠ not comparable:<br>%2</span>")
                         .arg(theme() == QChart::ChartThemeDark ? QStringLiteral("#ff8a80")
                                                                : QStringLiteral("#b00020"),
                              fields.join(QStringLiteral(", ")).toHtmlEscaped());
        } else if (!s.hasStable || !std::isfinite(s.stableMean)) {
            second = QStringLiteral("no stable epochs") +
                     (run.state == RunState::Running ? QStringLiteral(" yet") : QString());
        } else if (run.isBaseline) {
            second = QStringLiteral("baseline (1.00x)");
        } else if (std::isfinite(run.speedUp.ratio)) {
            second = QStringLiteral("%1x").arg(run.speedUp.ratio, 0, 'f', 2) +
                     intervalText(run.speedUp.low, run.speedUp.high, 2);
        }
        if (s.hasStable && std::isfinite(s.stableMean)) {
            bar.mean = s.stableMean;
            bar.low = s.ciLow;
            bar.high = s.ciHigh;
        }
        categories.append(run.label.toHtmlEscaped() + QStringLiteral("<br>") + second);
        values.push_back(bar.mean);
        flagged.push_back(!run.comparable());
        bars.push_back(bar);
    }
    m_errorBars->setBars(bars); // repaints only when a bar changed
    if (categories == m_categories && values == m_values && flagged == m_flagged)
        return; // nothing new: keep the bars as they are
    m_categories = categories;
    m_values = values;
    m_flagged = flagged;

    m_series->clear();
    m_axisX->clear();
    if (values.empty()) {
        m_axisY->setRange(0.0, 1.0);
        return;
    }
    // Two stacked sets, each bar in exactly one of them: comparable runs in colour, runs whose
    // workload differs from the baseline's grey and hatched.
    auto *comparableSet = new QBarSet(QStringLiteral("stable mean s/epoch"));
    comparableSet->setColor(runColor(0));
    comparableSet->setBorderColor(runColor(0).darker(130));
    auto *flaggedSet = new QBarSet(QStringLiteral("not comparable"));
    flaggedSet->setBrush(QBrush(QColor(120, 120, 120), Qt::BDiagPattern));
    flaggedSet->setBorderColor(QColor(120, 120, 120));
    double top = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        comparableSet->append(flagged[i] ? 0.0 : values[i]);
        flaggedSet->append(flagged[i] ? values[i] : 0.0);
        top = std::max(top, values[i]);
        if (std::isfinite(bars[i].high))
            top = std::max(top, bars[i].high);
    }
    m_series->append(comparableSet);
    m_series->append(flaggedSet);
    m_axisX->append(categories);
    m_axisY->setRange(0.0, top > 0.0 ? top * 1.2 : 1.0);
    m_axisY->setTickCount(6);
    m_axisY->applyNiceNumbers();
    const double tick = (m_axisY->max() - m_axisY->min()) / 5.0;
    const int decimals =
        tick >= 1.0 ? 0 : std::clamp(static_cast<int>(std::ceil(-std::log10(tick))), 1, 4);
    m_axisY->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

} // namespace devicebench
