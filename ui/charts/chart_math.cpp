// SPDX-License-Identifier: MIT
#include "charts/chart_math.h"

#include <algorithm>
#include <cmath>

namespace devicebench {

std::vector<double> smoothDebiasedEma(const std::vector<double> &values, double weight) {
    const double w = std::clamp(std::isfinite(weight) ? weight : 0.0, 0.0, kMaxSmoothing);
    if (w == 0.0)
        return values;
    std::vector<double> out;
    out.reserve(values.size());
    double shown = 0.0;
    double power = 1.0; // w^n
    for (const double x : values) {
        if (!std::isfinite(x)) {
            out.push_back(x);
            continue;
        }
        power *= w;
        const double a = (1.0 - w) / (1.0 - power);
        shown += a * (x - shown);
        out.push_back(shown);
    }
    return out;
}

QList<QPointF> smoothPointsY(const QList<QPointF> &points, double weight) {
    std::vector<double> y;
    y.reserve(static_cast<std::size_t>(points.size()));
    for (const QPointF &p : points)
        y.push_back(p.y());
    const std::vector<double> smoothed = smoothDebiasedEma(y, weight);
    QList<QPointF> out;
    out.reserve(points.size());
    for (qsizetype i = 0; i < points.size(); ++i)
        out.append(QPointF(points[i].x(), smoothed[static_cast<std::size_t>(i)]));
    return out;
}

void spreadTiedX(QList<QPointF> &points) {
    const qsizetype n = points.size();
    qsizetype begin = 0;
    while (begin < n) {
        qsizetype end = begin + 1;
        while (end < n && points[end].x() == points[begin].x())
            ++end;
        if (begin > 0 && end - begin > 1) {
            const double from = points[begin - 1].x();
            const double to = points[begin].x();
            const auto count = static_cast<double>(end - begin);
            for (qsizetype i = begin; i < end; ++i)
                points[i].setX(from + (to - from) * static_cast<double>(i - begin + 1) / count);
        }
        begin = end;
    }
}

IndexRange visibleIndexRange(const QList<QPointF> &points, double xMin, double xMax) {
    const qsizetype n = points.size();
    if (n == 0)
        return {};
    const auto byX = [](const QPointF &p, double x) { return p.x() < x; };
    const auto byXUpper = [](double x, const QPointF &p) { return x < p.x(); };
    qsizetype first = std::lower_bound(points.begin(), points.end(), xMin, byX) - points.begin();
    qsizetype last =
        std::upper_bound(points.begin(), points.end(), xMax, byXUpper) - points.begin();
    first = std::max<qsizetype>(0, first - 1); // one neighbour on the left
    last = std::min(n, last + 1);              // and on the right
    if (first >= last) {
        const qsizetype nearest = std::min(first, n - 1);
        return {nearest, nearest + 1};
    }
    return {first, last};
}

QList<QPointF> decimateVisible(const QList<QPointF> &points, double xMin, double xMax,
                               int maxPoints) {
    const IndexRange range = visibleIndexRange(points, xMin, xMax);
    if (range.first == 0 && range.last == points.size())
        return decimateMinMax(points, maxPoints);
    return decimateMinMax(points.mid(range.first, range.last - range.first), maxPoints);
}

std::vector<int> findCoincidingCurves(const std::vector<const std::vector<double> *> &curves,
                                      double tolerance) {
    std::vector<int> out(curves.size(), -1);
    const auto same = [tolerance](double a, double b) {
        return std::abs(a - b) <= tolerance || (std::isnan(a) && std::isnan(b));
    };
    for (std::size_t i = 1; i < curves.size(); ++i) {
        const std::vector<double> *a = curves[i];
        if (a == nullptr || a->empty())
            continue;
        for (std::size_t j = 0; j < i; ++j) {
            const std::vector<double> *b = curves[j];
            if (b == nullptr || b->empty())
                continue;
            const std::size_t n = std::min(a->size(), b->size());
            bool coincide = true;
            for (std::size_t k = 0; k < n && coincide; ++k)
                coincide = same((*a)[k], (*b)[k]);
            if (coincide) {
                out[i] = static_cast<int>(j);
                break;
            }
        }
    }
    return out;
}

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

} // namespace devicebench
