// SPDX-License-Identifier: MIT
#include "charts/published_bars.h"

#include "charts/charts.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/published.h"
#include "devicebench/reproduction.h"
#include "devicebench/run_types.h"

#include <QBarSet>
#include <QBrush>
#include <QChart>
#include <QFontMetricsF>
#include <QPainter>
#include <QPen>
#include <QStackedBarSeries>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace devicebench {
namespace {

QString text(const std::string &utf8) { return QString::fromStdString(utf8); }

// Long lines (a source's title and note) broken at spaces, so the hover box stays narrow.
QString wrapped(const QString &line, int width = 72,
                const QString &newLine = QStringLiteral("\n")) {
    QStringList lines;
    QString current;
    for (const QString &word : line.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!current.isEmpty() && current.size() + 1 + word.size() > width) {
            lines.append(current);
            current.clear();
        }
        current += (current.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    lines.append(current);
    return lines.join(newLine);
}

QString settingsText(const PublishedSettings &s) {
    return QStringLiteral("settings: %1, batch size %2, %3 epochs (%4 warm-up), learning rate "
                          "%5, %6, %7 px, %8 training and %9 test images")
        .arg(text(s.model))
        .arg(s.batchSize)
        .arg(s.epochs)
        .arg(s.warmupEpochs)
        .arg(s.learningRate)
        .arg(QString::fromUtf8(shortName(s.precision)))
        .arg(s.imageSize)
        .arg(s.trainImages)
        .arg(s.testImages);
}

QString baselineName(const RunStore &store) {
    const int index = store.baselineIndex();
    return index >= 0 ? QStringLiteral("#%1").arg(store.run(index).number) : QString();
}

// Where the number comes from and how it stands against the runs in view.
QString hoverText(const PublishedSet &set, const PublishedEntry &entry, const RunStore &store) {
    const PublishedRow &row = set.rows[static_cast<std::size_t>(entry.rowIndex)];
    QStringList lines{
        text(entry.label),
        QStringLiteral("published stable mean %1 s per epoch (no per-epoch data, so no "
                       "interval)")
            .arg(entry.seconds, 0, 'f', 2),
        QStringLiteral("ran on %1 (%2), %3")
            .arg(text(row.device), text(row.deviceKind), text(row.where)),
        wrapped(QStringLiteral("source: ") + text(set.source.title))};
    if (!set.source.note.empty())
        lines.append(wrapped(text(set.source.note)));
    lines.append(wrapped(settingsText(set.settings)));
    if (std::isfinite(entry.speedUp))
        lines.append(QStringLiteral("speed-up against %1: %2x")
                         .arg(baselineName(store))
                         .arg(entry.speedUp, 0, 'f', 2));
    lines.append(wrapped(text(entry.comparability.note)));
    if (const QString line = likeForLikeLine(set, store); !line.isEmpty())
        lines.append(wrapped(line));
    for (const QString &ratio : programRatioLines(store))
        lines.append(wrapped(ratio));
    return lines.join(QLatin1Char('\n'));
}

// How the row stands against the runs' baseline, in a few words: "other program", in the
// error colour "⚠ other settings" (its seconds are not for the same work); "published" with
// no run. `lineBreak` between the words when the category is narrow.
QString matchWords(PublishedMatch match, const QString &errorColour, const QString &lineBreak) {
    switch (match) {
    case PublishedMatch::LikeForLike:
        return QStringLiteral("like for like");
    case PublishedMatch::OtherProgram:
        return QStringLiteral("other") + lineBreak + QStringLiteral("program");
    case PublishedMatch::OtherSettings:
        return QStringLiteral("<span style=\"color:%1\">⚠ other%2settings</span>")
            .arg(errorColour, lineBreak);
    case PublishedMatch::NoRun:
        break;
    }
    return QStringLiteral("published");
}

// Device, where it ran, then the speed-up against the runs' baseline and the match. Compact
// (a crowded chart): the device on short lines, the speed-up and the match; the hover says
// the rest.
QString category(const PublishedSet &set, const PublishedEntry &entry, bool compact,
                 const QString &errorColour) {
    const PublishedRow &row = set.rows[static_cast<std::size_t>(entry.rowIndex)];
    const QString br = QStringLiteral("<br>");
    const QString speedUp = std::isfinite(entry.speedUp)
                                ? QStringLiteral("%1x").arg(entry.speedUp, 0, 'f', 2)
                                : QString();
    const QString match =
        matchWords(entry.comparability.match, errorColour, compact ? br : QStringLiteral(" "));
    if (compact)
        return wrapped(text(row.device).toHtmlEscaped(), 11, br) +
               (speedUp.isEmpty() ? QString() : br + speedUp) + br + match;
    return text(row.device).toHtmlEscaped() + br + text(row.where).toHtmlEscaped() + br +
           (speedUp.isEmpty() ? match : speedUp + QStringLiteral(" · ") + match);
}

} // namespace

QString publishedLegendName(const std::string &program) {
    return QStringLiteral("published: ") + text(publishedProgramName(program));
}

QString likeForLikeLine(const PublishedSet &set, const RunStore &store) {
    return text(devicebench::likeForLikeLine(set, store.runSet()));
}

QStringList programRatioLines(const RunStore &store) {
    QStringList lines;
    for (const ProgramRatio &ratio : programRatios(store.runSet()))
        lines.append(text(ratio.line));
    return lines;
}

PublishedBars publishedBars(const RunStore &store, int runBars, const QString &errorColour) {
    PublishedBars out;
    out.ratioLines = programRatioLines(store);
    const PublishedBeside beside = store.publishedRows();
    const std::vector<PublishedSet> &sets = store.publishedSets();
    const bool compact = runBars + static_cast<int>(beside.rows.size()) > 3;
    for (const PublishedEntry &entry : beside.rows) {
        const PublishedSet &set = sets[static_cast<std::size_t>(entry.setIndex)];
        const QString legend = publishedLegendName(set.source.program);
        if (!out.legendNames.contains(legend))
            out.legendNames.append(legend);
        out.categories.append(category(set, entry, compact, errorColour));
        out.values.push_back(entry.seconds);
        out.group.push_back(static_cast<int>(out.legendNames.indexOf(legend)));
        out.hoverTexts.append(hoverText(set, entry, store));
    }
    return out;
}

void stylePublishedSet(QBarSet *set, const QColor &ink) {
    const QBrush brush(ink, Qt::BDiagPattern);
    if (set->brush() != brush)
        set->setBrush(brush);
    QPen pen(ink);
    pen.setWidthF(1.5);
    if (set->pen() != pen)
        set->setPen(pen);
}

bool hasPublishedStyle(const QBarSet *set) {
    return set != nullptr && set->brush().style() == Qt::BDiagPattern &&
           set->pen().style() != Qt::NoPen;
}

void addPublishedSets(QAbstractBarSeries *series, const std::vector<double> &values, int first,
                      const std::vector<int> &group, const QStringList &names, const QColor &ink) {
    for (qsizetype g = 0; g < names.size(); ++g) {
        auto *set = new QBarSet(names[g]);
        for (std::size_t c = 0; c < values.size(); ++c) {
            const auto at = static_cast<std::size_t>(static_cast<int>(c) - first);
            const bool mine = static_cast<int>(c) >= first && at < group.size() && group[at] == g;
            set->append(mine ? values[c] : 0.0);
        }
        stylePublishedSet(set, ink);
        series->append(set);
    }
}

PublishedLegendItem::PublishedLegendItem(QChart *chart)
    : QGraphicsItem(chart), m_chart(chart), m_bottomMargin(chart->margins().bottom()) {
    setZValue(100.0);
}

double PublishedLegendItem::lineHeight() const { return QFontMetricsF(m_chart->font()).height(); }

double PublishedLegendItem::textWidth() const {
    return std::max(40.0, m_chart->rect().width() - 16.0);
}

double PublishedLegendItem::rowWidth(const QStringList &row) const {
    const QFontMetricsF metrics(m_chart->font());
    const double gap = metrics.height() * 0.4;
    double width = 0.0;
    for (const QString &name : row)
        width += metrics.height() * 0.8 + gap + metrics.horizontalAdvance(name) + 3.0 * gap;
    return row.isEmpty() ? 0.0 : width - 3.0 * gap;
}

std::vector<QStringList> PublishedLegendItem::entryRows() const {
    std::vector<QStringList> rows;
    for (const QString &name : m_names) {
        if (rows.empty() || rowWidth(rows.back() + QStringList{name}) > textWidth())
            rows.emplace_back();
        rows.back().append(name);
    }
    return rows;
}

double PublishedLegendItem::lineHeightOf(const QString &line) const {
    const QFontMetricsF metrics(m_chart->font());
    return std::max(
        lineHeight(),
        metrics.boundingRect(QRectF(0.0, 0.0, textWidth(), 1e6), Qt::TextWordWrap, line).height());
}

double PublishedLegendItem::stripHeight() const {
    double height = static_cast<double>(entryRows().size()) * lineHeight();
    for (const QString &line : m_lines)
        height += lineHeightOf(line);
    return height > 0.0 ? height + 8.0 : 0.0;
}

void PublishedLegendItem::fitMargin() {
    QMargins margins = m_chart->margins();
    const int bottom =
        m_bottomMargin + static_cast<int>(std::ceil(m_spaceAbove) + std::ceil(stripHeight()));
    if (margins.bottom() != bottom) {
        margins.setBottom(bottom);
        m_chart->setMargins(margins);
    }
    prepareGeometryChange();
    update();
}

void PublishedLegendItem::setNames(const QStringList &names) {
    if (names == m_names)
        return;
    m_names = names;
    fitMargin();
}

void PublishedLegendItem::setLines(const QStringList &lines) {
    if (lines == m_lines)
        return;
    m_lines = lines;
    fitMargin();
}

void PublishedLegendItem::setSpaceAbove(double pixels) {
    if (pixels == m_spaceAbove)
        return;
    m_spaceAbove = pixels;
    fitMargin();
}

void PublishedLegendItem::geometryChanged() { fitMargin(); }

QRectF PublishedLegendItem::boundingRect() const { return m_chart->rect(); }

QList<QRectF> PublishedLegendItem::textRects() const {
    QList<QRectF> rects;
    const QRectF chart = m_chart->rect();
    double y = chart.bottom() - stripHeight() + 4.0;
    for (const QStringList &row : entryRows()) {
        const double width = std::min(rowWidth(row), textWidth());
        rects.append(QRectF(chart.center().x() - width / 2.0, y, width, lineHeight()));
        y += lineHeight();
    }
    for (const QString &line : m_lines) {
        rects.append(QRectF(chart.left() + 8.0, y, textWidth(), lineHeightOf(line)));
        y += lineHeightOf(line);
    }
    return rects;
}

void PublishedLegendItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/,
                                QWidget * /*widget*/) {
    if (m_names.isEmpty() && m_lines.isEmpty())
        return;
    painter->save();
    painter->setFont(m_chart->font());
    const QList<QRectF> rects = textRects();
    const std::vector<QStringList> rows = entryRows();
    for (std::size_t i = 0; i < rows.size(); ++i)
        paintEntries(painter, rects[static_cast<qsizetype>(i)].top(), rows[i]);
    painter->setPen(m_chart->titleBrush().color());
    for (qsizetype i = 0; i < m_lines.size(); ++i)
        painter->drawText(rects[static_cast<qsizetype>(rows.size()) + i],
                          Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, m_lines[i]);
    painter->restore();
}

