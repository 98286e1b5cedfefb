// SPDX-License-Identifier: MIT
// The row labels of the bar chart when its bars are horizontal (SpeedChart, charts.h): one line
// of plain text per category, right-aligned in the column left of the plot area and elided to
// its width. Where the rows are thinner than a line of text, only every k-th label is drawn
// (the top row always), so that no two labels overlap; the hover names every bar. A child item
// of the chart, placed at paint time (QChart::mapToPosition), so the view and the PNG agree.
#pragma once

#include <QGraphicsItem>
#include <QList>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <vector>

class QAbstractSeries;
class QChart;

namespace devicebench {

class BarLabelsItem : public QGraphicsItem {
public:
    BarLabelsItem(QChart *chart, QAbstractSeries *series);

    // One label per category, from the bottom row up; none: nothing drawn.
    void setLabels(const QStringList &labels);
    // The column's width: the widest label and a gap, at most `maxWidth` pixels.
    double columnWidth(double maxWidth) const;
    void geometryChanged();

    // What is drawn: the labels (elided) and their rectangles in chart coordinates.
    struct Placed {
        QRectF rect;
        QString text;
    };
    std::vector<Placed> placed() const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QChart *m_chart;
    QAbstractSeries *m_series;
    QStringList m_labels;
};

} // namespace devicebench
