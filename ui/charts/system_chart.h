// SPDX-License-Identifier: MIT
// The System view: what the machine did while the runs trained (the readings of
// devicebench/system_metrics.h, RunRecord::samples), against the run's clock, one quantity at a
// time. docs/DASHBOARD.md, "The System view", says why one quantity at a time.
#pragma once

#include "charts/system_quantity.h"
#include "charts/zoomable_chart.h"

#include <QList>
#include <QPointF>
#include <QString>

#include <cstddef>
#include <map>
#include <vector>

class QLineSeries;
class QValueAxis;

namespace devicebench {

class ChartHoverLabel;
class RunStore;
class PlotNoteItem;
struct RunRecord;
struct StoredRun;
struct SystemSample;

// The System view's chart. x: wall-clock seconds of the run's clock (SystemSample::seconds,
// the loss chart's time axis); y: the quantity (setQuantity) from 0. Per run the store shows,
// in the run's colour: its readings as a line; for Cpu also the whole machine's cores, dashed
// and fainter, under it. A reading that lacks the quantity (NaN: no GPU, a source that failed)
// is not drawn, and a run with none draws nothing; its legend entry says "(not sampled)" for a
// record without readings, else "(no readings)". When no run in view was sampled the plot says
// so (note()); when none has the quantity, the note gives the sampler's notes about it. Memory
// is in GiB when the largest value shown reaches 1 GiB, else in MiB.
//
// As the loss chart (ZoomableChart): runs the store hides are not drawn and their legend entry
// is faded, a click on it emits runVisibilityToggled; zoom and pan (ZoomChartView, setXRange)
// are kept across sync() until resetView(); the points drawn are those of the visible range
// (decimateVisible, at most kMaxDrawnPoints per line); pointing at a line shows the reading
// nearest in time (showHover).
class SystemChart : public ZoomableChart {
    Q_OBJECT

public:
    explicit SystemChart(QGraphicsItem *parent = nullptr);
    ~SystemChart() override;

    // Call sync() afterwards. A change of quantity resets the view's y axis, not its x range.
    void setQuantity(SystemQuantity quantity);
    SystemQuantity quantity() const { return m_quantity; }

    // Brings lines, axes and note up to date with `store`.
    void sync(const RunStore &store);

    void setXRange(double min, double max) override;
    void resetView() override;

    // Hover: the label for run `runId`'s reading nearest to `seconds`, shown at it: the run,
    // the time and the value(s), e.g. "#1 CPU x4 @ host\n12.5 s · 3.21 cores (run) · 7.90
    // cores (machine)"; "" and nothing shown when the run has no drawn reading.
    QString showHover(int runId, double seconds);
    void hideHover() override;
    QString hoverText() const;

    // For tests and the export; nullptr when the run is not in the chart. series: the
    // quantity's line; machineSeries: the machine's cores (Cpu; empty for the others).
    QLineSeries *series(int runId) const;
    QLineSeries *machineSeries(int runId) const;
    QValueAxis *yAxis() const { return m_axisY; }
    // The y axis's unit: "cores", "MiB", "GiB", "%", "W".
    QString unit() const { return m_unit; }
    // The text written over the plot ("" when none).
    QString note() const;

private:
    struct RunLines {
        QLineSeries *main = nullptr;
        QLineSeries *machine = nullptr;
        int number = 0;
        bool hidden = false;
        bool sampled = false;
        QString label;
        std::size_t builtSamples = static_cast<std::size_t>(-1);
        int builtGeneration = -1;
        QList<QPointF> points;        // the quantity, in the axis unit
        QList<QPointF> machinePoints; // Cpu: the machine's cores
        double xEnd = 0.0;            // the last reading's time, whatever it read
        // What the series hold now (redraw() replaces them only when this differs).
        double drawnMin = 0.0, drawnMax = -1.0;
        std::size_t drawnSamples = static_cast<std::size_t>(-1);
        int drawnGeneration = -1;
    };

    void userRangeChanged() override { redraw(); }
    void dropRemovedRuns(const RunStore &store);
    void addRunLines(RunLines &entry, int runId);
    void chooseUnit(const RunStore &store); // m_unit and m_scale; a change rebuilds the points
    void build(RunLines &entry, const RunRecord &record);
    void style(RunLines &entry);
    void updateNote(const RunStore &store);
    void redraw(); // the visible range's points into the series, the y axis fitted to them
    double fitTop(double xMin, double xMax) const;
    void applyRange(double xMin, double xMax);
    QString valueText(double value) const;

    SystemQuantity m_quantity = SystemQuantity::Cpu;
    int m_generation = 0; // bumped when the quantity or the unit changes how points are built
    QString m_unit;
    double m_scale = 1.0; // axis unit per recorded unit
    QValueAxis *m_axisY;
    ChartHoverLabel *m_hover;
    PlotNoteItem *m_note;
    std::map<int, RunLines> m_lines; // by run id
    double m_autoXMax = 1.0;
};

} // namespace devicebench
