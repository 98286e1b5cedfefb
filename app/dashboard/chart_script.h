// SPDX-License-Identifier: MIT
// The dashboard's scripted chart options, for demonstrations and the screenshots in docs/. They
// act through the window's own functions, as a user's controls and mouse would.
#pragma once

#include <QString>

#include <utility>
#include <vector>

class QCommandLineParser;

namespace devicebench {

class MainWindow;

// Adds --smoothing W, --x-axis steps|epochs|time, --log-scale, --bar-measure
// seconds|joules|money, --zoom A:B, --hide-run N, --hover N:STEP, --hover-bar N (pN: a
// published row), --view runs|system|accuracy|sweep|scaling, --window-size WxH and --screenshot
// FILE to `parser`, and the Sweep view's options (sweep_script.h).
void addChartScriptOptions(QCommandLineParser &parser);

// Checks the values given (numbers finite and in range, run numbers from 1); prints what is
// wrong on stderr and returns false.
bool checkChartScriptOptions(const QCommandLineParser &parser);

// The run numbers --hide-run, --hover and --hover-bar name, each with its option
// ("--hide-run", 7), for checkCommandLineSettings to check against the session's runs before
// anything runs; after checkChartScriptOptions.
std::vector<std::pair<QString, int>> namedRunNumbers(const QCommandLineParser &parser);

// Sets the chart controls (smoothing, x axis, log scale, the bars' measure) from the options
// given, and brings up the --view tab; call after the saved settings are restored, so that the
// command line wins.
void applyChartControls(const QCommandLineParser &parser, MainWindow &window);

// Once the window shows its runs: hides, shows the --view tab, takes --window-size, zooms,
// hovers and writes --screenshot (PNG). False, with a message on stderr, for an unknown run
// number or a picture that cannot be written.
bool finishChartScript(const QCommandLineParser &parser, MainWindow &window);

} // namespace devicebench
