// SPDX-License-Identifier: MIT
// The two comparison charts, as QChart subclasses that sync themselves from a RunStore
// (LossChart in loss_chart.cpp and loss_chart_range.cpp, SpeedChart in speed_chart.cpp).
// The dashboard shows them in QChartViews; the PNG export builds fresh ones and renders them
// without any window. Both are fed with QXYSeries::replace() / one rebuild per sync, with
// animations off; call sync() from a coalescing timer, not per event.
#pragma once

#include "charts/bar_measure.h"
#include "charts/chart_math.h"
#include "charts/zoomable_chart.h"

#include <QChart>
#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

class QBarCategoryAxis;
class QBarSet;
class QAbstractBarSeries;
class QAreaSeries;
class QHorizontalStackedBarSeries;
class QStackedBarSeries;
class QLineSeries;
class QScatterSeries;
class QXYSeries;
class QLogValueAxis;
class QAbstractAxis;
class QAbstractSeries;
class QValueAxis;

namespace devicebench {

class RunStore;
struct RunGroup;
struct RunRecord;
struct StoredRun;

// Most points drawn per run and series; the store keeps every point.
inline constexpr int kMaxDrawnPoints = 2000;

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

// How the loss chart draws (the window's controls above it; the PNG export takes the window's).
enum class XAxisMode {
    Steps,   // global training step (1, 2, ...)
    Epochs,  // step / steps per epoch, so x runs over [0, epochs]
    Seconds, // wall-clock seconds of the run's clock (TimedStepLoss::seconds: since the record
             // was made, data loading included): a faster device's curve ends earlier
};
// "steps", "epochs", "time"; parseXAxisMode reads those (false on anything else).
QString xAxisModeName(XAxisMode mode);
bool parseXAxisMode(const QString &name, XAxisMode *mode);

struct ChartOptions {
    double smoothing = kDefaultSmoothing; // debiased EMA weight, 0..0.99 (chart_math.h)
    XAxisMode xAxis = XAxisMode::Epochs;
    bool logScale = false; // loss axis logarithmic (base 10)
    // What the bar chart measures (bar_measure.h; the control above it).
    BarMeasure barMeasure = BarMeasure::Seconds;
    // Repeated runs (RunStore::groups) one by one, as bars and curves of their own, instead of
    // one bar per group and one mean curve with a band (the default).
    bool runsOneByOne = false;
};

class ChartHoverLabel;

// Loss chart. x: steps, epochs or seconds (ChartOptions::xAxis); y = loss in nats, linear or
// log. Per run, in the run's colour (theme::runColour(run number): that of its bar and its
// epoch-table rows too): the training loss per step as a line, smoothed with the debiased EMA
// of ChartOptions::smoothing (smoothDebiasedEma) with the raw steps drawn faint behind it (no
// raw line when smoothing is 0), and the test loss per epoch as dots on a dashed line (at the
// epoch's end). The legend names each run (label = run and device); a run whose training curve
// coincides with an earlier shown run's (findCoincidingCurves, kCoincidenceFraction) is
// drawn dashed over it and its legend says "identical to #n". The test dot of an epoch whose
// machine changed speed (EpochResult::speedChanged, machine_drift.h) is ringed in the error
// colour, and the hover over it or that epoch's steps says "machine speed changed (canary
// +22 %)". Smoothing changes only what is
// drawn: the store keeps every raw step. Non-finite losses are not drawn and never widen the
// axes.
//
// Repeated runs (RunStore::groups: two runs or more of one configuration on one machine) are
// one curve unless ChartOptions::runsOneByOne: the mean over the runs of their (smoothed)
// training loss at each step, in the first run's colour, with a band from the lowest to the
// highest run at that step (min-max, not an interval) and the mean test loss per epoch; the
// legend says "n = 5, mean, band min-max". Its hover is the mean's. A group whose runs are all
// hidden is not drawn. Beyond kMaxLegendEntries entries the legend lists the first ones by
// name and "... and N more".
//
// Runs the store marks hidden (RunStore::isRunHidden) are not drawn; their legend entry stays,
// faded, and clicking a legend entry emits runVisibilityToggled (ZoomableChart, as the System
// view does). Zoom and pan (the view's wheel and rubber band, or setXRange()) change the axes; a
// range the user set is kept across later sync() calls (live updates) until resetView(). Each sync
// and each change of the x range draws the points of the visible x range (decimateVisible, at most
// kMaxDrawnPoints per series), so a zoomed-in region shows every step.
class LossChart : public ZoomableChart {
    Q_OBJECT

public:
    // Two runs' curves count as one when no step loss differs by more than this fraction of
    // the shown runs' loss range (a thousandth of the axis: under a pixel on any screen), or
    // kCoincidenceFloor nats when that is larger.
    static constexpr double kCoincidenceFraction = 1e-3;
    static constexpr double kCoincidenceFloor = 1e-6;
    // Most entries the legend lists: beyond that, the first kMaxLegendEntries - 1 by name and
    // "... and N more".
    static constexpr int kMaxLegendEntries = 8;

