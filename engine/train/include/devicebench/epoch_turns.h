// SPDX-License-Identifier: MIT
// Interleaved runs (docs/MEASURING.md, "Interleaved runs"): runs that share one machine take
// turns at every epoch boundary, so that a machine whose speed drifts slows all of them alike.
// Each run trains on its own thread, with its own model, optimiser and data position, but only
// while it holds the turn, which passes in seat order: run 1's set-up, run 2's set-up, ..., run
// 1's epoch 1, run 2's epoch 1, ... A run that has ended leaves, and the turn skips it.
// LibTorch-free header.
#pragma once

#include "devicebench/run_types.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace devicebench {

class EpochTurns {
public:
    // Seats 0 .. seats-1; seat 0 holds the first turn. Throws std::invalid_argument below 1.
    explicit EpochTurns(int seats);
    // Blocks until `seat` holds the turn (at once when it does already).
    void take(int seat);
    // Gives the turn to the next seat after `seat` that has not left. `seat` must hold it.
    void pass(int seat);
    // `seat` will not take the turn again; if it holds it, the next seat does. Idempotent.
    void leave(int seat);

private:
    int nextAfter(int seat) const; // the next seat still in, or `seat` when none is
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<char> m_in; // 1: the seat has not left (not vector<bool>: -Wnull-dereference)
    int m_turn = 0;
};

// One run's side of the turns, as the training sees it: take() blocks until the run may train
// (at once when it holds the turn already), pass() hands the turn on, leave() says the run has
// ended. A seat of EpochTurns (SeatGate), or a child process's pipe to its parent (child_run.h).
class TurnGate {
public:
    virtual ~TurnGate() = default;
    virtual void take() = 0;
    virtual void pass() = 0;
    virtual void leave() = 0;
};

// Seat `seat` of `turns` as a TurnGate.
class SeatGate : public TurnGate {
public:
    SeatGate(EpochTurns &turns, int seat) : m_turns(turns), m_seat(seat) {}
    void take() override { m_turns.take(m_seat); }
    void pass() override { m_turns.pass(m_seat); }
    void leave() override { m_turns.leave(m_seat); }

private:
    EpochTurns &m_turns;
    int m_seat;
};

// runTraining (trainer.h) as seat `seat` of `turns`: its set-up, each of its epochs (with the
// epoch's canary) and its end each hold the turn, and LibTorch's process-wide settings the run
// uses (intra-op threads; on CUDA cuDNN benchmark and TF32) are set again whenever it takes the
// turn. Leaves the seat when the run has ended, whatever the outcome.
RunOutcome runTrainingInTurns(const RunConfig &config, TrainingObserver &observer,
                              const std::atomic<bool> &stopRequested, EpochTurns &turns, int seat);

// The same behind any gate: leaves it when the run has ended.
RunOutcome runTrainingInTurns(const RunConfig &config, TrainingObserver &observer,
                              const std::atomic<bool> &stopRequested, TurnGate &gate);

} // namespace devicebench
