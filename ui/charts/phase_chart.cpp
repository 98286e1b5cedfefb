// SPDX-License-Identifier: MIT
// PhaseChart (phase_chart.h): where each phase-timed run's time goes, as stacked bars.
#include "charts/phase_chart.h"

#include "charts/chart_items.h"
#include "charts/charts.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/phase_summary.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QLegend>
#include <QPainter>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace devicebench {

static_assert(kPhaseCount == 6 && theme::kPhaseColourCount == 6, "one colour per phase");

namespace {
constexpr double kBarWidth = 0.5; // in categories
} // namespace

// Each segment's share of its bar ("31%"), written inside the segment where it fits (Qt Charts'
// own bar labels show values, not shares). A child item of the chart, so the dashboard's view
// and the exported PNG both draw it; positions are mapped at paint time.
class PhaseShareItem : public PlotOverlayItem {
public:
    PhaseShareItem(QChart *chart, QAbstractSeries *series) // above the bars
        : PlotOverlayItem(chart, 100.0), m_series(series) {}

    // Segments per bar, in the axis's order.
    void setBars(std::vector<std::array<double, kPhaseCount>> bars, double barWidth) {
        m_bars = std::move(bars);
        m_barWidth = barWidth;
        changed();
    }

private:
    void paintOverlay(QPainter *painter) override {
        QFont font = chart()->font();
        font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.9));
        painter->setFont(font);
        const QFontMetricsF metrics(font);
        for (std::size_t c = 0; c < m_bars.size(); ++c) {
            double total = 0.0;
            for (const double seconds : m_bars[c])
                total += seconds;
            if (!(total > 0.0))
                continue;
            const auto x = static_cast<double>(c);
            double from = 0.0;
            for (std::size_t p = 0; p < kPhaseCount; ++p) {
                const double to = from + m_bars[c][p];
                const QRectF segment(
                    chart()->mapToPosition(QPointF(x - m_barWidth / 2.0, to), m_series),
                    chart()->mapToPosition(QPointF(x + m_barWidth / 2.0, from), m_series));
                from = to;
                const double percent = 100.0 * m_bars[c][p] / total;
                const QString text = percent < 0.5
                                         ? QStringLiteral("<1%")
                                         : QStringLiteral("%1%").arg(std::lround(percent));
                if (metrics.horizontalAdvance(text) + 6.0 > segment.width() ||
                    metrics.height() > segment.height())
                    continue; // too small: the hover gives it
                // Dark text on light segments, light text on dark ones, in both themes (the
                // segments' colours are the same in both).
                const QColor colour = theme::phaseColour(static_cast<int>(p));
                const double luminance =
                    0.299 * colour.red() + 0.587 * colour.green() + 0.114 * colour.blue();
                painter->setPen(theme::colour(luminance > 127.5 ? theme::Role::ChartText
                                                                : theme::Role::ChartBackground,
                                              theme::Theme::Light));
                painter->drawText(segment, Qt::AlignCenter, text);
            }
        }
    }

    QAbstractSeries *m_series;
    std::vector<std::array<double, kPhaseCount>> m_bars;
    double m_barWidth = 0.5; // the series' bar width, in categories
};

namespace {

// Run, total, and each phase's seconds and share: the bar's hover label.
QString hoverTextOf(const StoredRun &run, const PhaseTimes &mean, int count) {
    QString text = run.label;
    if (!mean.measured)
        return text + QStringLiteral("\nno phase-timed stable epoch yet");
    text += QStringLiteral("\nmean of %1 stable epoch%2: %3 s per epoch")
                .arg(count)
                .arg(count == 1 ? QString() : QStringLiteral("s"))
                .arg(mean.total(), 0, 'f', 3);
    const auto fractions = phaseFractions(mean);
    for (std::size_t p = 0; p < kPhaseCount; ++p) {
        const PhaseField &f = phaseFields()[p];
        text += QStringLiteral("\n%1 %2 s (%3%)")
                    .arg(QString::fromUtf8(f.name))
                    .arg(mean.*f.seconds, 0, 'f', 3)
                    .arg(100.0 * fractions[p], 0, 'f', 1);
    }
    return text;
}

// The run label on lines narrow enough for a bar beside others (the hover has it whole): every
// bar here is phase-timed and the data note is the other charts' to make, so both are left
// out; the machine goes on a line of its own; then the bar's total.
QString categoryLabel(const QString &label, const PhaseTimes &mean) {
    QString run = label;
    run.remove(QStringLiteral(" (phase-timed)"));
    run.remove(QStringLiteral(" [synthetic]"));
    const qsizetype at = run.indexOf(QStringLiteral(" @ "));
    const QString text = at < 0 ? run.toHtmlEscaped()
                                : run.left(at).toHtmlEscaped() + QStringLiteral("<br>") +
                                      run.mid(at + 1).toHtmlEscaped();
    return text + QStringLiteral("<br>") +
           (mean.measured ? QStringLiteral("%1 s").arg(mean.total(), 0, 'f', 3)
                          : QStringLiteral("no stable epoch yet"));
}

} // namespace

