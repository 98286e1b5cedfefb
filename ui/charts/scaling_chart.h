// SPDX-License-Identifier: MIT
// The scaling chart: images/s against world size for the data-parallel jobs in view
// (devicebench/scaling.h, scalingSeries), the ideal line (world size x the 1-rank images/s) and
// each point's efficiency written beside it ("87 %"). The dashboard's Scaling view
// (scaling_panel.h) shows it in a QChartView.
#pragma once

#include "devicebench/scaling.h"

#include <QChart>
#include <QList>
#include <QString>

#include <vector>

class QLineSeries;
class QValueAxis;

namespace devicebench {

class ChartHoverLabel;
class EfficiencyLabels;
class RunStore;

// The text of an efficiency (a fraction) as written by its point: "87 %" (rounded to a whole
// per cent; "100 %" for the 1-rank point); "" when NaN (no 1-rank point).
QString efficiencyText(double efficiency);

// x: world size (ranks), linear from 0, ticks on whole numbers (1, 2, 5, 10, ... apart, so at
// most about ten); y: images/s, linear from 0 (setZeroBasedNiceAxis). Per series, in the colour
// theme::runColour(series index + 1): its points joined by a solid line with round markers,
// each point's efficiency written above it, and, when it has a 1-rank point, the ideal as a
// dashed line of the same colour through world size x the 1-rank images/s at each of its world
// sizes (legend: "ideal: N x 1 rank", with the series' name when there are several). Pointing at
// a point shows its run, images/s, ideal, efficiency and all-reduce share. sync() rebuilds
// every series (a scaling study has a handful of points).
class ScalingChart : public QChart {
    Q_OBJECT

public:
    explicit ScalingChart(QGraphicsItem *parent = nullptr);

    // Redraws from the store's runs (scalingSeries(store.runSet())) with their labels; returns
    // false, and leaves the chart (and a shown hover label) as it is, when nothing it draws
    // changed (a live run's steps: the store changes many times per epoch).
    bool sync(const RunStore &store);

    // For tests and the panel: the series drawn (scalingSeries' order); the measured line and
    // the ideal line of each (the ideal nullptr when the series has no 1-rank point); the
    // efficiency texts written by the points of series `index`, in point order ("" for none).
    const std::vector<ScalingSeries> &series() const { return m_series; }
    QList<QLineSeries *> measuredLines() const { return m_measured; }
    QList<QLineSeries *> idealLines() const { return m_ideal; }
    QStringList pointLabels(int index) const;
    QValueAxis *xAxis() const { return m_axisX; }
    QValueAxis *yAxis() const { return m_axisY; }

    // The hover label of point `point` of series `index` ("" when out of range), and showing
    // it at that point.
    QString hoverText(int index, int point) const;
    void showHover(int index, int point);
    void hideHover();

private:
    void connectHover(QLineSeries *measured, int index); // pointing shows the nearest point
    void fitAxes(); // x to the largest world size, y to the largest images/s (ideal included)

    std::vector<ScalingSeries> m_series;
    QStringList m_runLabels; // the store's label of every run, by index (the points' runs)
    QString m_drawn;         // what was drawn (series, points, their runs' labels), as text
    bool m_synced = false;   // sync() has drawn once
    QList<QLineSeries *> m_measured;
    QList<QLineSeries *> m_ideal;
    QValueAxis *m_axisX;
    QValueAxis *m_axisY;
    EfficiencyLabels *m_labels;
    ChartHoverLabel *m_hover;
};

} // namespace devicebench
