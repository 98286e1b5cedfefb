// SPDX-License-Identifier: MIT
// LossChart (charts.h): series, pens, legend and the points drawn for the visible range. The
// points built from a record are in loss_chart_points.cpp; the view's behaviour (ranges, zoom,
// hover) in loss_chart_range.cpp and zoom_chart_view.cpp.
#include "charts/charts.h"

#include "charts/chart_items.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/machine_drift.h"

#include <QAreaSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace devicebench {

LossChart::LossChart(QGraphicsItem *parent)
    : ZoomableChart(parent), m_axisY(new QValueAxis(this)), m_logY(new QLogValueAxis(this)),
      m_hover(new ChartHoverLabel(this)) {
    updateTitle();
    m_axisX->setTitleText(QStringLiteral("epoch"));
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisX->setRange(0.0, 1.0);
    m_axisY->setTitleText(QStringLiteral("loss (nats)"));
    m_axisY->setLabelFormat(QStringLiteral("%.2f"));
    m_axisY->setRange(0.0, 1.0);
    m_logY->setTitleText(QStringLiteral("loss (nats, log scale)"));
    m_logY->setLabelFormat(QStringLiteral("%.3g"));
    m_logY->setBase(10.0);
    m_logY->setMinorTickCount(-1); // the minor ticks of each decade
    addAxis(m_axisY, Qt::AlignLeft);
    watchAxis(m_axisX);
    watchAxis(m_axisY);
    watchAxis(m_logY);
}

void LossChart::updateTitle() {
    QString title = QStringLiteral("Loss: training loss per step (lines");
    if (m_options.smoothing > 0.0)
        title +=
            QStringLiteral(", smoothed %1, raw faint behind").arg(m_options.smoothing, 0, 'f', 2);
    title += QStringLiteral("), test loss per epoch (dots)");
    styleChartTitle(this, title, titleFont().bold() ? 1.0 : 1.15);
}

void LossChart::setOptions(const ChartOptions &options) {
    ChartOptions next = options;
    next.smoothing =
        std::clamp(std::isfinite(next.smoothing) ? next.smoothing : 0.0, 0.0, kMaxSmoothing);
    if (next.logScale != m_options.logScale) {
        QAbstractAxis *from = activeYAxis();
        QAbstractAxis *to = next.logScale ? static_cast<QAbstractAxis *>(m_logY)
                                          : static_cast<QAbstractAxis *>(m_axisY);
        // The new axis takes the old one's look (theme colours set on the chart's axes).
        to->setLabelsBrush(from->labelsBrush());
        to->setTitleBrush(from->titleBrush());
        to->setLinePen(from->linePen());
        to->setGridLinePen(from->gridLinePen());
        to->setMinorGridLinePen(from->minorGridLinePen());
        to->setLabelsFont(from->labelsFont());
        to->setTitleFont(from->titleFont());
        for (auto &[id, entry] : m_series)
            for (QXYSeries *s : seriesOf(entry))
                s->detachAxis(from);
        for (auto &[key, group] : m_groups)
            for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(group.band),
                                       static_cast<QAbstractSeries *>(group.mean),
                                       static_cast<QAbstractSeries *>(group.test)})
                s->detachAxis(from);
        removeAxis(from);
        from->setParent(this); // removeAxis releases ownership; keep it for the way back
        addAxis(to, Qt::AlignLeft);
        for (auto &[id, entry] : m_series)
            for (QXYSeries *s : seriesOf(entry))
                s->attachAxis(to);
        for (auto &[key, group] : m_groups)
            for (QAbstractSeries *s : {static_cast<QAbstractSeries *>(group.band),
                                       static_cast<QAbstractSeries *>(group.mean),
                                       static_cast<QAbstractSeries *>(group.test)})
                s->attachAxis(to);
    }
    if (next.xAxis != m_options.xAxis || next.smoothing != m_options.smoothing)
        ++m_generation;
    if (next.xAxis != m_options.xAxis)
        m_userZoomed = false; // another unit: the old range means nothing
    if (next.logScale != m_options.logScale)
        m_userZoomed = false;
    m_options = next;
    static const char *const titles[] = {"step", "epoch", "wall-clock seconds (run's clock)"};
    m_axisX->setTitleText(QString::fromLatin1(titles[static_cast<int>(m_options.xAxis)]));
    updateTitle();
    hideHover();
}

