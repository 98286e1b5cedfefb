// SPDX-License-Identifier: MIT
#include "comparison_export.h"

#include "charts.h"
#include "epoch_table.h"
#include "run_store.h"

#include "devicebench/version.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFont>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>
#include <QSaveFile>

namespace devicebench {

QString comparisonCaption(const RunStore &store) {
    QString caption =
        QStringLiteral("DeviceBench %1 · %2")
            .arg(QString::fromUtf8(kVersion),
                 QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    if (store.anySynthetic())
        caption += QStringLiteral(" · synthetic data: times are real, accuracy is meaningless");
    return caption;
}

QImage renderComparison(const RunStore &store, QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);

    const int width = size.width();
    const int captionHeight = 34;
    const int chartsHeight = size.height() - captionHeight;
    const int lossHeight = chartsHeight * 57 / 100;
    const QRectF lossRect(0, 0, width, lossHeight);
    const QRectF barRect(0, lossHeight, width, chartsHeight - lossHeight);

    // Fresh charts in a private scene: nothing is shown, nothing is shared with a window.
    QGraphicsScene scene;
    auto *loss = new LossChart;
    auto *bars = new SpeedChart;
    scene.addItem(loss); // the scene owns them from here
    scene.addItem(bars);
    for (QChart *chart : {static_cast<QChart *>(loss), static_cast<QChart *>(bars)}) {
        chart->setBackgroundRoundness(0);
        chart->setBackgroundBrush(Qt::white);
        chart->setDropShadowEnabled(false);
    }
    loss->sync(store);
    bars->sync(store);
    loss->setGeometry(lossRect);
    bars->setGeometry(barRect);
    // Layouts are normally activated from the event loop; do it now.
    loss->layout()->activate();
    bars->layout()->activate();
    scene.setSceneRect(0, 0, width, chartsHeight);

    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(0, 0, width, chartsHeight), scene.sceneRect());

    QFont font = painter.font();
    font.setPointSizeF(10.0);
    painter.setFont(font);
    painter.setPen(QColor(60, 60, 60));
    painter.drawText(QRectF(16, chartsHeight, width - 32, captionHeight),
                     Qt::AlignLeft | Qt::AlignVCenter, comparisonCaption(store));
    painter.end();
    return image;
}

QString csvField(const QString &field) {
    const bool needsQuotes = field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"')) ||
                             field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r'));
    if (!needsQuotes)
        return field;
    QString quoted = field;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString comparisonCsv(const RunStore &store) {
    QStringList header;
    for (int c = 0; c < kEpochColumnCount; ++c)
        header.append(epochColumnKey(static_cast<EpochColumn>(c)));
    QString csv = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const EpochRowRef &ref : epochRows(store)) {
        const RunRecord &run = store.run(ref.runIndex);
        const EpochResult &epoch = run.epochs[static_cast<std::size_t>(ref.epochIndex)];
        QStringList fields;
        for (int c = 0; c < kEpochColumnCount; ++c)
            fields.append(
                csvField(epochCell(run, epoch, static_cast<EpochColumn>(c), CellFormat::Csv)));
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

namespace {

bool writeAtomically(const QString &path, const QByteArray &bytes, QString *error) {
    const QString shown = QDir::toNativeSeparators(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: %2").arg(shown, file.errorString());
        return false;
    }
    if (file.write(bytes) != bytes.size()) {
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: %2").arg(shown, file.errorString());
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: %2").arg(shown, file.errorString());
        return false;
    }
    return true;
}

} // namespace

bool exportComparisonPng(const RunStore &store, const QString &path, QString *error) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!renderComparison(store).save(&buffer, "PNG")) {
        if (error != nullptr)
            *error = QStringLiteral("Cannot write %1: PNG encoding failed")
                         .arg(QDir::toNativeSeparators(path));
        return false;
    }
    return writeAtomically(path, bytes, error);
}

bool exportComparisonCsv(const RunStore &store, const QString &path, QString *error) {
    return writeAtomically(path, comparisonCsv(store).toUtf8(), error);
}

} // namespace devicebench