    explicit LossChart(QGraphicsItem *parent = nullptr);

    // Call sync() afterwards: the points are rebuilt there. A change of x axis resets the view.
    void setOptions(const ChartOptions &options);
    const ChartOptions &options() const { return m_options; }

    // Brings series and axes up to date with `store` (adds/removes runs, replaces points).
    void sync(const RunStore &store);

    // The view: x range in the x axis's unit; the y axis fits the points in it. Marks the view
    // as the user's (kept by sync()).
    void setXRange(double min, double max) override;
    // Back to the whole of every run (and the y range that fits it).
    void resetView() override;

    // Hover: the label for the step of run `runId` nearest to x (axis unit), shown at that
    // point; "" and nothing shown when the run has no drawn step. hoverText() is what the label
    // shows (empty while none is shown).
    QString showHover(int runId, double x);
    // The same for global step `step` of the run (the drawn step nearest to it).
    QString showHoverAtStep(int runId, std::int64_t step);
    void hideHover() override;
    QString hoverText() const;

    // For tests and the export; nullptr when the run is not in the chart. trainSeries: the
    // drawn training line (smoothed); rawSeries: the raw steps behind it.
    QLineSeries *trainSeries(int runId) const;
    QLineSeries *rawSeries(int runId) const;
    QLineSeries *testSeries(int runId) const;
    // The rings over the test dots of the epochs whose machine changed speed.
    QScatterSeries *speedChangedSeries(int runId) const;
    QValueAxis *yAxis() const { return m_axisY; }      // the linear loss axis
    QLogValueAxis *logYAxis() const { return m_logY; } // the log one (attached when logScale)
    // Run number of the earlier run run `runId`'s curve coincides with; 0 when none.
    int identicalTo(int runId) const;
    // The group run `runId` is drawn in (not one by one): its mean curve, its min-max band
    // (whose upper and lower series are the highest and lowest run at each step) and the
    // number of runs; nullptr and 0 when the run is drawn on its own or not at all.
    QLineSeries *groupMeanSeries(int runId) const;
    QAreaSeries *groupBandSeries(int runId) const;
    int groupRunCount(int runId) const;
    // The legend's entries listed, in order (the last may end "... and N more").
    QStringList legendLabels() const;

private:
    void userRangeChanged() override { redecimate(); }

    struct RunSeries {
        QLineSeries *raw = nullptr;
        QLineSeries *train = nullptr;
        QLineSeries *test = nullptr;
        QScatterSeries *speed = nullptr; // rings over the flagged epochs' test dots
        int number = 0;
        std::size_t builtSteps = static_cast<std::size_t>(-1);
        std::size_t builtEpochs = static_cast<std::size_t>(-1);
        int builtGeneration = -1;    // m_generation the points were built for
        QList<QPointF> rawPoints;    // finite steps, x in the axis unit
        QList<QPointF> smoothPoints; // smoothDebiasedEma of rawPoints' y
        QList<QPointF> testPoints;
        QList<QPointF> speedPoints;          // the test points of flagged epochs
        std::map<int, double> speedChangeOf; // flagged epoch -> its canary change
        std::vector<double> losses;          // every step's loss, in order (coincidence)
        std::vector<std::int64_t> stepOf;    // per rawPoints entry
        std::vector<int> epochOf;            // per rawPoints entry
        ValueRange rawRange, smoothRange, testRange;
        double xEnd = 0.0; // the run's x extent (configured epochs, or the last point)
        bool hidden = false;
        int identicalTo = 0; // run number, 0: none
        QString label;
        // What the series hold now (redecimate() replaces them only when this differs).
        double drawnMin = 0.0, drawnMax = -1.0;
        std::size_t drawnSteps = static_cast<std::size_t>(-1);
        int drawnGeneration = -1;
    };