QAbstractAxis *LossChart::activeYAxis() const {
    return m_options.logScale ? static_cast<QAbstractAxis *>(m_logY)
                              : static_cast<QAbstractAxis *>(m_axisY);
}

QLineSeries *LossChart::trainSeries(int runId) const {
    const auto it = m_series.find(runId);
    return it == m_series.end() ? nullptr : it->second.train;
}

QLineSeries *LossChart::rawSeries(int runId) const {
    const auto it = m_series.find(runId);
    return it == m_series.end() ? nullptr : it->second.raw;
}

QLineSeries *LossChart::testSeries(int runId) const {
    const auto it = m_series.find(runId);
    return it == m_series.end() ? nullptr : it->second.test;
}

QScatterSeries *LossChart::speedChangedSeries(int runId) const {
    const auto it = m_series.find(runId);
    return it == m_series.end() ? nullptr : it->second.speed;
}

std::vector<QXYSeries *> LossChart::seriesOf(const RunSeries &entry) {
    return {entry.raw, entry.train, entry.test, entry.speed};
}

int LossChart::identicalTo(int runId) const {
    const auto it = m_series.find(runId);
    return it == m_series.end() ? 0 : it->second.identicalTo;
}

void LossChart::style(RunSeries &entry) {
    const int n = entry.number;
    const bool smoothed = m_options.smoothing > 0.0;
    // One device pixel wide and cosmetic: the raster engine's fast line path. A wider pen is
    // stroked as a polygon, and ten runs of 7,820 steps then took 200 ms per redraw instead of
    // 10 (bench/dashboard_scale, docs/PERFORMANCE.md). A curve that coincides with an earlier
    // run's is dashed, so that both colours show where they overlay.
    QPen train(theme::runColour(n, theme::Opacity::Curve));
    train.setWidthF(1.0);
    train.setCosmetic(true);
    if (entry.identicalTo != 0)
        train.setDashPattern({6.0, 6.0}); // long dashes: the run underneath shows in the gaps
    QPen raw(theme::runColour(n, theme::Opacity::RawCurve));
    raw.setWidthF(1.0);
    raw.setCosmetic(true);
    QPen test(theme::runColour(n));
    test.setWidthF(2.0);
    test.setStyle(Qt::DashLine);
    // Pens and names only when they change: setting them marks the series dirty and repaints
    // it, and this runs several times a second during a run. A chart theme set since
    // (QChart::setTheme recolours every series) counts as a change.
    if (entry.train->pen() != train)
        entry.train->setPen(train);
    if (entry.raw->pen() != raw)
        entry.raw->setPen(raw);
    if (entry.test->pen() != test || entry.test->color() != theme::runColour(n)) {
        entry.test->setPen(test);
        entry.test->setColor(theme::runColour(n));
    }
    const QString name =
        entry.identicalTo != 0
            ? entry.label + QStringLiteral(" (identical to #%1)").arg(entry.identicalTo)
            : entry.label;
    if (entry.train->name() != name) {
        entry.train->setName(name);
        entry.raw->setName(entry.label + QStringLiteral(" (raw)"));
        entry.test->setName(entry.label + QStringLiteral(" (test)"));
    }
    styleSpeedRings(entry);
    const bool showRaw = smoothed && !entry.hidden;
    if (entry.train->isVisible() == entry.hidden)
        entry.train->setVisible(!entry.hidden);
    if (entry.test->isVisible() == entry.hidden)
        entry.test->setVisible(!entry.hidden);
    if (entry.raw->isVisible() != showRaw)
        entry.raw->setVisible(showRaw);
    if (entry.speed->isVisible() == entry.hidden)
        entry.speed->setVisible(!entry.hidden);
    styleLegend(entry);
}

