// SPDX-License-Identifier: MIT
// PLACEHOLDER until the Sweep view's export (issue 13, the sweepui work) replaces this file: a
// plain QPainter line chart of images/s against batch size (log 2 scale), one line per model,
// image size and device, and the speed-up against the baseline in the legend. No Qt Charts.
#include "sweep_png.h"

#include "theme.h"

#include "devicebench/csv_export.h"
#include "devicebench/sweep.h"

#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

namespace devicebench {
namespace {

constexpr int kWidth = 1400;
constexpr int kHeight = 800;

std::unique_ptr<QApplication> makeOffscreenApplication() {
    if (QCoreApplication::instance() != nullptr)
        return nullptr;
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static int qtArgc = 1;
    static char qtArg0[] = "devicebench-cli";
    static char *qtArgv[] = {qtArg0, nullptr};
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &msg) {
        if (type == QtCriticalMsg || type == QtFatalMsg)
            std::fprintf(stderr, "Qt: %s\n", qPrintable(msg));
    });
    return std::make_unique<QApplication>(qtArgc, qtArgv);
}

QString lineName(const SweepCellRecord &r) {
    return QStringLiteral("%1 %2px %3")
        .arg(QString::fromStdString(r.cell.model))
        .arg(r.cell.imageSize)
        .arg(QString::fromStdString(r.cell.device.label()));
}

QImage render(const std::vector<SweepCellRecord> &records, const std::string &baseline) {
    using theme::Role;
    const theme::Theme look = theme::Theme::Light;
    QImage image(kWidth, kHeight, QImage::Format_ARGB32);
    image.fill(theme::colour(Role::ChartBackground, look));
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF plot(110, 70, kWidth - 520, kHeight - 160);
    std::map<QString, std::vector<const SweepCellRecord *>> lines;
    double maxRate = 0.0;
    int minBatch = 1024, maxBatch = 1;
    for (const SweepCellRecord &r : records) {
        if (r.result.status != RunStatus::Finished || !(r.result.imagesPerSecond > 0.0))
            continue;
        lines[lineName(r)].push_back(&r);
        maxRate = std::max(maxRate, r.result.imagesPerSecond);
        minBatch = std::min(minBatch, r.cell.batchSize);
        maxBatch = std::max(maxBatch, r.cell.batchSize);
    }
    maxRate = maxRate > 0.0 ? maxRate * 1.1 : 1.0;
    const double lo = std::log2(std::max(minBatch, 1)), hi = std::log2(std::max(maxBatch, 2));
    const double span = hi > lo ? hi - lo : 1.0;
    const auto at = [&](int batch, double rate) {
        return QPointF(plot.left() + (std::log2(batch) - lo) / span * plot.width(),
                       plot.bottom() - rate / maxRate * plot.height());
    };
    p.setPen(theme::colour(Role::ChartText, look));
    QFont font = p.font();
    font.setPixelSize(22);
    p.setFont(font);
    p.drawText(QRectF(0, 10, kWidth, 40), Qt::AlignCenter,
               QStringLiteral("Sweep: images/s against batch size (speed-up against %1)")
                   .arg(QString::fromStdString(baseline)));
    font.setPixelSize(14);
    p.setFont(font);
    p.setPen(theme::colour(Role::ChartAxisLine, look));
    p.drawRect(plot);
    p.setPen(theme::colour(Role::ChartText, look));
    for (int b = 1; b <= 1024; b *= 2) {
        if (b < minBatch || b > maxBatch)
            continue;
        const QPointF x = at(b, 0.0);
        p.drawText(QRectF(x.x() - 30, plot.bottom() + 6, 60, 20), Qt::AlignCenter,
                   QString::number(b));
    }
    for (int i = 0; i <= 4; ++i) {
        const double rate = maxRate * i / 4.0;
        p.drawText(QRectF(0, at(minBatch, rate).y() - 10, plot.left() - 8, 20),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(rate, 'f', 0));
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + 30, plot.width(), 24), Qt::AlignCenter,
               QStringLiteral("batch size (log scale)"));
    p.drawText(QRectF(10, plot.top() - 30, 300, 24), Qt::AlignLeft, QStringLiteral("images/s"));
    int n = 0;
    for (const auto &[name, cells] : lines) {
        ++n;
        std::vector<const SweepCellRecord *> sorted = cells;
        std::sort(sorted.begin(), sorted.end(),
                  [](auto *a, auto *b) { return a->cell.batchSize < b->cell.batchSize; });
        QPainterPath path;
        QString speedUps;
        for (std::size_t i = 0; i < sorted.size(); ++i) {
            const QPointF point = at(sorted[i]->cell.batchSize, sorted[i]->result.imagesPerSecond);
            if (i == 0)
                path.moveTo(point);
            else
                path.lineTo(point);
            const double up = sweepSpeedUp(records, *sorted[i], baseline);
            if (std::isfinite(up) && sorted[i]->cell.device.label() != baseline)
                speedUps += QStringLiteral(" %1x").arg(up, 0, 'f', 2);
        }
        p.setPen(QPen(theme::runColour(n), 3));
        p.drawPath(path);
        for (const SweepCellRecord *r : sorted)
            p.drawEllipse(at(r->cell.batchSize, r->result.imagesPerSecond), 4, 4);
        const double y = plot.top() + 24.0 * (n - 1);
        p.drawLine(QPointF(plot.right() + 20, y + 10), QPointF(plot.right() + 50, y + 10));
        p.setPen(theme::colour(Role::ChartText, look));
        p.drawText(QRectF(plot.right() + 58, y, 340, 20), Qt::AlignLeft | Qt::AlignVCenter,
                   name + speedUps);
    }
    return image;
}

} // namespace

bool writeSweepPng(const std::vector<SweepCellRecord> &records, const std::string &baselineLabel,
                   const std::string &path, std::string *error) {
    const std::unique_ptr<QApplication> app = makeOffscreenApplication(); // for this call only
    const auto fail = [&](const std::string &why) {
        if (error != nullptr)
            *error = "Cannot write " + path + ": " + why;
        return false;
    };
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    try {
        if (!render(records, baselineLabel).save(&buffer, "PNG"))
            return fail("PNG encoding failed");
    } catch (const theme::ThemeError &e) {
        return fail(e.what());
    }
    try {
        writeExportFile(path, bytes.toStdString());
    } catch (const ExportError &e) {
        if (error != nullptr)
            *error = e.what();
        return false;
    }
    return true;
}

} // namespace devicebench
