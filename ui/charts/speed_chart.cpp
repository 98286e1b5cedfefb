// SPDX-License-Identifier: MIT
// SpeedChart (charts.h): the bar chart of stable mean seconds per epoch, with error bars, or of
// another measure (bar_measure.h).
#include "charts/charts.h"

#include "charts/chart_items.h"
#include "charts/published_bars.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/contention.h"
#include "devicebench/machine_drift.h"
#include "devicebench/machine_speed.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBrush>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QPainter>
#include <QPen>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <utility>

namespace devicebench {

// Error bars and mean labels over the bar chart's plot area (Qt Charts has no error bars).
// A child item of the chart, so the dashboard's view and the exported PNG both draw it; it
// maps values with QChart::mapToPosition at paint time, so it follows every resize.
class ErrorBarItem : public QGraphicsItem {
public:
    struct Bar {
        double mean = 0.0; // in the measure's unit; <= 0: nothing drawn
        double low = std::nan("");
        double high = std::nan("");
        QString text; // written above the bar: "12.3 s", "850 J", "0.00117 USD"
    };

    ErrorBarItem(QChart *chart, QAbstractSeries *series)
        : QGraphicsItem(chart), m_chart(chart), m_series(series) {
        setZValue(100.0); // above the bars
    }

    void setBars(std::vector<Bar> bars) {
        if (sameBars(bars, m_bars))
            return;
        prepareGeometryChange();
        m_bars = std::move(bars);
        update();
    }
    // NaN-safe: an interval that is not known (NaN) equals another one that is not known.
    static bool sameBars(const std::vector<Bar> &a, const std::vector<Bar> &b) {
        const auto same = [](double x, double y) {
            return x == y || (std::isnan(x) && std::isnan(y));
        };
        return a.size() == b.size() &&
               std::equal(a.begin(), a.end(), b.begin(), [&](const Bar &p, const Bar &q) {
                   return same(p.mean, q.mean) && same(p.low, q.low) && same(p.high, q.high) &&
                          p.text == q.text;
               });
    }
    void geometryChanged() {
        prepareGeometryChange();
        update();
    }
    const std::vector<Bar> &bars() const { return m_bars; }

    QRectF boundingRect() const override { return m_chart->rect(); }

    void paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/,
               QWidget * /*widget*/) override {
        if (m_bars.empty())
            return;
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setClipRect(m_chart->plotArea().adjusted(-2, -40, 2, 2));
        QFont font = m_chart->font();
        font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.95));
        painter->setFont(font);
        const QFontMetricsF metrics(font);
        // The title's colour: near-black on the light theme, near-white on the dark one.
        const QColor ink = m_chart->titleBrush().color();
        for (std::size_t i = 0; i < m_bars.size(); ++i) {
            const Bar &bar = m_bars[i];
            if (!(bar.mean > 0.0))
                continue;
            const double x = static_cast<double>(i);
            const QPointF centre = m_chart->mapToPosition(QPointF(x, bar.mean), m_series);
            const QPointF edge = m_chart->mapToPosition(QPointF(x + 0.5, bar.mean), m_series);
            const double halfCategory = std::abs(edge.x() - centre.x());
            const double cap = std::clamp(halfCategory * 0.25, 4.0, 16.0);
            double top = centre.y();
            if (std::isfinite(bar.low) && std::isfinite(bar.high)) {
                const QPointF lo = m_chart->mapToPosition(QPointF(x, bar.low), m_series);
                const QPointF hi = m_chart->mapToPosition(QPointF(x, bar.high), m_series);
                QPen pen(ink);
                pen.setWidthF(1.6);
                painter->setPen(pen);
                painter->drawLine(QPointF(centre.x(), lo.y()), QPointF(centre.x(), hi.y()));
                painter->drawLine(QPointF(centre.x() - cap, lo.y()),
                                  QPointF(centre.x() + cap, lo.y()));
                painter->drawLine(QPointF(centre.x() - cap, hi.y()),
                                  QPointF(centre.x() + cap, hi.y()));
                top = std::min(top, hi.y());
            }
            const QString &text = bar.text;
            const double width = metrics.horizontalAdvance(text) + 6.0;
            const QRectF box(centre.x() - width / 2.0, top - metrics.height() - 3.0, width,
                             metrics.height());
            painter->setPen(ink);
            painter->drawText(box, Qt::AlignCenter, text);
        }
        painter->restore();
    }

