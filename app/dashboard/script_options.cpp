// SPDX-License-Identifier: MIT
#include "script_options.h"

#include <QCommandLineParser>
#include <QStringList>

#include <cstdio>
#include <limits>

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

bool checkOptionsGivenOnceWithValues(const QCommandLineParser &parser) {
    const QStringList repeatable = {QStringLiteral("run"), QStringLiteral("import"),
                                    QStringLiteral("hide-run")};
    const QStringList given = parser.optionNames(); // in order, once per time given
    for (const QString &name : given) {
        const QString flag = (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
        if (given.count(name) > 1 && !repeatable.contains(name)) {
            std::fprintf(stderr, "devicebench: %s was given %d times; give it once\n",
                         qPrintable(flag), static_cast<int>(given.count(name)));
            return false;
        }
        if (name != QLatin1String("run") && // parseRunSpecs names an empty --run itself
            parser.values(name).contains(QString())) {
            std::fprintf(stderr, "devicebench: %s needs a value: leave it out for its default\n",
                         qPrintable(flag));
            return false;
        }
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
        parser.value(name).toLongLong(&ok); // a whole number too large for the settings
        if (ok)
            std::fprintf(stderr,
                         "devicebench: --%s: %s is out of range: it must be from %d to %d\n",
                         qPrintable(name), qPrintable(parser.value(name)),
                         std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
        else
            std::fprintf(stderr, "devicebench: --%s: '%s' is not a whole number\n",
                         qPrintable(name), qPrintable(parser.value(name)));
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
