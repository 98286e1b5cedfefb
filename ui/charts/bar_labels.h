// SPDX-License-Identifier: MIT
// The row labels of the bar chart when its bars are horizontal (SpeedChart, charts.h): one line
// of plain text per category, right-aligned in the column left of the plot area and elided to
// its width. Where the rows are thinner than a line of text, only every k-th label is drawn
// (the top row always), so that no two labels overlap; the hover names every bar. A child item
// of the chart, placed at paint time (QChart::mapToPosition), so the view and the PNG agree;
// pointing at a label shows its bar's hover.
#pragma once

#include <QGraphicsItem>
#include <QList>
#include <QPainterPath>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QAbstractSeries;
class QChart;

namespace devicebench {

// A chart's labels of its bars that show the bar's hover when pointed at: the item's shape is
// the labels' rectangles only (labelRects), so that the bars under it keep their own hover.
// `onHover(index)` is called with the label pointed at, -1 when none.
class HoverLabelsItem : public QGraphicsItem {
public:
    HoverLabelsItem(QChart *chart, std::function<void(int)> onHover);
    virtual QList<QRectF> labelRects() const = 0; // per label, by index; chart coordinates
    QPainterPath shape() const override;

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent *event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent *event) override;

private:
    std::function<void(int)> m_onHover;
    int m_hovered = -1;
};

class BarLabelsItem : public HoverLabelsItem {
public:
    BarLabelsItem(QChart *chart, QAbstractSeries *series, std::function<void(int)> onHover);

    // One label per category, from the bottom row up; none: nothing drawn.
    void setLabels(const QStringList &labels);
    // The column's width: the widest label and a gap, at most `maxWidth` pixels.
    double columnWidth(double maxWidth) const;
    void geometryChanged();

    // What is drawn: the labels (elided) and their rectangles in chart coordinates.
    struct Placed {
        QRectF rect;
        QString text;
        int index = 0; // the category, from the bottom row up
    };
    std::vector<Placed> placed() const;
    // Indexed by category, as onHover is: an empty rectangle for a row left unlabelled.
    QList<QRectF> labelRects() const override;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QChart *m_chart;
    QAbstractSeries *m_series;
    QStringList m_labels;
};

} // namespace devicebench
