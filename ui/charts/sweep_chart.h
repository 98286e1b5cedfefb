// SPDX-License-Identifier: MIT
// The sweep chart: images/s against batch size, one line with point markers per model and device
// (and image size, when the sweep has several; and precision, when it has more than fp32), from the
// cells' records (devicebench/sweep.h). The dashboard's Sweep view shows it in a QChartView; the
// sweep PNG (sweep_export.h) builds a fresh one and renders it without a window.
#pragma once

#include "devicebench/sweep.h"

#include <QChart>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <vector>

class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace devicebench {

class ChartHoverLabel;

// One line of the chart: a model at one image size and precision on one device
// (SweepDevice::label()).
struct SweepLine {
    QString model;         // "resnet18"
    int imageSize = 0;     // pixels per side
    QString device;        // "cpu x2", "cuda:0"
    QString name;          // the legend's text: "resnet18 · cpu x2", plus " · 64 px" when the
                           // records hold more than one image size, and " · bf16" (" · fp32")
                           // when they hold a precision other than fp32
    QList<QPointF> points; // (batch size, images/s) of its finished cells, by batch
    std::vector<std::size_t> records; // index into the records of each point
    int colourIndex = 0;              // the (model, image size, precision)'s place: colour
    int deviceIndex = 0;              // the device's place, from 0: pen style and marker shape

    Precision precision = Precision::Float32; // of its cells
};

// A cell as the Sweep view names it: "resnet18 · batch 64 · 32 px · cpu x2" (and " · bf16" for a
// precision other than fp32).
QString sweepCellText(const SweepCell &cell);

// The lines of `records`, in the order their first cell appears (grid order when the records
// come from loadSweepFolder or runSweep). A cell that did not finish (status not Finished, or
// images/s not above 0) is on no line; *leftOut (when not null) gets one entry per such cell:
// "resnet18 · batch 1024 · 32 px · cpu x1: <reason>" (the reason, or its status when empty).
std::vector<SweepLine> sweepLines(const std::vector<SweepCellRecord> &records,
                                  QStringList *leftOut = nullptr);

// The chart. x: batch size on a base-2 log axis; y: images/s, on a base-10 log axis when the
// finished cells' images/s span more than kLogYRatio (a small CNN and a ResNet on one chart),
// else linear from 0. Each line in the colour of its (model, image size, precision)
// (theme::runColour(colourIndex + 1)), its pen style and marker shape from its device (solid
// and circles, dashed and squares, dotted and triangles, dash-dot and diamonds, then again).
// Pointing at a point shows the cell's images/s with its 95% interval and GFLOP/s. sync()
// rebuilds every series (a sweep has tens of cells, not thousands of points).
class SweepChart : public QChart {
    Q_OBJECT

public:
    static constexpr double kLogYRatio = 10.0;

    explicit SweepChart(QGraphicsItem *parent = nullptr);

    void sync(const std::vector<SweepCellRecord> &records);

    // For tests and the panel: the lines drawn (as sweepLines), their series (same order),
    // the cells left out, as sweepLines says, and whether the y axis is logarithmic.
    const std::vector<SweepLine> &lines() const { return m_lines; }
    QList<QLineSeries *> series() const { return m_series; }
    const QStringList &leftOut() const { return m_leftOut; }
    bool logY() const { return m_logY; }
    // "Left out (did not finish):" then one line "• <cell>: <reason>" per cell left out (the
    // first six, then "• and N more ..."); "" when every cell finished.
    QString leftOutNote() const;

    // The hover label of point `point` of line `line` ("" when out of range), and showing it.
    QString hoverText(int line, int point) const;
    void showHover(int line, int point);
    void hideHover();

private:
    // The finished cells' (batch size, images/s) bounds; any: there is at least one.
    struct Extent {
        double xMin = 0.0, xMax = 0.0, yMin = 0.0, yMax = 0.0;
        bool any = false;
    };
    void styleSeries(QLineSeries *series, const SweepLine &line);
    void useLogY(bool logY);                               // attaches the log or the linear y axis
    void connectHover(QLineSeries *series, int lineIndex); // pointing shows the nearest point
    void fitAxes(const Extent &extent);

    std::vector<SweepCellRecord> m_records;
    std::vector<SweepLine> m_lines;
    QList<QLineSeries *> m_series;
    QStringList m_leftOut;
    bool m_logY = false;
    QLogValueAxis *m_axisX = nullptr;
    QLogValueAxis *m_axisYLog = nullptr;
    QValueAxis *m_axisYLinear = nullptr;
    ChartHoverLabel *m_hover = nullptr;
};

} // namespace devicebench