    // A group of repeated runs drawn as one (loss_chart_groups.cpp).
    struct GroupSeries {
        QLineSeries *mean = nullptr;  // its legend entry
        QLineSeries *lower = nullptr; // the band's edges, not on the chart themselves
        QLineSeries *upper = nullptr;
        QAreaSeries *band = nullptr;
        QLineSeries *test = nullptr; // mean test loss per epoch
        int number = 0;              // its first run's: the colour
        int runs = 0;
        QString label;
        std::vector<std::size_t> built; // steps and epochs per run the points were built for
        int builtGeneration = -1;
        QList<QPointF> meanPoints, lowerPoints, upperPoints, testPoints;
        double xEnd = 0.0;
        bool hidden = false; // every run of it hidden
    };

    // The run's series: raw, train, test and the speed-change rings.
    static std::vector<QXYSeries *> seriesOf(const RunSeries &entry);
    // Groups: which runs are drawn in one (not runsOneByOne), their series built and styled;
    // returns the ids of the runs drawn in a group. Then the legend's cap.
    std::vector<int> syncGroups(const RunStore &store);
    void addGroupSeries(GroupSeries &group);
    void removeGroupSeries(GroupSeries &group);
    void buildGroup(GroupSeries &entry, const RunStore &store, const RunGroup &group);
    void styleGroup(GroupSeries &entry);
    // At most kMaxLegendEntries of `entries` (the series with a legend entry, in order) listed.
    void capLegend(const std::vector<QAbstractSeries *> &entries);
    // The series of runs no longer in it, or drawn in a group (`inGroups`, ids).
    void dropRemovedRuns(const RunStore &store, const std::vector<int> &inGroups);
    void addRunSeries(RunSeries &entry, int runId); // raw, train and test, on the axes
    // Every run's raw steps under every run's lines (after a run was added).
    void putLinesOverRaw(const std::vector<RunSeries *> &order, const std::vector<int> &ids);
    // Each run's identicalTo: the earlier shown run its curve coincides with.
    void markIdentical(const std::vector<RunSeries *> &order,
                       const std::vector<const std::vector<double> *> &curves);
    void build(RunSeries &entry, const StoredRun &run);
    void buildStepPoints(RunSeries &entry, const RunRecord &record, double perEpoch);
    void buildTestPoints(RunSeries &entry, const RunRecord &record, double perEpoch);
    void style(RunSeries &entry);             // pens, names, visibility, then styleLegend
    void styleSpeedRings(RunSeries &entry);   // the speed-change rings' pen and name
    void styleLegend(const RunSeries &entry); // the run's one legend entry, faded when hidden
    void redecimate();                        // the visible range's points into the series
    void applyRange(double xMin, double xMax, double yMin, double yMax);
    void fitY(double xMin, double xMax, double *yMin, double *yMax) const;
    QAbstractAxis *activeYAxis() const;
    void updateTitle();

