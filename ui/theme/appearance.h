// SPDX-License-Identifier: MIT
// Short forms of theme.h for the widgets: whether a palette is dark, the dark palette, a
// chart's theme to match, and the colour of error text. In theme/ (ui_charts), below every
// widget folder, so that panels, dialogs and the sweep view take them without reaching up
// into window/.
#pragma once

#include "theme/theme.h"

#include <QPalette>
#include <QString>

class QChart;

namespace devicebench {

// A palette is dark when its window colour is darker than its window text (theme::themeOf).
inline bool isDarkPalette(const QPalette &palette) {
    return theme::themeOf(palette) == theme::Theme::Dark;
}

// The dark palette for the Fusion style (--theme dark): theme::palette(Theme::Dark), from
// resources/styles/dark.json.
inline QPalette darkPalette() { return theme::palette(theme::Theme::Dark); }

// theme::applyToChart with Theme::Dark when `dark`, else Theme::Light: QChart::ChartThemeDark
// or ChartThemeLight with the chart palette's colours over it; the chart's title font (size and
// weight, set by the chart itself) is kept.
inline void applyChartTheme(QChart *chart, bool dark) {
    theme::applyToChart(chart, dark ? theme::Theme::Dark : theme::Theme::Light);
}

// The colour of error text ("#rrggbb") on `palette` (theme::Role::ErrorText): dark red, or
// light red on a dark palette, so that it stays readable on both.
inline QString errorColour(const QPalette &palette) {
    return theme::colourName(theme::Role::ErrorText, theme::themeOf(palette));
}

} // namespace devicebench
