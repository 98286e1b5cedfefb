// SPDX-License-Identifier: MIT
#include "export/sweep_export.h"

#include "export/comparison_export.h"

#include "charts/sweep_chart.h"
#include "charts/sweep_heat_map.h"
#include "theme/theme.h"

#include "devicebench/csv_export.h" // writeExportFile
#include "devicebench/display_text.h"
#include "devicebench/version.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <string>

namespace devicebench {

namespace {

// Each value once, in order of first appearance.
template <typename Get> QStringList distinct(const std::vector<SweepCellRecord> &records, Get get) {
    QStringList values;
    for (const SweepCellRecord &record : records) {
        const QString value = get(record);
        if (!value.isEmpty() && !values.contains(value))
            values.append(value);
    }
    return values;
}

QString joined(const QStringList &values) { return values.join(QStringLiteral(", ")); }

// The height `text` takes word-wrapped in `width` pixels of `font`; 0 when empty.
double wrappedHeight(const QString &text, const QFont &font, double width) {
    if (text.isEmpty())
        return 0.0;
    return QFontMetricsF(font)
        .boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap | Qt::AlignLeft, text)
        .height();
}

// A fresh chart of `records` in `scene` (which owns it from then on), as the picture draws it:
// square, in `look`, no shadow.
SweepChart *addSweepChart(QGraphicsScene &scene, const std::vector<SweepCellRecord> &records,
                          theme::Theme look) {
    auto *chart = new SweepChart;
    scene.addItem(chart);
    chart->setBackgroundRoundness(0);
    theme::applyToChart(chart, look);
    chart->setDropShadowEnabled(false);
    chart->sync(records);
    return chart;
}

} // namespace

QString sweepGridText(const std::vector<SweepCellRecord> &records) {
    if (records.empty())
        return QStringLiteral("Sweep: no cells");
    const QStringList models = distinct(records, [](const SweepCellRecord &r) -> QString {
        return QString::fromStdString(r.cell.model);
    });
    std::vector<int> batches;
    for (const SweepCellRecord &r : records)
        if (std::find(batches.begin(), batches.end(), r.cell.batchSize) == batches.end())
            batches.push_back(r.cell.batchSize);
    std::sort(batches.begin(), batches.end());
    QStringList batchText;
    for (const int b : batches)
        batchText.append(QString::number(b));
    const QStringList sizes = distinct(records, [](const SweepCellRecord &r) -> QString {
        return QStringLiteral("%1 px").arg(r.cell.imageSize);
    });
    const QStringList devices = distinct(records, [](const SweepCellRecord &r) -> QString {
        return QString::fromStdString(r.cell.device.label());
    });
    const QStringList steps = distinct(records, [](const SweepCellRecord &r) -> QString {
        return QStringLiteral("%1 timed steps after %2 warm-up").arg(r.steps).arg(r.warmupSteps);
    });
    return QStringLiteral("Sweep: %1 · batch sizes %2 · %3 · %4 · %5")
        .arg(joined(models), joined(batchText), joined(sizes), joined(devices),
             steps.join(QStringLiteral(" / ")));
}

QString sweepMachineText(const std::vector<SweepCellRecord> &records) {
    const QStringList machines = distinct(records, [](const SweepCellRecord &r) -> QString {
        const Fingerprint &f = r.fingerprint;
        // names from another machine: isolated, never obeyed (display_text.h)
        const QString host = f.hostName.empty() ? QStringLiteral("unknown host")
                                                : QString::fromStdString(displayText(f.hostName));
        const std::string &device = r.cell.device.device;
        if (device.rfind("cuda", 0) == 0) {
            const std::string &name = r.result.deviceName.empty() ? device : r.result.deviceName;
            return QString::fromStdString(displayText(name)) + QStringLiteral(" @ ") + host;
        }
        const QString cpu = f.cpuModel.empty() ? QStringLiteral("CPU")
                                               : QString::fromStdString(displayText(f.cpuModel));
        return cpu + QStringLiteral(" @ ") + host;
    });
    return machines.join(QStringLiteral(" · "));
}

