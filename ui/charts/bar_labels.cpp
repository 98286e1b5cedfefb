// SPDX-License-Identifier: MIT
#include "charts/bar_labels.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsSceneHoverEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace devicebench {

namespace {

constexpr double kGap = 8.0; // between a label and the plot area

} // namespace

HoverLabelsItem::HoverLabelsItem(QChart *chart, std::function<void(int)> onHover)
    : QGraphicsItem(chart), m_onHover(std::move(onHover)) {
    setZValue(100.0);
    setAcceptHoverEvents(true);
}

QPainterPath HoverLabelsItem::shape() const {
    QPainterPath path;
    for (const QRectF &rect : labelRects())
        if (!rect.isEmpty())
            path.addRect(rect);
    return path;
}

void HoverLabelsItem::hoverMoveEvent(QGraphicsSceneHoverEvent *event) {
    const QList<QRectF> rects = labelRects();
    int at = -1;
    for (qsizetype i = 0; i < rects.size(); ++i)
        if (rects[i].contains(event->pos()))
            at = static_cast<int>(i);
    if (at != m_hovered && m_onHover)
        m_onHover(at);
    m_hovered = at;
}

void HoverLabelsItem::hoverLeaveEvent(QGraphicsSceneHoverEvent * /*event*/) {
    if (m_hovered != -1 && m_onHover)
        m_onHover(-1);
    m_hovered = -1;
}

BarLabelsItem::BarLabelsItem(QChart *chart, QAbstractSeries *series,
                             std::function<void(int)> onHover)
    : HoverLabelsItem(chart, std::move(onHover)), m_chart(chart), m_series(series) {}

QList<QRectF> BarLabelsItem::labelRects() const {
    QList<QRectF> rects(m_labels.size());
    for (const Placed &label : placed())
        if (label.index >= 0 && label.index < rects.size())
            rects[label.index] = label.rect;
    return rects;
}

void BarLabelsItem::setLabels(const QStringList &labels) {
    if (labels == m_labels)
        return;
    m_labels = labels;
    geometryChanged();
}

double BarLabelsItem::columnWidth(double maxWidth) const {
    const QFontMetricsF metrics(m_chart->font());
    double widest = 0.0;
    for (const QString &label : m_labels)
        widest = std::max(widest, metrics.horizontalAdvance(label));
    return m_labels.isEmpty() ? 0.0 : std::min(maxWidth, widest + 2.0 * kGap);
}

void BarLabelsItem::geometryChanged() {
    prepareGeometryChange();
    update();
}

QRectF BarLabelsItem::boundingRect() const { return m_chart->rect(); }

std::vector<BarLabelsItem::Placed> BarLabelsItem::placed() const {
    std::vector<Placed> out;
    const auto count = static_cast<int>(m_labels.size());
    if (count == 0)
        return out;
    const QFontMetricsF metrics(m_chart->font());
    const QRectF plot = m_chart->plotArea();
    const double width = plot.left() - m_chart->rect().left() - 2.0 * kGap;
    if (width <= metrics.averageCharWidth())
        return out;
    // Rows per label: 1 where a row holds a line of text, else every k-th row.
    const double row = std::abs(m_chart->mapToPosition(QPointF(0.0, 0.0), m_series).y() -
                                m_chart->mapToPosition(QPointF(0.0, 1.0), m_series).y());
    const int every =
        row > 0.0 ? std::max(1, static_cast<int>(std::ceil(metrics.height() * 1.1 / row))) : 1;
    double lastBottom = -std::numeric_limits<double>::infinity(); // of the label drawn above
    for (int i = count - 1; i >= 0; --i) {                        // from the top row down
        if ((count - 1 - i) % every != 0)
            continue;
        const double y = m_chart->mapToPosition(QPointF(0.0, i), m_series).y();
        const QRectF rect(plot.left() - kGap - width, y - metrics.height() / 2.0, width,
                          metrics.height());
        if (rect.top() < lastBottom)
            continue; // would overlap the label above it
        out.push_back({rect, metrics.elidedText(m_labels[i], Qt::ElideMiddle, width), i});
        lastBottom = rect.bottom();
    }
    return out;
}

void BarLabelsItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/,
                          QWidget * /*widget*/) {
    const std::vector<Placed> labels = placed();
    if (labels.empty())
        return;
    painter->save();
    painter->setFont(m_chart->font());
    painter->setPen(m_chart->titleBrush().color()); // the chart's text colour, in both themes
    for (const Placed &label : labels)
        painter->drawText(label.rect, Qt::AlignRight | Qt::AlignVCenter, label.text);
    painter->restore();
}

} // namespace devicebench
