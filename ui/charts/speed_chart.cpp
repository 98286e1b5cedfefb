// SPDX-License-Identifier: MIT
// SpeedChart (charts.h): the bar chart of stable mean seconds per epoch, with error bars, or of
// another measure (bar_measure.h).
#include "charts/charts.h"

#include "charts/bar_labels.h"
#include "charts/category_labels.h"
#include "charts/chart_items.h"
#include "charts/error_bars.h"
#include "charts/published_bars.h"
#include "charts/speed_bars.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/contention.h"
#include "devicebench/machine_drift.h"
#include "devicebench/machine_speed.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBrush>
#include <QHorizontalStackedBarSeries>
#include <QStackedBarSeries>
#include <QTextDocumentFragment>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace devicebench {

SpeedChart::SpeedChart(QGraphicsItem *parent)
    : QChart(parent), m_series(new QStackedBarSeries(this)),
      m_hSeries(new QHorizontalStackedBarSeries(this)), m_axisX(new QBarCategoryAxis(this)),
      m_axisY(new QValueAxis(this)), m_hAxisRows(new QBarCategoryAxis(this)),
      m_hAxisValue(new QValueAxis(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleChartTitle(this, QString(), 1.0);
    fitTitle();
    legend()->setVisible(false);
    m_leftMargin = margins().left();
    m_axisY->setTitleText(QStringLiteral("seconds per epoch"));
    m_axisY->setLabelFormat(QStringLiteral("%.1f"));
    m_axisY->setRange(0.0, 1.0);
    // Both orientations are on the chart from the start (so a chart theme styles all four
    // axes); the horizontal one is hidden until there are more bars than fit.
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisY, Qt::AlignLeft);
    addAxis(m_hAxisValue, Qt::AlignBottom);
    addAxis(m_hAxisRows, Qt::AlignLeft);
    m_hAxisRows->setLabelsVisible(false); // m_rowLabels draws them, elided, never overlapping
    m_axisX->setLabelsVisible(false);     // m_columnLabels draws them, wrapped, never hidden
    m_hAxisRows->setGridLineVisible(false);
    // The means are written beside the error bars. Only the orientation in use is on the
    // chart (setHorizontal): two bar series share each category's width.
    m_series->setLabelsVisible(false);
    m_hSeries->setLabelsVisible(false);
    m_errorBars = new ErrorBarItem(this, m_series);
    const auto hoverBar = [this](int index) { // pointing at a bar's label
        if (index >= 0)
            showHover(index);
        else
            hideHover();
    };
    m_rowLabels = new BarLabelsItem(this, m_hSeries, hoverBar);
    m_columnLabels = new CategoryLabelsItem(this, m_series, hoverBar);
    m_publishedLegend = new PublishedLegendItem(this);
    setHorizontal(false);
    connect(this, &QChart::plotAreaChanged, this, [this] {
        m_errorBars->geometryChanged();
        m_rowLabels->geometryChanged();
        m_columnLabels->geometryChanged();
        fitLabelRoom();
        m_publishedLegend->geometryChanged();
    });
    connect(this, &QGraphicsWidget::geometryChanged, this, [this] {
        fitTitle();
        fitLabelColumn();
        // A width that holds another number of bars, or wraps their labels to other
        // heights, may need the other orientation.
        if (m_store != nullptr &&
            wantsHorizontal(static_cast<int>(m_values.size()), m_categories) != m_horizontal)
            sync(*m_store);
    });
    m_hover = new ChartHoverLabel(this);
    for (QAbstractBarSeries *series : {static_cast<QAbstractBarSeries *>(m_series),
                                       static_cast<QAbstractBarSeries *>(m_hSeries)})
        connect(series, &QAbstractBarSeries::hovered, this,
                [this](bool on, int category, QBarSet *) {
                    if (on && category >= 0)
                        showHover(category); // every set holds one bar per category at most
                    else
                        hideHover();
                });
}

