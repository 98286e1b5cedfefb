// SPDX-License-Identifier: MIT
// What the bar chart (SpeedChart, charts.h) draws, bar by bar, worked out before anything is
// drawn: the runs' bars (speed_bars.cpp), the bars of groups of repeated runs
// (group_bars.cpp), the published rows after them, and the horizontal chart's order.
#pragma once

#include "charts/bar_measure.h"
#include "charts/error_bars.h"

#include "devicebench/run_groups.h"

#include <QString>
#include <QStringList>

#include <tuple>
#include <vector>

namespace devicebench {

class RunStore;
struct PublishedBars;

// One entry per bar in drawing order; the runs' (and groups') bars first, then the published
// rows (which have no numbers, runIds or rowLabels).
struct SpeedBars {
    QStringList categories;     // rich text, the vertical chart's category labels
    std::vector<double> values; // in the measure's unit (seconds: 0 when no stable mean)
    std::vector<bool> flagged;  // not comparable with the baseline
    std::vector<bool> contended;
    std::vector<int> numbers;             // the run number whose colour the bar has
    std::vector<std::vector<int>> runIds; // the runs the bar stands for
    std::vector<ErrorBarItem::Bar> bars;
    QStringList labels;    // the bar set's name: the run's or group's label
    QStringList rowLabels; // one line of plain text: the horizontal chart's label
    QStringList hoverTexts;
    QString currency;    // Money: of every bar
    QStringList leftOut; // the footer's lines for the runs without the measure
};

// A run bar's look: its run's colour, hatched when not comparable with the baseline,
// cross-hatched when measured on a busy machine.
struct BarLook {
    int number = 0;
    bool flagged = false;
    bool contended = false;
    bool operator<(const BarLook &o) const {
        return std::tie(number, flagged, contended) < std::tie(o.number, o.flagged, o.contended);
    }
};

// The runs of `store` that are shown (not hidden in the chart).
int shownRunCount(const RunStore &store);

// The runs' (and groups', when `grouped`) bars of `measure` in store order: a group's bar where
// its first shown run is. `publishedBars`: the published rows drawn after them (they crowd the
// chart too, so the categories get compact sooner). `errorColour` colours the busy-machine and
// machine-speed lines of the categories.
SpeedBars speedBars(const RunStore &store, const QString &errorColour, int publishedBars,
                    BarMeasure measure, bool grouped);

// The published rows after the runs: their categories, bars (the mean written above them, no
// interval: none is published) and hover texts.
void appendPublished(SpeedBars &out, const PublishedBars &published);

// Appends the bar of `group` (two runs or more) to `out`: category "<label><br>n = 5 · 1.23x
// [1.10, 1.38]" (compact: "group 2<br>n = 5<br>1.23x"), and a hover that says what it shows and
// which runs. Seconds: the mean seconds per epoch with its interval over the runs and the
// min-max whisker; TimeToTarget: the runs' MLPerf score (RunGroup::target: "n = 5, 4 reached")
// with the whisker from the fastest to the slowest that reached it.
void appendGroupBar(SpeedBars &out, const RunStore &store, const RunGroup &group,
                    const QString &errorColour, bool compact, BarMeasure measure);

// The horizontal chart's order of the first `runBars` bars: from the bottom row up, bars
// without a value, then the slowest to the fastest (so the fastest is on top); the rows after
// them (published) stay where they are.
void sortRunBars(SpeedBars &out, int runBars);

} // namespace devicebench
