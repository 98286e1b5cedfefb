// SPDX-License-Identifier: MIT
// Where the time goes: a stacked bar per phase-timed run (RunConfig::phases), as a QChart that
// syncs itself from a RunStore. The charts panel shows it beside the stable-mean bars while any run
// is phase-timed, and the comparison PNG draws it beside them then (comparison_export.h).
#pragma once

#include <QChart>
#include <QString>
#include <QStringList>

#include <array>
#include <vector>

class QBarCategoryAxis;
class QBarSet;
class QStackedBarSeries;
class QValueAxis;

namespace devicebench {

class ChartHoverLabel;
class PhaseShareItem;
class RunStore;

// One bar per run of the store that is phase-timed (record.config.phases) and not hidden
// (RunStore::isRunHidden), in store order from the left. Its six segments, bottom to top, are
// the mean seconds per stable epoch (the store's warm-up setting) of data, forward, loss,
// backward, optimizer and test (stablePhaseMean, devicebench/phase_summary.h), in the phase
// colours (theme::phaseColour), named in the legend. A segment big enough for it shows its
// share of the bar ("31%"); the category label gives the run and the bar's total; pointing at a
// bar shows each phase's seconds and share. A phase-timed run without a phase-timed stable
// epoch (yet) has an empty bar and says so. The title is the longest of four that fits the
// chart's width (fittingTitle). Animations off; call sync() from a coalescing timer.
class PhaseChart : public QChart {
    Q_OBJECT

public:
    explicit PhaseChart(QGraphicsItem *parent = nullptr);

    void sync(const RunStore &store);

    // True when any run in `store` (hidden or not) is phase-timed: the chart is worth showing.
    static bool anyPhaseTimed(const RunStore &store);

    // For tests: the bars, in store order (bar 0 is the left one): each run's label and its six
    // segments' seconds in phaseFields() order.
    int barCount() const { return static_cast<int>(m_segments.size()); }
    QStringList runLabels() const { return m_labels; }
    std::vector<double> segmentValues(int bar) const;
    // The legend's names, in segment order.
    QStringList phaseNames() const;

    // The hover text of bar `bar` ("" when out of range); showHover() shows it at that bar
    // (what pointing at it does), hideHover() hides it, shownHover() is the text shown.
    QString hoverText(int bar) const;
    void showHover(int bar);
    void hideHover();
    QString shownHover() const;

private:
    void colourSets(); // each phase's colour, if a chart theme set since has changed it
    void fitTitle();

    std::vector<std::array<double, 6>> m_segments; // per bar, store order
    QStringList m_labels;                          // per bar: the run label
    QStringList m_categories;                      // per bar, store order (rich text)
    QStringList m_hoverTexts;                      // per bar
    std::vector<int> m_numbers;                    // per bar: run number (hover accent)
    QStackedBarSeries *m_series = nullptr;
    std::array<QBarSet *, 6> m_sets{};
    QBarCategoryAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    PhaseShareItem *m_shares = nullptr;
    ChartHoverLabel *m_hover = nullptr;
};

} // namespace devicebench
