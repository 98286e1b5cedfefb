// SPDX-License-Identifier: MIT
// The window laid out at the screen sizes people use (a 1280 x 720 and a 1366 x 768 laptop,
// 1600 x 1000, 1920 x 1080, and the window's smallest size), with imported runs of
// docs/examples and the article's published rows: the main actions are in view and never
// inside a scrolled area, every bar has its label, and no two pieces of text are drawn over
// each other; and the exported picture's bars alike. ctest runs these tests again at 200 %
// (QT_SCALE_FACTOR=2). With DEVICEBENCH_LAYOUT_SHOTS=FOLDER each layout is also saved there
// as a picture.
#include "charts/charts.h"
#include "export/comparison_export.h"
#include "store/run_store.h"
#include "window/main_window.h"

#include "devicebench/published.h"
#include "devicebench/resource_files.h"
#include "devicebench/run_record.h"

#include "scoped_variable.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

using test::ScopedVariable;

// The examples' records, the busy and the not comparable ones included.
QStringList exampleRecords() {
    const QString dir = QStringLiteral(DEVICEBENCH_EXAMPLES_DIR);
    return {dir + QStringLiteral("/cpu-1-thread.json"),
            dir + QStringLiteral("/cpu-2-threads.json"),
            dir + QStringLiteral("/cpu-2-threads-batch32.json"),
            dir + QStringLiteral("/busy-machine/cpu-1-thread-epoch-4-contended.json"),
            dir + QStringLiteral("/busy-machine/cpu-1-thread-idle.json"),
            dir + QStringLiteral("/charts/cpu-1-thread-10-epochs.json"),
            dir + QStringLiteral("/charts/cpu-2-threads-10-epochs.json")};
}

// `count` copies of the examples in `dir`, each its own run on a host of its own (so that each
// is a bar of its own), some with long host names.
QStringList copiedRecords(const QTemporaryDir &dir, int count) {
    const QStringList examples = exampleRecords();
    QStringList paths;
    for (int i = 0; i < count; ++i) {
        QFile in(examples[i % examples.size()]);
        if (!in.open(QIODevice::ReadOnly))
            return {};
        QJsonObject record = QJsonDocument::fromJson(in.readAll()).object();
        record[QStringLiteral("runId")] =
            QString(record[QStringLiteral("runId")].toString() + QStringLiteral("-copy%1").arg(i));
        QJsonObject fingerprint = record[QStringLiteral("fingerprint")].toObject();
        fingerprint[QStringLiteral("hostName")] =
            i % 3 == 0 ? QStringLiteral("build-server-rack-%1.lab.example.internal").arg(i)
                       : QStringLiteral("laptop-%1").arg(i);
        record[QStringLiteral("fingerprint")] = fingerprint;
        const QString path = dir.filePath(QStringLiteral("copy-%1.json").arg(i));
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly))
            return {};
        out.write(QJsonDocument(record).toJson());
        paths.append(path);
    }
    return paths;
}

// A rectangle of `widget` in the window's coordinates.
QRect inWindow(const QWidget &window, const QWidget &widget, const QRect &rect) {
    return QRect(widget.mapTo(&window, rect.topLeft()), rect.size());
}

// The part of `widget` that shows (its visible region), in the window's coordinates.
QRect shownPart(const QWidget &window, const QWidget &widget) {
    return inWindow(window, widget, widget.visibleRegion().boundingRect());
}

bool insideScrolledArea(const QWidget &widget) {
    for (const QWidget *w = widget.parentWidget(); w != nullptr; w = w->parentWidget())
        if (qobject_cast<const QAbstractScrollArea *>(w) != nullptr)
            return true;
    return false;
}

// A visible widget that shows text of its own: a label, a button, a box, a field.
bool isTextWidget(const QWidget &widget) {
    for (const QWidget *w = widget.parentWidget(); w != nullptr; w = w->parentWidget())
        if (qobject_cast<const QAbstractSpinBox *>(w) != nullptr ||
            qobject_cast<const QComboBox *>(w) != nullptr)
            return false; // the field inside a spin box or combo box
    const auto *label = qobject_cast<const QLabel *>(&widget);
    return (label != nullptr && !label->text().isEmpty()) ||
           qobject_cast<const QAbstractButton *>(&widget) != nullptr ||
           qobject_cast<const QComboBox *>(&widget) != nullptr ||
           qobject_cast<const QLineEdit *>(&widget) != nullptr ||
           qobject_cast<const QAbstractSpinBox *>(&widget) != nullptr;
}