void SpeedChart::setRunsOneByOne(bool oneByOne) {
    if (oneByOne == m_runsOneByOne)
        return;
    m_runsOneByOne = oneByOne;
    hideHover();
}

std::vector<int> SpeedChart::runsOfBar(int index) const {
    return index >= 0 && index < static_cast<int>(m_barRuns.size())
               ? m_barRuns[static_cast<std::size_t>(index)]
               : std::vector<int>();
}

void SpeedChart::fitTitle() {
    // The long title where it fits; a shorter one at 200 % scale or in a narrow pane rather
    // than an elided one.
    const QStringList titles = measureTitles(m_builtMeasure, m_currency, m_target);
    const QMarginsF m = margins();
    const QString title =
        fittingTitle(titles, titleFont(), size().width() - m.left() - m.right() - 8.0);
    if (title != this->title())
        setTitle(title);
}

QString SpeedChart::hoverText(int index) const {
    return index >= 0 && index < m_hoverTexts.size() ? m_hoverTexts[index] : QString();
}

void SpeedChart::showHover(int index) {
    if (index < 0 || index >= m_hoverTexts.size()) {
        hideHover();
        return;
    }
    const auto at = static_cast<std::size_t>(index);
    const QPointF anchor = mapToPosition(
        m_horizontal ? QPointF(m_values[at], index) : QPointF(index, m_values[at]), activeSeries());
    m_hover->show(m_hoverTexts[index], anchor,
                  at < m_numbers.size() ? theme::runColour(m_numbers[at]) : publishedInk());
}

void SpeedChart::hideHover() { m_hover->hide(); }

QString SpeedChart::shownHover() const { return m_hover->text(); }

namespace {

void applyLook(QBarSet *set, const BarLook &look) {
    const QColor colour = theme::runColour(look.number);
    const QBrush brush(colour, look.contended ? Qt::DiagCrossPattern
                               : look.flagged ? Qt::BDiagPattern
                                              : Qt::SolidPattern);
    if (set->brush() != brush)
        set->setBrush(brush);
    const QColor border = look.flagged || look.contended ? colour : colour.darker(130);
    if (set->borderColor() != border)
        set->setBorderColor(border);
}

} // namespace

QBarSet *SpeedChart::runBarSet(int index) const {
    const QList<QBarSet *> sets = activeSeries()->barSets();
    if (index < 0 || index >= static_cast<int>(m_setOfBar.size()))
        return nullptr;
    const int set = m_setOfBar[static_cast<std::size_t>(index)];
    return set < sets.size() ? sets[set] : nullptr;
}

QColor SpeedChart::barColour(int index) const {
    const QBarSet *set = runBarSet(index);
    if (set == nullptr)
        return {}; // invalid when out of range
    return set->brush().color();
}

bool SpeedChart::barHatched(int index) const {
    const QBarSet *set = runBarSet(index);
    return set != nullptr && set->brush().style() != Qt::SolidPattern;
}

bool SpeedChart::barCrossHatched(int index) const {
    const QBarSet *set = runBarSet(index);
    return set != nullptr && set->brush().style() == Qt::DiagCrossPattern;
}

void SpeedChart::colourBars() {
    // Comparable runs: a solid bar in the run's colour. Runs whose workload differs from the
    // baseline's: hatched in the run's colour, outlined. Each set takes the look of its first
    // bar (a shared set holds bars of one look).
    const QList<QBarSet *> sets = activeSeries()->barSets();
    std::vector<bool> done(static_cast<std::size_t>(sets.size()), false);
    for (std::size_t i = 0; i < m_setOfBar.size(); ++i) {
        const auto set = static_cast<std::size_t>(m_setOfBar[i]);
        if (set >= done.size() || done[set])
            continue;
        done[set] = true;
        applyLook(sets[static_cast<qsizetype>(set)],
                  {m_numbers[i], m_flagged[i], i < m_contended.size() && m_contended[i]});
    }
    // The published rows' sets, after the runs' (published_bars.h).
    for (auto i = static_cast<qsizetype>(m_runSets); i < sets.size(); ++i)
        stylePublishedSet(sets[i], publishedInk());
}

