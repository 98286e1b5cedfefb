// SPDX-License-Identifier: MIT
#include "charts/scaling_chart.h"

#include "charts/chart_items.h"
#include "charts/charts.h" // styleChartTitle
#include "store/run_store.h"
#include "theme/theme.h"

#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace devicebench {

namespace {

constexpr double kMarkerSize = 10.0; // pixels

QString imagesText(double imagesPerSecond) {
    return QString::number(imagesPerSecond, 'f', imagesPerSecond < 100.0 ? 1 : 0);
}

// Whole-number ticks 1, 2, 5, 10, 20, ... apart: at most about ten over 0..maxWorldSize.
double worldSizeTick(int maxWorldSize) {
    double tick = 1.0;
    for (int i = 0; maxWorldSize / tick > 10.0; ++i)
        tick *= (i % 3 == 1) ? 2.5 : 2.0; // 1, 2, 5, 10, 20, 50, ...
    return tick;
}

// Everything the chart draws from, as text: series names, points and their runs' labels.
QString drawnText(const std::vector<ScalingSeries> &series, const QStringList &runLabels) {
    QString text;
    for (const ScalingSeries &s : series) {
        text += QString::fromStdString(s.name) + QLatin1Char('\n');
        for (const ScalingPoint &p : s.points)
            text += QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                        .arg(p.worldSize)
                        .arg(p.imagesPerSecond, 0, 'g', 17)
                        .arg(p.idealImagesPerSecond, 0, 'g', 17)
                        .arg(p.allReduceShare, 0, 'g', 17)
                        .arg(p.otherRuns)
                        .arg(p.jobRecord)
                        .arg(p.runIndex)
                        .arg(p.runIndex < runLabels.size() ? runLabels[p.runIndex] : QString());
    }
    return text;
}

} // namespace

QString efficiencyText(double efficiency) {
    if (!std::isfinite(efficiency))
        return QString();
    return QStringLiteral("%1 %").arg(std::lround(efficiency * 100.0));
}

// Each point's efficiency, written beside it: below and to the right where its line rises on
// (the ideal line runs above it), above and to the right where it falls. A child item of the
// chart, so the view and any rendering of the chart draw it; positions are mapped at paint
// time.
class EfficiencyLabels : public PlotOverlayItem {
public:
    struct Label {
        QPointF value;       // (world size, images/s)
        QString text;        // "87 %"
        bool above = false;  // the line falls after this point
        QLineSeries *series; // whose axes map the value
    };

    // Above the series, below the hover label.
    explicit EfficiencyLabels(QChart *chart) : PlotOverlayItem(chart, 90.0) {}

    void setLabels(std::vector<Label> labels) {
        m_labels = std::move(labels);
        changed();
    }

private:
    void paintOverlay(QPainter *painter) override {
        QFont font = chart()->font();
        font.setBold(true);
        painter->setFont(font);
        painter->setPen(theme::colour(theme::Role::ChartText, theme::themeOf(*chart())));
        const QFontMetricsF metrics(font);
        for (const Label &label : m_labels) {
            const QPointF at = chart()->mapToPosition(label.value, label.series);
            const double gap = kMarkerSize * 0.6;
            const QRectF box(at.x() + gap,
                             label.above ? at.y() - gap - metrics.height() : at.y() + gap,
                             metrics.horizontalAdvance(label.text) + 2.0, metrics.height());
            painter->drawText(box, Qt::AlignLeft | Qt::AlignVCenter, label.text);
        }
    }

    std::vector<Label> m_labels;
};

ScalingChart::ScalingChart(QGraphicsItem *parent)
    : QChart(parent), m_axisX(new QValueAxis(this)), m_axisY(new QValueAxis(this)),
      m_labels(new EfficiencyLabels(this)), m_hover(new ChartHoverLabel(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleChartTitle(this, QStringLiteral("Images per second against world size"), 1.0);
    legend()->setAlignment(Qt::AlignBottom);
    legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_axisX->setTitleText(QStringLiteral("world size (ranks)"));
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisX->setTickType(QValueAxis::TicksDynamic);
    m_axisX->setTickAnchor(0.0);
    m_axisX->setTickInterval(1.0);
    m_axisX->setMinorTickCount(0);
    m_axisX->setRange(0.0, 3.0);
    m_axisY->setTitleText(QStringLiteral("images/s (training + test, stable mean)"));
    setZeroBasedNiceAxis(m_axisY, 1.0);
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisY, Qt::AlignLeft);
    connect(this, &QChart::plotAreaChanged, this, [this] { m_labels->geometryChanged(); });
}