// The first two visible sibling widgets that overlap (a layout squeezed below its least
// size), "" when none.
QString overlappingSiblings(const QWidget &window) {
    std::vector<const QWidget *> parents{&window};
    for (const QWidget *w : window.findChildren<QWidget *>())
        parents.push_back(w);
    for (const QWidget *parent : parents) {
        if (!parent->isVisible())
            continue;
        std::vector<const QWidget *> shown;
        for (const QObject *child : parent->children())
            if (const auto *w = qobject_cast<const QWidget *>(child);
                w != nullptr && w->isVisible() && !w->isWindow())
                shown.push_back(w);
        for (std::size_t i = 0; i < shown.size(); ++i)
            for (std::size_t j = i + 1; j < shown.size(); ++j)
                if (shown[i]->geometry().intersects(shown[j]->geometry()))
                    return QString::fromUtf8(shown[i]->metaObject()->className()) +
                           QLatin1Char(' ') + shown[i]->objectName() + QStringLiteral(" over ") +
                           QString::fromUtf8(shown[j]->metaObject()->className()) +
                           QLatin1Char(' ') + shown[j]->objectName();
    }
    return {};
}

struct TextItem {
    QString what;
    QRectF rect; // window coordinates
};

// The widgets' text, where it shows.
std::vector<TextItem> widgetTexts(const QWidget &window) {
    std::vector<TextItem> items;
    for (const QWidget *widget : window.findChildren<QWidget *>()) {
        if (!widget->isVisible() || !isTextWidget(*widget))
            continue;
        const QRect shown = shownPart(window, *widget);
        if (!shown.isEmpty())
            items.push_back({widget->objectName().isEmpty()
                                 ? QString::fromUtf8(widget->metaObject()->className())
                                 : widget->objectName(),
                             shown});
    }
    return items;
}

// The bar chart's view.
const QChartView &chartView(const SpeedChart &chart) {
    return *qobject_cast<const QChartView *>(chart.scene()->views().value(0));
}

// `rect` of the chart in the window's coordinates (where it would be drawn, shown or not).
QRectF chartToWindow(const QWidget &window, const SpeedChart &chart, const QRectF &rect) {
    const QChartView &view = chartView(chart);
    const QRect inView = view.mapFromScene(chart.mapRectToScene(rect)).boundingRect();
    return QRectF(inWindow(window, *view.viewport(), inView));
}

// The bar chart's labels and footer where they show, in the window's coordinates.
std::vector<TextItem> chartTexts(const QWidget &window, const SpeedChart &chart) {
    const QRectF shown(shownPart(window, *chartView(chart).viewport()));
    std::vector<TextItem> items;
    const auto add = [&](const QString &what, const QRectF &rect) {
        const QRectF part = chartToWindow(window, chart, rect).intersected(shown);
        if (!part.isEmpty())
            items.push_back({what, part});
    };
    const QStringList labels = chart.barLabels();
    const QList<QRectF> rects = chart.barLabelRects();
    for (qsizetype i = 0; i < rects.size(); ++i)
        add(QStringLiteral("bar label '%1'").arg(labels.value(i)), rects[i]);
    for (const QRectF &rect : chart.footerRects())
        add(QStringLiteral("bar chart footer"), rect);
    return items;
}

// The first pair of `items` drawn over each other (a pixel's touch allowed), "" when none.
QString overlap(const std::vector<TextItem> &items) {
    for (std::size_t i = 0; i < items.size(); ++i)
        for (std::size_t j = i + 1; j < items.size(); ++j)
            if (items[i]
                    .rect.adjusted(1, 1, -1, -1)
                    .intersects(items[j].rect.adjusted(1, 1, -1, -1)))
                return items[i].what + QStringLiteral(" over ") + items[j].what;
    return {};
}

class WindowLayout : public ::testing::TestWithParam<QSize> {
protected:
    QTemporaryDir m_userData;
    QTemporaryDir m_copies;
    ScopedVariable m_resources{kResourcesVariable, QStringLiteral(DEVICEBENCH_RESOURCES_DIR)};
    ScopedVariable m_xdg{"XDG_DATA_HOME", m_userData.path()};

