// SPDX-License-Identifier: MIT
// The published results in the dashboard: the "Published results" check box of the compare
// panel, the published rows as hatched bars in the bar chart (one legend entry per source
// program), their hover, the exported picture, and files that cannot be read.
#include "charts/charts.h"
#include "charts/published_bars.h"
#include "export/comparison_export.h"
#include "panels/compare_panel.h"
#include "store/run_store.h"
#include "theme/theme.h"

#include "devicebench/published.h"
#include "devicebench/resource_files.h"
#include "devicebench/run_record.h"

#include "record_builder.h"
#include "scoped_variable.h"

#include <QBarSet>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

using namespace devicebench;

namespace {

using test::ScopedVariable;

// A finished run of DeviceBench's faithful workload: 4 epochs, the first warm-up.
RunRecord faithfulRun(const std::string &id, double seconds) {
    return devicebench::testing::finishedCpuRun(
        id, {seconds + 0.01, seconds + 0.02, seconds + 0.03, seconds + 0.04});
}

// The built-in folder is the checkout's resources/ (published/article.json); the user's
// folder an empty temporary one, so that no file of the machine's user gets in.
class PublishedView : public ::testing::Test {
protected:
    QTemporaryDir m_userData;
    ScopedVariable m_resources{kResourcesVariable, QStringLiteral(DEVICEBENCH_RESOURCES_DIR)};
    ScopedVariable m_xdg{"XDG_DATA_HOME", m_userData.path()};
    RunStore m_store;
    ComparePanel m_panel{m_store};
    SpeedChart m_chart;

    void SetUp() override {
        ASSERT_TRUE(m_userData.isValid());
        m_store.addRecord(faithfulRun("faithful-1", 2.0), QStringLiteral("a.json"));
    }

    // A file of the user's published folder.
    void writeUserFile(const QString &name, const QByteArray &text) {
        const QString dir = m_userData.filePath(QStringLiteral("devicebench/published"));
        ASSERT_TRUE(QDir().mkpath(dir));
        QFile file(dir + QLatin1Char('/') + name);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text);
    }

    // The legend entries the chart shows.
    QStringList shownLegend() const { return m_chart.legendEntries(); }
};

const QString kArticleLegend = QStringLiteral("published: the article's script");

} // namespace

TEST_F(PublishedView, TheCheckBoxIsOnAndTheArticlesFourRowsBecomeHatchedBarsWithOneLegendEntry) {
    EXPECT_TRUE(m_panel.publishedCheck()->isChecked());
    m_panel.loadPublished();
    EXPECT_TRUE(m_panel.publishedCheck()->isEnabled());
    m_chart.sync(m_store);

    ASSERT_EQ(m_chart.publishedBarCount(), 4);
    const std::vector<double> values = m_chart.barValues();
    ASSERT_EQ(values.size(), 5u); // the run, then the four rows
    EXPECT_DOUBLE_EQ(values[1], 11.82);
    EXPECT_DOUBLE_EQ(values[2], 12.50);
    EXPECT_DOUBLE_EQ(values[3], 27.35);
    EXPECT_DOUBLE_EQ(values[4], 55.62);
    QBarSet *published = m_chart.publishedBarSet(0);
    ASSERT_NE(published, nullptr);
    EXPECT_EQ(m_chart.publishedBarSet(1), nullptr); // one source program: one set
    EXPECT_EQ(published->label(), kArticleLegend);
    EXPECT_TRUE(hasPublishedStyle(published));
    EXPECT_EQ(published->brush().style(), Qt::BDiagPattern);
    EXPECT_FALSE(m_chart.barHatched(0)); // the run's own bar stays solid
    EXPECT_EQ(shownLegend(), QStringList{kArticleLegend});
    EXPECT_TRUE(m_chart.categories()[1].contains(QStringLiteral("Tesla T4")));
}

TEST_F(PublishedView, TurningTheCheckBoxOffRemovesThePublishedBarsAndTheirLegendEntry) {
    m_panel.loadPublished();
    m_chart.sync(m_store);
    ASSERT_EQ(m_chart.publishedBarCount(), 4);

    m_panel.publishedCheck()->setChecked(false);
    m_chart.sync(m_store);
    EXPECT_EQ(m_chart.publishedBarCount(), 0);
    EXPECT_EQ(m_chart.barValues().size(), 1u);
    EXPECT_EQ(m_chart.publishedBarSet(0), nullptr);
    EXPECT_TRUE(shownLegend().isEmpty());

    m_panel.publishedCheck()->setChecked(true);
    m_chart.sync(m_store);
    EXPECT_EQ(m_chart.publishedBarCount(), 4);
}