namespace {

// Series `s`'s points joined by a solid line with round markers, named after it.
QLineSeries *measuredLine(const ScalingSeries &s, const QColor &colour) {
    auto *measured = new QLineSeries;
    measured->setName(QString::fromStdString(s.name));
    for (const ScalingPoint &point : s.points)
        measured->append(point.worldSize, point.imagesPerSecond);
    QPen pen(colour);
    pen.setWidthF(2.4);
    measured->setPen(pen);
    measured->setPointsVisible(true);
    measured->setMarkerSize(kMarkerSize);
    measured->setBrush(colour);
    measured->setColor(colour);
    return measured;
}

// The dashed ideal line of `s` (world size x its 1-rank images/s); nullptr without a 1-rank
// point. `several`: the legend names the series too.
QLineSeries *idealLine(const ScalingSeries &s, const QColor &colour, bool several) {
    if (s.singleRankIndex() < 0)
        return nullptr;
    auto *ideal = new QLineSeries;
    ideal->setName(several ? QStringLiteral("ideal: N x 1 rank, ") + QString::fromStdString(s.name)
                           : QStringLiteral("ideal: N x 1 rank"));
    for (const ScalingPoint &point : s.points)
        ideal->append(point.worldSize, point.idealImagesPerSecond);
    QPen dashed(colour);
    dashed.setWidthF(1.6);
    dashed.setStyle(Qt::DashLine);
    ideal->setPen(dashed);
    return ideal;
}

// The efficiency label of each of `s`'s points that has one, above the point where the line
// falls after it.
void appendEfficiencyLabels(const ScalingSeries &s, QLineSeries *measured,
                            std::vector<EfficiencyLabels::Label> *labels) {
    for (std::size_t p = 0; p < s.points.size(); ++p) {
        const ScalingPoint &point = s.points[p];
        const bool falls =
            p + 1 < s.points.size() && s.points[p + 1].imagesPerSecond < point.imagesPerSecond;
        if (const QString text = efficiencyText(point.efficiency); !text.isEmpty())
            labels->push_back(
                {QPointF(point.worldSize, point.imagesPerSecond), text, falls, measured});
    }
}

} // namespace

bool ScalingChart::sync(const RunStore &store) {
    std::vector<ScalingSeries> series = scalingSeries(store.runSet());
    QStringList runLabels;
    for (const StoredRun &run : store.runs())
        runLabels.append(run.label);
    QString drawn = drawnText(series, runLabels);
    if (m_synced && drawn == m_drawn)
        return false;
    m_synced = true;
    m_drawn = std::move(drawn);
    m_series = std::move(series);
    m_runLabels = std::move(runLabels);
    m_hover->hide();
    removeAllSeries(); // deletes them
    m_measured.clear();
    m_ideal.clear();

    std::vector<EfficiencyLabels::Label> labels;
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        const QColor colour = theme::runColour(static_cast<int>(i) + 1);
        QLineSeries *measured = measuredLine(m_series[i], colour);
        QLineSeries *ideal = idealLine(m_series[i], colour, m_series.size() > 1);
        appendEfficiencyLabels(m_series[i], measured, &labels);
        for (QLineSeries *line : {measured, ideal}) {
            if (line == nullptr)
                continue;
            addSeries(line);
            line->attachAxis(m_axisX);
            line->attachAxis(m_axisY);
        }
        connectHover(measured, static_cast<int>(i));
        m_measured.append(measured);
        m_ideal.append(ideal);
    }
    m_labels->setLabels(std::move(labels));
    fitAxes();
    m_labels->geometryChanged();
    return true;
}

