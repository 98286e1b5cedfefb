// SPDX-License-Identifier: MIT
// The loss chart's pure arithmetic, without Qt Charts: the debiased exponential moving average
// that smooths what is drawn, the choice of points for the visible x range, and the detection
// of curves that lie on top of each other. LossChart (charts.h) uses them; tests call them
// directly (tests/ui/chart_math_test.cpp).
#pragma once

#include <QList>
#include <QPointF>

#include <cstddef>
#include <vector>

namespace devicebench {

// Smoothing weights the dashboard accepts: 0 (no smoothing) to 0.99.
inline constexpr double kMaxSmoothing = 0.99;
inline constexpr double kDefaultSmoothing = 0.6;

// TensorBoard's smoothing of a scalar series (tensorboard/plugins/scalar, "debiased" EMA):
//     ema_n = w * ema_{n-1} + (1 - w) * x_n,  ema_0 = 0
//     shown_n = ema_n / (1 - w^n)             (n counts the finite values so far)
// The division removes the start-up bias toward 0 of a plain EMA started at 0, so the first
// shown value is x_1 itself. Computed in the equivalent incremental form
//     shown_n = shown_{n-1} + a_n * (x_n - shown_{n-1}),  a_n = (1 - w) / (1 - w^n)
// (same values; a_1 = 1), in which a constant input stays exactly constant in floating point
// at every weight. `values`: one value per step, in step order, any unit (nats for losses).
// `weight` w is clamped to [0, kMaxSmoothing]; 0 returns `values` unchanged. A value that is
// not finite is returned as it is and does not enter the average (as TensorBoard does).
// Returns as many values as `values` has.
std::vector<double> smoothDebiasedEma(const std::vector<double> &values, double weight);

// The same on the y of `points` (x is kept): the smoothed curve of a polyline.
QList<QPointF> smoothPointsY(const QList<QPointF> &points, double weight);

// Wall-clock x of steps that share one time (the recorder times the steps of one loss fetch,
// every --loss-every steps, together): each run of equal x is spread evenly over the interval
// since the previous distinct time, ending at its own time, so that the curve runs forward
// instead of standing as a comb. Only for drawing; the first run keeps its x (no interval
// before it). `points` ordered by x (non-decreasing).
void spreadTiedX(QList<QPointF> &points);

// The index range [first, last) of `points` (ordered by x, non-decreasing) that draws the
// visible x range [xMin, xMax]: the points inside it plus one neighbour on each side, so that
// the line runs to the plot's edges. Empty (first == last) when `points` is empty; when the
// range lies wholly before or after the points, the one nearest point (a line needs two, and
// there is nothing to draw anyway).
struct IndexRange {
    qsizetype first = 0;
    qsizetype last = 0;
};
IndexRange visibleIndexRange(const QList<QPointF> &points, double xMin, double xMax);

// The points to draw for the visible x range: the visibleIndexRange() slice, reduced with
// decimateMinMax (below) to at most `maxPoints`. A zoomed-in range with at most `maxPoints`
// points in it is drawn with every point (every step).
QList<QPointF> decimateVisible(const QList<QPointF> &points, double xMin, double xMax,
                               int maxPoints);

// Which curves coincide with an earlier one. `curves[i]`: curve i's y values by step index
// (nats), all curves starting at the same step; nullptr for a curve that takes no part
// (hidden). Curve i coincides with an earlier curve j when both have at least one value and
// over their common length (the shorter one: a live run is compared with the prefix it has
// reached) every |a - b| <= `tolerance` (same unit as the values; NaN equals NaN). Returns for
// each curve the index of the first earlier curve it coincides with, or -1. O(n^2 x length)
// in the worst case; a curve that differs stops at its first differing value.
std::vector<int> findCoincidingCurves(const std::vector<const std::vector<double> *> &curves,
                                      double tolerance);

// Min/max bucket decimation of a polyline ordered by x. Returns `points` unchanged when it has
// at most `maxPoints` points; otherwise the first point, then for each of (maxPoints-2)/2
// equal-count buckets of the interior its min-y and max-y points in x order, then the last
// point, so at most `maxPoints` points and every spike stays visible. maxPoints < 4 counts as 4.
QList<QPointF> decimateMinMax(const QList<QPointF> &points, int maxPoints);

} // namespace devicebench
