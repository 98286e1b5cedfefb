// SPDX-License-Identifier: MIT
// The dashboard's scripted chart options (for demonstrations and the screenshots in docs/):
// how the loss chart draws, what it zooms into, which runs it hides, a hover label to show,
// and a screenshot of the window. They act through the window's own functions, as a user's
// controls and mouse would.
#pragma once

class QCommandLineParser;

namespace devicebench {

class MainWindow;

// Adds --smoothing W, --x-axis steps|epochs|time, --log-scale, --zoom A:B, --hide-run N,
// --hover N:STEP, --hover-bar N, --view runs|sweep|scaling and --screenshot FILE to `parser`,
// and the Sweep view's options (sweep_script.h).
void addChartScriptOptions(QCommandLineParser &parser);

// Checks the values given; prints what is wrong on stderr and returns false.
bool checkChartScriptOptions(const QCommandLineParser &parser);

// Sets the chart controls (smoothing, x axis, log scale) from the options given; call after the
// saved settings are restored, so that the command line wins.
void applyChartControls(const QCommandLineParser &parser, MainWindow &window);

// When the window shows its runs (after imports and scripted runs): hides the runs, shows the
// --view tab, zooms, shows the hover label and, with --screenshot, writes the window's picture
// (PNG). Returns false, with a message on stderr, when a run number is unknown or the picture
// cannot be written.
bool finishChartScript(const QCommandLineParser &parser, MainWindow &window);

} // namespace devicebench