void ScalingChart::connectHover(QLineSeries *measured, int index) {
    connect(measured, &QLineSeries::hovered, this, [this, index](const QPointF &at, bool on) {
        if (!on) {
            hideHover();
            return;
        }
        const std::vector<ScalingPoint> &points = m_series[static_cast<std::size_t>(index)].points;
        int best = 0;
        for (std::size_t p = 1; p < points.size(); ++p)
            if (std::abs(points[p].worldSize - at.x()) <
                std::abs(points[static_cast<std::size_t>(best)].worldSize - at.x()))
                best = static_cast<int>(p);
        showHover(index, best);
    });
}

void ScalingChart::fitAxes() {
    int maxWorldSize = 2;
    double maxY = 0.0;
    for (const ScalingSeries &s : m_series) {
        const bool ideal = s.singleRankIndex() >= 0;
        for (const ScalingPoint &point : s.points) {
            maxWorldSize = std::max(maxWorldSize, point.worldSize);
            maxY = std::max(maxY, point.imagesPerSecond);
            if (ideal)
                maxY = std::max(maxY, point.idealImagesPerSecond);
        }
    }
    // Half a tick of room to the right of the last world size, for its label.
    const double tick = worldSizeTick(maxWorldSize);
    m_axisX->setTickInterval(tick);
    m_axisX->setRange(0.0, maxWorldSize + tick / 2.0);
    setZeroBasedNiceAxis(m_axisY, maxY * 1.15);
}

QStringList ScalingChart::pointLabels(int index) const {
    QStringList texts;
    if (index < 0 || index >= static_cast<int>(m_series.size()))
        return texts;
    for (const ScalingPoint &p : m_series[static_cast<std::size_t>(index)].points)
        texts.append(efficiencyText(p.efficiency));
    return texts;
}

QString ScalingChart::hoverText(int index, int point) const {
    if (index < 0 || index >= static_cast<int>(m_series.size()))
        return QString();
    const ScalingSeries &s = m_series[static_cast<std::size_t>(index)];
    if (point < 0 || point >= static_cast<int>(s.points.size()))
        return QString();
    const ScalingPoint &p = s.points[static_cast<std::size_t>(point)];
    QString text =
        p.runIndex >= 0 && p.runIndex < m_runLabels.size() ? m_runLabels[p.runIndex] : QString();
    text += QStringLiteral("\n%1 rank%2: %3 images/s")
                .arg(p.worldSize)
                .arg(p.worldSize == 1 ? QString() : QStringLiteral("s"))
                .arg(imagesText(p.imagesPerSecond));
    if (!p.jobRecord)
        text += QStringLiteral(" (a single-process run)");
    if (std::isfinite(p.efficiency))
        text += QStringLiteral("\nideal %1 images/s (%2 x 1 rank)\nefficiency %3")
                    .arg(imagesText(p.idealImagesPerSecond))
                    .arg(p.worldSize)
                    .arg(efficiencyText(p.efficiency));
    else
        text += QStringLiteral("\nno 1-rank run of this series: no efficiency");
    if (std::isfinite(p.allReduceShare))
        text += QStringLiteral("\nall-reduce: %1 % of the stable epochs' time")
                    .arg(p.allReduceShare * 100.0, 0, 'f', 1);
    if (p.otherRuns > 0)
        text += QStringLiteral("\n%1 more run%2 at this world size not drawn")
                    .arg(p.otherRuns)
                    .arg(p.otherRuns == 1 ? QString() : QStringLiteral("s"));
    return text;
}

void ScalingChart::showHover(int index, int point) {
    const QString text = hoverText(index, point);
    if (text.isEmpty()) {
        hideHover();
        return;
    }
    const ScalingPoint &p =
        m_series[static_cast<std::size_t>(index)].points[static_cast<std::size_t>(point)];
    const QPointF at = mapToPosition(QPointF(p.worldSize, p.imagesPerSecond), m_measured[index]);
    m_hover->show(text, at, theme::runColour(index + 1));
}

void ScalingChart::hideHover() { m_hover->hide(); }

} // namespace devicebench
