// SPDX-License-Identifier: MIT
// Error bars, min-max whiskers and the values written beside the bar chart's bars (Qt Charts
// has no error bars). A child item of the chart, so the dashboard's view and the exported PNG
// both draw it; it maps values with QChart::mapToPosition at paint time, so it follows every
// resize, in either orientation of the bars (SpeedChart turns them horizontal when many).
#pragma once

#include <QGraphicsItem>
#include <QString>

#include <cmath>
#include <cstddef>
#include <vector>

class QAbstractSeries;
class QChart;

namespace devicebench {

class ErrorBarItem : public QGraphicsItem {
public:
    struct Bar {
        double mean = 0.0;         // in the measure's unit; <= 0: nothing drawn
        double low = std::nan(""); // the 95 % interval (an error bar with caps)
        double high = std::nan("");
        double min = std::nan(""); // a group's fastest and slowest run (a thin whisker)
        double max = std::nan("");
        QString text; // written beside the bar: "12.3 s", "850 J", "0.00117 USD"
    };

    ErrorBarItem(QChart *chart, QAbstractSeries *series);

    // The series the bars belong to; `horizontal`: bars along x (category on y).
    void setSeries(QAbstractSeries *series, bool horizontal);
    void setBars(std::vector<Bar> bars); // repaints only when a bar changed
    const std::vector<Bar> &bars() const { return m_bars; }
    void geometryChanged();

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    // Chart position of `value` along the bars in category `index` (offset in categories).
    QPointF at(double index, double value) const;
    void paintBar(QPainter *painter, std::size_t index, const Bar &bar) const;

    QChart *m_chart;
    QAbstractSeries *m_series;
    bool m_horizontal = false;
    std::vector<Bar> m_bars;
};

} // namespace devicebench
