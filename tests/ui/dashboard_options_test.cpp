// SPDX-License-Identifier: MIT
// The dashboard's command line as main() reads it (app/dashboard/dashboard_options.h): the
// article's script's Python and "Reproduce the article".
#include "dashboard_options.h"

#include <QCommandLineParser>
#include <QStringList>

#include <gtest/gtest.h>

#include <optional>

using namespace devicebench;

namespace {

// `arguments` (after the program's name) parsed and read; nullopt when either step refuses.
std::optional<DashboardOptions> read(const QStringList &arguments, QCommandLineParser &parser) {
    addDashboardOptions(parser);
    if (!parser.parse(QStringList{QStringLiteral("devicebench")} + arguments))
        return std::nullopt;
    return readDashboardOptions(parser);
}

} // namespace

TEST(DashboardOptions, PythonGoesIntoTheRunSettings) {
    QCommandLineParser parser;
    const auto options = read({QStringLiteral("--workload"), QStringLiteral("article-script"),
                               QStringLiteral("--python"), QStringLiteral("/opt/venv/bin/python")},
                              parser);
    ASSERT_TRUE(options);
    ASSERT_TRUE(options->settings.python);
    EXPECT_EQ(*options->settings.python, "/opt/venv/bin/python");
    const RunConfig config = withCommandLineSettings(RunConfig{}, options->settings, parser);
    EXPECT_EQ(config.workload, Workload::ArticleScript);
    EXPECT_EQ(config.python, "/opt/venv/bin/python");
    EXPECT_FALSE(options->reproduce);
}

TEST(DashboardOptions, WithoutPythonTheWindowsIsKept) {
    QCommandLineParser parser;
    const auto options = read({}, parser);
    ASSERT_TRUE(options);
    EXPECT_FALSE(options->settings.python);
    RunConfig window;
    window.python = "/usr/bin/python3.12";
    EXPECT_EQ(withCommandLineSettings(window, options->settings, parser).python,
              "/usr/bin/python3.12");
}

TEST(DashboardOptions, ReproduceIsReadWithTheSettingsThatReplaceThePublishedOnes) {
    QCommandLineParser parser;
    const auto options =
        read({QStringLiteral("--reproduce"), QStringLiteral("--epochs"), QStringLiteral("2"),
              QStringLiteral("--train-images"), QStringLiteral("2000"),
              QStringLiteral("--test-images"), QStringLiteral("500"), QStringLiteral("--quit")},
             parser);
    ASSERT_TRUE(options);
    EXPECT_TRUE(options->reproduce);
    const ReproductionOverrides overrides = reproductionOverrides(options->settings);
    EXPECT_EQ(overrides.epochs, 2);
    EXPECT_FALSE(overrides.warmupEpochs);
    EXPECT_EQ(overrides.trainImages, 2000);
    EXPECT_EQ(overrides.testImages, 500);
}

TEST(DashboardOptions, ReproduceAloneKeepsEveryPublishedSetting) {
    QCommandLineParser parser;
    const auto options = read({QStringLiteral("--reproduce")}, parser);
    ASSERT_TRUE(options);
    EXPECT_TRUE(options->reproduce);
    const ReproductionOverrides overrides = reproductionOverrides(options->settings);
    EXPECT_FALSE(overrides.epochs || overrides.warmupEpochs || overrides.trainImages ||
                 overrides.testImages);
}
