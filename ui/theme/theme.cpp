// SPDX-License-Identifier: MIT
#include "theme/theme.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFile>
#include <QFont>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QLegend>
#include <QMetaEnum>
#include <QPainter>
#include <QPixmap>
#include <QStyle>
#include <QSvgRenderer>

#include <algorithm>
#include <array>
#include <cstddef>

// The resources live in a static library (resources/CMakeLists.txt): its initialiser is only
// linked in when referred to, and Q_INIT_RESOURCE must be used outside any namespace.
static void initDevicebenchResources() { Q_INIT_RESOURCE(devicebench); }

namespace devicebench::theme {

namespace {

[[noreturn]] void fail(const QString &source, const QString &what) {
    throw ThemeError(QString(source + QStringLiteral(": ") + what).toStdString());
}

QByteArray readResource(const char *path) {
    static const bool initialised = (initDevicebenchResources(), true);
    (void)initialised;
    const QString name = QString::fromUtf8(path);
    QFile file(name);
    if (!file.open(QIODevice::ReadOnly))
        fail(name, QStringLiteral("cannot read the resource (%1); is resources/devicebench.qrc "
                                  "compiled into the program?")
                       .arg(file.errorString()));
    return file.readAll();
}

QJsonObject parseObject(const QByteArray &json, const QString &source) {
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        fail(source, QStringLiteral("not valid JSON at byte %1: %2")
                         .arg(error.offset)
                         .arg(error.errorString()));
    if (!document.isObject())
        fail(source, QStringLiteral("the top level is not a JSON object"));
    return document.object();
}

QString shown(const QJsonValue &value) {
    if (value.isUndefined())
        return QStringLiteral("missing");
    if (value.isString())
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

// "#rrggbb" only: no colour names, no alpha, so that every colour reads the same way.
QColor parseColour(const QJsonValue &value, const QString &source, const QString &key) {
    const QString text = value.toString();
    const auto isHexDigit = [](QChar c) {
        return (c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
               (c >= QLatin1Char('a') && c <= QLatin1Char('f')) ||
               (c >= QLatin1Char('A') && c <= QLatin1Char('F'));
    };
    bool ok = value.isString() && text.size() == 7 && text.front() == QLatin1Char('#') &&
              std::all_of(text.begin() + 1, text.end(), isHexDigit);
    std::array<int, 3> rgb{};
    for (int i = 0; ok && i < 3; ++i)
        rgb[static_cast<std::size_t>(i)] = text.mid(1 + 2 * i, 2).toInt(&ok, 16);
    if (!ok)
        fail(source, key + QStringLiteral(": ") + shown(value) + QStringLiteral(" is not #rrggbb"));
    return QColor::fromRgb(rgb[0], rgb[1], rgb[2]);
}

QJsonObject member(const QJsonObject &object, const QString &key, const QString &source,
                   const QString &path) {
    const QJsonValue value = object.value(key);
    if (!value.isObject())
        fail(source,
             path + QStringLiteral(": ") + shown(value) + QStringLiteral(" is not a JSON object"));
    return value.toObject();
}

ChartColours parseChartColours(const QJsonObject &object, const QString &source,
                               const QString &path) {
    const auto get = [&](const char *key) {
        const QString name = QString::fromLatin1(key);
        return parseColour(object.value(name), source, path + QLatin1Char('.') + name);
    };
    return ChartColours{get("background"), get("text"), get("axisLine"), get("grid")};
}

std::vector<std::pair<QPalette::ColorRole, QColor>>
parseRoles(const QJsonObject &object, const QString &source, const QString &path) {
    const QMetaEnum roles = QMetaEnum::fromType<QPalette::ColorRole>();
    std::vector<std::pair<QPalette::ColorRole, QColor>> out;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = path + QLatin1Char('.') + it.key();
        bool ok = false;
        const int role = roles.keyToValue(it.key().toLatin1().constData(), &ok);
        if (!ok || role < 0 || role >= QPalette::NColorRoles || role == QPalette::NoRole)
            fail(source, key + QStringLiteral(": not a QPalette::ColorRole name"));
        out.emplace_back(static_cast<QPalette::ColorRole>(role),
                         parseColour(it.value(), source, key));
    }
    return out;
}

const ChartPalette &chartPalette() {
    static const ChartPalette palette = parseChartPalette(readResource(kChartPaletteResource),
                                                          QString::fromUtf8(kChartPaletteResource));
    return palette;
}

const Style &style(Theme theme) {
    static const Style light =
        parseStyle(readResource(kLightStyleResource), QString::fromUtf8(kLightStyleResource));
    static const Style dark =
        parseStyle(readResource(kDarkStyleResource), QString::fromUtf8(kDarkStyleResource));
    return theme == Theme::Dark ? dark : light;
}

QIcon renderIcon() {
    const QString source = QString::fromUtf8(kIconResource);
    QSvgRenderer renderer(readResource(kIconResource));
    if (!renderer.isValid())
        fail(source, QStringLiteral("not an SVG that Qt can render"));
    QIcon icon;
    for (const int size : {16, 24, 32, 48, 64, 128, 256}) {
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            renderer.render(&painter);
        }
        bool drawn = false;
        for (int y = 0; y < size && !drawn; ++y)
            for (int x = 0; x < size && !drawn; ++x)
                drawn = qAlpha(image.pixel(x, y)) != 0;
        if (!drawn)
            fail(source, QStringLiteral("renders as an empty picture at %1 px").arg(size));
        icon.addPixmap(QPixmap::fromImage(image));
    }
    return icon;
}

} // namespace

ChartPalette parseChartPalette(const QByteArray &json, const QString &source) {
    const QJsonObject root = parseObject(json, source);
    ChartPalette palette;
    const QJsonValue runs = root.value(QStringLiteral("runs"));
    if (!runs.isArray() || runs.toArray().isEmpty())
        fail(source, QStringLiteral("runs: ") + shown(runs) +
                         QStringLiteral(" is not a non-empty array of colours"));
    const QJsonArray list = runs.toArray();
    for (qsizetype i = 0; i < list.size(); ++i)
        palette.runs.push_back(parseColour(list.at(i), source, QStringLiteral("runs[%1]").arg(i)));
    // Optional (older palettes have no phases list): the run colours stand in.
    const QJsonValue phases = root.value(QStringLiteral("phases"));
    if (!phases.isUndefined()) {
        if (!phases.isArray() || phases.toArray().size() != kPhaseColourCount)
            fail(source,
                 QStringLiteral("phases: ") + shown(phases) +
                     QStringLiteral(" is not an array of %1 colours").arg(kPhaseColourCount));
        const QJsonArray items = phases.toArray();
        for (qsizetype i = 0; i < items.size(); ++i)
            palette.phases.push_back(
                parseColour(items.at(i), source, QStringLiteral("phases[%1]").arg(i)));
    }
    const QJsonValue opacity = root.value(QStringLiteral("opacity"));
    if (!opacity.isUndefined()) {
        const QJsonObject object =
            member(root, QStringLiteral("opacity"), source, QStringLiteral("opacity"));
        const auto get = [&](const char *key, double *out) {
            const QString name = QString::fromLatin1(key);
            const QJsonValue value = object.value(name);
            if (value.isUndefined())
                return;
            if (!value.isDouble() || value.toDouble() < 0.0 || value.toDouble() > 1.0)
                fail(source, QStringLiteral("opacity.") + name + QStringLiteral(": ") +
                                 shown(value) + QStringLiteral(" is not a number in [0, 1]"));
            *out = value.toDouble();
        };
        get("curve", &palette.curveOpacity);
        get("rawCurve", &palette.rawCurveOpacity);
        get("hiddenRun", &palette.hiddenRunOpacity);
    }
    palette.speedUpFaster = palette.runs.front();
    palette.speedUpSlower = palette.runs.size() > 1 ? palette.runs[1] : palette.runs.front();
    if (!root.value(QStringLiteral("speedUp")).isUndefined()) {
        const QJsonObject object =
            member(root, QStringLiteral("speedUp"), source, QStringLiteral("speedUp"));
        palette.speedUpSlower = parseColour(object.value(QStringLiteral("slower")), source,
                                            QStringLiteral("speedUp.slower"));
        palette.speedUpFaster = parseColour(object.value(QStringLiteral("faster")), source,
                                            QStringLiteral("speedUp.faster"));
    }
    palette.light =
        parseChartColours(member(root, QStringLiteral("light"), source, QStringLiteral("light")),
                          source, QStringLiteral("light"));
    palette.dark =
        parseChartColours(member(root, QStringLiteral("dark"), source, QStringLiteral("dark")),
                          source, QStringLiteral("dark"));
    return palette;
}

Style parseStyle(const QByteArray &json, const QString &source) {
    const QJsonObject root = parseObject(json, source);
    Style style;
    style.palette =
        parseRoles(member(root, QStringLiteral("palette"), source, QStringLiteral("palette")),
                   source, QStringLiteral("palette"));
    style.disabled =
        parseRoles(member(root, QStringLiteral("disabled"), source, QStringLiteral("disabled")),
                   source, QStringLiteral("disabled"));
    const QJsonObject text = member(root, QStringLiteral("text"), source, QStringLiteral("text"));
    const auto get = [&](const char *key) {
        const QString name = QString::fromLatin1(key);
        return parseColour(text.value(name), source, QStringLiteral("text.") + name);
    };
    style.errorText = get("error");
    style.okText = get("ok");
    style.mutedText = get("muted");
    return style;
}

QColor runColour(int runNumber) {
    const std::vector<QColor> &runs = chartPalette().runs;
    const auto n = static_cast<long long>(runs.size());
    const long long index = ((static_cast<long long>(runNumber) - 1) % n + n) % n;
    return runs[static_cast<std::size_t>(index)];
}

int runColourCount() { return static_cast<int>(chartPalette().runs.size()); }

QColor phaseColour(int phase) {
    const std::vector<QColor> &phases = chartPalette().phases;
    if (phases.empty())
        return runColour(phase + 1);
    const auto n = static_cast<int>(phases.size());
    return phases[static_cast<std::size_t>((phase % n + n) % n)];
}

double opacity(Opacity which) {
    const ChartPalette &palette = chartPalette();
    switch (which) {
    case Opacity::Curve:
        return palette.curveOpacity;
    case Opacity::RawCurve:
        return palette.rawCurveOpacity;
    case Opacity::HiddenRun:
        return palette.hiddenRunOpacity;
    }
    return 1.0; // not reached
}

QColor runColour(int runNumber, Opacity which) {
    QColor colour = runColour(runNumber);
    colour.setAlphaF(static_cast<float>(opacity(which)));
    return colour;
}

QColor speedUpColour(SpeedUpEnd end) {
    const ChartPalette &palette = chartPalette();
    return end == SpeedUpEnd::Faster ? palette.speedUpFaster : palette.speedUpSlower;
}

QColor colour(Role role, Theme theme) {
    const ChartColours &chart = theme == Theme::Dark ? chartPalette().dark : chartPalette().light;
    switch (role) {
    case Role::ErrorText:
        return style(theme).errorText;
    case Role::OkText:
        return style(theme).okText;
    case Role::MutedText:
        return style(theme).mutedText;
    case Role::ChartBackground:
        return chart.background;
    case Role::ChartText:
        return chart.text;
    case Role::ChartAxisLine:
        return chart.axisLine;
    case Role::ChartGrid:
        return chart.grid;
    }
    return chart.text; // not reached: every role is handled above
}

QString colourName(Role role, Theme theme) { return colour(role, theme).name(); }

QPalette palette(Theme theme) {
    QPalette palette = QApplication::style()->standardPalette();
    const Style &s = style(theme);
    for (const auto &[role, value] : s.palette)
        palette.setColor(role, value);
    for (const auto &[role, value] : s.disabled)
        palette.setColor(QPalette::Disabled, role, value);
    return palette;
}

Theme themeOf(const QPalette &palette) {
    return palette.color(QPalette::Window).lightness() <
                   palette.color(QPalette::WindowText).lightness()
               ? Theme::Dark
               : Theme::Light;
}

Theme themeOf(const QChart &chart) {
    return chart.theme() == QChart::ChartThemeDark ? Theme::Dark : Theme::Light;
}

void applyToChart(QChart *chart, Theme theme) {
    const QFont title = chart->titleFont();
    chart->setTheme(theme == Theme::Dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitleFont(title);
    const QColor text = colour(Role::ChartText, theme);
    chart->setBackgroundBrush(colour(Role::ChartBackground, theme));
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(colour(Role::ChartAxisLine, theme));
        axis->setGridLineColor(colour(Role::ChartGrid, theme));
        axis->setMinorGridLineColor(colour(Role::ChartGrid, theme));
    }
}

QIcon applicationIcon() {
    static const QIcon icon = renderIcon();
    return icon;
}

void loadAll() {
    chartPalette();
    style(Theme::Light);
    style(Theme::Dark);
    if (qobject_cast<QGuiApplication *>(QCoreApplication::instance()) != nullptr)
        applicationIcon();
}

} // namespace devicebench::theme
