// SPDX-License-Identifier: MIT
#include "charts/zoomable_chart.h"

#include "theme/theme.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

namespace devicebench {

ZoomableChart::ZoomableChart(QGraphicsItem *parent)
    : QChart(parent), m_axisX(new QValueAxis(this)) {
    setAnimationOptions(QChart::NoAnimation);
    addAxis(m_axisX, Qt::AlignBottom);
    legend()->setAlignment(Qt::AlignBottom);
    legend()->setShowToolTips(true);
}

void ZoomableChart::userRange() {
    // A range change the chart did not make is the user's zoom or pan: keep it, and draw the
    // points of the new range.
    if (m_settingRange)
        return;
    m_userZoomed = true;
    userRangeChanged();
}

void ZoomableChart::watchAxis(QValueAxis *axis) {
    connect(axis, &QValueAxis::rangeChanged, this, [this] { userRange(); });
}

void ZoomableChart::watchAxis(QLogValueAxis *axis) {
    connect(axis, &QLogValueAxis::rangeChanged, this, [this] { userRange(); });
}

void ZoomableChart::setXAxisRange(double min, double max, int ticks, bool nice) {
    m_axisX->setRange(min, max);
    m_axisX->setTickCount(ticks);
    if (nice)
        m_axisX->applyNiceNumbers(); // round ticks (the range widens)
    const double span = max - min;
    const int decimals =
        span > 0.0 && span < 5.0
            ? std::clamp(static_cast<int>(std::ceil(-std::log10(span / 5.0))), 0, 4)
            : 0;
    const QString format = QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f");
    if (m_axisX->labelFormat() != format)
        m_axisX->setLabelFormat(format);
}

void ZoomableChart::styleRunMarker(QXYSeries *series, int number, bool hidden) {
    // Kept while the run is hidden, so that a click can show it again; faded then.
    for (QLegendMarker *marker : legend()->markers(series)) {
        marker->setVisible(true);
        QColor label = legend()->labelColor();
        if (hidden)
            label.setAlphaF(static_cast<float>(theme::opacity(theme::Opacity::HiddenRun)));
        const QColor swatch =
            hidden ? theme::runColour(number, theme::Opacity::HiddenRun) : theme::runColour(number);
        if (marker->labelBrush().color() != label)
            marker->setLabelBrush(label);
        if (marker->brush().color() != swatch)
            marker->setBrush(swatch);
        if (marker->pen().color() != swatch)
            marker->setPen(QPen(swatch));
    }
}

void ZoomableChart::connectRunMarker(QXYSeries *series, int runId) {
    for (QLegendMarker *marker : legend()->markers(series))
        connect(marker, &QLegendMarker::clicked, this,
                [this, runId] { Q_EMIT runVisibilityToggled(runId); });
}

} // namespace devicebench
