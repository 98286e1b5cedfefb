// SPDX-License-Identifier: MIT
#include "charts/sweep_chart.h"

#include "charts/chart_items.h"
#include "charts/charts.h" // styleChartTitle
#include "theme/theme.h"

#include <QBrush>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPainterPath>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <tuple>

namespace devicebench {

namespace {

constexpr double kMarkerSize = 11.0; // pixels

bool finished(const SweepCellRecord &record) {
    return record.result.status == RunStatus::Finished && record.result.imagesPerSecond > 0.0 &&
           std::isfinite(record.result.imagesPerSecond);
}

// A marker of `shape` (0 circle, 1 square, 2 triangle, 3 diamond) in `colour`, outlined in the
// chart background's colour so that markers of crossing lines stay apart.
QImage markerImage(int shape, const QColor &colour, const QColor &outline) {
    const int size = static_cast<int>(kMarkerSize * 2); // drawn at 2x, scaled down by the chart
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    QPen pen(outline);
    pen.setWidthF(2.0);
    painter.setPen(pen);
    painter.setBrush(colour);
    const QRectF box(2.0, 2.0, size - 4.0, size - 4.0);
    QPainterPath path;
    switch (shape % 4) {
    case 0:
        path.addEllipse(box);
        break;
    case 1:
        path.addRect(box.adjusted(2, 2, -2, -2));
        break;
    case 2:
        path.moveTo(box.center().x(), box.top());
        path.lineTo(box.right(), box.bottom() - 2);
        path.lineTo(box.left(), box.bottom() - 2);
        path.closeSubpath();
        break;
    default:
        path.moveTo(box.center().x(), box.top());
        path.lineTo(box.right(), box.center().y());
        path.lineTo(box.center().x(), box.bottom());
        path.lineTo(box.left(), box.center().y());
        path.closeSubpath();
        break;
    }
    painter.drawPath(path);
    return image;
}

Qt::PenStyle penStyle(int deviceIndex) {
    static constexpr Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine,
                                              Qt::DashDotLine};
    return styles[deviceIndex % 4];
}

// "<cell>: <reason>" (its status when the reason is empty): a cell that did not finish.
QString leftOutText(const SweepCellRecord &record) {
    const std::string why = record.result.reason.empty()
                                ? std::string(toString(record.result.status))
                                : record.result.reason;
    return sweepCellText(record.cell) + QStringLiteral(": ") + QString::fromStdString(why);
}

// The line's points in batch size order (stable), its records alongside.
void sortByBatchSize(SweepLine &line) {
    std::vector<std::size_t> order(line.records.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return line.points[static_cast<qsizetype>(a)].x() <
               line.points[static_cast<qsizetype>(b)].x();
    });
    QList<QPointF> points;
    std::vector<std::size_t> indices;
    for (const std::size_t i : order) {
        points.append(line.points[static_cast<qsizetype>(i)]);
        indices.push_back(line.records[i]);
    }
    line.points = points;
    line.records = indices;
}

} // namespace

QString sweepCellText(const SweepCell &cell) {
    QString text = QStringLiteral("%1 · batch %2 · %3 px · %4")
                       .arg(QString::fromStdString(cell.model))
                       .arg(cell.batchSize)
                       .arg(cell.imageSize)
                       .arg(QString::fromStdString(cell.device.label()));
    if (cell.precision != Precision::Float32)
        text += QStringLiteral(" · ") + QString::fromUtf8(shortName(cell.precision));
    return text;
}

