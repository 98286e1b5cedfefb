// SPDX-License-Identifier: MIT
#include "charts/charts.h"

#include <QFont>

#include <algorithm>
#include <cmath>

namespace devicebench {

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
