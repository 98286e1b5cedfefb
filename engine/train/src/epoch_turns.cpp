// SPDX-License-Identifier: MIT
#include "devicebench/epoch_turns.h"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace devicebench {

EpochTurns::EpochTurns(int seats) {
    if (seats < 1)
        throw std::invalid_argument("interleaved runs need at least 1 run (got " +
                                    std::to_string(seats) + ")");
    m_in.assign(static_cast<std::size_t>(seats), 1);
}

int EpochTurns::nextAfter(int seat) const {
    const int seats = static_cast<int>(m_in.size());
    for (int step = 1; step <= seats; ++step) {
        const int next = (seat + step) % seats;
        if (m_in[static_cast<std::size_t>(next)] != 0)
            return next;
    }
    return seat;
}

void EpochTurns::take(int seat) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return m_turn == seat; });
}

void EpochTurns::pass(int seat) {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (m_turn != seat)
            return;
        m_turn = nextAfter(seat);
    }
    m_changed.notify_all();
}

void EpochTurns::leave(int seat) {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (seat < 0 || seat >= static_cast<int>(m_in.size()))
            return;
        m_in[static_cast<std::size_t>(seat)] = 0;
        if (m_turn == seat)
            m_turn = nextAfter(seat);
    }
    m_changed.notify_all();
}

} // namespace devicebench
