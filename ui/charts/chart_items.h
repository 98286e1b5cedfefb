// SPDX-License-Identifier: MIT
// Items drawn over a chart: the hover label both charts show for the point or bar under the
// mouse, and the fitting of a chart title to the chart's width.
#pragma once

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QPointF>
#include <QString>
#include <QStringList>

class QChart;
class QValueAxis;

namespace devicebench {

// A box of text lines next to an anchor point (chart item coordinates), with a border in an
// accent colour (the run's) and the chart's own background and title colours, so it reads in
// both themes. Kept inside the chart's plot area; above the series. Hidden until show() is
// called.
class ChartHoverLabel : public QGraphicsItem {
public:
    explicit ChartHoverLabel(QChart *chart);

    void show(const QString &text, QPointF anchor, const QColor &accent);
    void hide();
    // The text shown ("" while hidden): the lines joined by '\n'.
    QString text() const { return isVisible() ? m_text : QString(); }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QRectF box() const; // the text's box, in item coordinates, placed beside the anchor

    QChart *m_chart;
    QString m_text;
    QPointF m_anchor;
    QColor m_accent;
};

// A child item of a chart that draws over its plot area, mapping values to positions at paint
// time, so the dashboard's view, every resize and a PNG rendering of the chart all draw it (the
// efficiency labels of the Scaling chart, the phase shares of the phase chart). Subclasses
// draw in paintOverlay(), clipped to the plot area, the painter's state restored after.
class PlotOverlayItem : public QGraphicsItem {
public:
    PlotOverlayItem(QChart *chart, double z);
    // The chart's plot area moved or resized: draw again.
    void geometryChanged() { changed(); }
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) final;

protected:
    virtual void paintOverlay(QPainter *painter) = 0;
    // What is drawn changed.
    void changed() {
        prepareGeometryChange();
        update();
    }
    QChart *chart() const { return m_chart; }

private:
    QChart *m_chart;
};

// A note over a chart's plot (why it is empty): centred in it, wrapped, in the chart's title
// colour; nothing while its text is "".
class PlotNoteItem : public PlotOverlayItem {
public:
    explicit PlotNoteItem(QChart *chart) : PlotOverlayItem(chart, 150.0) {}
    void setText(const QString &text);
    const QString &text() const { return m_text; }

protected:
    void paintOverlay(QPainter *painter) override;

private:
    QString m_text;
};

// The first of `titles` (plain text; lines separated by '\n' count by their widest line) whose
// width in `font` fits `width` pixels, else the last one. Lets a chart keep its full title
// where there is room and a two-line or shorter one where there is not (200 % scale, narrow
// panes) instead of an elided one.
QString fittingTitle(const QStringList &titles, const QFont &font, double width);

// A value axis from 0 to `top` (1 when `top` is not above 0) with 6 ticks on round numbers
// (QValueAxis::applyNiceNumbers, which may widen the range) and labels with as many decimals as
// the tick step needs (0 for steps of 1 or more, else 1..4). The bar and line charts' y axes.
void setZeroBasedNiceAxis(QValueAxis *axis, double top);

} // namespace devicebench