void LossChart::styleSpeedRings(RunSeries &entry) {
    // An open ring in the error colour, larger than the test dot it surrounds.
    const QColor ring = theme::colour(theme::Role::ErrorText, theme::themeOf(*this));
    QPen pen(ring);
    pen.setWidthF(2.5);
    if (entry.speed->pen() != pen)
        entry.speed->setPen(pen);
    if (entry.speed->brush() != QBrush(Qt::transparent))
        entry.speed->setBrush(QBrush(Qt::transparent));
    const QString name = entry.label + QStringLiteral(" (machine speed changed)");
    if (entry.speed->name() != name)
        entry.speed->setName(name);
}

void LossChart::styleLegend(const RunSeries &entry) {
    // One legend entry per run (the training line's), kept while the run is hidden.
    for (QLegendMarker *marker : legend()->markers(entry.raw))
        marker->setVisible(false);
    for (QLegendMarker *marker : legend()->markers(entry.test))
        marker->setVisible(false);
    for (QLegendMarker *marker : legend()->markers(entry.speed))
        marker->setVisible(false);
    styleRunMarker(entry.train, entry.number, entry.hidden);
}

void LossChart::sync(const RunStore &store) {
    // Runs drawn in a group have no series of their own (dropped like removed runs).
    const std::vector<int> inGroups = syncGroups(store);
    dropRemovedRuns(store, inGroups);
    std::vector<const std::vector<double> *> curves;
    std::vector<RunSeries *> order;
    std::vector<int> ids;
    bool added = false;
    double xMax = 1.0;
    for (const auto &[key, group] : m_groups)
        if (!group.hidden)
            xMax = std::max(xMax, group.xEnd);
    for (int index = 0; index < store.runCount(); ++index) {
        const StoredRun &run = store.run(index);
        if (m_groupOfRun.count(run.id) > 0)
            continue;
        RunSeries &entry = m_series[run.id];
        if (entry.train == nullptr) {
            addRunSeries(entry, run.id);
            added = true;
        }
        entry.number = run.number;
        entry.label = run.label;
        entry.hidden = store.isRunHidden(run.id);
        build(entry, run);
        // Identical curves are identical on the step axes only (a time axis separates them).
        curves.push_back(entry.hidden || m_options.xAxis == XAxisMode::Seconds ? nullptr
                                                                               : &entry.losses);
        order.push_back(&entry);
        ids.push_back(run.id);
        if (!entry.hidden)
            xMax = std::max(xMax, entry.xEnd);
    }
    if (added)
        putLinesOverRaw(order, ids);
    markIdentical(order, curves);
    for (RunSeries *entry : order)
        style(*entry);
    // The legend's entries in order: the groups' means, then the runs' lines.
    std::vector<QAbstractSeries *> entries;
    for (const RunGroup &group : store.groups().groups) { // in the order of their first runs
        const auto it =
            group.runs.empty() ? m_groups.end() : m_groups.find(store.run(group.runs.front()).id);
        if (it != m_groups.end())
            entries.push_back(it->second.mean);
    }
    for (RunSeries *entry : order)
        entries.push_back(entry->train);
    capLegend(entries);
    m_autoXMax = xMax;

    if (!m_userZoomed) {
        double yMin = 0.0;
        double yMax = 1.0;
        fitY(0.0, xMax, &yMin, &yMax);
        applyRange(0.0, xMax, yMin, yMax);
    }
    redecimate();
}

void LossChart::dropRemovedRuns(const RunStore &store, const std::vector<int> &inGroups) {
    for (auto it = m_series.begin(); it != m_series.end();) {
        if (store.findRun(it->first) == nullptr ||
            std::find(inGroups.begin(), inGroups.end(), it->first) != inGroups.end()) {
            for (QXYSeries *s : seriesOf(it->second)) {
                removeSeries(s);
                delete s;
            }
            it = m_series.erase(it);
        } else {
            ++it;
        }
    }
}

