// SPDX-License-Identifier: MIT
// The dashboard's command line as main() reads it (app/dashboard/dashboard_options.h): the
// article's script's Python and "Reproduce the article".
#include "dashboard_options.h"
#include "session_checks.h"
#include "settings_file.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStringList>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <optional>
#include <vector>

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

// The scripted options refused as the CLI refuses its own, before anything runs: one given
// twice, one with an empty value, a number not finite or out of range, a run number below 1.
TEST(DashboardOptions, AnOptionTwiceEmptyOrNotAFiniteNumberInRangeIsRefused) {
    const std::vector<QStringList> cases = {
        {QStringLiteral("--theme"), QStringLiteral("dark"), QStringLiteral("--theme"),
         QStringLiteral("light")},
        {QStringLiteral("--quit"), QStringLiteral("--quit")},
        {QStringLiteral("--python"), QString()},
        {QStringLiteral("--export-png"), QString()},
        {QStringLiteral("--smoothing"), QStringLiteral("nan")},
        {QStringLiteral("--smoothing"), QStringLiteral("-inf")},
        {QStringLiteral("--zoom"), QStringLiteral("nan:1")},
        {QStringLiteral("--hide-run"), QStringLiteral("0")},
        {QStringLiteral("--hover-bar"), QStringLiteral("-2")},
        {QStringLiteral("--epochs"), QStringLiteral("99999999999")},
    };
    for (const QStringList &arguments : cases) {
        QCommandLineParser parser;
        EXPECT_FALSE(read(arguments, parser)) << arguments.join(QLatin1Char(' ')).toStdString();
    }
    QCommandLineParser repeated;
    EXPECT_TRUE(read({QStringLiteral("--run"), QStringLiteral("cpu:1"), QStringLiteral("--run"),
                      QStringLiteral("cpu:2"), QStringLiteral("--hide-run"), QStringLiteral("1"),
                      QStringLiteral("--hide-run"), QStringLiteral("2")},
                     repeated))
        << "--run and --hide-run repeat";
}

// --window-size: whole pixels "WxH", each from 1 to 16384.
TEST(DashboardOptions, AWindowSizeIsWholePixelsWxH) {
    for (const char *bad : {"1366", "1366x", "x768", "1366x768x2", "0x768", "1366x-1", "13.5x768",
                            "99999x768", "wide"}) {
        QCommandLineParser parser;
        EXPECT_FALSE(read({QStringLiteral("--window-size"), QString::fromUtf8(bad)}, parser))
            << bad;
    }
    QCommandLineParser parser;
    EXPECT_TRUE(read({QStringLiteral("--window-size"), QStringLiteral("1366x768")}, parser));
}

// The session's outputs and run numbers, checked before anything runs: an export that would
// replace an --import record, --screenshot and an export of one file, a --runs-folder that is
// a file, a --hide-run beyond the session's runs.
TEST(DashboardOptions, OutputsThatReplaceAnInputOrEachOtherAndRunsBeyondTheSessionAreRefused) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString record = dir.filePath(QStringLiteral("run.json"));
    QFile file(record);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("{}");
    file.close();
    const QString shot = dir.filePath(QStringLiteral("shot.png"));
    const std::vector<QStringList> cases = {
        {QStringLiteral("--import"), record, QStringLiteral("--export-html"), record},
        {QStringLiteral("--screenshot"), shot, QStringLiteral("--export-png"), shot},
        {QStringLiteral("--runs-folder"), record},
        {QStringLiteral("--run"), QStringLiteral("cpu:1"), QStringLiteral("--hide-run"),
         QStringLiteral("2")},
    };
    for (const QStringList &arguments : cases) {
        QCommandLineParser parser;
        const auto options =
            read(QStringList{QStringLiteral("--synthetic"), QStringLiteral("--quit")} + arguments,
                 parser);
        ASSERT_TRUE(options) << arguments.join(QLatin1Char(' ')).toStdString();
        const RunConfig config = withCommandLineSettings(RunConfig{}, options->settings, parser);
        EXPECT_EQ(checkCommandLineSettings(config, options->script, *options, 0), 2)
            << arguments.join(QLatin1Char(' ')).toStdString();
    }
}

// With the saved runs the window loaded (interactive, or --with-history), a run number is
// checked against them and the session's own: two saved and one --run make three.
TEST(DashboardOptions, ARunNumberBeyondTheSavedRunsAndTheSessionsIsRefused) {
    const auto check = [](const QString &number, int savedRuns) {
        QCommandLineParser parser;
        const auto options = read({QStringLiteral("--synthetic"), QStringLiteral("--quit"),
                                   QStringLiteral("--with-history"), QStringLiteral("--run"),
                                   QStringLiteral("cpu:1"), QStringLiteral("--hide-run"), number},
                                  parser);
        EXPECT_TRUE(options);
        const RunConfig config = withCommandLineSettings(RunConfig{}, options->settings, parser);
        return checkCommandLineSettings(config, options->script, *options, savedRuns) == 0;
    };
    EXPECT_TRUE(check(QStringLiteral("3"), 2));
    EXPECT_FALSE(check(QStringLiteral("4"), 2));
    EXPECT_FALSE(check(QStringLiteral("2"), 0));
}

TEST(DashboardSettingsFile, AnAbsentAnUnreadableAndAMalformedFileAreToldApart) {
    QTemporaryDir dir;
    const QString absent = dir.filePath(QStringLiteral("absent.conf"));
    EXPECT_EQ(devicebench::settingsFileProblem(QSettings(absent, QSettings::IniFormat)), QString());

    const QString folder = dir.filePath(QStringLiteral("folder.conf"));
    ASSERT_TRUE(QDir().mkdir(folder));
    EXPECT_EQ(devicebench::settingsFileProblem(QSettings(folder, QSettings::IniFormat)),
              QStringLiteral("Settings file %1 exists but cannot be read (a folder, not a file); "
                             "the window starts with the default settings.")
                  .arg(folder));

    const QString good = dir.filePath(QStringLiteral("good.conf"));
    QSettings(good, QSettings::IniFormat).setValue(QStringLiteral("theme"), QStringLiteral("dark"));
    EXPECT_EQ(devicebench::settingsFileProblem(QSettings(good, QSettings::IniFormat)), QString());

    const QString bad = dir.filePath(QStringLiteral("bad.conf"));
    QFile file(bad);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("[General\ntheme=dark\n"); // a section never closed
    file.close();
    EXPECT_EQ(devicebench::settingsFileProblem(QSettings(bad, QSettings::IniFormat)),
              QStringLiteral("Settings file %1 is malformed (not an INI file Qt can read); the "
                             "window starts with the default settings; the file was kept as "
                             "%1.malformed.")
                  .arg(bad));
    QFile kept(bad + QStringLiteral(".malformed"));
    ASSERT_TRUE(kept.open(QIODevice::ReadOnly));
    EXPECT_EQ(kept.readAll(), QByteArray("[General\ntheme=dark\n")) << "nothing lost";
}
