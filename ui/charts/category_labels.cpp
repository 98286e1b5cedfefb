// SPDX-License-Identifier: MIT
#include "charts/category_labels.h"

#include <QAbstractTextDocumentLayout>
#include <QChart>
#include <QFontMetricsF>
#include <QPainter>
#include <QTextDocument>
#include <QTextOption>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace devicebench {

namespace {

constexpr double kTop = 6.0; // between the axis line and the labels
constexpr double kGap = 6.0; // between two neighbouring labels

// `label` laid out centred and word-wrapped (anywhere, for a word wider than the line) in
// `width` pixels of `font`.
void layOut(QTextDocument &document, const QString &label, const QFont &font, double width) {
    document.setDocumentMargin(0.0);
    document.setDefaultFont(font);
    QTextOption option(Qt::AlignHCenter);
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    document.setDefaultTextOption(option);
    document.setHtml(label);
    document.setTextWidth(std::max(1.0, width));
}

} // namespace

CategoryLabelsItem::CategoryLabelsItem(QChart *chart, QAbstractSeries *series,
                                       std::function<void(int)> onHover)
    : HoverLabelsItem(chart, std::move(onHover)), m_chart(chart), m_series(series) {}

void CategoryLabelsItem::setLabels(const QStringList &labels) {
    if (labels == m_labels)
        return;
    m_labels = labels;
    geometryChanged();
}

double categoryLabelsHeight(const QStringList &labels, const QFont &font, double categoryWidth) {
    double tallest = 0.0;
    for (const QString &label : labels) {
        QTextDocument document;
        layOut(document, label, font, categoryWidth - kGap);
        tallest = std::max(tallest, document.size().height());
    }
    return labels.isEmpty() ? 0.0 : std::ceil(tallest + kTop);
}

bool categoryLabelsFit(const QStringList &labels, const QFont &font, double categoryWidth) {
    const double line = QFontMetricsF(font).lineSpacing();
    return categoryWidth > kGap && categoryLabelsHeight(labels, font, categoryWidth) - kTop <=
                                       (CategoryLabelsItem::kMaxLines + 0.5) * line;
}

double CategoryLabelsItem::neededHeight() const {
    return categoryLabelsHeight(m_labels, m_chart->font(), categoryWidth());
}

void CategoryLabelsItem::geometryChanged() {
    prepareGeometryChange();
    update();
}

QRectF CategoryLabelsItem::boundingRect() const { return m_chart->rect(); }

QList<QRectF> CategoryLabelsItem::labelRects() const {
    QList<QRectF> rects;
    for (const Placed &label : placed())
        rects.append(label.rect);
    return rects;
}

double CategoryLabelsItem::categoryWidth() const {
    return m_labels.isEmpty() ? 0.0
                              : m_chart->plotArea().width() / static_cast<double>(m_labels.size());
}

std::vector<CategoryLabelsItem::Placed> CategoryLabelsItem::placed() const {
    std::vector<Placed> out;
    const double width = categoryWidth();
    if (width <= kGap)
        return out;
    const double top = m_chart->plotArea().bottom() + kTop;
    for (qsizetype i = 0; i < m_labels.size(); ++i) {
        const double x = m_chart->mapToPosition(QPointF(static_cast<double>(i), 0.0), m_series).x();
        QTextDocument document;
        layOut(document, m_labels[i], m_chart->font(), width - kGap);
        out.push_back(
            {QRectF(x - (width - kGap) / 2.0, top, width - kGap, document.size().height()),
             document.toPlainText()});
    }
    return out;
}

void CategoryLabelsItem::paint(QPainter *painter, const QStyleOptionGraphicsItem * /*option*/,
                               QWidget * /*widget*/) {
    const std::vector<Placed> labels = placed();
    painter->save();
    QAbstractTextDocumentLayout::PaintContext context;
    // The chart's text colour, in both themes; a warning's own colour stays its own.
    context.palette.setColor(QPalette::Text, m_chart->titleBrush().color());
    for (std::size_t i = 0; i < labels.size(); ++i) {
        QTextDocument document;
        layOut(document, m_labels[static_cast<qsizetype>(i)], m_chart->font(),
               labels[i].rect.width());
        painter->save();
        painter->translate(labels[i].rect.topLeft());
        document.documentLayout()->draw(painter, context);
        painter->restore();
    }
    painter->restore();
}

} // namespace devicebench
