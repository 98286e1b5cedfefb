// SPDX-License-Identifier: MIT
// The two comparison charts, as QChart subclasses that sync themselves from a RunStore
// (LossChart in charts.cpp, SpeedChart in speed_chart.cpp).
// The dashboard shows them in QChartViews; the PNG export builds fresh ones and renders them
// without any window. Both are fed with QXYSeries::replace() / one rebuild per sync, with
// animations off; call sync() from a coalescing timer, not per event.
#pragma once

#include <QChart>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

#include <map>
#include <utility>
#include <vector>

class QBarCategoryAxis;
class QBarSet;
class QStackedBarSeries;
class QLineSeries;
class QValueAxis;

namespace devicebench {

class RunStore;

// Most points drawn per run and series; the store keeps every point.
inline constexpr int kMaxDrawnPoints = 2000;

// Min/max bucket decimation of a polyline ordered by x. Returns `points` unchanged when it has
// at most `maxPoints` points; otherwise the first point, then for each of (maxPoints-2)/2
// equal-count buckets of the interior its min-y and max-y points in x order, then the last
// point, so at most `maxPoints` points and every spike stays visible. maxPoints < 4 counts as 4.
QList<QPointF> decimateMinMax(const QList<QPointF> &points, int maxPoints);

// Sets `chart`'s title to `title` in bold, its font `scale` times the chart's title font size
// (both charts' titles).
void styleChartTitle(QChart *chart, const QString &title, double scale);

// Range of the finite y values of `points` (NaN and +-inf are ignored).
struct ValueRange {
    double min = 0.0;
    double max = 0.0;
    bool valid = false; // false when no y value is finite
};
ValueRange finiteYRange(const QList<QPointF> &points);

// Loss chart. x = epochs (step / stepsPerEpoch, so x runs over [0, epochs]); y = loss in nats.
// Per run: training loss per step as a line, test loss per epoch as dots joined by a dashed line
// at x = epoch, both in the run's colour (theme::runColour(run number): the colour of its bar
// and of its epoch-table rows too; the training line slightly translucent); the legend names
// each run (label = run and device) with a marker of that colour.
// Non-finite losses are not drawn and never widen the axes.
class LossChart : public QChart {
    Q_OBJECT

public:
    explicit LossChart(QGraphicsItem *parent = nullptr);

    // Brings series and axes up to date with `store` (adds/removes runs, replaces points).
    void sync(const RunStore &store);

    // For tests and the export; nullptr when the run is not shown.
    QLineSeries *trainSeries(int runId) const;
    QLineSeries *testSeries(int runId) const;
    QValueAxis *xAxis() const { return m_axisX; }
    QValueAxis *yAxis() const { return m_axisY; }

private:
    struct RunSeries {
        QLineSeries *train = nullptr;
        QLineSeries *test = nullptr;
        std::size_t drawnSteps = static_cast<std::size_t>(-1);
        std::size_t drawnEpochs = static_cast<std::size_t>(-1);
        ValueRange trainRange;
        ValueRange testRange;
        QColor colour; // the run colour the pens were last made from
        QString name;  // the legend name last set
    };

    QValueAxis *m_axisX;
    QValueAxis *m_axisY;
    std::map<int, RunSeries> m_series; // by run id
};

class ErrorBarItem;

// Bar chart of each run's stable mean seconds per epoch (epochs after warm-up, the store's
// warm-up setting), with the 95% interval of the mean drawn as an error bar and the mean
// written above it. Category label (rich text, two lines joined by <br>): the run label
// ("#1 CPU x1 @ host"), then the speed-up against the store's baseline with its interval
// ("2.31x [2.20, 2.43]"), "baseline", or, in red, "not comparable: <fields>" for a run whose
// workload differs from the baseline's (its bar is hatched); runs without a stable mean get a 0
// bar and the note "no stable epochs". Each bar has its run's colour
// (theme::runColour(run number)), the colour of the run's loss curves. A run with stable
// epochs measured on a busy machine (EpochLoad::contended, contention.h) has its bar
// cross-hatched and a third line in red, "⚠ busy machine: epochs 4, 7 contended".
class SpeedChart : public QChart {
    Q_OBJECT

public:
    explicit SpeedChart(QGraphicsItem *parent = nullptr);

    void sync(const RunStore &store);

    // For tests: the bar values (seconds, 0 when no stable mean), category labels, and the
    // error bars drawn (one per run with a known interval: {low, high} seconds).
    std::vector<double> barValues() const { return m_values; }
    QStringList categories() const { return m_categories; }
    std::vector<std::pair<double, double>> errorBars() const;
    // For tests: the fill colour of bar `index` (store order; invalid QColor when out of range),
    // and whether it is hatched (the run is not comparable with the baseline).
    QColor barColour(int index) const;
    bool barHatched(int index) const;
    // For tests: whether bar `index` is cross-hatched (the run has contended stable epochs).
    bool barCrossHatched(int index) const;

private:
    void colourBars(); // sets each bar's brush and border from its run's colour, if they differ

    QStringList m_categories;
    std::vector<double> m_values;
    std::vector<bool> m_flagged;
    std::vector<bool> m_contended; // the run has contended stable epochs (a busy machine)
    std::vector<int> m_numbers;    // run numbers, which give the bars' colours
    QStackedBarSeries *m_series = nullptr;
    ErrorBarItem *m_errorBars = nullptr;
    QBarCategoryAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
};

} // namespace devicebench
