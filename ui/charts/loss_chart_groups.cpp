// SPDX-License-Identifier: MIT
// LossChart (charts.h): groups of repeated runs drawn as one mean curve with a min-max band.
#include "charts/charts.h"

#include "store/run_store.h"
#include "theme/theme.h"

#include <QAreaSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace devicebench {

namespace {

// At most `most` points of `points`, every k-th (the last one kept): the band's edges and the
// mean keep the same steps, so that the band stays closed.
QList<QPointF> everyKth(const QList<QPointF> &points, int most) {
    if (points.size() <= most)
        return points;
    const qsizetype k = (points.size() + most - 1) / most;
    QList<QPointF> out;
    out.reserve(most + 1);
    for (qsizetype i = 0; i < points.size(); i += k)
        out.append(points[i]);
    if (out.back() != points.back())
        out.append(points.back());
    return out;
}

// Accumulates the runs' values at one x: mean, lowest and highest.
struct Across {
    double sum = 0.0;
    double x = 0.0; // summed: the runs' mean x (seconds differ between runs)
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    int n = 0;
    void add(double xValue, double y) {
        sum += y;
        x += xValue;
        low = std::min(low, y);
        high = std::max(high, y);
        ++n;
    }
};

} // namespace

QLineSeries *LossChart::groupMeanSeries(int runId) const {
    const auto it = m_groupOfRun.find(runId);
    return it == m_groupOfRun.end() ? nullptr : m_groups.at(it->second).mean;
}

QAreaSeries *LossChart::groupBandSeries(int runId) const {
    const auto it = m_groupOfRun.find(runId);
    return it == m_groupOfRun.end() ? nullptr : m_groups.at(it->second).band;
}

int LossChart::groupRunCount(int runId) const {
    const auto it = m_groupOfRun.find(runId);
    return it == m_groupOfRun.end() ? 0 : m_groups.at(it->second).runs;
}

QStringList LossChart::legendLabels() const { return m_legendShown; }

std::vector<int> LossChart::syncGroups(const RunStore &store) {
    std::map<int, int> groupOfRun;
    // Key and group, in the order of the groups' first runs (the order their series are added
    // in, which the legend follows).
    std::vector<std::pair<int, const RunGroup *>> wanted;
    if (!m_options.runsOneByOne)
        for (const RunGroup &group : store.groups().groups) {
            if (group.runs.size() < 2)
                continue;
            const int key = store.run(group.runs.front()).id;
            wanted.emplace_back(key, &group);
            for (const int index : group.runs)
                groupOfRun[store.run(index).id] = key;
        }
    for (auto it = m_groups.begin(); it != m_groups.end();) {
        if (std::none_of(wanted.begin(), wanted.end(),
                         [&](const auto &w) { return w.first == it->first; })) {
            removeGroupSeries(it->second);
            it = m_groups.erase(it);
        } else {
            ++it;
        }
    }
    std::vector<int> drawn;
    for (const auto &[key, group] : wanted) {
        GroupSeries &entry = m_groups[key];
        if (entry.mean == nullptr)
            addGroupSeries(entry);
        entry.number = store.run(group->runs.front()).number;
        entry.runs = static_cast<int>(group->runs.size());
        entry.label = QString::fromStdString(group->label);
        entry.hidden = std::all_of(group->runs.begin(), group->runs.end(), [&](int index) {
            return store.isRunHidden(store.run(index).id);
        });
        buildGroup(entry, store, *group);
        styleGroup(entry);
        for (const int index : group->runs)
            drawn.push_back(store.run(index).id);
    }
    m_groupOfRun = std::move(groupOfRun);
    return drawn;
}

void LossChart::addGroupSeries(GroupSeries &group) {
    group.mean = new QLineSeries(this);
    group.lower = new QLineSeries(this);
    group.upper = new QLineSeries(this);
    group.band = new QAreaSeries(group.upper, group.lower);
    group.upper->setParent(group.band); // deleted with it
    group.lower->setParent(group.band);
    group.test = new QLineSeries(this);
    for (QAbstractSeries *s :
         {static_cast<QAbstractSeries *>(group.band), static_cast<QAbstractSeries *>(group.mean),
          static_cast<QAbstractSeries *>(group.test)}) {
        addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(activeYAxis());
    }
    group.test->setPointsVisible(true);
    group.test->setMarkerSize(9.0);
}

void LossChart::removeGroupSeries(GroupSeries &group) {
    for (QAbstractSeries *s :
         {static_cast<QAbstractSeries *>(group.band), static_cast<QAbstractSeries *>(group.mean),
          static_cast<QAbstractSeries *>(group.test)}) {
        removeSeries(s);
        delete s; // the band's edges with it
    }
}

