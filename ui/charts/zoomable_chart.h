// SPDX-License-Identifier: MIT
// What the loss chart and the System view share (LossChart in charts.h, SystemChart in
// system_chart.h): a value x axis the user zooms and pans (ZoomChartView, zoom_chart_view.h),
// a range the user set kept across live updates, and one legend entry per run, in the run's
// colour, faded while the run is hidden, whose click asks to show or hide the run.
#pragma once

#include <QChart>

class QLogValueAxis;
class QValueAxis;
class QXYSeries;

namespace devicebench {

class ZoomableChart : public QChart {
    Q_OBJECT

public:
    QValueAxis *xAxis() const { return m_axisX; }

    // The view: x range in the x axis's unit; the y axis fits what is in it. Marks the view as
    // the user's (kept by later syncs).
    virtual void setXRange(double min, double max) = 0;
    // Back to the whole of every run shown.
    virtual void resetView() = 0;
    virtual void hideHover() = 0;
    // True while a zoom or pan of the user's is in effect.
    bool userZoomed() const { return m_userZoomed; }

Q_SIGNALS:
    // A run's legend entry was clicked: show or hide that run.
    void runVisibilityToggled(int runId);

protected:
    explicit ZoomableChart(QGraphicsItem *parent = nullptr);

    // The axes changed by the user's hand (rubber band, pan, wheel): draw the new range.
    virtual void userRangeChanged() = 0;
    // Range changes of `axis` made while m_settingRange is false are the user's zoom or pan.
    void watchAxis(QValueAxis *axis);
    void watchAxis(QLogValueAxis *axis);
    void userRange(); // marks the view as the user's and calls userRangeChanged()
    // The x axis from `min` to `max` with `ticks` ticks (round numbers, which may widen the
    // range, when `nice`) and as many decimals as a span under 5 needs.
    void setXAxisRange(double min, double max, int ticks, bool nice);
    // The run's one legend entry (that of `series`): in run `number`'s colour, faded while
    // `hidden`.
    void styleRunMarker(QXYSeries *series, int number, bool hidden);
    // A click on `series`' legend entry emits runVisibilityToggled(runId). Call again after the
    // series was taken out and put back (the legend makes new markers).
    void connectRunMarker(QXYSeries *series, int runId);

    QValueAxis *m_axisX;
    bool m_userZoomed = false;
    bool m_settingRange = false; // the chart itself is changing the axes
};

} // namespace devicebench
