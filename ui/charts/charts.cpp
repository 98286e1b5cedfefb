// SPDX-License-Identifier: MIT
#include "charts/charts.h"

#include <QFont>

#include <algorithm>
#include <cmath>

namespace devicebench {

QList<QPointF> decimateMinMax(const QList<QPointF> &points, int maxPoints) {
    maxPoints = std::max(4, maxPoints);
    const qsizetype n = points.size();
    if (n <= maxPoints)
        return points;

    QList<QPointF> out;
    out.reserve(maxPoints);
    out.append(points.front());
    const qsizetype interior = n - 2; // points[1 .. n-2]
    const qsizetype buckets = (maxPoints - 2) / 2;
    for (qsizetype b = 0; b < buckets; ++b) {
        const qsizetype begin = 1 + b * interior / buckets;
        const qsizetype end = 1 + (b + 1) * interior / buckets;
        if (begin >= end)
            continue;
        qsizetype lo = begin;
        qsizetype hi = begin;
        for (qsizetype i = begin + 1; i < end; ++i) {
            if (points[i].y() < points[lo].y())
                lo = i;
            if (points[i].y() > points[hi].y())
                hi = i;
        }
        out.append(points[std::min(lo, hi)]);
        if (lo != hi)
            out.append(points[std::max(lo, hi)]);
    }
    out.append(points.back());
    return out;
}

ValueRange finiteYRange(const QList<QPointF> &points) {
    ValueRange range;
    for (const QPointF &p : points) {
        const double y = p.y();
        if (!std::isfinite(y))
            continue;
        if (!range.valid) {
            range.min = range.max = y;
            range.valid = true;
        } else {
            range.min = std::min(range.min, y);
            range.max = std::max(range.max, y);
        }
    }
    return range;
}

void styleChartTitle(QChart *chart, const QString &title, double scale) {
    QFont font = chart->titleFont();
    font.setPointSizeF(font.pointSizeF() * scale);
    font.setBold(true);
    chart->setTitleFont(font);
    chart->setTitle(title);
}

} // namespace devicebench
