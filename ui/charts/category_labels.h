// SPDX-License-Identifier: MIT
// The category labels of the bar chart when its bars are vertical (SpeedChart, charts.h), drawn
// by the chart instead of Qt's category axis, which hides a label wider than its category or
// running past the chart's edge. Each label (rich text: the run, its speed-up, its warnings in
// red) is word-wrapped into its own category's width, centred under its bar, so that labels
// never overlap and none is dropped; the chart keeps room for the tallest under the axis
// (neededHeight) and turns horizontal where a label would take more than kMaxLines lines.
// A child item of the chart, placed at paint time (QChart::mapToPosition), so that the view
// and the PNG agree; pointing at a label shows its bar's hover.
#pragma once

#include "charts/bar_labels.h" // HoverLabelsItem

#include <QList>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QAbstractSeries;
class QChart;
class QFont;

namespace devicebench {

class CategoryLabelsItem : public HoverLabelsItem {
public:
    // The most lines a label may take; a label that needs more turns the chart horizontal.
    static constexpr int kMaxLines = 7;

    // `onHover(index)`: pointing at label `index` (-1: at none).
    CategoryLabelsItem(QChart *chart, QAbstractSeries *series, std::function<void(int)> onHover);

    // One label per category, left to right (rich text); none: nothing drawn.
    void setLabels(const QStringList &labels);
    // The room (pixels) the tallest label takes under the axis, wrapped to its category of
    // the plot area as it is now; 0 without labels.
    double neededHeight() const;
    void geometryChanged();

    // What is drawn: each label's rectangle (chart coordinates) and its text as plain text.
    struct Placed {
        QRectF rect;
        QString text;
    };
    std::vector<Placed> placed() const;
    QList<QRectF> labelRects() const override;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    double categoryWidth() const; // the plot area's width over the categories

    QChart *m_chart;
    QAbstractSeries *m_series;
    QStringList m_labels;
};

// The room (pixels) under the axis that the tallest of `labels` takes word-wrapped in
// categories `categoryWidth` pixels wide in `font`, the gap under the axis included.
double categoryLabelsHeight(const QStringList &labels, const QFont &font, double categoryWidth);
// Whether every one of `labels` fits in kMaxLines lines there.
bool categoryLabelsFit(const QStringList &labels, const QFont &font, double categoryWidth);

} // namespace devicebench
