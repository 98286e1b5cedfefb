// SPDX-License-Identifier: MIT
// What the bar chart (SpeedChart, charts.h) measures: each run's stable mean seconds per epoch,
// its stable mean joules per epoch (summarizeEnergy, run_energy.h), its money per stable
// epoch (StoredRun::cost under the store's prices, cost.h), or, when the runs shown share one
// target accuracy, its time to that target (time_to_target.h) in place of seconds per epoch. A run
// without the chosen measure (no energy measured, no price, or free) gets no bar rather than a bar
// at zero: the chart's footer names it and says why (docs/DASHBOARD.md, "What the bars measure").
#pragma once

#include <QString>
#include <QStringList>

#include <limits>
#include <optional>
#include <vector>

namespace devicebench {

class RunStore;
struct StoredRun;

enum class BarMeasure {
    Seconds, // stable mean seconds per epoch, with its 95 % interval (the default)
    Joules,  // stable mean joules per epoch: the energy measured during the run
    Money,   // money per stable epoch at the store's prices
    // Seconds to the runs' one target accuracy (timeToTarget): not a choice of its own, what
    // Seconds shows when every run shown has that one target (shownMeasure).
    TimeToTarget,
};

// The target accuracy (percent) every run the store shows has, the same for all; nullopt when
// a shown run has none, two differ, or no run is shown.
std::optional<double> sharedTarget(const RunStore &store);
// What the bars show when `chosen` is picked: TimeToTarget in place of Seconds when the shown
// runs share a target (`shared`, sharedTarget's), else `chosen`.
BarMeasure shownMeasure(BarMeasure chosen, const std::optional<double> &shared);

// "seconds", "joules", "money" ("target" for TimeToTarget); parseBarMeasure reads the first
// three, the choices (false on anything else).
QString barMeasureName(BarMeasure measure);
bool parseBarMeasure(const QString &name, BarMeasure *measure);
// What the measure is, for people: "Seconds per epoch", "Joules per epoch", "Money per epoch",
// "Seconds to target".
QString barMeasureText(BarMeasure measure);

// One run under a measure.
struct MeasuredRun {
    int index = -1;                                          // in the store
    double value = std::numeric_limits<double>::quiet_NaN(); // in the measure's unit
    double low = std::numeric_limits<double>::quiet_NaN();   // 95 % interval (Seconds only)
    double high = std::numeric_limits<double>::quiet_NaN();
    QString currency; // Money: the run's currency ("" when its price names none)
    QString why;      // no value: why ("no energy measured: no RAPL counters", "no price for
                      // NVIDIA H200", "free at 0/h (cpu): ...")
    bool has() const { return value == value; }
};

// `run`'s value under `measure`. Seconds: its stable mean, 0 without one (the bar chart's
// "no stable epochs" bar, as it always drew). Joules and Money: NaN with `why` when it has none;
// a free run (a price of 0 per hour and no price per kWh) has none. TimeToTarget: its time to
// target, NaN with `why` ("50 % not reached in 10 epochs", "... not reached yet") when none.
MeasuredRun measureRun(const StoredRun &run, int index, BarMeasure measure);

// The runs the bar chart draws under `measure`: the store's shown runs that have it, in store
// order, and a footer line for each shown run left out. Money: the bars' currency is the first
// priced run's; a run priced in another currency is left out too (one axis, one currency).
struct MeasuredBars {
    std::vector<MeasuredRun> runs;
    QString currency;    // Money: of every bar
    QStringList leftOut; // "#3 Tesla T4 @ host: no bar: no energy measured (...)"
};
MeasuredBars measureBars(const RunStore &store, BarMeasure measure);

// The y axis's title: "seconds per epoch", "joules per epoch", "USD per epoch" ("money per
// epoch" without a currency), "seconds to 50 %"; the chart's title says "stable". `target`:
// percent, for TimeToTarget.
QString measureAxisTitle(BarMeasure measure, const QString &currency, double target = 0.0);
// The chart's titles, longest first (fittingTitle picks the one that fits).
QStringList measureTitles(BarMeasure measure, const QString &currency, double target = 0.0);
// A bar's value as written above it: "12.3 s" (Seconds and TimeToTarget), "850 J", "12.5 kJ",
// "0.00117 USD".
QString measureValueText(BarMeasure measure, double value, const QString &currency);
// The hover's lines of the value, first after the run's label: "stable mean 1.2 kJ per epoch
// (8 epochs, 9.6 kJ in all; rapl)" (Joules), costHoverText (Money), describeTarget
// (TimeToTarget); "" for Seconds (the hover has its own lines) and for a run without the
// measure.
QString measureHoverLine(const StoredRun &run, BarMeasure measure);
// The run's cost line (costLine, cost.h) for the hover: the figures wrapped at their commas,
// then what they rest on, on a line of its own, a long source cut short with "…".
QString costHoverText(const StoredRun &run);
// The footer's line for published rows left out (they publish seconds only); "" for Seconds.
QString publishedLeftOutLine(BarMeasure measure, int rows);

} // namespace devicebench