std::vector<SweepLine> sweepLines(const std::vector<SweepCellRecord> &records,
                                  QStringList *leftOut) {
    std::vector<SweepLine> lines;
    std::map<std::tuple<std::string, int, std::string, Precision>, std::size_t> lineOf;
    std::map<std::tuple<std::string, int, Precision>, int> colourOf;
    std::map<std::string, int> deviceOf;
    std::vector<int> imageSizes;
    for (const SweepCellRecord &record : records)
        if (std::find(imageSizes.begin(), imageSizes.end(), record.cell.imageSize) ==
            imageSizes.end())
            imageSizes.push_back(record.cell.imageSize);
    const bool severalPrecisions =
        std::any_of(records.begin(), records.end(), [](const SweepCellRecord &r) {
            return r.cell.precision != Precision::Float32;
        });
    for (std::size_t i = 0; i < records.size(); ++i) {
        const SweepCellRecord &record = records[i];
        const SweepCell &cell = record.cell;
        const std::string device = cell.device.label();
        if (!finished(record)) {
            if (leftOut != nullptr)
                leftOut->append(leftOutText(record));
            continue;
        }
        const auto key = std::make_tuple(cell.model, cell.imageSize, device, cell.precision);
        auto found = lineOf.find(key);
        if (found == lineOf.end()) {
            SweepLine line;
            line.model = QString::fromStdString(cell.model);
            line.imageSize = cell.imageSize;
            line.device = QString::fromStdString(device);
            line.name = line.model + QStringLiteral(" · ") + line.device;
            if (imageSizes.size() > 1)
                line.name += QStringLiteral(" · %1 px").arg(cell.imageSize);
            line.precision = cell.precision;
            if (severalPrecisions)
                line.name += QStringLiteral(" · ") + QString::fromUtf8(shortName(cell.precision));
            const auto colour =
                colourOf.emplace(std::make_tuple(cell.model, cell.imageSize, cell.precision),
                                 static_cast<int>(colourOf.size()));
            line.colourIndex = colour.first->second;
            line.deviceIndex =
                deviceOf.emplace(device, static_cast<int>(deviceOf.size())).first->second;
            found = lineOf.emplace(key, lines.size()).first;
            lines.push_back(line);
        }
        SweepLine &line = lines[found->second];
        line.points.append(QPointF(cell.batchSize, record.result.imagesPerSecond));
        line.records.push_back(i);
    }
    for (SweepLine &line : lines)
        sortByBatchSize(line);
    return lines;
}

SweepChart::SweepChart(QGraphicsItem *parent)
    : QChart(parent), m_axisX(new QLogValueAxis(this)), m_axisYLog(new QLogValueAxis(this)),
      m_axisYLinear(new QValueAxis(this)), m_hover(new ChartHoverLabel(this)) {
    setAnimationOptions(QChart::NoAnimation);
    styleChartTitle(this, QStringLiteral("Training images per second against batch size"), 1.0);
    legend()->setAlignment(Qt::AlignRight);
    legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_axisX->setBase(2.0);
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisX->setMinorTickCount(0);
    m_axisX->setTitleText(QStringLiteral("batch size (log scale)"));
    m_axisX->setRange(8.0, 512.0);
    m_axisYLog->setBase(10.0);
    m_axisYLog->setLabelFormat(QStringLiteral("%g"));
    m_axisYLog->setMinorTickCount(-1); // each decade's minor ticks
    m_axisYLog->setTitleText(QStringLiteral("images/s (log scale)"));
    m_axisYLinear->setTitleText(QStringLiteral("images/s"));
    m_axisYLinear->setLabelFormat(QStringLiteral("%.0f"));
    m_axisYLinear->setRange(0.0, 1.0);
    addAxis(m_axisX, Qt::AlignBottom);
    addAxis(m_axisYLinear, Qt::AlignLeft);
}

void SweepChart::styleSeries(QLineSeries *series, const SweepLine &line) {
    const QColor colour = theme::runColour(line.colourIndex + 1);
    QPen pen(colour);
    pen.setWidthF(2.2);
    pen.setStyle(penStyle(line.deviceIndex));
    series->setPen(pen);
    series->setMarkerSize(kMarkerSize);
    series->setLightMarker(
        markerImage(line.deviceIndex, colour,
                    theme::colour(theme::Role::ChartBackground, theme::themeOf(*this))));
}

void SweepChart::sync(const std::vector<SweepCellRecord> &records) {
    m_hover->hide();
    m_records = records;
    m_leftOut.clear();
    m_lines = sweepLines(records, &m_leftOut);
    removeAllSeries(); // deletes them
    m_series.clear();

    Extent extent;
    for (const SweepLine &line : m_lines)
        for (const QPointF &p : line.points) {
            extent.xMin = extent.any ? std::min(extent.xMin, p.x()) : p.x();
            extent.xMax = extent.any ? std::max(extent.xMax, p.x()) : p.x();
            extent.yMin = extent.any ? std::min(extent.yMin, p.y()) : p.y();
            extent.yMax = extent.any ? std::max(extent.yMax, p.y()) : p.y();
            extent.any = true;
        }
    useLogY(extent.any && extent.yMin > 0.0 && extent.yMax / extent.yMin > kLogYRatio);
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        const SweepLine &line = m_lines[i];
        auto *series = new QLineSeries;
        series->setName(line.name);
        series->replace(line.points);
        addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_logY ? static_cast<QAbstractAxis *>(m_axisYLog) : m_axisYLinear);
        styleSeries(series, line);
        connectHover(series, static_cast<int>(i));
        m_series.append(series);
    }
    fitAxes(extent);
}

