// SPDX-License-Identifier: MIT
#include "charts/sweep_heat_map.h"

#include <QFontMetricsF>
#include <QPaintEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <utility>

namespace devicebench {

namespace {

// A speed-up of kFullScale (or its inverse) or more gets the end colour itself.
constexpr double kFullScale = 8.0;
// Even a speed-up near 1x is tinted this much, so that faster and slower read apart.
constexpr double kMinimumTint = 0.12;

constexpr double kKey[] = {0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0};

// Whether the rows name their precision: a speed-up table whose records hold more than fp32
// (a gain table's title names its precision).
bool namesPrecision(const SpeedUpTable &table) {
    return !table.gain &&
           std::any_of(table.rows.begin(), table.rows.end(), [](const SpeedUpTable::Row &row) {
               return row.precision != Precision::Float32;
           });
}

QString rowLabel(const SpeedUpTable::Row &row, bool withPrecision) {
    QString label = row.model + QStringLiteral(" · %1 px").arg(row.imageSize);
    if (withPrecision)
        label += QStringLiteral(" · ") + QString::fromUtf8(shortName(row.precision));
    return label;
}

QString keyText(double speedUp) {
    return speedUp < 1.0 ? QStringLiteral("1/%1×").arg(std::lround(1.0 / speedUp))
                         : QStringLiteral("%1×").arg(std::lround(speedUp));
}

QColor blend(const QColor &from, const QColor &to, double t) {
    const auto mix = [t](float a, float b) {
        const double x = static_cast<double>(a);
        return static_cast<float>(x + (static_cast<double>(b) - x) * t);
    };
    return QColor::fromRgbF(mix(from.redF(), to.redF()), mix(from.greenF(), to.greenF()),
                            mix(from.blueF(), to.blueF()));
}

double luminance(const QColor &c) {
    const auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(static_cast<double>(c.redF())) +
           0.7152 * channel(static_cast<double>(c.greenF())) +
           0.0722 * channel(static_cast<double>(c.blueF()));
}

double contrast(const QColor &a, const QColor &b) { // WCAG 2 contrast ratio
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The geometry shared by paintSpeedUpTable and speedUpTableSize.
struct Layout {
    double line = 0.0;    // font height
    double row = 0.0;     // a row's height
    double pad = 0.0;     // inner padding
    double label = 0.0;   // the row-label column's width
    double cell = 0.0;    // a cell's width
    double gap = 0.0;     // between device blocks
    double keyCell = 0.0; // a colour key swatch's width
};

Layout layoutOf(const SpeedUpTable &table, const QFont &font) {
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF metrics(font);
    const QFontMetricsF boldMetrics(bold);
    Layout l;
    l.line = metrics.height();
    l.row = std::ceil(l.line * 1.7);
    l.pad = std::ceil(l.line * 0.5);
    double label = 0.0;
    const bool withPrecision = namesPrecision(table);
    for (const SpeedUpTable::Row &row : table.rows) {
        label = std::max(label, metrics.horizontalAdvance(rowLabel(row, withPrecision)));
        label = std::max(label, boldMetrics.horizontalAdvance(row.device));
    }
    l.label = std::ceil(label + 2 * l.pad);
    double cell = std::max(metrics.horizontalAdvance(QStringLiteral("batch 1024")),
                           metrics.horizontalAdvance(QStringLiteral("88.88×")));
    for (const int b : table.batchSizes)
        cell = std::max(cell, metrics.horizontalAdvance(QStringLiteral("batch %1").arg(b)));
    l.cell = std::ceil(cell + 2 * l.pad);
    l.gap = std::ceil(l.line * 0.6);
    l.keyCell = std::ceil(metrics.horizontalAdvance(QStringLiteral("1/8×")) + 2 * l.pad);
    return l;
}

QString titleText(const SpeedUpTable &table) {
    if (table.gain)
        return QStringLiteral("%1 over fp32: images/s ÷ the fp32 cell's at the same device, "
                              "model, image size and batch size")
            .arg(QString::fromUtf8(shortName(*table.gain)));
    return QStringLiteral("Speed-up against %1: images/s ÷ the baseline's at the same model, "
                          "image size and batch size")
        .arg(table.baseline);
}

QString emptyText(const SpeedUpTable &table) {
    if (table.gain)
        return QStringLiteral("No %1 cells in this sweep: no gain over fp32 to show.")
            .arg(QString::fromUtf8(shortName(*table.gain)));
    return table.baseline.isEmpty()
               ? QStringLiteral("No baseline device: no speed-up to show.")
               : QStringLiteral("Only %1 in this sweep: a speed-up needs a second device.")
                     .arg(table.baseline);
}

} // namespace

QStringList sweepDeviceLabels(const std::vector<SweepCellRecord> &records) {
    QStringList labels;
    for (const SweepCellRecord &record : records) {
        const QString label = QString::fromStdString(record.cell.device.label());
        if (!labels.contains(label))
            labels.append(label);
    }
    return labels;
}

namespace {

// Every batch size of `records`, ascending: the table's columns.
std::vector<int> batchSizesOf(const std::vector<SweepCellRecord> &records) {
    std::vector<int> sizes;
    for (const SweepCellRecord &record : records)
        if (std::find(sizes.begin(), sizes.end(), record.cell.batchSize) == sizes.end())
            sizes.push_back(record.cell.batchSize);
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

// Adds `device`'s rows: one per model, image size and precision of its records that `take`
// accepts, in order of appearance, each cell `value(record)`; cells without a record n/a.
void addDeviceRows(SpeedUpTable &table, const std::vector<SweepCellRecord> &records,
                   const QString &device, const std::function<bool(const SweepCellRecord &)> &take,
                   const std::function<double(const SweepCellRecord &)> &value) {
    const std::size_t first = table.rows.size();
    for (const SweepCellRecord &record : records) {
        if (QString::fromStdString(record.cell.device.label()) != device || !take(record))
            continue;
        const QString model = QString::fromStdString(record.cell.model);
        auto row = std::find_if(table.rows.begin() + static_cast<std::ptrdiff_t>(first),
                                table.rows.end(), [&](const SpeedUpTable::Row &r) {
                                    return r.model == model &&
                                           r.imageSize == record.cell.imageSize &&
                                           r.precision == record.cell.precision;
                                });
        if (row == table.rows.end()) {
            SpeedUpTable::Row fresh;
            fresh.device = device;
            fresh.model = model;
            fresh.imageSize = record.cell.imageSize;
            fresh.precision = record.cell.precision;
            fresh.speedUps.assign(table.batchSizes.size(),
                                  std::numeric_limits<double>::quiet_NaN());
            table.rows.push_back(fresh);
            row = table.rows.end() - 1;
        }
        const auto column =
            std::find(table.batchSizes.begin(), table.batchSizes.end(), record.cell.batchSize) -
            table.batchSizes.begin();
        row->speedUps[static_cast<std::size_t>(column)] = value(record);
    }
}

} // namespace

std::vector<Precision> sweepGainPrecisions(const std::vector<SweepCellRecord> &records) {
    std::vector<Precision> precisions;
    for (const Precision p : {Precision::BFloat16, Precision::Float16})
        if (std::any_of(records.begin(), records.end(),
                        [p](const SweepCellRecord &r) { return r.cell.precision == p; }))
            precisions.push_back(p);
    return precisions;
}

SpeedUpTable speedUpTable(const std::vector<SweepCellRecord> &records, const QString &baseline) {
    SpeedUpTable table;
    table.baseline = baseline;
    table.batchSizes = batchSizesOf(records);
    const std::string baselineLabel = baseline.toStdString();
    for (const QString &device : sweepDeviceLabels(records)) {
        if (device == baseline)
            continue;
        addDeviceRows(
            table, records, device, [](const SweepCellRecord &) { return true; },
            [&](const SweepCellRecord &r) { return sweepSpeedUp(records, r, baselineLabel); });
    }
    return table;
}

SpeedUpTable precisionGainTable(const std::vector<SweepCellRecord> &records, Precision precision) {
    SpeedUpTable table;
    table.gain = precision;
    table.batchSizes = batchSizesOf(records);
    for (const QString &device : sweepDeviceLabels(records))
        addDeviceRows(
            table, records, device,
            [precision](const SweepCellRecord &r) { return r.cell.precision == precision; },
            [&](const SweepCellRecord &r) { return sweepPrecisionGain(records, r); });
    return table;
}

QString speedUpText(double speedUp) {
    if (!std::isfinite(speedUp))
        return QStringLiteral("n/a");
    const int decimals = speedUp < 10.0 ? 2 : speedUp < 100.0 ? 1 : 0;
    return QString::number(speedUp, 'f', decimals) + QStringLiteral("×");
}

QColor speedUpCellColour(double speedUp, theme::Theme theme) {
    if (!std::isfinite(speedUp) || speedUp <= 0.0)
        return theme::colour(theme::Role::ChartGrid, theme);
    const double t = std::min(1.0, std::abs(std::log2(speedUp)) / std::log2(kFullScale));
    const QColor end = theme::speedUpColour(speedUp >= 1.0 ? theme::SpeedUpEnd::Faster
                                                           : theme::SpeedUpEnd::Slower);
    return blend(theme::colour(theme::Role::ChartBackground, theme), end,
                 kMinimumTint + (1.0 - kMinimumTint) * t);
}

QColor speedUpTextColour(const QColor &cell, theme::Theme theme) {
    const QColor text = theme::colour(theme::Role::ChartText, theme);
    const QColor background = theme::colour(theme::Role::ChartBackground, theme);
    return contrast(cell, text) >= contrast(cell, background) ? text : background;
}

QSizeF speedUpTableSize(const SpeedUpTable &table, const QFont &font) {
    const Layout l = layoutOf(table, font);
    QFont bold = font;
    bold.setBold(true);
    const double title = QFontMetricsF(bold).horizontalAdvance(titleText(table)) + 2 * l.pad;
    const double key = QFontMetricsF(font).horizontalAdvance(QStringLiteral("slower  faster  ")) +
                       (std::size(kKey) + 1) * l.keyCell + 4 * l.pad;
    double width = std::max(
        {title, key, l.label + static_cast<double>(table.batchSizes.size()) * l.cell + l.pad});
    double height = 2 * l.row; // the title and the colour key
    if (table.rows.empty()) {
        width =
            std::max(width, QFontMetricsF(font).horizontalAdvance(emptyText(table)) + 2 * l.pad);
        return {std::ceil(width), height + l.row};
    }
    QString device;
    for (const SpeedUpTable::Row &row : table.rows) {
        if (row.device != device) {
            height += l.gap + l.row; // the block's head
            device = row.device;
        }
        height += l.row;
    }
    return {std::ceil(width), std::ceil(height + l.pad)};
}

namespace {

// The colour key's line at (left, y): slower [1/8x .. 8x] faster, then n/a.
void paintKey(QPainter &painter, const Layout &l, double left, double y, theme::Theme theme,
              const QFont &font) {
    const QColor ink = theme::colour(theme::Role::ChartText, theme);
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    double x = left;
    const auto swatch = [&](double value, const QString &text) {
        const QRectF box(x, y + l.row * 0.15, l.keyCell, l.row * 0.7);
        const QColor fill = speedUpCellColour(value, theme);
        painter.fillRect(box.adjusted(1, 0, -1, 0), fill);
        painter.setPen(speedUpTextColour(fill, theme));
        painter.drawText(box, Qt::AlignCenter, text);
        x += l.keyCell;
    };
    const auto word = [&](const QString &text) {
        painter.setPen(ink);
        const double w = metrics.horizontalAdvance(text) + l.pad;
        painter.drawText(QRectF(x, y, w, l.row), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += w;
    };
    word(QStringLiteral("slower"));
    for (const double value : kKey)
        swatch(value, keyText(value));
    x += l.pad * 0.5;
    word(QStringLiteral("faster"));
    x += l.pad;
    swatch(std::nan(""), QStringLiteral("n/a"));
}

// A device block's head at (left, y): the device in bold, then "batch N" over each column.
// Leaves the painter in `font`.
void paintBlockHead(QPainter &painter, const Layout &l, double left, double y,
                    const SpeedUpTable &table, const QString &device, const QColor &ink,
                    const QFont &font) {
    QFont bold = font;
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(ink);
    painter.drawText(QRectF(left, y, l.label, l.row), Qt::AlignLeft | Qt::AlignBottom, device);
    painter.setFont(font);
    for (std::size_t c = 0; c < table.batchSizes.size(); ++c)
        painter.drawText(QRectF(left + l.label + static_cast<double>(c) * l.cell, y, l.cell, l.row),
                         Qt::AlignHCenter | Qt::AlignBottom,
                         QStringLiteral("batch %1").arg(table.batchSizes[c]));
}

// One row at (left, y): its label, then a coloured cell per batch size.
void paintRow(QPainter &painter, const Layout &l, double left, double y,
              const SpeedUpTable::Row &row, bool withPrecision, theme::Theme theme) {
    painter.setPen(theme::colour(theme::Role::ChartText, theme));
    painter.drawText(QRectF(left + l.pad, y, l.label - l.pad, l.row),
                     Qt::AlignLeft | Qt::AlignVCenter, rowLabel(row, withPrecision));
    for (std::size_t c = 0; c < row.speedUps.size(); ++c) {
        const QRectF box(left + l.label + static_cast<double>(c) * l.cell, y, l.cell, l.row);
        const QColor fill = speedUpCellColour(row.speedUps[c], theme);
        painter.fillRect(box.adjusted(1, 1, -1, -1), fill);
        painter.setPen(speedUpTextColour(fill, theme));
        painter.drawText(box, Qt::AlignCenter, speedUpText(row.speedUps[c]));
    }
}

} // namespace

void paintSpeedUpTable(QPainter &painter, const QRectF &area, const SpeedUpTable &table,
                       theme::Theme theme, const QFont &font) {
    const Layout l = layoutOf(table, font);
    QFont bold = font;
    bold.setBold(true);
    const QColor ink = theme::colour(theme::Role::ChartText, theme);
    painter.save();
    painter.setClipRect(area);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const double left = area.left() + l.pad;
    double y = area.top();

    painter.setFont(bold);
    painter.setPen(ink);
    painter.drawText(QRectF(left, y, area.width() - l.pad, l.row), Qt::AlignLeft | Qt::AlignVCenter,
                     titleText(table));
    y += l.row;
    paintKey(painter, l, left, y, theme, font);
    y += l.row;

    if (table.rows.empty()) {
        painter.setPen(ink);
        painter.drawText(QRectF(left, y, area.width() - l.pad, l.row),
                         Qt::AlignLeft | Qt::AlignVCenter, emptyText(table));
        painter.restore();
        return;
    }
    const bool withPrecision = namesPrecision(table);
    QString device;
    for (const SpeedUpTable::Row &row : table.rows) {
        if (row.device != device) {
            device = row.device;
            y += l.gap;
            paintBlockHead(painter, l, left, y, table, device, ink, font);
            y += l.row;
        }
        paintRow(painter, l, left, y, row, withPrecision, theme);
        y += l.row;
    }
    painter.restore();
}

SpeedUpHeatMap::SpeedUpHeatMap(QWidget *parent) : QWidget(parent) {
    setObjectName(QStringLiteral("sweepHeatMap"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void SpeedUpHeatMap::setTable(SpeedUpTable table) {
    m_table = std::move(table);
    updateGeometry();
    update();
}

QString SpeedUpHeatMap::cellText(int row, int column) const {
    if (row < 0 || row >= static_cast<int>(m_table.rows.size()))
        return QString();
    const std::vector<double> &values = m_table.rows[static_cast<std::size_t>(row)].speedUps;
    if (column < 0 || column >= static_cast<int>(values.size()))
        return QString();
    return speedUpText(values[static_cast<std::size_t>(column)]);
}

QSize SpeedUpHeatMap::sizeHint() const { return speedUpTableSize(m_table, font()).toSize(); }

QSize SpeedUpHeatMap::minimumSizeHint() const {
    return QSize(200, speedUpTableSize(m_table, font()).toSize().height());
}

void SpeedUpHeatMap::paintEvent(QPaintEvent * /*event*/) {
    QPainter painter(this);
    const theme::Theme look = theme::themeOf(palette());
    painter.fillRect(rect(), theme::colour(theme::Role::ChartBackground, look));
    paintSpeedUpTable(painter, QRectF(rect()), m_table, look, font());
}

} // namespace devicebench
