// SPDX-License-Identifier: MIT
#include "charts/system_chart.h"

#include "charts/chart_items.h"
#include "charts/charts.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/system_metrics.h"

#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace devicebench {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

} // namespace

SystemChart::SystemChart(QGraphicsItem *parent)
    : ZoomableChart(parent), m_axisY(new QValueAxis(this)), m_hover(new ChartHoverLabel(this)),
      m_note(new PlotNoteItem(this)) {
    m_axisX->setTitleText(QStringLiteral("wall-clock seconds (run's clock)"));
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisX->setRange(0.0, 1.0);
    m_axisY->setRange(0.0, 1.0);
    addAxis(m_axisY, Qt::AlignLeft);
    connect(this, &QChart::plotAreaChanged, this, [this] { m_note->geometryChanged(); });
    setQuantity(SystemQuantity::Cpu);
    watchAxis(m_axisX);
    watchAxis(m_axisY);
}

SystemChart::~SystemChart() = default;

void SystemChart::setQuantity(SystemQuantity quantity) {
    if (quantity != m_quantity || m_unit.isEmpty())
        ++m_generation;
    m_quantity = quantity;
    styleChartTitle(this, systemQuantityChartTitle(quantity), titleFont().bold() ? 1.0 : 1.15);
    hideHover();
}

QLineSeries *SystemChart::series(int runId) const {
    const auto it = m_lines.find(runId);
    return it == m_lines.end() ? nullptr : it->second.main;
}

QLineSeries *SystemChart::machineSeries(int runId) const {
    const auto it = m_lines.find(runId);
    return it == m_lines.end() ? nullptr : it->second.machine;
}

QString SystemChart::note() const { return m_note->text(); }

void SystemChart::sync(const RunStore &store) {
    dropRemovedRuns(store);
    chooseUnit(store);
    double xMax = 1.0;
    for (const StoredRun &run : store.runs()) {
        RunLines &entry = m_lines[run.id];
        if (entry.main == nullptr)
            addRunLines(entry, run.id);
        entry.number = run.number;
        entry.label = run.label;
        entry.hidden = store.isRunHidden(run.id);
        entry.sampled = runSampled(run.record);
        build(entry, run.record);
        style(entry);
        if (!entry.hidden)
            xMax = std::max(xMax, entry.xEnd);
    }
    m_autoXMax = xMax;
    updateNote(store);
    if (!m_userZoomed)
        applyRange(0.0, xMax);
    redraw();
}

void SystemChart::dropRemovedRuns(const RunStore &store) {
    for (auto it = m_lines.begin(); it != m_lines.end();) {
        if (store.findRun(it->first) == nullptr) {
            for (QLineSeries *s : {it->second.main, it->second.machine}) {
                removeSeries(s);
                delete s;
            }
            it = m_lines.erase(it);
        } else {
            ++it;
        }
    }
}

void SystemChart::addRunLines(RunLines &entry, int runId) {
    // The machine's line first: the chart draws series in the order added, so it lies under
    // every run's own line added after it.
    entry.machine = new QLineSeries(this);
    entry.main = new QLineSeries(this);
    for (QLineSeries *s : {entry.machine, entry.main}) {
        addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
        connect(s, &QXYSeries::hovered, this, [this, runId](const QPointF &p, bool on) {
            if (on)
                showHover(runId, p.x());
            else
                hideHover();
        });
    }
    connectRunMarker(entry.main, runId);
}

void SystemChart::chooseUnit(const RunStore &store) {
    QString unit;
    double scale = 1.0;
    switch (m_quantity) {
    case SystemQuantity::Cpu:
        unit = QStringLiteral("cores");
        break;
    case SystemQuantity::GpuUtilization:
        unit = QStringLiteral("%");
        scale = 100.0; // the record's fraction
        break;
    case SystemQuantity::GpuPower:
        unit = QStringLiteral("W");
        break;
    case SystemQuantity::Memory:
    case SystemQuantity::GpuMemory: {
        double peak = 0.0;
        for (const StoredRun &run : store.runs())
            if (!store.isRunHidden(run.id))
                for (const SystemSample &s : run.record.samples)
                    if (std::isfinite(systemQuantityValue(s, m_quantity)))
                        peak = std::max(peak, systemQuantityValue(s, m_quantity));
        const bool gib = peak >= kGiB;
        unit = gib ? QStringLiteral("GiB") : QStringLiteral("MiB");
        scale = 1.0 / (gib ? kGiB : kMiB);
        break;
    }
    }
    if (unit != m_unit || scale != m_scale)
        ++m_generation;
    m_unit = unit;
    m_scale = scale;
    const QString title =
        systemQuantityTitle(m_quantity) + QStringLiteral(" (") + m_unit + QLatin1Char(')');
    if (m_axisY->titleText() != title)
        m_axisY->setTitleText(title);
}