    ChartOptions m_options;
    int m_generation = 0; // bumped when the options change how points are built
    QValueAxis *m_axisY;
    QLogValueAxis *m_logY;
    ChartHoverLabel *m_hover;
    std::map<int, RunSeries> m_series;   // by run id
    std::map<int, GroupSeries> m_groups; // by the id of the group's first run
    std::map<int, int> m_groupOfRun;     // run id -> key in m_groups
    QStringList m_legendShown;           // the legend's entries listed (capLegend)
    double m_autoXMax = 1.0;
};

class BarLabelsItem;
class CategoryLabelsItem;
class ErrorBarItem;
class PublishedLegendItem;
struct SpeedBars;

// Bar chart of each run's stable mean seconds per epoch (epochs after warm-up, the store's
// warm-up setting), with the 95% interval of the mean drawn as an error bar and the mean
// written above it. Category label (rich text, two lines joined by <br>): the run label
// ("#1 CPU x1 @ host"), then the speed-up against the store's baseline with its interval
// ("2.31x [2.20, 2.43]"), "baseline", or, in red, "not comparable: <fields>" for a run whose
// workload differs from the baseline's (its bar is hatched); runs without a stable mean get a 0
// bar and the note "no stable epochs". Each bar has its run's colour
// (theme::runColour(run number)), the colour of the run's loss curves. A run with stable
// epochs measured on a busy machine (EpochLoad::contended, contention.h) has its bar
// cross-hatched and a third line in red, "⚠ busy machine: epochs 4, 7 contended". Runs the store
// marks hidden have no bar. Pointing at a bar shows a label with the run's stable mean,
// interval, epochs and speed-up (hoverText(index) gives it). The title is the longest of three
// that fits the chart's width (fittingTitle). After the runs, while the store shows them
// (RunStore::publishedShown), the published rows (published_bars.h): hatched, outlined bars in
// the text colour, one legend entry per source program (the legend shows only those).
//
// setMeasure() makes the bars joules or money per stable epoch instead (bar_measure.h): the
// axis title, the chart's title, the value above each bar and the hover say the unit; no error
// bars (no interval is derived for them); the speed-ups under the bars stay speed-ups of time
// ("speed-up 2.31x"); the runs without that measure and the published rows get no bar, and
// the footer (under the axis, where the published legend is) names them and says why. Every
// hover ends with the run's cost line (costLine, cost.h).
//
// Repeated runs (RunStore::groups, run_groups.h) are one bar per group under Seconds, unless
// setRunsOneByOne(true): the mean of the runs' stable means, the 95 % interval over the runs as
// the error bar, the fastest and slowest run as a thin whisker, "n = 5" in the label, and the
// speed-up against the baseline group with its interval (groupSpeedUp); the hover says all of
// it and which runs. A group of one run is drawn as a run (its speed-up the group's). Joules and
// money show the runs one by one (a footer line says so). The vertical bars' labels are
// word-wrapped within their bar's category (CategoryLabelsItem), never hidden. Beyond
// barsThatFit() bars (the chart's width over kMinBarWidth), or where a label would need more
// than CategoryLabelsItem::kMaxLines lines, the bars turn horizontal, sorted with the fastest
// (smallest value) on top, each labelled on one line left of it (BarLabelsItem: elided, and
// only every k-th where rows are thinner than a line, so that labels never overlap; at
// neededHeight() every row has a line). Pointing at a label shows its bar's hover. The
// footer's lines wrap within the chart.
class SpeedChart : public QChart {
    Q_OBJECT

public:
    // The narrowest a vertical bar may be, its compact label included (pixels).
    static constexpr double kMinBarWidth = 64.0;

    explicit SpeedChart(QGraphicsItem *parent = nullptr);

    void sync(const RunStore &store);

    // Repeated runs one by one (true) or one bar per group (false, the default); call sync().
    void setRunsOneByOne(bool oneByOne);
    bool runsOneByOne() const { return m_runsOneByOne; }
    // How many vertical bars fit the chart's width (at least 3; any number while the chart has
    // no width yet); more are drawn horizontal.
    int barsThatFit() const;
    bool horizontal() const { return m_horizontal; }
    // The runs (ids) bar `index` stands for: one for a run, several for a group.
    std::vector<int> runsOfBar(int index) const;
    // Horizontal: the labels drawn left of the bars, and their rectangles (chart coordinates,
    // never overlapping); empty when vertical.
    QStringList rowLabels() const;
    QList<QRectF> rowLabelRects() const;
    // Either orientation: the labels drawn (plain text) and their rectangles (chart
    // coordinates), and the footer's (legend rows and lines).
    QStringList barLabels() const;
    QList<QRectF> barLabelRects() const;
    QList<QRectF> footerRects() const;
    // The least height (pixels) at which every horizontal row has a line of text, or the
    // vertical plot area keeps kMinPlotHeight, at the chart's width and layout.
    int neededHeight() const;
    static constexpr double kMinPlotHeight = 120.0;

    // The measure of the bars (Seconds by default); call sync() afterwards. The bars drawn
    // (drawnMeasure) show time to target in place of Seconds when the runs shown share one
    // (shownMeasure, bar_measure.h).
    void setMeasure(BarMeasure measure);
    BarMeasure measure() const { return m_measure; }
    BarMeasure drawnMeasure() const { return m_builtMeasure; }
    // The footer's lines: the two programs' ratio (Seconds), then a line per run left out
    // ("#2 CPU x1 @ host: no bar: no energy measured ...") and one for the published rows.
    QStringList footerLines() const;
    // The bar of run `runId` (its index for hoverText and showHover; its group's bar when it is
    // drawn as one); -1 when it has none.
    int barOfRun(int runId) const;

