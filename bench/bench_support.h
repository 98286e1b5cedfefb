// SPDX-License-Identifier: MIT
// Helpers shared by the measuring programs in bench/ (Qt Core; header only).
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace devicebench::bench {

// The p-quantile of `v` (p in [0, 1]; 0.5 = median, 1 = max) by the nearest rank of the sorted
// values, index round(p x (n - 1)); 0 for an empty vector.
inline double percentile(std::vector<double> v, double p) {
    if (v.empty()) {
        return 0.0;
    }
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

// A 10 ms precise timer on the constructing thread's event loop that records how late each
// tick comes (ms beyond the 10 ms interval, >= 0): how long the event loop was kept busy.
// Appends to `latenessMs` when it is given; runs from construction to destruction.
class LatenessProbe {
public:
    explicit LatenessProbe(std::vector<double> *latenessMs) : m_lateness(latenessMs) {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(kIntervalMs);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last > 0 && m_lateness != nullptr) {
                m_lateness->push_back(std::max(0.0, static_cast<double>(now - m_last) / 1e6 -
                                                        static_cast<double>(kIntervalMs)));
            }
            m_last = now;
        });
        m_clock.start();
        m_timer.start();
    }

private:
    static constexpr int kIntervalMs = 10;
    std::vector<double> *m_lateness;
    QElapsedTimer m_clock;
    QTimer m_timer;
    qint64 m_last = 0;
};

} // namespace devicebench::bench