void PublishedLegendItem::paintEntries(QPainter *painter, double y, const QStringList &row) const {
    const QFontMetricsF metrics(m_chart->font());
    const QColor ink = m_chart->titleBrush().color();
    const double box = metrics.height() * 0.8;
    const double gap = metrics.height() * 0.4;
    double x = m_chart->rect().center().x() - std::min(rowWidth(row), textWidth()) / 2.0;
    QPen pen(ink);
    pen.setWidthF(1.5);
    for (const QString &name : row) {
        painter->setPen(pen);
        painter->setBrush(QBrush(ink, Qt::BDiagPattern));
        painter->drawRect(QRectF(x, y + (metrics.height() - box) / 2.0, box, box));
        x += box + gap;
        // A name wider than the strip on its own row is shortened; the hover says it whole.
        const QString shown = metrics.elidedText(name, Qt::ElideRight, textWidth() - box - gap);
        painter->drawText(QPointF(x, y + metrics.ascent()), shown);
        x += metrics.horizontalAdvance(shown) + 3.0 * gap;
    }
}

// SpeedChart's published part (charts.h).

QColor SpeedChart::publishedInk() const {
    return theme::colour(theme::Role::ChartText, theme::themeOf(*this));
}

int SpeedChart::publishedBarCount() const {
    return static_cast<int>(m_values.size() - m_numbers.size());
}

QStringList SpeedChart::legendEntries() const { return m_publishedLegend->names(); }

QBarSet *SpeedChart::publishedBarSet(int group) const {
    const QList<QBarSet *> sets = activeSeries()->barSets();
    const qsizetype at = m_runSets + group;
    return group >= 0 && at < sets.size() ? sets[at] : nullptr;
}

} // namespace devicebench
