// SPDX-License-Identifier: MIT
#include "charts/zoom_chart_view.h"

#include "charts/zoomable_chart.h"

#include <QMouseEvent>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace devicebench {

ZoomChartView::ZoomChartView(ZoomableChart *chart, QWidget *parent)
    : QChartView(chart, parent), m_chart(chart) {
    setRubberBand(QChartView::RectangleRubberBand);
    setMouseTracking(true);
}

void ZoomChartView::wheelEvent(QWheelEvent *event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0.0) {
        event->ignore();
        return;
    }
    const QValueAxis *axis = m_chart->xAxis();
    const double min = axis->min();
    const double max = axis->max();
    const double span = max - min;
    if (event->modifiers() & Qt::ShiftModifier) {
        const double shift = -steps * span * 0.1;
        m_chart->setXRange(min + shift, max + shift);
    } else {
        // Zoom around the value under the pointer: it stays where it is.
        const QPointF at = m_chart->mapToValue(mapToScene(event->position().toPoint()));
        const double x = std::clamp(at.x(), min, max);
        const double factor = std::pow(0.8, steps);
        m_chart->setXRange(x - (x - min) * factor, x + (max - x) * factor);
    }
    event->accept();
}

void ZoomChartView::mousePressEvent(QMouseEvent *event) {
    if (event->button() == Qt::MiddleButton) {
        m_panning = true;
        m_panFrom = event->position().toPoint();
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void ZoomChartView::mouseMoveEvent(QMouseEvent *event) {
    if (m_panning) {
        const QPoint now = event->position().toPoint();
        const QPoint delta = now - m_panFrom;
        m_panFrom = now;
        m_chart->scroll(-delta.x(), delta.y());
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void ZoomChartView::mouseReleaseEvent(QMouseEvent *event) {
    if (m_panning && event->button() == Qt::MiddleButton) {
        m_panning = false;
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void ZoomChartView::mouseDoubleClickEvent(QMouseEvent *event) {
    m_chart->resetView();
    event->accept();
}

void ZoomChartView::leaveEvent(QEvent *event) {
    m_chart->hideHover();
    QChartView::leaveEvent(event);
}

} // namespace devicebench