void SystemChart::build(RunLines &entry, const RunRecord &record) {
    if (entry.builtSamples == record.samples.size() && entry.builtGeneration == m_generation)
        return;
    entry.points.clear();
    entry.machinePoints.clear();
    for (const SystemSample &s : record.samples) {
        if (!std::isfinite(s.seconds))
            continue;
        const double value = systemQuantityValue(s, m_quantity);
        if (std::isfinite(value))
            entry.points.append(QPointF(s.seconds, value * m_scale));
        if (m_quantity == SystemQuantity::Cpu && std::isfinite(s.machineCores))
            entry.machinePoints.append(QPointF(s.seconds, s.machineCores));
    }
    // The run's last reading of any quantity: every quantity's chart (and every pane of the
    // picture) spans the same time.
    entry.xEnd = 0.0;
    for (const SystemSample &s : record.samples)
        if (std::isfinite(s.seconds))
            entry.xEnd = std::max(entry.xEnd, s.seconds);
    entry.builtSamples = record.samples.size();
    entry.builtGeneration = m_generation;
}

void SystemChart::style(RunLines &entry) {
    // One device pixel, cosmetic: the raster engine's fast line path, as the loss chart's.
    QPen line(theme::runColour(entry.number, theme::Opacity::Curve));
    line.setWidthF(1.0);
    line.setCosmetic(true);
    QPen machine(theme::runColour(entry.number, theme::Opacity::RawCurve));
    machine.setWidthF(1.0);
    machine.setCosmetic(true);
    machine.setDashPattern({4.0, 4.0});
    if (entry.main->pen() != line)
        entry.main->setPen(line);
    if (entry.machine->pen() != machine)
        entry.machine->setPen(machine);
    QString name = entry.label;
    if (!entry.sampled)
        name += QStringLiteral(" (not sampled)");
    else if (entry.points.isEmpty())
        name += QStringLiteral(" (no readings)");
    if (entry.main->name() != name) {
        entry.main->setName(name);
        entry.machine->setName(entry.label + QStringLiteral(" (machine)"));
    }
    if (entry.main->isVisible() == entry.hidden)
        entry.main->setVisible(!entry.hidden);
    const bool showMachine = !entry.hidden && m_quantity == SystemQuantity::Cpu;
    if (entry.machine->isVisible() != showMachine)
        entry.machine->setVisible(showMachine);
    for (QLegendMarker *marker : legend()->markers(entry.machine))
        marker->setVisible(false);
    styleRunMarker(entry.main, entry.number, entry.hidden);
}

void SystemChart::updateNote(const RunStore &store) {
    bool anyShown = false;
    bool anySampled = false;
    bool anyValue = false;
    std::set<std::string> notes; // the sampler's notes about this quantity's source
    for (const StoredRun &run : store.runs()) {
        if (store.isRunHidden(run.id))
            continue;
        anyShown = true;
        anySampled = anySampled || runSampled(run.record);
        anyValue = anyValue || hasQuantity(run.record, m_quantity);
        for (const std::string &note : run.record.sampling.notes)
            if (isGpuQuantity(m_quantity) == (note.rfind("gpu", 0) == 0))
                notes.insert(note);
    }
    QString text;
    if (anyShown && !anySampled) {
        text = QStringLiteral("Not sampled: the runs in view were recorded before DeviceBench "
                              "sampled the machine (CPU, memory, GPU, energy) during a run.");
    } else if (anySampled && !anyValue) {
        text = QStringLiteral("No readings of %1 in the runs in view.")
                   .arg(systemQuantityTitle(m_quantity));
        for (const std::string &note : notes)
            text += QLatin1Char('\n') + QString::fromStdString(note);
    }
    m_note->setText(text);
}

double SystemChart::fitTop(double xMin, double xMax) const {
    double top = 0.0;
    for (const auto &[id, entry] : m_lines) {
        if (entry.hidden)
            continue;
        for (const QList<QPointF> *points : {&entry.points, &entry.machinePoints})
            for (const QPointF &p : *points)
                if (p.x() >= xMin && p.x() <= xMax)
                    top = std::max(top, p.y());
    }
    return top * 1.05; // a little air over the highest reading
}