private:
    QChart *m_chart;
    QAbstractSeries *m_series;
    std::vector<Bar> m_bars;
};

SpeedChart::SpeedChart(QGraphicsItem *parent)
    : QChart(parent), m_series(new QStackedBarSeries(this)), m_axisX(new QBarCategoryAxis(this)),
      m_axisY(new QValueAxis(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleChartTitle(this, QString(), 1.0);
    fitTitle();
    connect(this, &QGraphicsWidget::geometryChanged, this, [this] { fitTitle(); });
    legend()->setVisible(false);
    m_series->setLabelsVisible(false); // the means are written above the error bars
    addSeries(m_series);
    m_axisY->setTitleText(QStringLiteral("seconds per epoch"));
    m_axisY->setLabelFormat(QStringLiteral("%.1f"));
    m_axisY->setRange(0.0, 1.0);
    // Two-line category labels (run, then speed-up) must not be elided to "#1 cpu...".
    m_axisX->setTruncateLabels(false);
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    m_errorBars = new ErrorBarItem(this, m_series);
    m_publishedLegend = new PublishedLegendItem(this);
    connect(this, &QChart::plotAreaChanged, this, [this] {
        m_errorBars->geometryChanged();
        m_publishedLegend->geometryChanged();
    });
    m_hover = new ChartHoverLabel(this);
    connect(m_series, &QStackedBarSeries::hovered, this,
            [this](bool on, int category, QBarSet *set) {
                qsizetype index = m_series->barSets().indexOf(set);
                if (index >= static_cast<qsizetype>(m_numbers.size()))
                    index = category; // a published set holds several bars
                if (on && index >= 0)
                    showHover(static_cast<int>(index));
                else
                    hideHover();
            });
}

void SpeedChart::fitTitle() {
    // The long title where it fits; a shorter one at 200 % scale or in a narrow pane rather
    // than an elided one.
    const QStringList titles = measureTitles(m_measure, m_currency);
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
    const QPointF anchor = mapToPosition(QPointF(index, m_values[at]), m_series);
    m_hover->show(m_hoverTexts[index], anchor,
                  at < m_numbers.size() ? theme::runColour(m_numbers[at]) : publishedInk());
}

void SpeedChart::hideHover() { m_hover->hide(); }

QString SpeedChart::shownHover() const { return m_hover->text(); }

QColor SpeedChart::barColour(int index) const {
    const QList<QBarSet *> sets = m_series->barSets();
    if (index < 0 || index >= sets.size())
        return {}; // invalid
    return sets[index]->brush().color();
}

bool SpeedChart::barHatched(int index) const {
    const QList<QBarSet *> sets = m_series->barSets();
    return index >= 0 && index < sets.size() && sets[index]->brush().style() != Qt::SolidPattern;
}

bool SpeedChart::barCrossHatched(int index) const {
    const QList<QBarSet *> sets = m_series->barSets();
    return index >= 0 && index < sets.size() &&
           sets[index]->brush().style() == Qt::DiagCrossPattern;
}

void SpeedChart::colourBars() {
    // Comparable runs: a solid bar in the run's colour. Runs whose workload differs from the
    // baseline's: hatched in the run's colour, outlined.
    const QList<QBarSet *> sets = m_series->barSets();
    for (qsizetype i = 0; i < sets.size() && i < static_cast<qsizetype>(m_numbers.size()); ++i) {
        const auto at = static_cast<std::size_t>(i);
        const QColor colour = theme::runColour(m_numbers[at]);
        // A run with contended stable epochs (a busy machine): cross-hatched.
        const bool contended = at < m_contended.size() && m_contended[at];
        const QBrush brush(colour, contended       ? Qt::DiagCrossPattern
                                   : m_flagged[at] ? Qt::BDiagPattern
                                                   : Qt::SolidPattern);
        if (sets[i]->brush() != brush)
            sets[i]->setBrush(brush);
        const QColor border = m_flagged[at] || contended ? colour : colour.darker(130);
        if (sets[i]->borderColor() != border)
            sets[i]->setBorderColor(border);
    }
    // The published rows' sets, after the runs' (published_bars.h).
    for (auto i = static_cast<qsizetype>(m_numbers.size()); i < sets.size(); ++i)
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

QString intervalText(double low, double high, int decimals) {
    if (std::isnan(low) || std::isnan(high))
        return QString();
    if (std::isinf(high)) // the run's interval reaches zero: unbounded above
        return QStringLiteral(" [%1, ∞]").arg(low, 0, 'f', decimals);
    return QStringLiteral(" [%1, %2]").arg(low, 0, 'f', decimals).arg(high, 0, 'f', decimals);
}

// Whether the machine kept its speed: during the run (its canary, machine_drift.h) and against
// the baseline (machine_speed.h); the hover label's last lines, "" when there is nothing to say.
QString machineSpeedHover(const StoredRun &run, int baselineNumber) {
    QString text;
    const std::string drift = driftSummary(run.record.epochs, run.warmupEpochs);
    const bool changed = !speedChangedStableEpochs(run.record.epochs, run.warmupEpochs).empty();
    if (!drift.empty())
        text += (changed ? QStringLiteral("\n⚠ ") : QStringLiteral("\n")) +
                QString::fromStdString(drift);
    const std::string across =
        machineSpeedWarning(run.machineSpeed, "run #" + std::to_string(run.number),
                            "run #" + std::to_string(baselineNumber));
    if (!across.empty())
        text += QStringLiteral("\n⚠ ") + QString::fromStdString(across);
    return text;
}

// Run, stable mean, interval, epochs and speed-up: the bar's hover label, after the
// measure's own line (measureHoverLine), before the run's cost (costHoverText).
QString barHoverText(const StoredRun &run, int baselineNumber, BarMeasure measure) {
    const QString first = measureHoverLine(run, measure);
    QString text = run.label + (first.isEmpty() ? QString() : QStringLiteral("\n") + first);
    const QString cost =
        measure == BarMeasure::Money ? QString() : QStringLiteral("\n") + costHoverText(run);
    const Summary &s = run.summary;
    if (!s.hasStable || !std::isfinite(s.stableMean))
        return text + QStringLiteral("\nno stable epochs (%1 finished, %2 warm-up)")
                          .arg(s.epochSeconds.size())
                          .arg(s.warmupEpochs);
    text += QStringLiteral("\nstable mean %1 s per epoch").arg(s.stableMean, 0, 'f', 3);
    if (std::isfinite(s.ciLow) && std::isfinite(s.ciHigh))
        text += QStringLiteral("\n95% interval [%1, %2] s")
                    .arg(s.ciLow, 0, 'f', 3)
                    .arg(s.ciHigh, 0, 'f', 3);
    text += QStringLiteral("\nepochs %1 to %2 (%3 stable, %4 warm-up)")
                .arg(s.warmupEpochs + 1)
                .arg(s.epochSeconds.size())
                .arg(s.stableCount)
                .arg(s.warmupEpochs);
    QStringList busy;
    for (int epoch : contendedStableEpochs(run.record.epochs, run.warmupEpochs))
        busy.append(QString::number(epoch));
    if (!busy.isEmpty())
        text += QStringLiteral("\n⚠ busy machine: epochs %1 contended")
                    .arg(busy.join(QStringLiteral(", ")));
    if (run.isBaseline)
        text += QStringLiteral("\nbaseline (speed-up 1.00x)");
    else if (!run.comparable())
        text += QStringLiteral("\nnot comparable with the baseline");
    else if (std::isfinite(run.speedUp.ratio))
        text += QStringLiteral("\nspeed-up %1x").arg(run.speedUp.ratio, 0, 'f', 2) +
                intervalText(run.speedUp.low, run.speedUp.high, 2);
    return text + machineSpeedHover(run, baselineNumber) + cost;
}

// What sync() draws, one entry per run with a bar in store order.
struct SpeedBars {
    QStringList categories;
    std::vector<double> values; // in the measure's unit (seconds: 0 when no stable mean)
    std::vector<bool> flagged;  // not comparable with the baseline
    std::vector<bool> contended;
    std::vector<int> numbers;
    std::vector<int> runIds;
    std::vector<ErrorBarItem::Bar> bars;
    QStringList labels;
    QStringList hoverTexts;
    QString currency;    // Money: of every bar
    QStringList leftOut; // the runs without the measure (measureBars)
};

int shownRunCount(const RunStore &store) {
    int shown = 0;
    for (int index = 0; index < store.runCount(); ++index)
        shown += store.isRunHidden(store.run(index).id) ? 0 : 1;
    return shown;
}

// The measured value, its interval and its text; nothing drawn (mean 0) without a stable mean.
ErrorBarItem::Bar measuredBar(const MeasuredRun &m, BarMeasure measure, const QString &currency) {
    return {m.value, m.low, m.high, measureValueText(measure, m.value, currency)};
}

// The category's second line: not comparable, no stable epochs, baseline or the speed-up
// (`named`: "speed-up 2.31x", under bars that are not seconds).
QString verdictLine(const StoredRun &run, const QString &errorColour, bool named) {
    const Summary &s = run.summary;
    if (!run.comparable()) {
        QStringList fields;
        for (const std::string &f : run.differences)
            fields.append(QString::fromStdString(f));
        // Two lines, so that the label fits under its bar (a wider one would be hidden).
        // Dark red, or light red on the dark theme (readable on both backgrounds).
        return QStringLiteral("<span style=\"color:%1\">⚠ not comparable:<br>%2</span>")
            .arg(errorColour, fields.join(QStringLiteral(", ")).toHtmlEscaped());
    }
    if (!s.hasStable || !std::isfinite(s.stableMean))
        return QStringLiteral("no stable epochs") +
               (run.state == RunState::Running ? QStringLiteral(" yet") : QString());
    if (run.isBaseline)
        return QStringLiteral("baseline (1.00x)");
    if (!std::isfinite(run.speedUp.ratio))
        return QString();
    const QString speedUp = (named ? QStringLiteral("speed-up ") : QString()) +
                            QStringLiteral("%1x").arg(run.speedUp.ratio, 0, 'f', 2) +
                            intervalText(run.speedUp.low, run.speedUp.high, 2);
    // The machine ran at another speed during the baseline: the speed-up mixes the two.
    if (run.machineSpeed.biased)
        return QStringLiteral("<span style=\"color:%1\">%2 ⚠ biased</span>")
            .arg(errorColour, speedUp);
    return speedUp;
}

// Stable epochs measured on a busy machine (the mean is not the device's alone): "⚠ busy
// machine:" and which epochs, on lines of their own; "" when none.
QString busyLines(const std::vector<int> &busy, const QString &errorColour) {
    if (busy.empty())
        return QString();
    QStringList epochs;
    for (int epoch : busy)
        epochs.append(QString::number(epoch));
    // On two lines, like "not comparable": a label wider than its bar is hidden (with both
    // runs contended, no bar had a label at all). Beyond three epochs only their number; the
    // epoch table and the bar's hover list them.
    const QString which = busy.size() <= 3
                              ? QStringLiteral("epoch%1 %2 contended")
                                    .arg(busy.size() == 1 ? QString() : QStringLiteral("s"),
                                         epochs.join(QStringLiteral(", ")))
                              : QStringLiteral("%1 stable epochs contended").arg(busy.size());
    return QStringLiteral("<br><span style=\"color:%1\">⚠ busy machine:<br>%2</span>")
        .arg(errorColour, which);
}

// Stable epochs during which the machine's speed changed (the canary, machine_drift.h): "⚠
// machine speed changed:" and which epochs with the largest change, on lines of their own; ""
// when none.
QString driftLines(const StoredRun &run, const std::vector<int> &changed,
                   const QString &errorColour) {
    if (changed.empty())
        return QString();
    QStringList epochs;
    for (int epoch : changed)
        epochs.append(QString::number(epoch));
    const QString which = changed.size() <= 3
                              ? QStringLiteral("epoch%1 %2")
                                    .arg(changed.size() == 1 ? QString() : QStringLiteral("s"),
                                         epochs.join(QStringLiteral(", ")))
                              : QStringLiteral("%1 stable epochs").arg(changed.size());
    const double drift = stableCanaryDrift(run.record.epochs, run.warmupEpochs);
    const QString upTo = QString::fromStdString(describeCanaryChange(drift))
                             .replace(QStringLiteral("canary "), QStringLiteral("canary up to "));
    return QStringLiteral("<br><span style=\"color:%1\">⚠ machine speed changed:<br>%2 (%3)</span>")
        .arg(errorColour, which, upTo);
}

// Beyond three runs (a job beside its rank records) a run's label does not fit its category:
// "#n" and a short verdict; the legend, table and hover say the rest.
QString compactCategory(const StoredRun &run, const std::vector<int> &busy, bool drifted,
                        const QString &errorColour) {
    const QString red = QStringLiteral("<span style=\"color:%1\">⚠ %2</span>").arg(errorColour);
    QString verdict = QStringLiteral("%1x").arg(run.speedUp.ratio, 0, 'f', 2);
    if (!run.comparable() || run.isBaseline || !std::isfinite(run.speedUp.ratio))
        verdict = !run.comparable() ? red.arg(QStringLiteral("not<br>comparable"))
                                    : (run.isBaseline ? QStringLiteral("baseline") : QString());
    if (run.machineSpeed.biased && !verdict.isEmpty())
        verdict += QStringLiteral("<br>") + red.arg(QStringLiteral("biased"));
    if (!busy.empty())
        verdict += QStringLiteral("<br>") + red.arg(QStringLiteral("busy"));
    if (drifted)
        verdict += QStringLiteral("<br>") + red.arg(QStringLiteral("speed changed"));
    return QStringLiteral("#%1<br>").arg(run.number) + verdict;
}

// `publishedBars`: the published rows drawn after the runs (they crowd the chart too).
SpeedBars speedBars(const RunStore &store, const QString &errorColour, int publishedBars,
                    BarMeasure measure) {
    SpeedBars out;
    const MeasuredBars measured = measureBars(store, measure);
    out.currency = measured.currency;
    out.leftOut = measured.leftOut;
    const bool compact = static_cast<int>(measured.runs.size()) + publishedBars > 3;
    const int baseline = store.baselineIndex();
    const int baselineNumber = baseline >= 0 ? store.run(baseline).number : 0;
    for (const MeasuredRun &m : measured.runs) {
        const StoredRun &run = store.run(m.index);
        const std::vector<int> busy = contendedStableEpochs(run.record.epochs, run.warmupEpochs);
        const std::vector<int> changed =
            speedChangedStableEpochs(run.record.epochs, run.warmupEpochs);
        const ErrorBarItem::Bar bar = measuredBar(m, measure, measured.currency);
        out.categories.append(
            compact ? compactCategory(run, busy, !changed.empty(), errorColour)
                    : run.label.toHtmlEscaped() + QStringLiteral("<br>") +
                          verdictLine(run, errorColour, measure != BarMeasure::Seconds) +
                          busyLines(busy, errorColour) + driftLines(run, changed, errorColour));
        out.values.push_back(bar.mean);
        out.flagged.push_back(!run.comparable());
        out.contended.push_back(!busy.empty());
        out.numbers.push_back(run.number);
        out.runIds.push_back(run.id);
        out.bars.push_back(bar);
        out.labels.append(run.label);
        out.hoverTexts.append(barHoverText(run, baselineNumber, measure));
    }
    return out;
}

// The published rows after the runs: their categories, bars (the mean written above them, no
// interval: none is published) and hover texts.
void appendPublished(SpeedBars &out, const PublishedBars &published) {
    out.categories.append(published.categories);
    for (const double seconds : published.values) {
        out.values.push_back(seconds);
        out.bars.push_back({seconds, std::nan(""), std::nan(""),
                            measureValueText(BarMeasure::Seconds, seconds, QString())});
    }
    out.hoverTexts.append(published.hoverTexts);
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
    const auto it = std::find(m_runIds.begin(), m_runIds.end(), runId);
    return it == m_runIds.end() ? -1 : static_cast<int>(it - m_runIds.begin());
}

void SpeedChart::sync(const RunStore &store) {
    const QString errorColour = theme::colourName(theme::Role::ErrorText, theme::themeOf(*this));
    PublishedBars published = publishedBars(store, shownRunCount(store), errorColour);
    // The published rows publish seconds only: under another measure, a footer line instead.
    const QString publishedLeftOut =
        publishedLeftOutLine(m_measure, static_cast<int>(published.values.size()));
    if (m_measure != BarMeasure::Seconds)
        published = PublishedBars();
    SpeedBars next =
        speedBars(store, errorColour, static_cast<int>(published.values.size()), m_measure);
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
    m_runIds = next.runIds;
    if (next.categories == m_categories && next.values == m_values && next.flagged == m_flagged &&
        next.contended == m_contended && next.numbers == m_numbers &&
        published.group == m_publishedGroups && published.legendNames == m_publishedNames &&
        m_measure == m_builtMeasure && next.currency == m_currency) {
        colourBars(); // only if a chart theme set since has recoloured them
        return;       // nothing new: keep the bars as they are
    }
    m_builtMeasure = m_measure;
    m_currency = next.currency;
    m_axisY->setTitleText(measureAxisTitle(m_measure, m_currency));
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
    m_axisX->clear();
    if (m_values.empty()) {
        m_publishedLegend->setNames({});
        m_axisY->setRange(0.0, 1.0);
        return;
    }
    // One stacked set per run, holding only that run's bar (0 in every other category), so
    // that each bar has its own run's colour.
    const std::vector<ErrorBarItem::Bar> &bars = m_errorBars->bars();
    double top = 0.0;
    for (std::size_t i = 0; i < m_values.size(); ++i) {
        top = std::max(top, m_values[i]);
        if (i >= m_numbers.size())
            continue; // a published row: in addPublishedSets below
        auto *set = new QBarSet(labels[static_cast<qsizetype>(i)]);
        for (std::size_t j = 0; j < m_values.size(); ++j)
            set->append(j == i ? m_values[i] : 0.0);
        m_series->append(set);
        if (std::isfinite(bars[i].high))
            top = std::max(top, bars[i].high);
    }
    addPublishedSets(m_series, m_values, static_cast<int>(m_numbers.size()), m_publishedGroups,
                     m_publishedNames, publishedInk());
    m_publishedLegend->setNames(m_publishedNames);
    colourBars();
    m_axisX->append(m_categories);
    setZeroBasedNiceAxis(m_axisY, top * 1.2);
    if (m_measure == BarMeasure::Money) // a cent's fraction per epoch: more decimals than 4
        m_axisY->setLabelFormat(QStringLiteral("%.") +
                                QString::number(labelDecimals(m_axisY->max() / 5.0)) +
                                QStringLiteral("f"));
}

} // namespace devicebench
