// SPDX-License-Identifier: MIT
#include "charts/accuracy_chart.h"

#include "charts/chart_items.h"
#include "charts/charts.h" // styleChartTitle
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/time_to_target.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace devicebench {

namespace {

constexpr double kPointSize = 7.0; // pixels: an epoch's point
constexpr double kRingSize = 16.0; // the ring where a run reached its target

// "50 %", "93.5 %".
QString percentText(double percent) { return QString::fromStdString(targetText(percent)); }

// A run's line: its epochs' points, in its colour, with round markers.
QLineSeries *runLine(const QString &label, int number, const QList<QPointF> &points) {
    auto *line = new QLineSeries;
    line->setName(label);
    line->append(points);
    const QColor colour = theme::runColour(number);
    QPen pen(colour);
    pen.setWidthF(2.2);
    line->setPen(pen);
    line->setPointsVisible(true);
    line->setMarkerSize(kPointSize);
    line->setColor(colour);
    return line;
}

// The ring at the point where a run reached its target.
QScatterSeries *reachRing(const QString &label, int number, QPointF at) {
    auto *ring = new QScatterSeries;
    ring->setName(label + QStringLiteral(": reached its target"));
    ring->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    ring->setMarkerSize(kRingSize);
    ring->setBrush(Qt::NoBrush);
    QPen pen(theme::runColour(number));
    pen.setWidthF(2.6);
    ring->setPen(pen);
    ring->append(at);
    return ring;
}

} // namespace

AccuracyChart::AccuracyChart(QGraphicsItem *parent)
    : QChart(parent), m_axisX(new QValueAxis(this)), m_axisY(new QValueAxis(this)),
      m_hover(new ChartHoverLabel(this)), m_note(new PlotNoteItem(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleChartTitle(this, QStringLiteral("Test accuracy against wall-clock time"), 1.0);
    legend()->setAlignment(Qt::AlignBottom);
    legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_axisX->setTitleText(QStringLiteral("seconds from the first step (evaluations included)"));
    m_axisY->setTitleText(QStringLiteral("test accuracy (%)"));
    setZeroBasedNiceAxis(m_axisX, 1.0);
    setZeroBasedNiceAxis(m_axisY, 100.0);
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisY, Qt::AlignLeft);
    connect(this, &QChart::plotAreaChanged, this, [this] { m_note->geometryChanged(); });
}

QString AccuracyChart::note() const { return m_note->text(); }

bool AccuracyChart::anyTarget(const RunStore &store) {
    return std::any_of(store.runs().begin(), store.runs().end(), [](const StoredRun &run) {
        return run.record.config.targetAccuracy.has_value();
    });
}

bool AccuracyChart::sync(const RunStore &store) {
    // What is drawn, worked out before anything is: a live run's steps leave it unchanged.
    std::vector<DrawnRun> runs;
    std::vector<QList<QPointF>> points;
    std::vector<double> targets;
    QString drawn;
    double maxSeconds = 0.0;
    double maxPercent = 0.0;
    for (const StoredRun &run : store.runs()) {
        if (store.isRunHidden(run.id))
            continue;
        const std::optional<double> &target = run.record.config.targetAccuracy;
        if (target && std::find(targets.begin(), targets.end(), *target) == targets.end())
            targets.push_back(*target);
        DrawnRun d{run.label, run.number, {}, target.value_or(0.0), 0};
        d.reachedEpoch = timeToTarget(run.record.epochs, target).epoch;
        QList<QPointF> line;
        for (const AccuracyPoint &p : accuracyOverTime(run.record.epochs)) {
            line.append(QPointF(p.seconds, p.accuracy));
            d.epochs.push_back(p.epoch);
            maxSeconds = std::max(maxSeconds, p.seconds);
            maxPercent = std::max(maxPercent, p.accuracy);
            drawn += QStringLiteral("%1 %2 %3;")
                         .arg(p.epoch)
                         .arg(p.seconds, 0, 'g', 17)
                         .arg(p.accuracy, 0, 'g', 17);
        }
        if (line.isEmpty())
            continue;
        drawn += QStringLiteral("|%1 %2 %3 %4\n")
                     .arg(d.label)
                     .arg(d.number)
                     .arg(d.target, 0, 'g', 17)
                     .arg(d.reachedEpoch);
        runs.push_back(std::move(d));
        points.push_back(std::move(line));
    }
    std::sort(targets.begin(), targets.end());
    for (const double t : targets)
        drawn += QStringLiteral("target %1\n").arg(t, 0, 'g', 17);
    if (m_synced && drawn == m_drawn)
        return false;
    m_synced = true;
    m_drawn = std::move(drawn);

    m_hover->hide();
    removeAllSeries(); // deletes them
    m_lines.clear();
    m_rings.clear();
    m_targets.clear();
    m_runs.clear();
    for (std::size_t i = 0; i < runs.size(); ++i)
        addRun(runs[i], points[i]);
    addTargetLines(targets, maxSeconds);
    for (const double t : targets)
        maxPercent = std::max(maxPercent, t);
    fitAxes(maxSeconds, maxPercent);
    m_note->setText(runs.empty() ? QStringLiteral("No test accuracy yet: each run draws a point "
                                                  "when an epoch's test pass ends.")
                                 : QString());
    return true;
}

void AccuracyChart::addRun(const DrawnRun &run, const QList<QPointF> &points) {
    QLineSeries *line = runLine(run.label, run.number, points);
    addSeries(line);
    line->attachAxis(m_axisX);
    line->attachAxis(m_axisY);
    const int index = static_cast<int>(m_lines.size());
    connect(line, &QLineSeries::hovered, this, [this, index](const QPointF &at, bool on) {
        if (!on) {
            hideHover();
            return;
        }
        const QList<QPointF> drawnPoints = m_lines[index]->points();
        int best = 0;
        for (int p = 1; p < drawnPoints.size(); ++p)
            if (std::abs(drawnPoints[p].x() - at.x()) < std::abs(drawnPoints[best].x() - at.x()))
                best = p;
        showHover(index, best);
    });
    m_lines.append(line);
    m_runs.push_back(run);
    const auto reached = std::find(run.epochs.begin(), run.epochs.end(), run.reachedEpoch);
    if (run.reachedEpoch <= 0 || reached == run.epochs.end())
        return;
    QScatterSeries *ring =
        reachRing(run.label, run.number, points[static_cast<int>(reached - run.epochs.begin())]);
    addSeries(ring);
    ring->attachAxis(m_axisX);
    ring->attachAxis(m_axisY);
    for (QLegendMarker *marker : legend()->markers(ring))
        marker->setVisible(false); // the run's line names it
    m_rings.append(ring);
}

void AccuracyChart::addTargetLines(const std::vector<double> &targets, double right) {
    const QColor text = theme::colour(theme::Role::ChartText, theme::themeOf(*this));
    for (const double t : targets) {
        auto *line = new QLineSeries;
        line->setName(QStringLiteral("target ") + percentText(t));
        // Across the plot and past its right end: the axis never ends short of it.
        line->append(0.0, t);
        line->append(std::max(right, 1.0) * 10.0, t);
        QPen dashed(text);
        dashed.setWidthF(1.4);
        dashed.setStyle(Qt::DashLine);
        line->setPen(dashed);
        addSeries(line);
        line->attachAxis(m_axisX);
        line->attachAxis(m_axisY);
        m_targets.append(line);
    }
}

void AccuracyChart::fitAxes(double maxSeconds, double maxPercent) {
    setZeroBasedNiceAxis(m_axisX, maxSeconds * 1.05);
    // Room above the highest point or target for its ring, never past 100 %.
    setZeroBasedNiceAxis(m_axisY, std::min(100.0, std::max(10.0, maxPercent + 5.0)));
}

QString AccuracyChart::hoverText(int line, int point) const {
    if (line < 0 || line >= m_lines.size())
        return QString();
    const QList<QPointF> points = m_lines[line]->points();
    if (point < 0 || point >= points.size())
        return QString();
    const DrawnRun &run = m_runs[static_cast<std::size_t>(line)];
    const int epoch = run.epochs[static_cast<std::size_t>(point)];
    QString text = run.label + QStringLiteral("\nepoch %1: %2 % test accuracy at %3 s")
                                   .arg(epoch)
                                   .arg(points[point].y(), 0, 'f', 2)
                                   .arg(points[point].x(), 0, 'f', 1);
    if (run.target > 0.0 && epoch == run.reachedEpoch)
        text += QStringLiteral("\nreached its target of %1: time to accuracy %2 s")
                    .arg(percentText(run.target))
                    .arg(points[point].x(), 0, 'f', 1);
    else if (run.target > 0.0)
        text += QStringLiteral("\ntarget %1").arg(percentText(run.target));
    return text;
}

void AccuracyChart::showHover(int line, int point) {
    const QString text = hoverText(line, point);
    if (text.isEmpty()) {
        hideHover();
        return;
    }
    const QPointF at = mapToPosition(m_lines[line]->at(point), m_lines[line]);
    m_hover->show(text, at, theme::runColour(m_runs[static_cast<std::size_t>(line)].number));
}

void AccuracyChart::hideHover() { m_hover->hide(); }

} // namespace devicebench