void SystemChart::applyRange(double xMin, double xMax) {
    m_settingRange = true;
    setXAxisRange(xMin, xMax, 6, !m_userZoomed);
    if (m_quantity == SystemQuantity::GpuUtilization)
        setZeroBasedNiceAxis(m_axisY, 100.0); // a share: always the whole of it
    else
        setZeroBasedNiceAxis(m_axisY, fitTop(xMin, xMax));
    m_settingRange = false;
}

void SystemChart::setXRange(double min, double max) {
    if (!(max > min))
        return;
    m_userZoomed = true;
    applyRange(min, max);
    redraw();
}

void SystemChart::resetView() {
    m_userZoomed = false;
    applyRange(0.0, m_autoXMax);
    redraw();
}

void SystemChart::redraw() {
    const double xMin = m_axisX->min();
    const double xMax = m_axisX->max();
    for (auto &[id, entry] : m_lines) {
        if (entry.hidden)
            continue; // not drawn; its points are put in when it is shown again
        if (entry.drawnMin == xMin && entry.drawnMax == xMax &&
            entry.drawnSamples == entry.builtSamples && entry.drawnGeneration == m_generation)
            continue; // unchanged: replacing would repaint it for nothing
        entry.drawnMin = xMin;
        entry.drawnMax = xMax;
        entry.drawnSamples = entry.builtSamples;
        entry.drawnGeneration = m_generation;
        entry.main->replace(decimateVisible(entry.points, xMin, xMax, kMaxDrawnPoints));
        entry.machine->replace(
            m_quantity == SystemQuantity::Cpu
                ? decimateVisible(entry.machinePoints, xMin, xMax, kMaxDrawnPoints)
                : QList<QPointF>());
    }
}

QString SystemChart::valueText(double value) const {
    if (m_quantity == SystemQuantity::Cpu)
        return QStringLiteral("%1 cores").arg(value, 0, 'f', 2);
    if (isBytesQuantity(m_quantity))
        return QStringLiteral("%1 %2")
            .arg(value, 0, 'f', m_unit == QLatin1String("GiB") ? 2 : 0)
            .arg(m_unit);
    if (m_quantity == SystemQuantity::GpuUtilization)
        return QStringLiteral("%1 %").arg(value, 0, 'f', 0);
    return QStringLiteral("%1 W").arg(value, 0, 'f', 0);
}

QString SystemChart::showHover(int runId, double seconds) {
    const auto it = m_lines.find(runId);
    if (it == m_lines.end() || it->second.hidden ||
        (it->second.points.isEmpty() && it->second.machinePoints.isEmpty())) {
        hideHover();
        return {};
    }
    const RunLines &entry = it->second;
    // The reading nearest in time on each line.
    const auto nearest = [seconds](const QList<QPointF> &points) -> const QPointF * {
        if (points.isEmpty())
            return nullptr;
        auto at = std::lower_bound(points.begin(), points.end(), seconds,
                                   [](const QPointF &p, double v) { return p.x() < v; });
        qsizetype i = std::min<qsizetype>(at - points.begin(), points.size() - 1);
        if (i > 0 && std::abs(points[i - 1].x() - seconds) <= std::abs(points[i].x() - seconds))
            --i;
        return &points[i];
    };
    const QPointF *own = nearest(entry.points);
    const QPointF *machine =
        m_quantity == SystemQuantity::Cpu ? nearest(entry.machinePoints) : nullptr;
    const QPointF anchor = own != nullptr ? *own : *machine;
    QString text =
        entry.label + QLatin1Char('\n') + QStringLiteral("%1 s").arg(anchor.x(), 0, 'f', 1);
    if (own != nullptr)
        text += QStringLiteral(" · ") + valueText(own->y()) +
                (m_quantity == SystemQuantity::Cpu ? QStringLiteral(" (run)") : QString());
    if (machine != nullptr)
        text += QStringLiteral(" · ") + valueText(machine->y()) + QStringLiteral(" (machine)");
    m_hover->show(text, mapToPosition(anchor, own != nullptr ? entry.main : entry.machine),
                  theme::runColour(entry.number));
    return text;
}

void SystemChart::hideHover() { m_hover->hide(); }

QString SystemChart::hoverText() const { return m_hover->text(); }

} // namespace devicebench