    // A window of `size` (the smallest for an empty size) with `records` and the published
    // rows, laid out and drawn; saved as a picture under DEVICEBENCH_LAYOUT_SHOTS.
    void layOut(MainWindow &window, const QStringList &records, QSize size, const QString &name) {
        window.importRecords(records, false);
        window.resize(size.isEmpty() ? window.minimumSize() : size);
        window.show();
        for (int i = 0; i < 4; ++i) {
            QApplication::processEvents();
            window.redrawNow();
        }
        const QString shots = qEnvironmentVariable("DEVICEBENCH_LAYOUT_SHOTS");
        if (!shots.isEmpty())
            window.grab().save(QDir(shots).filePath(QStringLiteral("layout-%1x%2-%3@%4x.png")
                                                        .arg(window.width())
                                                        .arg(window.height())
                                                        .arg(name)
                                                        .arg(window.devicePixelRatio())));
    }

    // The window is as large as asked (the smallest size is no larger); the main actions are
    // wholly in view outside any scrolled area; every bar has a label on the chart; no two
    // texts are drawn over each other.
    static void expectLaidOut(const MainWindow &window, QSize size) {
        if (!size.isEmpty()) {
            EXPECT_EQ(window.size(), size);
        }
        // Not squeezed below what its layouts need (its least size included).
        EXPECT_LE(window.minimumSizeHint().width(), window.width());
        EXPECT_LE(window.minimumSizeHint().height(), window.height());
        for (const char *name :
             {"runCpuButton", "runGpuButton", "stopButton", "runSetButton", "reproduceButton"}) {
            const auto *button = window.findChild<QPushButton *>(QString::fromUtf8(name));
            ASSERT_NE(button, nullptr) << name;
            EXPECT_TRUE(button->isVisible()) << name;
            EXPECT_EQ(shownPart(window, *button), inWindow(window, *button, button->rect()))
                << name << " is not wholly in view";
            EXPECT_TRUE(window.rect().contains(inWindow(window, *button, button->rect()))) << name;
            EXPECT_FALSE(insideScrolledArea(*button)) << name << " scrolls away with the settings";
        }
        const SpeedChart &chart = *window.speedChart();
        const QStringList labels = chart.barLabels();
        const QList<QRectF> rects = chart.barLabelRects();
        ASSERT_EQ(labels.size(), static_cast<qsizetype>(chart.barValues().size()))
            << "a bar without its label (" << (chart.horizontal() ? "horizontal" : "vertical")
            << ")";
        for (qsizetype i = 0; i < labels.size(); ++i) {
            EXPECT_FALSE(labels[i].trimmed().isEmpty()) << "bar " << i;
            EXPECT_FALSE(rects[i].isEmpty()) << "bar " << i;
            EXPECT_TRUE(chart.rect().contains(rects[i])) << "bar " << i << " label off the chart";
        }
        for (const QRectF &rect : chart.footerRects())
            EXPECT_TRUE(chart.rect().contains(rect)) << "the footer runs off the chart";
        // The chart fits its view (not held taller by its least size, its bottom cut off).
        EXPECT_LE(chart.size().height(), chartView(chart).viewport()->height() + 1.0);
        // Scrolled out of view, perhaps, but never cut at the pane's sides.
        const QWidget &viewport = *chartView(chart).parentWidget(); // the scroll area's
        const QRect pane = inWindow(window, viewport, viewport.rect());
        for (qsizetype i = 0; i < rects.size(); ++i) {
            const QRectF label = chartToWindow(window, chart, rects[i]);
            EXPECT_TRUE(label.left() >= pane.left() && label.right() <= pane.right() + 1)
                << "bar " << i << " label cut off at the side: " << label.left() << ".."
                << label.right() << " in " << pane.left() << ".." << pane.right();
        }
        std::vector<TextItem> texts = widgetTexts(window);
        for (const TextItem &item : chartTexts(window, chart))
            texts.push_back(item);
        EXPECT_EQ(overlap(texts).toStdString(), std::string());
        EXPECT_EQ(overlappingSiblings(window).toStdString(), std::string());
    }
};

} // namespace

TEST_P(WindowLayout, ThreeRunsAndThePublishedRowsAreLaidOutWithNothingOverAnything) {
    MainWindow window(nullptr, QString());
    layOut(window, exampleRecords().mid(0, 3), GetParam(), QStringLiteral("three-runs"));
    EXPECT_EQ(window.store().publishedRows().rows.size(), 4U);
    EXPECT_EQ(window.speedChart()->publishedBarCount(), 4);
    expectLaidOut(window, GetParam());
}

