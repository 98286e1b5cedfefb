// SPDX-License-Identifier: MIT
// The view of a zoomable chart (zoomable_chart.h: the loss chart, the System view) in the
// dashboard: zoom and pan with the mouse.
//   wheel: zoom the x axis in or out around the pointer (the y axis fits what is in view);
//   shift + wheel: pan along x; left drag: rubber band, zooms into the rectangle; right click:
//   zoom out; middle drag: pan; double click: reset the view (as the "Reset view" button).
// Pointing at a curve shows its hover label (the chart's showHover); leaving the view hides it.
#pragma once

#include <QChartView>
#include <QPoint>

namespace devicebench {

class ZoomableChart;

class ZoomChartView : public QChartView {
    Q_OBJECT

public:
    // The view owns `chart`.
    explicit ZoomChartView(ZoomableChart *chart, QWidget *parent = nullptr);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    ZoomableChart *m_chart;
    bool m_panning = false;
    QPoint m_panFrom;
};

} // namespace devicebench
