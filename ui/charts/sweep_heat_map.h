// SPDX-License-Identifier: MIT
// The sweep's speed-up heat map: for each device other than a chosen baseline, a block of cells,
// one row per model, image size and precision, one column per batch size, each the cell's
// images/s over the baseline's at the same model, image size, precision and batch size
// (sweepSpeedUp, devicebench/sweep.h), coloured by how much faster or slower it is. Or, for a
// sweep with a precision axis, what bf16 (or fp16) gains over fp32: a block per device, each cell
// sweepPrecisionGain. The dashboard's Sweep view shows it as a widget; the sweep PNG paints the
// same picture.
#pragma once

#include "devicebench/sweep.h"
#include "theme/theme.h"

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

class QPainter;

namespace devicebench {

// The distinct device labels (SweepDevice::label()) of `records`, in order of first
// appearance: the baseline's choices.
QStringList sweepDeviceLabels(const std::vector<SweepCellRecord> &records);

// The precisions other than fp32 that `records` hold, in the order bf16, fp16: the gain views
// the heat map can offer.
std::vector<Precision> sweepGainPrecisions(const std::vector<SweepCellRecord> &records);

struct SpeedUpTable {
    struct Row {
        QString device; // a device other than the baseline: "cpu x2"
        QString model;  // "resnet18"
        int imageSize = 0;
        Precision precision = Precision::Float32; // of the row's cells
        std::vector<double> speedUps; // per column; NaN: n/a (either cell did not finish, or
                                      // there is no such cell)
    };
    QString baseline;              // the baseline device's label; empty in a gain table
    std::optional<Precision> gain; // set: a precisionGainTable of this precision over fp32
    std::vector<int> batchSizes;   // the columns: every batch size of the records, ascending
    std::vector<Row> rows;         // by device (order of appearance), then model, image size and
                                   // precision (order of appearance); none for the baseline
                                   // itself
};

// The table of `records` against `baseline` (a device label). Rows exist for every device
// other than the baseline, whatever the baseline's cells: a baseline with no cells gives n/a
// everywhere.
SpeedUpTable speedUpTable(const std::vector<SweepCellRecord> &records, const QString &baseline);

// What `precision` (bf16 or fp16) gains over fp32 in `records`: a row per device, model and image
// size that has cells of that precision, each value sweepPrecisionGain (NaN: n/a, the cell or its
// fp32 pair did not finish or is not there). Its `gain` is `precision`, its baseline empty.
SpeedUpTable precisionGainTable(const std::vector<SweepCellRecord> &records, Precision precision);

// "2.31×" (two decimals below 10, one below 100, none above), "n/a" for NaN.
QString speedUpText(double speedUp);

// A cell's colour: the chart background blended towards theme::speedUpColour(Faster) above 1x,
// Slower below, the further the more (8x or 1/8x: all the way, on a log scale); n/a: the chart
// grid's grey. And the text colour that reads on it (the chart's text or background colour,
// whichever contrasts more).
QColor speedUpCellColour(double speedUp, theme::Theme theme);
QColor speedUpTextColour(const QColor &cell, theme::Theme theme);

// The heat map's picture: a title line naming the baseline (or the gain), a colour key, then per
// device a block (the device's label, "batch N" column heads, a row per model and image size).
// Drawn from the top-left of `area`, in `font`, clipped to it. speedUpTableSize: the size it needs.
void paintSpeedUpTable(QPainter &painter, const QRectF &area, const SpeedUpTable &table,
                       theme::Theme theme, const QFont &font);
QSizeF speedUpTableSize(const SpeedUpTable &table, const QFont &font);

// The heat map as a widget (object name "sweepHeatMap"): paints paintSpeedUpTable on the chart
// background of the palette's theme; its size hint is speedUpTableSize.
class SpeedUpHeatMap : public QWidget {
    Q_OBJECT

public:
    explicit SpeedUpHeatMap(QWidget *parent = nullptr);

    void setTable(SpeedUpTable table);
    const SpeedUpTable &table() const { return m_table; }
    // What cell (row, column) of the table shows ("2.31×", "n/a"; "" out of range).
    QString cellText(int row, int column) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    SpeedUpTable m_table;
};

} // namespace devicebench