    // For tests: the bar values (seconds, 0 when no stable mean; or in the measure's unit) in
    // category order (horizontal: from the bottom row up),
    // category labels, and the error bars drawn (one per run with a known interval: {low,
    // high} seconds).
    std::vector<double> barValues() const { return m_values; }
    QStringList categories() const { return m_categories; }
    std::vector<std::pair<double, double>> errorBars() const;
    // For tests: the fill colour of bar `index` (store order; invalid QColor when out of range),
    // and whether it is hatched (the run is not comparable with the baseline).
    QColor barColour(int index) const;
    bool barHatched(int index) const;
    // For tests: whether bar `index` is cross-hatched (the run has contended stable epochs).
    bool barCrossHatched(int index) const;

    // For tests: the published rows drawn after the runs' bars (RunStore::publishedRows, in
    // order; published_bars.h), and the bar set of published group `group` (one per source
    // program, named by its legend entry); nullptr when there is none.
    int publishedBarCount() const;
    QBarSet *publishedBarSet(int group) const;
    // The legend entries drawn (one per published bar set; the runs' bars have none).
    QStringList legendEntries() const;

    // The hover text of bar `index` ("" when out of range); showHover() shows it at that bar
    // (what pointing at it does), hideHover() hides it, shownHover() is the text shown.
    QString hoverText(int index) const;
    void showHover(int index);
    void hideHover();
    QString shownHover() const;

private:
    void colourBars(); // sets each bar's brush and border from its run's colour, if they differ
    void fitTitle();   // the title that fits the chart's width
    QColor publishedInk() const; // the published bars' colour: the chart's text colour
    // New bar sets and categories from m_values, m_categories and the error bars.
    void rebuildBars(const QStringList &labels);
    // Horizontal: one bar set per look (colour and hatching), not one per bar: with hundreds of
    // bars, a set per bar would be bars x bars rectangles.
    void buildSharedSets(const QStringList &labels);
    void setHorizontal(bool horizontal); // swaps the series and axes shown
    QBarSet *runBarSet(int index) const; // the set run bar `index` is drawn in
    void fitLabelColumn();               // the chart's left margin holds the row labels
    void fitLabelRoom(); // the bottom margin holds the vertical labels (setSpaceAbove)
    // Whether `count` bars with the vertical `categories` need the horizontal chart.
    bool wantsHorizontal(int count, const QStringList &categories) const;
    QAbstractBarSeries *activeSeries() const;
    SpeedBars nextBars(const RunStore &store, const QString &errorColour,
                       const QStringList &publishedCategories, BarMeasure measure);

    QStringList m_categories;
    std::vector<double> m_values;
    std::vector<bool> m_flagged;
    std::vector<bool> m_contended;           // the run has contended stable epochs (a busy machine)
    std::vector<int> m_numbers;              // run numbers, which give the bars' colours
    std::vector<std::vector<int>> m_barRuns; // per run bar: the ids of the runs it stands for
    std::vector<int> m_setOfBar; // per run bar: its bar set (one each, or shared: horizontal)
    int m_runSets = 0;           // the runs' bar sets, before the published ones
    QStringList m_rowLabelTexts; // per bar, one line: the horizontal chart's labels
    bool m_runsOneByOne = false;
    bool m_horizontal = false;
    const RunStore *m_store = nullptr; // of the last sync: a resize may change the orientation
    BarMeasure m_measure = BarMeasure::Seconds;
    BarMeasure m_builtMeasure = BarMeasure::Seconds; // the measure the bars were built for
    QString m_currency;                              // Money: the bars' currency
    double m_target = 0.0;                           // TimeToTarget: the runs' target, percent
    std::vector<int> m_publishedGroups; // per published bar (after the runs'): its bar set
    QStringList m_publishedNames;       // the published bar sets' legend entries
    QStringList m_hoverTexts;           // per bar
    ChartHoverLabel *m_hover = nullptr;
    QStackedBarSeries *m_series = nullptr;
    QHorizontalStackedBarSeries *m_hSeries = nullptr;
    ErrorBarItem *m_errorBars = nullptr;
    BarLabelsItem *m_rowLabels = nullptr;
    CategoryLabelsItem *m_columnLabels = nullptr; // vertical: under the bars
    PublishedLegendItem *m_publishedLegend = nullptr;
    QBarCategoryAxis *m_axisX = nullptr;
    QValueAxis *m_axisY = nullptr;
    QBarCategoryAxis *m_hAxisRows = nullptr; // horizontal: the categories (labels drawn by
                                             // m_rowLabels), on the left
    QValueAxis *m_hAxisValue = nullptr;      // horizontal: the measure, at the bottom
    int m_leftMargin = 0;                    // the chart's own, without the label column
};

} // namespace devicebench
