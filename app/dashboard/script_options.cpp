// SPDX-License-Identifier: MIT
#include "script_options.h"

#include <QCommandLineParser>
#include <QStringList>

#include <cstdio>

namespace devicebench {

bool parseRunSpec(const QString &spec, ScriptedRun *run) { return parseRunSetItem(spec, run); }

bool parseRunSpecs(const QCommandLineParser &parser, std::deque<ScriptedRun> *script) {
    for (const QString &spec : parser.values(QStringLiteral("run"))) {
        ScriptedRun run;
        if (!parseRunSpec(spec, &run)) {
            std::fprintf(stderr, "devicebench: --run: '%s' is not cpu, cpu:THREADS or cuda\n",
                         qPrintable(spec));
            return false;
        }
        script->push_back(run);
    }
    return true;
}

bool intOption(const QCommandLineParser &parser, const QString &name, int *value) {
    if (!parser.isSet(name)) {
        return true;
    }
    bool ok = false;
    const int v = parser.value(name).toInt(&ok);
    if (!ok) {
        std::fprintf(stderr, "devicebench: --%s: '%s' is not a whole number\n", qPrintable(name),
                     qPrintable(parser.value(name)));
        return false;
    }
    *value = v;
    return true;
}

void addPhasesOption(QCommandLineParser &parser) {
    parser.addOption({QStringLiteral("phases"),
                      QStringLiteral("Time each phase of every step (\"Time each phase\"): the "
                                     "device is synchronised at every phase, so runs are slower "
                                     "and never compared with normal ones.")});
}

void applyPhasesOption(const QCommandLineParser &parser, RunConfig *config) {
    if (parser.isSet(QStringLiteral("phases")))
        config->phases = true;
}

} // namespace devicebench
