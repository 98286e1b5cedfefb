// SPDX-License-Identifier: MIT
// The console's view of a run (cli_console.h).
#include "cli_console.h"
#include "cli_phases.h"
#include "cli_support.h"

#include "devicebench/comparison.h"
#include "devicebench/contention.h"
#include "devicebench/machine_drift.h"
#include "devicebench/run_energy.h"
#include "devicebench/summary.h"
#include "devicebench/time_to_target.h"
#include "devicebench/trainer.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <unistd.h>

namespace devicebench::cli {

std::string threadsText(int threads) {
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

bool stderrIsATerminal() { return isatty(fileno(stderr)) != 0; }

// What the run trains: the model, batch size and learning rate; a script's as it stated them.
std::string ConsoleObserver::trainedText(const RunStarted &info) const {
    std::ostringstream text;
    if (!workloadRow(m_config.workload).engineModel) {
        text << scriptWorkText(m_config.script, info); // as every view of the record names it
        if (info.modelParameters > 0)
            text << " (" << grouped(info.modelParameters) << " parameters)";
        text << ", batch size "
             << (info.batchSize > 0 ? std::to_string(info.batchSize) : "not stated")
             << ", learning rate ";
        if (std::isfinite(info.learningRate))
            text << info.learningRate;
        else
            text << "not stated";
        return text.str();
    }
    text << describeModel(m_config.model, m_config.imageSize, info.modelParameters,
                          info.multiplyAddsPerImage)
         << ", batch size " << m_config.batchSize << ", learning rate ";
    if (workloadRow(m_config.workload).recipe())
        text << "the recipe's schedule";
    else
        text << m_config.learningRate;
    return text.str();
}

void ConsoleObserver::onRunStarted(const RunStarted &info) {
    m_info = info;
    m_out << "run " << m_runId << ": " << info.device << ", " << threadsText(info.threads) << ", "
          << trainedText(info) << ", " << m_config.epochs
          << (m_config.epochs == 1 ? " epoch (first " : " epochs (first ") << m_config.warmupEpochs
          << " warm-up), seed " << m_config.seed << ", workload " << toString(m_config.workload)
          << ", precision " << shortName(m_config.precision)
          << (m_config.tf32 != Tf32::Default ? ", TF32 " + std::string(toString(m_config.tf32))
                                             : std::string())
          << (m_config.phases ? ", phase-timed" : "")
          << (m_config.targetAccuracy
                  ? ", target " + targetText(*m_config.targetAccuracy) + " test accuracy"
                  : std::string())
          << "\n"
          << "data: " << info.dataDescription;
    if (workloadRow(m_config.workload).engineModel)
        m_out << " (" << info.trainImages << " training, " << info.testImages << " test images, "
              << info.stepsPerEpoch << " steps per epoch)\n";
    else
        m_out << " (its steps and training images counted in each epoch)\n";
    if (!info.precisionNote.empty())
        m_out << "precision: " << info.precisionNote << "\n";
    m_out.flush();
}

void ConsoleObserver::onStepLosses(const std::vector<StepLoss> &losses) {
    m_feed.onStepLosses(losses); // with the recorder's seconds
    if (m_progress && !losses.empty() && m_info.stepsPerEpoch > 0) {
        const auto &last = losses.back();
        const std::int64_t inEpoch = last.step - (last.epoch - 1) * m_info.stepsPerEpoch;
        m_err << "\r  " << m_prefix << "epoch " << last.epoch << " step " << inEpoch << "/"
              << m_info.stepsPerEpoch << " loss " << fixed(last.loss, 4) << "   " << std::flush;
    }
}

void ConsoleObserver::onEpochFinished(const EpochResult &e) {
    m_feed.onEpochFinished(e);
    if (m_progress) {
        m_err << "\r" << std::string(60, ' ') << "\r" << std::flush;
    }
    m_out << m_prefix << "epoch " << std::setw(2) << e.epoch << "/" << m_config.epochs << "  "
          << fixed(e.seconds, 3) << " s  train loss " << fixed(e.trainLoss, 4) << "  test loss "
          << fixed(e.testLoss, 4) << "  test accuracy " << fixed(100.0 * e.testAccuracy, 2) << "%  "
          << fixed(e.imagesPerSecond, 0) << " images/s" << (e.warmup ? "  (warm-up)" : "")
          << (m_info.synthetic ? "  [synthetic]" : "")
          << (e.load.contended ? "  [CONTENDED: " + describeLoad(e.load, m_info.threads) + "]"
                               : std::string())
          << (e.speedChanged
                  ? "  [MACHINE SPEED CHANGED: " + describeCanaryChange(e.canaryChange) + "]"
                  : std::string())
          << epochPhasesText(e)
          << (e.skippedSteps > 0
                  ? "  [loss scaler skipped " + std::to_string(e.skippedSteps) + " steps]"
                  : std::string())
          << "\n";
    m_out.flush();
}

void ConsoleObserver::onRunEnded(const RunOutcome & /*outcome*/) {
    if (m_progress) {
        m_err << "\r" << std::string(60, ' ') << "\r" << std::flush;
    }
}

void printSummary(std::ostream &out, const RunOutcome &outcome, const RunConfig &config,
                  const SamplingInfo &sampling, const std::string &label, bool synthetic) {
    const Summary &s = outcome.summary;
    out << "summary of run " << label << " (" << toString(outcome.status) << ")"
        << (synthetic ? "  [synthetic data]" : "") << ":\n";
    out << "  epoch seconds:";
    for (double v : s.epochSeconds) {
        out << " " << fixed(v, 3);
    }
    out << "\n";
    if (s.epochSeconds.empty()) {
        out << "  no finished epoch\n";
        return;
    }
    out << "  mean of all epochs: " << fixed(s.meanAll, 3) << " s\n";
    if (s.hasStable) {
        out << "  stable mean (epochs " << config.warmupEpochs + 1 << "-" << s.epochSeconds.size()
            << ", after " << config.warmupEpochs << " warm-up): " << fixed(s.stableMean, 3)
            << " s\n";
        // Undefined for a single stable epoch: "n/a", never 0.
        out << "  median " << fixed(s.median, 3) << " s, standard deviation "
            << (s.stableCount >= 2 ? fixed(s.stddev, 3) + " s" : std::string("n/a")) << ", "
            << fixed(s.imagesPerSecond, 0) << " images/s\n";
    } else {
        out << "  stable mean: none (all " << s.epochSeconds.size()
            << " finished epochs are warm-up)\n";
    }
    out << "  final test accuracy " << fixed(100.0 * outcome.epochs.back().testAccuracy, 2) << "%"
        << (synthetic ? " (meaningless on synthetic data)" : "") << "\n";
    if (const TargetResult target = timeToTarget(outcome.epochs, config.targetAccuracy); target.set)
        out << "  time to accuracy: " << describeTarget(target) << "\n";
    if (const std::string warning = contentionWarning(outcome.epochs, config.warmupEpochs);
        !warning.empty())
        out << "  WARNING: " << warning << "\n";
    if (const std::string drift = driftSummary(outcome.epochs, config.warmupEpochs); !drift.empty())
        out << (speedChangedStableEpochs(outcome.epochs, config.warmupEpochs).empty()
                    ? "  "
                    : "  WARNING: ")
            << drift << "\n";
    // What the machine did, and the energy: the sampler's readings of the stable epochs.
    out << "  " << systemLine(outcome.epochs, config.warmupEpochs, sampling.memoryMeasure) << "\n";
    out << "  " << energyLine(outcome.epochs, config.warmupEpochs, sampling) << "\n";
    for (const std::string &note : sampling.notes) // a source that ended, a setting ignored
        out << "  sampling: " << note << "\n";
    printWhereTheTimeGoes(out, outcome, config);
}

} // namespace devicebench::cli
