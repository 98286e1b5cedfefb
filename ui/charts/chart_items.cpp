// SPDX-License-Identifier: MIT
#include "charts/chart_items.h"

#include <QChart>
#include <QFontMetricsF>
#include <QPainter>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace devicebench {

ChartHoverLabel::ChartHoverLabel(QChart *chart) : QGraphicsItem(chart), m_chart(chart) {
    setZValue(200.0); // above the series and the error bars
    setVisible(false);
}

void ChartHoverLabel::show(const QString &text, QPointF anchor, const QColor &accent) {
    prepareGeometryChange();
    m_text = text;
    m_anchor = anchor;
    m_accent = accent;
    setVisible(true);
    update();
}

void ChartHoverLabel::hide() { setVisible(false); }

QRectF ChartHoverLabel::box() const {
    const QFontMetricsF metrics(m_chart->font());
    double width = 0.0;
    const QStringList lines = m_text.split(QLatin1Char('\n'));
    for (const QString &line : lines)
        width = std::max(width, metrics.horizontalAdvance(line));
    const double pad = metrics.height() * 0.4;
    const QSizeF size(width + 2 * pad,
                      metrics.lineSpacing() * static_cast<double>(lines.size()) + 2 * pad);
    const QRectF area = m_chart->plotArea();
    const double gap = metrics.height() * 0.6;
    // Right of and above the anchor; flipped to the other side where it would leave the plot.
    double x = m_anchor.x() + gap;
    if (x + size.width() > area.right())
        x = m_anchor.x() - gap - size.width();
    double y = m_anchor.y() - gap - size.height();
    if (y < area.top())
        y = m_anchor.y() + gap;
    x = std::clamp(x, area.left(), std::max(area.left(), area.right() - size.width()));
    y = std::clamp(y, area.top(), std::max(area.top(), area.bottom() - size.height()));
    return {QPointF(x, y), size};
}

QRectF ChartHoverLabel::boundingRect() const {
    const QRectF b = box();
    return b.united(QRectF(m_anchor, QSizeF(1, 1))).adjusted(-6, -6, 6, 6);
}

void ChartHoverLabel::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/,
                            QWidget * /*widget*/) {
    if (m_text.isEmpty())
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRectF b = box();
    const QColor ink = m_chart->titleBrush().color();
    QPen border(m_accent);
    border.setWidthF(2.0);
    painter->setPen(border);
    painter->setBrush(m_chart->backgroundBrush());
    painter->drawEllipse(m_anchor, 4.0, 4.0);
    painter->drawRoundedRect(b, 4.0, 4.0);
    painter->setFont(m_chart->font());
    painter->setPen(ink);
    const QFontMetricsF metrics(m_chart->font());
    const double pad = metrics.height() * 0.4;
    painter->drawText(b.adjusted(pad, pad, -pad, -pad), Qt::AlignLeft | Qt::AlignTop, m_text);
    painter->restore();
}

QString fittingTitle(const QStringList &titles, const QFont &font, double width) {
    const QFontMetricsF metrics(font);
    for (const QString &title : titles) {
        double widest = 0.0;
        for (const QString &line : title.split(QLatin1Char('\n')))
            widest = std::max(widest, metrics.horizontalAdvance(line));
        if (widest <= width)
            return title;
    }
    return titles.isEmpty() ? QString() : titles.back();
}

void setZeroBasedNiceAxis(QValueAxis *axis, double top) {
    axis->setRange(0.0, top > 0.0 ? top : 1.0);
    axis->setTickCount(6);
    axis->applyNiceNumbers();
    const double tick = (axis->max() - axis->min()) / 5.0;
    const int decimals =
        tick >= 1.0 ? 0 : std::clamp(static_cast<int>(std::ceil(-std::log10(tick))), 1, 4);
    axis->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

PlotOverlayItem::PlotOverlayItem(QChart *chart, double z) : QGraphicsItem(chart), m_chart(chart) {
    setZValue(z);
}

QRectF PlotOverlayItem::boundingRect() const { return m_chart->rect(); }

void PlotOverlayItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/,
                            QWidget * /*widget*/) {
    painter->save();
    painter->setClipRect(m_chart->plotArea());
    paintOverlay(painter);
    painter->restore();
}

void PlotNoteItem::setText(const QString &text) {
    if (text == m_text)
        return;
    m_text = text;
    changed();
}

void PlotNoteItem::paintOverlay(QPainter *painter) {
    if (m_text.isEmpty())
        return;
    const QRectF area = chart()->plotArea();
    const double pad = QFontMetricsF(chart()->font()).height();
    painter->setFont(chart()->font());
    painter->setPen(chart()->titleBrush().color());
    painter->drawText(area.adjusted(pad, pad, -pad, -pad), Qt::AlignCenter | Qt::TextWordWrap,
                      m_text);
}

} // namespace devicebench