void LossChart::addRunSeries(RunSeries &entry, int runId) {
    entry.raw = new QLineSeries(this);
    entry.train = new QLineSeries(this);
    entry.test = new QLineSeries(this);
    entry.speed = new QScatterSeries(this);
    for (QXYSeries *s : seriesOf(entry)) {
        addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(activeYAxis());
    }
    entry.test->setPointsVisible(true);
    entry.test->setMarkerSize(9.0);
    entry.speed->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    entry.speed->setMarkerSize(17.0);
    for (QXYSeries *s : {static_cast<QXYSeries *>(entry.raw), static_cast<QXYSeries *>(entry.train),
                         static_cast<QXYSeries *>(entry.speed)})
        connect(s, &QXYSeries::hovered, this, [this, runId](const QPointF &p, bool on) {
            if (on)
                showHover(runId, p.x());
            else
                hideHover();
        });
}

void LossChart::putLinesOverRaw(const std::vector<RunSeries *> &order,
                                const std::vector<int> &ids) {
    // The chart draws series in the order added: the lines, test dots and rings are taken out
    // and put back after all the raw series.
    const auto over = [](const RunSeries *entry) {
        return std::vector<QXYSeries *>{entry->train, entry->test, entry->speed};
    };
    for (RunSeries *entry : order)
        for (QXYSeries *s : over(entry))
            removeSeries(s);
    for (std::size_t i = 0; i < order.size(); ++i) {
        for (QXYSeries *s : over(order[i])) {
            addSeries(s);
            s->attachAxis(m_axisX);
            s->attachAxis(activeYAxis());
        }
        connectRunMarker(order[i]->train, ids[i]);
    }
}

void LossChart::markIdentical(const std::vector<RunSeries *> &order,
                              const std::vector<const std::vector<double> *> &curves) {
    ValueRange shown;
    for (const RunSeries *entry : order)
        if (!entry->hidden && entry->rawRange.valid)
            shown = ValueRange{
                shown.valid ? std::min(shown.min, entry->rawRange.min) : entry->rawRange.min,
                shown.valid ? std::max(shown.max, entry->rawRange.max) : entry->rawRange.max, true};
    const double tolerance =
        std::max(kCoincidenceFloor, kCoincidenceFraction * (shown.max - shown.min));
    const std::vector<int> same = findCoincidingCurves(curves, tolerance);
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i]->identicalTo = same[i] >= 0 ? order[static_cast<std::size_t>(same[i])]->number : 0;
}

void LossChart::redecimate() {
    const double xMin = m_axisX->min();
    const double xMax = m_axisX->max();
    for (auto &[id, entry] : m_series) {
        if (entry.hidden)
            continue; // not drawn; its points are put in when it is shown again
        if (entry.drawnMin == xMin && entry.drawnMax == xMax &&
            entry.drawnSteps == entry.builtSteps && entry.drawnGeneration == m_generation &&
            entry.test->count() == entry.testPoints.size() &&
            entry.speed->count() == entry.speedPoints.size())
            continue; // unchanged: replacing would repaint it for nothing
        entry.drawnMin = xMin;
        entry.drawnMax = xMax;
        entry.drawnSteps = entry.builtSteps;
        entry.drawnGeneration = m_generation;
        const bool smoothed = m_options.smoothing > 0.0;
        entry.train->replace(decimateVisible(smoothed ? entry.smoothPoints : entry.rawPoints, xMin,
                                             xMax, kMaxDrawnPoints));
        entry.raw->replace(smoothed ? decimateVisible(entry.rawPoints, xMin, xMax, kMaxDrawnPoints)
                                    : QList<QPointF>());
        if (entry.test->points() != entry.testPoints)
            entry.test->replace(entry.testPoints);
        if (entry.speed->points() != entry.speedPoints)
            entry.speed->replace(entry.speedPoints);
    }
}

} // namespace devicebench
