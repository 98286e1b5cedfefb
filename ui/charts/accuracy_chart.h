// SPDX-License-Identifier: MIT
// The Accuracy view: test accuracy against wall-clock seconds, the plot that time to accuracy
// (devicebench/time_to_target.h) is read from, as DAWNBench and MLPerf Training results are.
// docs/DASHBOARD.md, "The Accuracy view".
#pragma once

#include <QChart>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace devicebench {

class ChartHoverLabel;
class PlotNoteItem;
class RunStore;

// x: seconds from each run's first training step to the end of each epoch (accuracyOverTime:
// evaluations included, the clock of time to target), from 0; y: test accuracy in percent, from
// 0 to a little over the highest point or target (at most 100). Per run the store shows, in the
// run's colour: its epochs' points joined by a line (legend: the run's label); where it reached
// its target, a larger ring (legend hidden: the line names the run). Each target of the runs
// shown: a dashed line across the plot ("target 50 %" in the legend). A run without a test
// accuracy yet draws nothing; note() says so when none has one. sync() rebuilds only when what
// it draws changed (a live run changes the store at every step, its accuracy once an epoch).
class AccuracyChart : public QChart {
    Q_OBJECT

public:
    explicit AccuracyChart(QGraphicsItem *parent = nullptr);

    // Redraws from the store's shown runs; false (nothing redrawn) when nothing it draws changed.
    bool sync(const RunStore &store);

    // True when a run in `store` has a target (the panel's and the picture's cue to show it).
    static bool anyTarget(const RunStore &store);

    // For tests: the runs' lines (store order of the runs drawn), their rings where they reached
    // the target (one series per run that reached it), the target lines, the axes, the note ("" or
    // "No test accuracy yet: ...").
    QList<QLineSeries *> runLines() const { return m_lines; }
    QList<QScatterSeries *> reachRings() const { return m_rings; }
    QList<QLineSeries *> targetLines() const { return m_targets; }
    QValueAxis *xAxis() const { return m_axisX; }
    QValueAxis *yAxis() const { return m_axisY; }
    QString note() const;

    // The hover label of point `point` of run line `line` ("" when out of range), and showing it.
    QString hoverText(int line, int point) const;
    void showHover(int line, int point);
    void hideHover();

private:
    struct DrawnRun {
        QString label;
        int number = 0;
        std::vector<int> epochs; // of each point
        double target = 0.0;     // percent; 0: none
        int reachedEpoch = 0;    // 0: not (yet) reached
    };
    void addRun(const DrawnRun &run, const QList<QPointF> &points);
    void addTargetLines(const std::vector<double> &targets, double right);
    void fitAxes(double maxSeconds, double maxPercent);

    QString m_drawn; // what was drawn, as text
    bool m_synced = false;
    std::vector<DrawnRun> m_runs; // per line in m_lines
    QList<QLineSeries *> m_lines;
    QList<QScatterSeries *> m_rings;
    QList<QLineSeries *> m_targets;
    QValueAxis *m_axisX;
    QValueAxis *m_axisY;
    ChartHoverLabel *m_hover;
    PlotNoteItem *m_note;
};

} // namespace devicebench