std::vector<std::pair<double, double>> SpeedChart::errorBars() const {
    std::vector<std::pair<double, double>> bars;
    for (const ErrorBarItem::Bar &bar : m_errorBars->bars()) {
        if (bar.mean > 0.0 && std::isfinite(bar.low) && std::isfinite(bar.high))
            bars.emplace_back(bar.low, bar.high);
    }
    return bars;
}

namespace {

// The decimals a tick step of `tick` needs (the money axis: 0.0000x per epoch).
int labelDecimals(double tick) {
    return tick >= 1.0 ? 0 : std::clamp(static_cast<int>(std::ceil(-std::log10(tick))), 1, 9);
}

} // namespace

void SpeedChart::setMeasure(BarMeasure measure) {
    if (measure == m_measure)
        return;
    m_measure = measure;
    hideHover();
}

QStringList SpeedChart::footerLines() const { return m_publishedLegend->lines(); }

int SpeedChart::barOfRun(int runId) const {
    for (std::size_t i = 0; i < m_barRuns.size(); ++i)
        if (std::find(m_barRuns[i].begin(), m_barRuns[i].end(), runId) != m_barRuns[i].end())
            return static_cast<int>(i);
    return -1;
}

SpeedBars SpeedChart::nextBars(const RunStore &store, const QString &errorColour,
                               const QStringList &publishedCategories, BarMeasure measure) {
    const auto publishedBars = static_cast<int>(publishedCategories.size());
    SpeedBars next = speedBars(store, errorColour, publishedBars, measure, !m_runsOneByOne);
    const auto runBars = static_cast<int>(next.values.size());
    const bool horizontal =
        wantsHorizontal(runBars + publishedBars, next.categories + publishedCategories);
    if (horizontal)
        sortRunBars(next, runBars);
    if (horizontal != m_horizontal) {
        m_categories.clear(); // rebuild in the other series
        setHorizontal(horizontal);
    }
    return next;
}

void SpeedChart::sync(const RunStore &store) {
    m_store = &store;
    const QString errorColour = theme::colourName(theme::Role::ErrorText, theme::themeOf(*this));
    PublishedBars published = publishedBars(store, shownRunCount(store), errorColour);
    // Seconds per epoch, or time to the runs' one target in its place.
    const std::optional<double> shared = sharedTarget(store);
    const BarMeasure measure = shownMeasure(m_measure, shared);
    const double target = shared.value_or(0.0);
    // The published rows publish seconds only: under another measure, a footer line instead.
    const QString publishedLeftOut =
        publishedLeftOutLine(measure, static_cast<int>(published.values.size()));
    if (measure != BarMeasure::Seconds)
        published = PublishedBars();
    SpeedBars next = nextBars(store, errorColour, published.categories, measure);
    m_rowLabelTexts = next.rowLabels;
    for (const QString &category : published.categories) // one line of plain text each
        m_rowLabelTexts.append(QTextDocumentFragment::fromHtml(category)
                                   .toPlainText()
                                   .replace(QChar::LineSeparator, QLatin1Char(' '))
                                   .replace(QLatin1Char('\n'), QLatin1Char(' ')));
    appendPublished(next, published);
    m_hoverTexts = next.hoverTexts;
    // The two programs' ratio under the legend entries (published_bars.h), while bars show;
    // then the runs and rows the measure leaves out.
    QStringList footer = next.values.empty() ? QStringList() : published.ratioLines;
    footer.append(next.leftOut);
    if (!publishedLeftOut.isEmpty())
        footer.append(publishedLeftOut);
    m_publishedLegend->setLines(footer);
    m_errorBars->setBars(std::move(next.bars)); // repaints only when a bar changed
    m_barRuns = next.runIds;
    if (next.categories == m_categories && next.values == m_values && next.flagged == m_flagged &&
        next.contended == m_contended && next.numbers == m_numbers &&
        published.group == m_publishedGroups && published.legendNames == m_publishedNames &&
        measure == m_builtMeasure && next.currency == m_currency && target == m_target) {
        colourBars(); // only if a chart theme set since has recoloured them
        return;       // nothing new: keep the bars as they are
    }
    m_builtMeasure = measure;
    m_currency = next.currency;
    m_target = target;
    m_axisY->setTitleText(measureAxisTitle(measure, m_currency, m_target));
    m_hAxisValue->setTitleText(m_axisY->titleText());
    fitTitle();
    m_categories = next.categories;
    m_values = next.values;
    m_flagged = next.flagged;
    m_contended = next.contended;
    m_numbers = next.numbers;
    m_publishedGroups = published.group;
    m_publishedNames = published.legendNames;
    rebuildBars(next.labels);
}

