// SPDX-License-Identifier: MIT
// Test support (ui tests): an environment variable set for a test's lifetime.
#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <optional>

namespace devicebench::test {

// Sets an environment variable for the test's lifetime, then puts the old value back.
class ScopedVariable {
public:
    ScopedVariable(const char *name, const QString &value) : m_name(name) {
        if (qEnvironmentVariableIsSet(name))
            m_old = qgetenv(name);
        qputenv(name, value.toUtf8());
    }
    ~ScopedVariable() {
        if (m_old)
            qputenv(m_name, *m_old);
        else
            qunsetenv(m_name);
    }
    ScopedVariable(const ScopedVariable &) = delete;
    ScopedVariable &operator=(const ScopedVariable &) = delete;

private:
    const char *m_name;
    std::optional<QByteArray> m_old;
};

} // namespace devicebench::test