QString sweepCaption(const std::vector<SweepCellRecord> &records) {
    QString caption =
        QStringLiteral("DeviceBench %1 · %2")
            .arg(QString::fromUtf8(kVersion),
                 QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    if (std::any_of(records.begin(), records.end(),
                    [](const SweepCellRecord &r) { return r.synthetic; }))
        caption += QStringLiteral(" · synthetic data: times are real, accuracy is meaningless");
    return caption;
}

QImage renderSweep(const std::vector<SweepCellRecord> &records, const QString &baseline) {
    const theme::Theme look = theme::Theme::Light; // the picture is always light
    const int width = kSweepExportWidth;
    const double margin = 16.0;
    QFont titleFont;
    titleFont.setPointSizeF(13.0);
    titleFont.setBold(true);
    QFont textFont;
    textFont.setPointSizeF(10.0);

    const QStringList devices = sweepDeviceLabels(records);
    const QString chosen = baseline.isEmpty() && !devices.isEmpty() ? devices.front() : baseline;
    const SpeedUpTable table = speedUpTable(records, chosen);
    const QSizeF tableSize = speedUpTableSize(table, textFont);

    QGraphicsScene scene; // a private scene: nothing is shown, nothing shared with a window
    SweepChart *chart = addSweepChart(scene, records, look);
    const QString note = chart->leftOutNote();

    const QString title = sweepGridText(records);
    const QString machine = QStringLiteral("Measured on ") + sweepMachineText(records);
    const double textWidth = width - 2 * margin;
    const double titleHeight = wrappedHeight(title, titleFont, textWidth) + 6.0;
    const double machineHeight = wrappedHeight(machine, textFont, textWidth) + 10.0;
    const double noteHeight = note.isEmpty() ? 0.0 : wrappedHeight(note, textFont, textWidth) + 8;
    const double captionHeight = 30.0;
    const double chartTop = margin + titleHeight + machineHeight;
    const double tableTop = chartTop + kSweepChartHeight + 8.0;
    const double noteTop = tableTop + tableSize.height() + 8.0;
    const int height = static_cast<int>(std::ceil(noteTop + noteHeight + captionHeight));

    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    image.fill(theme::colour(theme::Role::ChartBackground, look));
    const QColor ink = theme::colour(theme::Role::ChartText, look);

    chart->setGeometry(QRectF(0, 0, width, kSweepChartHeight));
    chart->layout()->activate(); // normally done by the event loop
    scene.setSceneRect(0, 0, width, kSweepChartHeight);

    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setPen(ink);
    painter.setFont(titleFont);
    painter.drawText(QRectF(margin, margin, textWidth, titleHeight),
                     Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, title);
    painter.setFont(textFont);
    painter.drawText(QRectF(margin, margin + titleHeight, textWidth, machineHeight),
                     Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, machine);
    scene.render(&painter, QRectF(0, chartTop, width, kSweepChartHeight), scene.sceneRect());
    paintSpeedUpTable(painter, QRectF(margin, tableTop, textWidth, tableSize.height()), table, look,
                      textFont);
    painter.setFont(textFont);
    painter.setPen(ink);
    if (!note.isEmpty())
        painter.drawText(QRectF(margin, noteTop, textWidth, noteHeight),
                         Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, note);
    painter.drawText(QRectF(margin, height - captionHeight, textWidth, captionHeight),
                     Qt::AlignLeft | Qt::AlignVCenter, sweepCaption(records));
    painter.end();
    return image;
}

bool exportSweepPng(const std::vector<SweepCellRecord> &records, const QString &baseline,
                    const QString &path, QString *error) {
    if (records.empty()) { // an empty picture would pass for a sweep
        if (error != nullptr)
            *error =
                QStringLiteral("Nothing to draw in %1: no cell records; the PNG is not written")
                    .arg(QDir::toNativeSeparators(path));
        return false;
    }
    return writeRenderedPng([&] { return renderSweep(records, baseline); }, path, error);
}

} // namespace devicebench