void SpeedChart::rebuildBars(const QStringList &labels) {
    m_series->clear();
    m_hSeries->clear();
    m_axisX->clear();
    m_hAxisRows->clear();
    m_setOfBar.clear();
    m_runSets = 0;
    m_rowLabels->setLabels(m_horizontal ? m_rowLabelTexts : QStringList());
    m_columnLabels->setLabels(m_horizontal ? QStringList() : m_categories);
    fitLabelColumn();
    fitLabelRoom();
    if (m_values.empty()) {
        m_publishedLegend->setNames({});
        setZeroBasedNiceAxis(m_axisY, 1.0); // its labels 0.0 to 1.0, not 0, 0, 1, 1, 1
        setZeroBasedNiceAxis(m_hAxisValue, 1.0);
        return;
    }
    const std::vector<ErrorBarItem::Bar> &bars = m_errorBars->bars();
    double top = 0.0;
    for (std::size_t i = 0; i < m_values.size(); ++i) {
        top = std::max(top, m_values[i]);
        if (i < bars.size() && std::isfinite(bars[i].high))
            top = std::max(top, bars[i].high);
        if (i < bars.size() && std::isfinite(bars[i].max))
            top = std::max(top, bars[i].max);
    }
    if (m_horizontal)
        buildSharedSets(labels);
    else
        for (std::size_t i = 0; i < m_numbers.size(); ++i) {
            // One stacked set per bar, holding only that bar (0 in every other category), so
            // that each bar has its own run's colour.
            auto *set = new QBarSet(labels[static_cast<qsizetype>(i)]);
            for (std::size_t j = 0; j < m_values.size(); ++j)
                set->append(j == i ? m_values[i] : 0.0);
            m_series->append(set);
            m_setOfBar.push_back(m_runSets++);
        }
    addPublishedSets(activeSeries(), m_values, static_cast<int>(m_numbers.size()),
                     m_publishedGroups, m_publishedNames, publishedInk());
    m_publishedLegend->setNames(m_publishedNames);
    colourBars();
    QStringList categories = m_categories;
    if (m_horizontal) // unique names for the rows; their labels are m_rowLabels'
        for (qsizetype i = 0; i < categories.size(); ++i)
            categories[i] = QString::number(i);
    (m_horizontal ? m_hAxisRows : m_axisX)->append(categories);
    QValueAxis *axis = m_horizontal ? m_hAxisValue : m_axisY;
    setZeroBasedNiceAxis(axis, top * (m_horizontal ? 1.15 : 1.2));
    if (m_builtMeasure == BarMeasure::Money) // a cent's fraction per epoch: more decimals than 4
        axis->setLabelFormat(QStringLiteral("%.") +
                             QString::number(labelDecimals(axis->max() / 5.0)) +
                             QStringLiteral("f"));
}

} // namespace devicebench
