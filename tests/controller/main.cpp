// SPDX-License-Identifier: MIT
// GoogleTest main for the controller tests: a QCoreApplication, whose event loop delivers the
// controllers' queued signals; no window, no platform plugin.
#include <gtest/gtest.h>

#include <QCoreApplication>

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
