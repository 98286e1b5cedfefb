// SPDX-License-Identifier: MIT
// The pieces that parse the dashboard's scripted command line, kept apart so that main() reads
// as the order of a session.
#pragma once

#include "devicebench/run_types.h"
#include "panels/run_settings_panel.h" // RunSetItem: the same syntax as the "Run set" row

#include <QString>

#include <deque>
#include <string>

class QCommandLineParser;

namespace devicebench {

// One --run of a scripted session: device "cpu" or "cuda", threads 0 to keep the window's.
using ScriptedRun = RunSetItem;

// "cpu", "cpu:N" (N >= 1 threads), "cuda", "gpu" -> *run (parseRunSetItem, as the window's
// "Run set" row reads them); false on anything else (*run is then unspecified).
bool parseRunSpec(const QString &spec, ScriptedRun *run);

// Every --run of `parser`, in order, appended to *script; false (after saying on stderr
// "devicebench: --run: '<spec>' is not cpu, cpu:THREADS or cuda") at the first bad one.
bool parseRunSpecs(const QCommandLineParser &parser, std::deque<ScriptedRun> *script);

// Every option of `parser` given at most once (--run, --import and --hide-run may repeat) and
// none with an empty value, as the CLI checks its own; false after saying on stderr the first
// that is not: "devicebench: --theme was given 2 times; give it once", "devicebench: --python
// needs a value: leave it out for its default". An empty value is not taken as the option
// left out (an empty --run is left to parseRunSpecs, which names it as a spec).
bool checkOptionsGivenOnceWithValues(const QCommandLineParser &parser);

// When option `name` is set, its value as a whole number into *value; false (after saying on
// stderr "devicebench: --<name>: '<value>' is not a whole number", or "... is out of range: it
// must be from <INT_MIN> to <INT_MAX>" for one too large) when it is not one; unset: true.
bool intOption(const QCommandLineParser &parser, const QString &name, int *value);

// --phases (RunConfig::phases, the window's "Time each phase (slower)"): adds the option to
// `parser`; once parsed, sets config->phases when it is given (else leaves it as it is).
void addPhasesOption(QCommandLineParser &parser);
void applyPhasesOption(const QCommandLineParser &parser, RunConfig *config);

} // namespace devicebench