void SweepChart::useLogY(bool logY) {
    if (logY == m_logY)
        return;
    // Swap the y axis, keeping the other one for the way back.
    QAbstractAxis *from = m_logY ? static_cast<QAbstractAxis *>(m_axisYLog) : m_axisYLinear;
    QAbstractAxis *to = logY ? static_cast<QAbstractAxis *>(m_axisYLog) : m_axisYLinear;
    removeAxis(from);
    from->setParent(this); // removeAxis releases ownership
    addAxis(to, Qt::AlignLeft);
    m_logY = logY;
}

void SweepChart::connectHover(QLineSeries *series, int lineIndex) {
    connect(series, &QLineSeries::hovered, this, [this, lineIndex](const QPointF &at, bool on) {
        if (!on) {
            hideHover();
            return;
        }
        // The point nearest in batch size (the x axis is logarithmic).
        const QList<QPointF> &points = m_lines[static_cast<std::size_t>(lineIndex)].points;
        int best = -1;
        double distance = 0.0;
        for (qsizetype p = 0; p < points.size(); ++p) {
            const double d = std::abs(std::log2(points[p].x()) - std::log2(at.x()));
            if (best < 0 || d < distance) {
                best = static_cast<int>(p);
                distance = d;
            }
        }
        showHover(lineIndex, best);
    });
}

void SweepChart::fitAxes(const Extent &extent) {
    if (!extent.any) {
        m_axisX->setRange(8.0, 512.0);
        m_axisYLinear->setRange(0.0, 1.0);
        return;
    }
    // Half an octave of room either side, so that the end markers are not cut.
    m_axisX->setRange(extent.xMin / std::sqrt(2.0), extent.xMax * std::sqrt(2.0));
    if (m_logY) {
        // Whole decades, so that the ends are labelled.
        m_axisYLog->setRange(std::pow(10.0, std::floor(std::log10(extent.yMin))),
                             std::pow(10.0, std::ceil(std::log10(extent.yMax))));
    } else {
        setZeroBasedNiceAxis(m_axisYLinear, extent.yMax * 1.15);
    }
}

QString SweepChart::leftOutNote() const {
    if (m_leftOut.isEmpty())
        return QString();
    constexpr qsizetype kShown = 6; // then a count: the CSV and the records list every cell
    QString note = QStringLiteral("Left out (did not finish):");
    for (qsizetype i = 0; i < std::min(kShown, m_leftOut.size()); ++i)
        note += QStringLiteral("\n• ") + m_leftOut[i];
    if (m_leftOut.size() > kShown)
        note += QStringLiteral("\n• and %1 more (the CSV lists every cell)")
                    .arg(m_leftOut.size() - kShown);
    return note;
}

QString SweepChart::hoverText(int line, int point) const {
    if (line < 0 || line >= static_cast<int>(m_lines.size()))
        return QString();
    const SweepLine &l = m_lines[static_cast<std::size_t>(line)];
    if (point < 0 || point >= static_cast<int>(l.records.size()))
        return QString();
    const SweepCellRecord &record = m_records[l.records[static_cast<std::size_t>(point)]];
    const StepBenchResult &r = record.result;
    QString text = l.name + QStringLiteral("\nbatch size %1: %2 images/s")
                                .arg(record.cell.batchSize)
                                .arg(r.imagesPerSecond, 0, 'f', r.imagesPerSecond < 100 ? 1 : 0);
    if (std::isfinite(r.imagesPerSecondLow) && std::isfinite(r.imagesPerSecondHigh))
        text += QStringLiteral("\n95% interval [%1, %2]")
                    .arg(r.imagesPerSecondLow, 0, 'f', r.imagesPerSecondLow < 100 ? 1 : 0)
                    .arg(r.imagesPerSecondHigh, 0, 'f', r.imagesPerSecondHigh < 100 ? 1 : 0);
    if (r.achievedGflops > 0.0)
        text += QStringLiteral("\n%1 GFLOP/s").arg(r.achievedGflops, 0, 'f', 1);
    if (std::isfinite(record.fractionOfPeak) && record.fractionOfPeak > 0.0)
        text += QStringLiteral(" (%1% of the measured peak)")
                    .arg(record.fractionOfPeak * 100.0, 0, 'f', 0);
    text += QStringLiteral("\n%1 timed steps after %2 warm-up")
                .arg(record.steps)
                .arg(record.warmupSteps);
    return text;
}

void SweepChart::showHover(int line, int point) {
    const QString text = hoverText(line, point);
    if (text.isEmpty()) {
        hideHover();
        return;
    }
    const SweepLine &l = m_lines[static_cast<std::size_t>(line)];
    const QPointF at = mapToPosition(l.points[point], m_series[line]);
    m_hover->show(text, at, theme::runColour(l.colourIndex + 1));
}

void SweepChart::hideHover() { m_hover->hide(); }

} // namespace devicebench