PhaseChart::PhaseChart(QGraphicsItem *parent)
    : QChart(parent), m_series(new QStackedBarSeries(this)), m_axisX(new QBarCategoryAxis(this)),
      m_axisY(new QValueAxis(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleChartTitle(this, QString(), 1.0);
    fitTitle();
    connect(this, &QGraphicsWidget::geometryChanged, this, [this] { fitTitle(); });
    for (std::size_t p = 0; p < kPhaseCount; ++p) {
        m_sets[p] = new QBarSet(QString::fromUtf8(phaseFields()[p].name));
        m_series->append(m_sets[p]);
    }
    m_series->setBarWidth(kBarWidth);
    addSeries(m_series);
    legend()->setVisible(true);
    legend()->setAlignment(Qt::AlignRight); // six entries: a column beside the bars
    m_axisY->setTitleText(QStringLiteral("s per stable epoch (mean)"));
    m_axisY->setRange(0.0, 1.0);
    m_axisX->setTruncateLabels(false); // run labels stay whole
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisY, Qt::AlignLeft);
    m_series->attachAxis(m_axisX);
    m_series->attachAxis(m_axisY);
    m_shares = new PhaseShareItem(this, m_series);
    connect(this, &QChart::plotAreaChanged, this, [this] { m_shares->geometryChanged(); });
    m_hover = new ChartHoverLabel(this);
    connect(m_series, &QStackedBarSeries::hovered, this, [this](bool on, int index, QBarSet *) {
        if (on && index >= 0 && index < barCount())
            showHover(index);
        else
            hideHover();
    });
    colourSets();
}

bool PhaseChart::anyPhaseTimed(const RunStore &store) {
    for (int i = 0; i < store.runCount(); ++i) {
        if (store.run(i).record.config.phases)
            return true;
    }
    return false;
}

void PhaseChart::fitTitle() {
    const QStringList titles = {
        QStringLiteral("Where the time goes: mean seconds per stable epoch by phase\n"
                       "(phase-timed runs: the device synchronised at every phase, so slower)"),
        QStringLiteral("Where the time goes: mean seconds per stable epoch by phase\n"
                       "(phase-timed runs, slower than normal ones)"),
        QStringLiteral("Where the time goes:\nmean s per stable epoch by phase"),
        QStringLiteral("Time per phase")};
    const QMarginsF m = margins();
    // Lines break with <br>: the title is rich text.
    const QString title =
        fittingTitle(titles, titleFont(), size().width() - m.left() - m.right() - 8.0)
            .replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    if (title != this->title())
        setTitle(title);
}

void PhaseChart::colourSets() {
    for (std::size_t p = 0; p < kPhaseCount; ++p) {
        const QColor colour = theme::phaseColour(static_cast<int>(p));
        if (m_sets[p]->brush() != QBrush(colour))
            m_sets[p]->setBrush(colour);
        if (m_sets[p]->borderColor() != colour.darker(120))
            m_sets[p]->setBorderColor(colour.darker(120));
    }
}

std::vector<double> PhaseChart::segmentValues(int bar) const {
    if (bar < 0 || bar >= barCount())
        return {};
    const auto &segments = m_segments[static_cast<std::size_t>(bar)];
    return {segments.begin(), segments.end()};
}

QStringList PhaseChart::phaseNames() const {
    QStringList names;
    for (const QBarSet *set : m_sets)
        names.append(set->label());
    return names;
}

QString PhaseChart::hoverText(int bar) const {
    return bar >= 0 && bar < m_hoverTexts.size() ? m_hoverTexts[bar] : QString();
}

void PhaseChart::showHover(int bar) {
    if (bar < 0 || bar >= barCount()) {
        hideHover();
        return;
    }
    const auto at = static_cast<std::size_t>(bar);
    double total = 0.0;
    for (const double seconds : m_segments[at])
        total += seconds;
    const QPointF anchor = mapToPosition(QPointF(bar, total), m_series);
    m_hover->show(m_hoverTexts[bar], anchor, theme::runColour(m_numbers[at]));
}

void PhaseChart::hideHover() { m_hover->hide(); }

QString PhaseChart::shownHover() const { return m_hover->text(); }

void PhaseChart::sync(const RunStore &store) {
    std::vector<std::array<double, kPhaseCount>> segments;
    QStringList labels;
    QStringList categories;
    QStringList hoverTexts;
    std::vector<int> numbers;
    for (int index = 0; index < store.runCount(); ++index) {
        const StoredRun &run = store.run(index);
        if (!run.record.config.phases || store.isRunHidden(run.id))
            continue;
        int count = 0;
        const PhaseTimes mean = stablePhaseMean(run.record.epochs, run.warmupEpochs, &count);
        std::array<double, kPhaseCount> bar{};
        for (std::size_t p = 0; p < kPhaseCount; ++p)
            bar[p] = mean.*phaseFields()[p].seconds;
        segments.push_back(bar);
        labels.append(run.label);
        categories.append(categoryLabel(run.label, mean));
        hoverTexts.append(hoverTextOf(run, mean, count));
        numbers.push_back(run.number);
    }
    m_hoverTexts = hoverTexts;
    m_numbers = numbers;
    colourSets(); // a chart theme set since may have recoloured them
    if (segments == m_segments && categories == m_categories)
        return; // nothing new
    m_segments = segments;
    m_labels = labels;
    m_categories = categories;

    double top = 0.0;
    for (std::size_t p = 0; p < kPhaseCount; ++p) {
        QList<qreal> values;
        for (const auto &bar : m_segments)
            values.append(bar[p]);
        if (m_sets[p]->count() > 0)
            m_sets[p]->remove(0, m_sets[p]->count());
        m_sets[p]->append(values);
    }
    for (const auto &bar : m_segments) {
        double total = 0.0;
        for (const double seconds : bar)
            total += seconds;
        top = std::max(top, total);
    }
    m_axisX->clear();
    m_axisX->append(m_categories);
    m_shares->setBars(m_segments, kBarWidth);
    setZeroBasedNiceAxis(m_axisY, top * 1.05);
}

} // namespace devicebench
