// SPDX-License-Identifier: MIT
#include "devicebench/stop_cause.h"

#include <atomic>
#include <csignal>

namespace devicebench {
namespace {

std::atomic<int> g_signal{0}; // lock-free on every platform this builds for
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler stores it");

} // namespace

void noteStopSignal(int signal) noexcept {
    int none = 0;
    g_signal.compare_exchange_strong(none, signal);
}

std::string signalName(int signal) {
    switch (signal) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case SIGHUP:
        return "SIGHUP";
    case SIGQUIT:
        return "SIGQUIT";
    case SIGPIPE:
        return "SIGPIPE";
    default:
        return "signal " + std::to_string(signal);
    }
}

std::string stopCause() {
    const int signal = g_signal.load();
    switch (signal) {
    case 0:
    case SIGINT: // Ctrl-C: the user, as the Stop button
        return "the user";
    case SIGTERM:
        return "SIGTERM (asked to end)";
    case SIGHUP:
        return "SIGHUP (the terminal closed)";
    case SIGQUIT:
        return "SIGQUIT (Ctrl-\\)";
    case SIGPIPE:
        return "SIGPIPE (the output pipe closed)";
    default:
        return signalName(signal);
    }
}

void clearStopCause() noexcept { g_signal.store(0); }

} // namespace devicebench
