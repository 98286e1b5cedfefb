// SPDX-License-Identifier: MIT
// The dashboard's look, read from its Qt resources (resources/devicebench.qrc, compiled into
// devicebench_resources, which ui_window and ui_charts link): the application icon, the light and
// dark styles and the chart palette. Every colour the ui library and the executables draw comes
// from here; no .cpp file under ui/ or app/ writes a colour (the ctest ui.NoColourLiteralsInUiOrApp
// fails when one does).
//
// Resources are read on first use and kept; a missing or malformed one is a ThemeError naming
// the resource, the key and the value, never a silent black. The dashboard calls loadAll() at
// start, so that a broken resource stops it there with that message; after a successful
// loadAll() no function below throws.
#pragma once

#include <QByteArray>
#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QString>

#include <stdexcept>
#include <utility>
#include <vector>

class QChart;

namespace devicebench::theme {

enum class Theme { Light, Dark };

// Colours that differ between the light and the dark theme (run colours do not: run #1 has the
// same colour in both).
enum class Role {
    ErrorText,       // styles/<theme>.json text.error: error messages, "not comparable"
    OkText,          // text.ok: "usable" in the diagnostics
    MutedText,       // text.muted: warm-up epochs in the epoch table
    ChartBackground, // charts/palette.json <theme>.background
    ChartText,       // <theme>.text: titles, axis labels, legend, mean labels, error bars,
                     // and the exported picture's caption
    ChartAxisLine,   // <theme>.axisLine
    ChartGrid,       // <theme>.grid
};

// A resource that is missing or malformed; what() names the resource path and, when known,
// the key and the value ("... charts/palette.json: runs[2]: \"#12345\" is not #rrggbb").
class ThemeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The resource paths (Qt resource system).
inline constexpr const char *kIconResource = ":/devicebench/icons/org.devicebench.DeviceBench.svg";
inline constexpr const char *kChartPaletteResource = ":/devicebench/charts/palette.json";
inline constexpr const char *kLightStyleResource = ":/devicebench/styles/light.json";
inline constexpr const char *kDarkStyleResource = ":/devicebench/styles/dark.json";

// The colour of the run numbered `runNumber` (StoredRun::number: 1, 2, ... in the order runs
// were added, kept when other runs are added or removed): the palette's runs list, cycled, so
// run n has runs[(n - 1) mod runColourCount()]; numbers below 1 wrap the same way. The one
// colour of that run in the loss chart, its legend, its test-loss dots, its bar and the epoch
// table. Opaque.
QColor runColour(int runNumber);
// How many distinct run colours the palette lists (at least 1).
int runColourCount();

// The colour of phase `phase` (0..5, in the order of phaseFields(), devicebench/phase_summary.h:
// data, forward, loss, backward, optimizer, test) in the phase chart: the palette's
// phases list (indices outside 0..5 wrap), or runColour(phase + 1) when the palette has none.
// Opaque.
inline constexpr int kPhaseColourCount = 6;
QColor phaseColour(int phase);

// Opacities (0..1) the loss chart draws with, from charts/palette.json "opacity" (each key
// optional; the defaults below are used when it is absent):
//   Curve     ("curve", 0.8): a run's training-loss line (runs that overlay stay visible)
//   RawCurve  ("rawCurve", 0.22): the raw per-step loss drawn faint behind the smoothed line
//   HiddenRun ("hiddenRun", 0.35): the legend entry of a run the user hid
enum class Opacity { Curve, RawCurve, HiddenRun };
double opacity(Opacity which);
// runColour(runNumber) with opacity(which) as its alpha.
QColor runColour(int runNumber, Opacity which);

// The two ends of the sweep's speed-up heat map (charts/palette.json "speedUp": {"slower",
// "faster"}; optional, default the palette's first two run colours, "faster" the first): a
// cell's colour blends from the chart background towards Faster above 1x and towards Slower
// below it (sweep_heat_map.h). Opaque, the same in both themes.
enum class SpeedUpEnd { Slower, Faster };
QColor speedUpColour(SpeedUpEnd end);

// The colour of `role` in `theme` (opaque).
QColor colour(Role role, Theme theme);
// colour(role, theme).name() ("#rrggbb"), for style sheets and rich text.
QString colourName(Role role, Theme theme);

// The widget palette of `theme`: the application style's standard palette with the roles of
// styles/<theme>.json set over it (--theme light keeps Fusion's own palette). Needs a
// QApplication.
QPalette palette(Theme theme);

// Theme::Dark when `palette`'s window colour is darker than its window text, else Light.
Theme themeOf(const QPalette &palette);
// Theme::Dark for a chart with QChart::ChartThemeDark, else Light.
Theme themeOf(const QChart &chart);

// Gives `chart` the look of `theme`: Qt's ChartThemeLight or ChartThemeDark, then the chart
// palette's background, text (title, legend, axis labels and titles), axis line and grid
// colours over it. The chart's title font (size and weight) and its series' colours are kept.
void applyToChart(QChart *chart, Theme theme);

// The application icon, rendered from kIconResource (SVG) at 16 to 256 px; every call returns
// the same icon (same cacheKey()). Needs a QGuiApplication. Throws ThemeError when the SVG
// cannot be read or rendered.
QIcon applicationIcon();

// Reads and checks every resource now (the icon too when a QGuiApplication exists). Throws
// ThemeError on the first problem.
void loadAll();

// ---- the resource formats (exposed for tests) -----------------------------------------------

// charts/palette.json: {"runs": ["#rrggbb", ...] (at least one), "light": {...}, "dark": {...}}
// with "background", "text", "axisLine" and "grid" in each theme object, and optionally
// "opacity": {"curve", "rawCurve", "hiddenRun"} (numbers in [0, 1]), "speedUp": {"slower",
// "faster"} (both colours) and "phases": [6 colours] (phaseColour). Other keys (such as "about")
// are ignored.
struct ChartColours {
    QColor background;
    QColor text;
    QColor axisLine;
    QColor grid;
};
struct ChartPalette {
    std::vector<QColor> runs;
    std::vector<QColor> phases; // empty or kPhaseColourCount colours
    double curveOpacity = 0.8;
    double rawCurveOpacity = 0.22;
    double hiddenRunOpacity = 0.35;
    QColor speedUpSlower; // "speedUp" "slower", else runs[1] (runs[0] when there is one run)
    QColor speedUpFaster; // "speedUp" "faster", else runs[0]
    ChartColours light;
    ChartColours dark;
};
// Parses `json`; `source` names it in errors. Throws ThemeError.
ChartPalette parseChartPalette(const QByteArray &json, const QString &source);

// styles/<theme>.json: {"palette": {"<QPalette::ColorRole name>": "#rrggbb", ...} (set in every
// colour group), "disabled": {...} (the Disabled group, set after), "text": {"error", "ok",
// "muted"}}. Colours are "#rrggbb" everywhere: no names, no alpha.
struct Style {
    std::vector<std::pair<QPalette::ColorRole, QColor>> palette;
    std::vector<std::pair<QPalette::ColorRole, QColor>> disabled;
    QColor errorText;
    QColor okText;
    QColor mutedText;
};
// Parses `json`; `source` names it in errors. Throws ThemeError.
Style parseStyle(const QByteArray &json, const QString &source);

} // namespace devicebench::theme
