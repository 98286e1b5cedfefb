// SPDX-License-Identifier: MIT
// SpeedChart (charts.h): the horizontal layout for many bars, the orientation switch, the room
// the labels take (the row labels' column, the vertical labels' rows), the height that labels
// every row, and the bar sets shared by the bars of one look.
#include "charts/charts.h"

#include "charts/bar_labels.h"
#include "charts/category_labels.h"
#include "charts/error_bars.h"
#include "charts/published_bars.h"
#include "charts/speed_bars.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFontMetricsF>
#include <QHorizontalStackedBarSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <vector>

namespace devicebench {

void SpeedChart::setHorizontal(bool horizontal) {
    QAbstractBarSeries *from = horizontal ? static_cast<QAbstractBarSeries *>(m_series)
                                          : static_cast<QAbstractBarSeries *>(m_hSeries);
    QAbstractBarSeries *to = horizontal ? static_cast<QAbstractBarSeries *>(m_hSeries)
                                        : static_cast<QAbstractBarSeries *>(m_series);
    if (series().contains(from)) {
        removeSeries(from);
        from->setParent(this); // removeSeries gives up ownership; kept for the way back
    }
    if (!series().contains(to)) {
        addSeries(to);
        to->attachAxis(horizontal ? static_cast<QAbstractAxis *>(m_hAxisValue) : m_axisX);
        to->attachAxis(horizontal ? static_cast<QAbstractAxis *>(m_hAxisRows) : m_axisY);
    }
    m_horizontal = horizontal;
    m_axisX->setVisible(!horizontal);
    m_axisY->setVisible(!horizontal);
    m_hAxisRows->setVisible(horizontal);
    m_hAxisValue->setVisible(horizontal);
    m_errorBars->setSeries(activeSeries(), horizontal);
}

QAbstractBarSeries *SpeedChart::activeSeries() const {
    return m_horizontal ? static_cast<QAbstractBarSeries *>(m_hSeries)
                        : static_cast<QAbstractBarSeries *>(m_series);
}

bool SpeedChart::wantsHorizontal(int count, const QStringList &categories) const {
    if (count > barsThatFit())
        return true;
    if (count == 0 || size().width() <= 0.0)
        return false;
    // The plot area's width as barsThatFit() estimates it, without the horizontal chart's
    // label column, shared by the categories.
    const double width = size().width() - m_leftMargin - margins().right() - 60.0;
    return !categoryLabelsFit(categories, font(), width / static_cast<double>(count));
}

void SpeedChart::fitLabelRoom() {
    m_publishedLegend->setSpaceAbove(m_horizontal ? 0.0 : m_columnLabels->neededHeight());
}

int SpeedChart::neededHeight() const {
    const double overhead = size().height() - plotArea().height();
    if (!m_horizontal)
        return static_cast<int>(std::ceil(overhead + kMinPlotHeight));
    // A row a line and a tenth (BarLabelsItem labels every row from there).
    const double row = std::ceil(QFontMetricsF(font()).height() * 1.1) + 1.0;
    return static_cast<int>(
        std::ceil(overhead + std::max(kMinPlotHeight, row * static_cast<double>(m_values.size()))));
}

QStringList SpeedChart::barLabels() const {
    if (m_horizontal)
        return rowLabels();
    QStringList texts;
    for (const CategoryLabelsItem::Placed &label : m_columnLabels->placed())
        texts.append(label.text);
    return texts;
}

QList<QRectF> SpeedChart::barLabelRects() const {
    if (m_horizontal)
        return rowLabelRects();
    QList<QRectF> rects;
    for (const CategoryLabelsItem::Placed &label : m_columnLabels->placed())
        rects.append(label.rect);
    return rects;
}

QList<QRectF> SpeedChart::footerRects() const { return m_publishedLegend->textRects(); }

int SpeedChart::barsThatFit() const {
    if (size().width() <= 0.0) // not laid out yet: vertical until it has a width
        return std::numeric_limits<int>::max();
    const double width = size().width() - margins().left() - margins().right() - 60.0;
    return std::max(3, static_cast<int>(width / kMinBarWidth));
}

QStringList SpeedChart::rowLabels() const {
    QStringList texts;
    for (const BarLabelsItem::Placed &label : m_rowLabels->placed())
        texts.append(label.text);
    return texts;
}

QList<QRectF> SpeedChart::rowLabelRects() const {
    QList<QRectF> rects;
    for (const BarLabelsItem::Placed &label : m_rowLabels->placed())
        rects.append(label.rect);
    return rects;
}

void SpeedChart::fitLabelColumn() {
    // The horizontal rows' labels take at most 40 % of the width, left of the plot area.
    QMargins margins = this->margins();
    const int left =
        m_leftMargin + static_cast<int>(m_rowLabels->columnWidth(size().width() * 0.4));
    if (margins.left() == left)
        return;
    margins.setLeft(left);
    setMargins(margins);
    fitTitle(); // the title's width changed with the column
}

void SpeedChart::buildSharedSets(const QStringList &labels) {
    std::map<BarLook, int> setOf;
    std::vector<QBarSet *> sets;
    for (std::size_t i = 0; i < m_numbers.size(); ++i) {
        const BarLook look{m_numbers[i], m_flagged[i], m_contended[i]};
        auto [it, added] = setOf.emplace(look, static_cast<int>(sets.size()));
        if (added) {
            sets.push_back(new QBarSet(labels[static_cast<qsizetype>(i)]));
            for (std::size_t j = 0; j < m_values.size(); ++j)
                sets.back()->append(0.0);
        }
        sets[static_cast<std::size_t>(it->second)]->replace(static_cast<int>(i), m_values[i]);
        m_setOfBar.push_back(it->second);
    }
    for (QBarSet *set : sets)
        m_hSeries->append(set);
    m_runSets = static_cast<int>(sets.size());
}

} // namespace devicebench