TEST_P(WindowLayout, SevenRunsOneByOneWithWarningsAreLaidOutWithNothingOverAnything) {
    MainWindow window(nullptr, QString());
    window.findChild<QAbstractButton *>(QStringLiteral("runsOneByOneCheck"))->setChecked(true);
    layOut(window, exampleRecords(), GetParam(), QStringLiteral("seven-runs"));
    expectLaidOut(window, GetParam());
}

TEST_P(WindowLayout, ALongHostNameIsWrappedUnderItsBarWithoutPublishedRows) {
    ASSERT_TRUE(m_copies.isValid());
    MainWindow window(nullptr, QString());
    window.findChild<QAbstractButton *>(QStringLiteral("publishedCheck"))->setChecked(false);
    layOut(window, copiedRecords(m_copies, 2), GetParam(), QStringLiteral("long-host"));
    EXPECT_FALSE(window.speedChart()->horizontal());
    expectLaidOut(window, GetParam());
}

TEST_P(WindowLayout, FortyRunsOnLongNamedHostsAreEachLabelled) {
    ASSERT_TRUE(m_copies.isValid());
    MainWindow window(nullptr, QString());
    layOut(window, copiedRecords(m_copies, 40), GetParam(), QStringLiteral("forty-runs"));
    EXPECT_TRUE(window.speedChart()->horizontal());
    expectLaidOut(window, GetParam());
}

// An empty size: the window's smallest.
INSTANTIATE_TEST_SUITE_P(ScreenSizes, WindowLayout,
                         ::testing::Values(QSize(), QSize(1280, 720), QSize(1366, 768),
                                           QSize(1600, 1000), QSize(1920, 1080)),
                         [](const ::testing::TestParamInfo<QSize> &sizes) {
                             const QSize size = sizes.param;
                             return size.isEmpty() ? std::string("Smallest")
                                                   : "At" + std::to_string(size.width()) + "x" +
                                                         std::to_string(size.height());
                         });

// The exported picture's bars (renderComparison's): the room pictureBarsHeight gives them
// labels every bar, vertical or horizontal, inside the chart and none over another or over
// the footer.
TEST(PictureLayout, EveryBarOfThePictureIsLabelledAndNoTextIsOverAnother) {
    QTemporaryDir userData;
    QTemporaryDir copies;
    ASSERT_TRUE(userData.isValid() && copies.isValid());
    const ScopedVariable resources{kResourcesVariable, QStringLiteral(DEVICEBENCH_RESOURCES_DIR)};
    const ScopedVariable xdg{"XDG_DATA_HOME", userData.path()};
    for (const int runs : {2, 3, 7, 40}) {
        RunStore store;
        store.setPublished(loadPublished(publishedFolders()).sets);
        for (const QString &path : copiedRecords(copies, runs))
            store.addRecord(readRunRecord(path.toStdString()), path);
        QGraphicsScene scene;
        auto *bars = new SpeedChart;
        scene.addItem(bars);
        bars->setRunsOneByOne(true);
        const int fitHeight = kExportHeight * 43 / 100; // about the picture's share
        bars->setGeometry(QRectF(0, 0, kExportWidth, fitHeight));
        bars->layout()->activate();
        bars->sync(store);
        const int height = pictureBarsHeight(*bars, fitHeight);
        bars->setGeometry(QRectF(0, 0, kExportWidth, height));
        bars->layout()->activate();
        // Not taller than its place (its least size above it): the caption under it stays clear.
        EXPECT_EQ(bars->size().height(), height) << runs;
        EXPECT_EQ(bars->publishedBarCount(), 4) << runs;
        const QList<QRectF> rects = bars->barLabelRects();
        ASSERT_EQ(rects.size(), static_cast<qsizetype>(bars->barValues().size())) << runs;
        std::vector<TextItem> texts;
        for (const QRectF &rect : rects + bars->footerRects()) {
            EXPECT_TRUE(bars->rect().contains(rect)) << runs << " runs: off the picture's chart";
            texts.push_back({QStringLiteral("text"), rect});
        }
        EXPECT_EQ(overlap(texts).toStdString(), std::string()) << runs << " runs";
    }
}