void LossChart::buildGroup(GroupSeries &entry, const RunStore &store, const RunGroup &group) {
    std::vector<std::size_t> sizes;
    for (const int index : group.runs) {
        sizes.push_back(store.run(index).record.steps.size());
        sizes.push_back(store.run(index).record.epochs.size());
    }
    if (sizes == entry.built && entry.builtGeneration == m_generation)
        return; // nothing new
    // Moved, not copied: GCC 14 at -O3 warned of a possible null dereference in the copy.
    entry.built = std::move(sizes);
    entry.builtGeneration = m_generation;
    std::map<std::int64_t, Across> steps; // by global step
    std::map<int, Across> epochs;         // test loss by epoch
    double perEpoch = 1.0;
    int configured = 0;
    for (const int index : group.runs) {
        const RunRecord &record = store.run(index).record;
        perEpoch = static_cast<double>(stepsPerEpochOf(record));
        configured =
            std::max({configured, record.config.epochs, static_cast<int>(record.epochs.size())});
        QList<QPointF> points; // (step, loss), finite ones, smoothed like a run's curve
        std::vector<double> seconds;
        for (const TimedStepLoss &s : record.steps)
            if (std::isfinite(s.loss)) {
                points.append(QPointF(static_cast<double>(s.step), s.loss));
                seconds.push_back(s.seconds);
            }
        points = smoothPointsY(points, m_options.smoothing);
        for (qsizetype i = 0; i < points.size(); ++i)
            steps[static_cast<std::int64_t>(points[i].x())].add(
                seconds[static_cast<std::size_t>(i)], points[i].y());
        for (const EpochResult &e : record.epochs) {
            double last = std::nan(""); // the epoch's last step's time
            for (auto it = record.steps.rbegin(); it != record.steps.rend(); ++it)
                if (it->epoch <= e.epoch) {
                    last = it->seconds;
                    break;
                }
            if (std::isfinite(e.testLoss))
                epochs[e.epoch].add(last, e.testLoss);
        }
    }
    const auto xOf = [&](double step, const Across &a) {
        switch (m_options.xAxis) {
        case XAxisMode::Steps:
            return step;
        case XAxisMode::Epochs:
            return step / perEpoch;
        case XAxisMode::Seconds:
            return a.x / a.n;
        }
        return step;
    };
    entry.meanPoints.clear();
    entry.lowerPoints.clear();
    entry.upperPoints.clear();
    entry.testPoints.clear();
    for (const auto &[step, a] : steps) {
        const double x = xOf(static_cast<double>(step), a);
        entry.meanPoints.append(QPointF(x, a.sum / a.n));
        entry.lowerPoints.append(QPointF(x, a.low));
        entry.upperPoints.append(QPointF(x, a.high));
    }
    for (const auto &[epoch, a] : epochs) {
        const double x = xOf(epoch * perEpoch, a);
        if (std::isfinite(x))
            entry.testPoints.append(QPointF(x, a.sum / a.n));
    }
    if (m_options.xAxis == XAxisMode::Seconds) {
        entry.xEnd = entry.meanPoints.isEmpty() ? 0.0 : entry.meanPoints.back().x();
    } else {
        entry.xEnd = m_options.xAxis == XAxisMode::Steps ? configured * perEpoch : configured;
    }
    entry.mean->replace(everyKth(entry.meanPoints, kMaxDrawnPoints));
    entry.lower->replace(everyKth(entry.lowerPoints, kMaxDrawnPoints));
    entry.upper->replace(everyKth(entry.upperPoints, kMaxDrawnPoints));
    entry.test->replace(entry.testPoints);
}

void LossChart::styleGroup(GroupSeries &entry) {
    const int n = entry.number;
    QPen mean(theme::runColour(n, theme::Opacity::Curve));
    mean.setWidthF(2.0);
    if (entry.mean->pen() != mean)
        entry.mean->setPen(mean);
    QPen edge(theme::runColour(n, theme::Opacity::RawCurve));
    edge.setWidthF(1.0);
    edge.setCosmetic(true);
    if (entry.band->pen() != edge) {
        entry.band->setPen(edge);
        entry.band->setBrush(theme::runColour(n, theme::Opacity::RawCurve));
    }
    QPen test(theme::runColour(n));
    test.setWidthF(2.0);
    test.setStyle(Qt::DashLine);
    if (entry.test->pen() != test || entry.test->color() != theme::runColour(n)) {
        entry.test->setPen(test);
        entry.test->setColor(theme::runColour(n));
    }
    const QString name =
        entry.label + QStringLiteral(" · n = %1, mean, band min-max").arg(entry.runs);
    if (entry.mean->name() != name) {
        entry.mean->setName(name);
        entry.band->setName(entry.label + QStringLiteral(" (min-max)"));
        entry.test->setName(entry.label + QStringLiteral(" (mean test)"));
    }
    for (QAbstractSeries *s :
         {static_cast<QAbstractSeries *>(entry.band), static_cast<QAbstractSeries *>(entry.mean),
          static_cast<QAbstractSeries *>(entry.test)})
        if (s->isVisible() == entry.hidden)
            s->setVisible(!entry.hidden);
    for (QAbstractSeries *s :
         {static_cast<QAbstractSeries *>(entry.band), static_cast<QAbstractSeries *>(entry.test)})
        for (QLegendMarker *marker : legend()->markers(s))
            marker->setVisible(false);
    styleRunMarker(entry.mean, n, entry.hidden);
}

void LossChart::capLegend(const std::vector<QAbstractSeries *> &entries) {
    // The first entries by name, then one that says how many more there are (Qt's legend is
    // one row: more names would be elided to nothing).
    m_legendShown.clear();
    const auto count = static_cast<int>(entries.size());
    const bool capped = count > kMaxLegendEntries;
    for (int i = 0; i < count; ++i) {
        QAbstractSeries *series = entries[static_cast<std::size_t>(i)];
        const bool shown = !capped || i < kMaxLegendEntries;
        const QString label =
            capped && i == kMaxLegendEntries - 1
                ? QStringLiteral("… and %1 more").arg(count - kMaxLegendEntries + 1)
                : series->name();
        for (QLegendMarker *marker : legend()->markers(series)) {
            if (!shown) {
                marker->setVisible(false);
                continue;
            }
            if (marker->label() != label)
                marker->setLabel(label);
        }
        if (shown)
            m_legendShown.append(label);
    }
}

} // namespace devicebench
