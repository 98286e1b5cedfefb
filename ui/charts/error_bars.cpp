// SPDX-License-Identifier: MIT
#include "charts/error_bars.h"

#include <QChart>
#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPen>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace devicebench {

namespace {

// NaN-safe: an interval that is not known (NaN) equals another one that is not known.
bool same(double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); }

bool sameBars(const std::vector<ErrorBarItem::Bar> &a, const std::vector<ErrorBarItem::Bar> &b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](const auto &p, const auto &q) {
               return same(p.mean, q.mean) && same(p.low, q.low) && same(p.high, q.high) &&
                      same(p.min, q.min) && same(p.max, q.max) && p.text == q.text;
           });
}

} // namespace

ErrorBarItem::ErrorBarItem(QChart *chart, QAbstractSeries *series)
    : QGraphicsItem(chart), m_chart(chart), m_series(series) {
    setZValue(100.0); // above the bars
}

void ErrorBarItem::setSeries(QAbstractSeries *series, bool horizontal) {
    if (series == m_series && horizontal == m_horizontal)
        return;
    m_series = series;
    m_horizontal = horizontal;
    geometryChanged();
}

void ErrorBarItem::setBars(std::vector<Bar> bars) {
    if (sameBars(bars, m_bars))
        return;
    prepareGeometryChange();
    m_bars = std::move(bars);
    update();
}

void ErrorBarItem::geometryChanged() {
    prepareGeometryChange();
    update();
}

QRectF ErrorBarItem::boundingRect() const { return m_chart->rect(); }

QPointF ErrorBarItem::at(double index, double value) const {
    return m_chart->mapToPosition(m_horizontal ? QPointF(value, index) : QPointF(index, value),
                                  m_series);
}

void ErrorBarItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/,
                         QWidget * /*widget*/) {
    if (m_bars.empty())
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    // Room for the value written above (vertical) or after (horizontal) the longest bar.
    painter->setClipRect(m_horizontal ? m_chart->plotArea().adjusted(-2, -2, 90, 2)
                                      : m_chart->plotArea().adjusted(-2, -40, 2, 2));
    QFont font = m_chart->font();
    font.setPointSizeF(std::max(7.0, font.pointSizeF() * 0.95));
    painter->setFont(font);
    for (std::size_t i = 0; i < m_bars.size(); ++i)
        if (m_bars[i].mean > 0.0)
            paintBar(painter, i, m_bars[i]);
    painter->restore();
}

void ErrorBarItem::paintBar(QPainter *painter, std::size_t index, const Bar &bar) const {
    const QFontMetricsF metrics(painter->font());
    // The title's colour: near-black on the light theme, near-white on the dark one.
    const QColor ink = m_chart->titleBrush().color();
    const auto x = static_cast<double>(index);
    const QPointF centre = at(x, bar.mean);
    const QPointF edge = at(x + 0.5, bar.mean);
    const double halfCategory =
        m_horizontal ? std::abs(edge.y() - centre.y()) : std::abs(edge.x() - centre.x());
    const double cap = std::clamp(halfCategory * 0.25, m_horizontal ? 2.0 : 4.0, 16.0);
    // A line from value a to value b across the category's centre, with caps `capSize` long.
    const auto whisker = [&](double a, double b, double width, double capSize) {
        QPen pen(ink);
        pen.setWidthF(width);
        painter->setPen(pen);
        const QPointF p = at(x, a);
        const QPointF q = at(x, b);
        painter->drawLine(p, q);
        const QPointF across = m_horizontal ? QPointF(0.0, capSize) : QPointF(capSize, 0.0);
        painter->drawLine(p - across, p + across);
        painter->drawLine(q - across, q + across);
    };
    double end = bar.mean; // the largest value drawn: the text goes beyond it
    if (std::isfinite(bar.min) && std::isfinite(bar.max)) {
        whisker(bar.min, bar.max, 0.8, cap * 0.5); // min-max: thin, short caps
        end = std::max(end, bar.max);
    }
    if (std::isfinite(bar.low) && std::isfinite(bar.high)) {
        whisker(bar.low, bar.high, 1.6, cap);
        end = std::max(end, bar.high);
    }
    painter->setPen(ink);
    const double width = metrics.horizontalAdvance(bar.text) + 6.0;
    const QPointF tip = at(x, end);
    if (m_horizontal) {
        if (2.0 * halfCategory < metrics.height() * 0.8)
            return; // rows thinner than the text: the hover says the value
        painter->drawText(
            QRectF(tip.x() + 4.0, centre.y() - metrics.height() / 2.0, width, metrics.height()),
            Qt::AlignLeft | Qt::AlignVCenter, bar.text);
        return;
    }
    // Wider than its category ("0.00117 USD" over a narrow bar): on two lines within it, so
    // that it never runs into the next bar's value.
    const double room = std::max(2.0 * halfCategory - 4.0, metrics.averageCharWidth() * 4.0);
    const double textWidth = std::min(width, room);
    const double textHeight = metrics.height() * (width > room ? 2.0 : 1.0);
    painter->drawText(
        QRectF(centre.x() - textWidth / 2.0, tip.y() - textHeight - 3.0, textWidth, textHeight),
        Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, bar.text);
}

} // namespace devicebench