TEST_F(PublishedView, APublishedBarsHoverNamesItsSourceAndSaysOtherProgramBesideAFaithfulRun) {
    m_panel.loadPublished();
    m_chart.sync(m_store);
    QString hover = m_chart.hoverText(1);
    hover.replace(QLatin1Char('\n'), QLatin1Char(' ')); // long lines are broken for the box
    EXPECT_TRUE(hover.startsWith(QStringLiteral("article: Tesla T4 (Kaggle notebook)")))
        << hover.toStdString();
    EXPECT_TRUE(hover.contains(QStringLiteral("11.82 s per epoch")));
    EXPECT_TRUE(hover.contains(QStringLiteral("Kaggle notebook")));
    EXPECT_TRUE(hover.contains(QStringLiteral("source: A published tutorial")));
    EXPECT_TRUE(hover.contains(QStringLiteral("CPU models and drivers are not stated")));
    EXPECT_TRUE(hover.contains(
        QStringLiteral("other program: DeviceBench's faithful workload, not the article's script")))
        << hover.toStdString();
    EXPECT_TRUE(hover.contains(
        QStringLiteral("none of your runs is the article's script at the settings of article")));
    m_chart.showHover(1);
    EXPECT_EQ(m_chart.shownHover(), m_chart.hoverText(1));
    // The run's own hover says nothing of the published rows.
    EXPECT_FALSE(m_chart.hoverText(0).contains(QStringLiteral("article")));
}

namespace {

// Pixels of the picture's lower half (the bar chart) in the chart's text colour, of which the
// published bars' hatching and outlines are drawn.
int inkPixels(const QImage &image) {
    const QColor ink = theme::colour(theme::Role::ChartText, theme::Theme::Light);
    int count = 0;
    for (int y = image.height() / 2; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            count += std::abs(c.red() - ink.red()) + std::abs(c.green() - ink.green()) +
                                 std::abs(c.blue() - ink.blue()) <
                             60
                         ? 1
                         : 0;
        }
    }
    return count;
}

} // namespace

TEST_F(PublishedView, TheExportedPictureDrawsThePublishedBarsHatched) {
    m_panel.loadPublished();
    const QImage with = renderComparison(m_store);
    m_store.setPublishedShown(false);
    const QImage without = renderComparison(m_store);
    ASSERT_FALSE(with.isNull());
    // Four hatched bars of 11.8 to 55.6 s on a 0-80 s axis: thousands of ink pixels more.
    EXPECT_GT(inkPixels(with), inkPixels(without) + 5000)
        << inkPixels(with) << " vs " << inkPixels(without);
}

TEST_F(PublishedView, ABadUserFileIsNamedOnceAndTheOtherFilesStillLoad) {
    writeUserFile(QStringLiteral("bad.json"), "{\"schemaVersion\": 1,");
    QFile article(QStringLiteral(DEVICEBENCH_RESOURCES_DIR "/published/article.json"));
    ASSERT_TRUE(article.open(QIODevice::ReadOnly));
    QByteArray lab = article.readAll();
    lab.replace("\"shortName\": \"article\"", "\"shortName\": \"lab\"");
    lab.replace("\"program\": \"article-script\"", "\"program\": \"faithful\"");
    writeUserFile(QStringLiteral("lab.json"), lab);

    QSignalSpy status(&m_panel, &ComparePanel::statusMessage);
    m_panel.loadPublished();
    ASSERT_EQ(status.count(), 1);
    const QString message = status.at(0).at(0).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("bad.json"))) << message.toStdString();
    EXPECT_TRUE(status.at(0).at(1).toBool());      // shown as an error
    ASSERT_EQ(m_store.publishedSets().size(), 2u); // the article and lab.json

    m_chart.sync(m_store);
    EXPECT_EQ(m_chart.publishedBarCount(), 8);
    // A second source program: its own legend entry.
    EXPECT_EQ(shownLegend(),
              (QStringList{kArticleLegend,
                           QStringLiteral("published: DeviceBench's faithful workload")}));
}

TEST_F(PublishedView, WithoutTheBuiltInFileTheCheckBoxIsDisabledAndSaysWhereItLooked) {
    QTemporaryDir empty;
    ScopedVariable resources(kResourcesVariable, empty.path());
    m_panel.loadPublished();
    EXPECT_FALSE(m_panel.publishedCheck()->isEnabled());
    EXPECT_TRUE(
        m_panel.publishedCheck()->toolTip().contains(empty.path() + QStringLiteral("/published")))
        << m_panel.publishedCheck()->toolTip().toStdString();
    m_chart.sync(m_store);
    EXPECT_EQ(m_chart.publishedBarCount(), 0);
}
