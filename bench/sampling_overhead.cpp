// SPDX-License-Identifier: MIT
// What the system sampler (devicebench/system_sampler.h) costs a run: the same recorded run
// (runRecorded, as the CLI and the dashboard make it) with the sampler on, at its period, and
// off ($DEVICEBENCH_SAMPLING_PERIOD=0), alternating in rotating order round by round (on off,
// off on, ...). It prints each setting's median stable epoch, the ratio on / off with the
// rounds' spread, and how many readings a run took. Then the sampler's own cost, apart from any
// training: a sampler of this (idle) process at the period for --idle-seconds, its CPU time per
// reading and as a share of one core (CLOCK_PROCESS_CPUTIME_ID), steady where epoch times on a
// shared machine are not.
//
// usage: sampling_overhead [--rounds N] [--epochs N] [--threads N] [--train-images N]
//                          [--test-images N] [--period SECONDS] [--data-dir DIR]
//                          [--idle-seconds N]
// Synthetic data unless --data-dir names a CIFAR-10 folder.
#include "bench_args.h"

#include "devicebench/contention.h"
#include "devicebench/recorded_run.h"
#include "devicebench/summary.h"
#include "devicebench/system_sampler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

// The sampler alone: a sampler of this process at `period` for `seconds`, this thread asleep.
// Prints its readings and the process CPU time they took, per reading and per second.
void printIdleCost(double period, int seconds) {
    using namespace devicebench;
    SamplerOptions options = samplerOptionsFor("cpu", "");
    options.periodSeconds = period;
    const double cpu0 = processCpuSeconds();
    const auto wall0 = std::chrono::steady_clock::now();
    SystemSampler sampler(options);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    sampler.stop();
    const double cpu = processCpuSeconds() - cpu0;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    const std::size_t readings = sampler.takeNew().size();
    std::printf("the sampler alone (this process idle, %.1f s): %zu readings, %.3f ms of CPU each, "
                "%.4f %% of one core\n",
                wall, readings, readings > 0 ? 1e3 * cpu / static_cast<double>(readings) : 0.0,
                100.0 * cpu / wall);
}

struct Setting {
    const char *name;
    std::string period; // $DEVICEBENCH_SAMPLING_PERIOD
    std::vector<double> stableMeans;
    std::vector<double> readings;
};

} // namespace

int main(int argc, char **argv) {
    using namespace devicebench;
    int rounds = 6;
    int idleSeconds = 20;
    std::string period = "0.5";
    RunConfig config;
    config.synthetic = true;
    config.epochs = 4;
    config.warmupEpochs = 1;
    config.threads = 1;
    config.trainImages = 10000;
    config.testImages = 2000;
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 == argc) { // an option without its value
            std::fprintf(stderr, "%s: needs a value (usage: sampling_overhead --help)\n", argv[i]);
            return 2;
        }
        const std::string flag = argv[i];
        const char *value = argv[i + 1];
        if (flag == "--rounds")
            rounds = bench::positiveWholeNumber(argv[i], value, 1000);
        else if (flag == "--epochs")
            config.epochs = bench::positiveWholeNumber(argv[i], value, 100);
        else if (flag == "--threads")
            config.threads = bench::positiveWholeNumber(argv[i], value, 1024);
        else if (flag == "--train-images")
            config.trainImages = bench::positiveWholeNumber(argv[i], value, 50000);
        else if (flag == "--test-images")
            config.testImages = bench::positiveWholeNumber(argv[i], value, 10000);
        else if (flag == "--period")
            period = value;
        else if (flag == "--idle-seconds")
            idleSeconds = bench::positiveWholeNumber(argv[i], value, 3600);
        else if (flag == "--data-dir") {
            config.dataDir = value;
            config.synthetic = false;
        } else {
            std::fprintf(stderr, "usage: sampling_overhead [--rounds N] [--epochs N] [--threads N] "
                                 "[--train-images N] [--test-images N] [--period SECONDS] "
                                 "[--data-dir DIR] [--idle-seconds N]\n");
            return 2;
        }
    }
    if (config.epochs < 2) {
        std::fprintf(stderr, "--epochs: at least 2 (the first is warm-up)\n");
        return 2;
    }
    std::vector<Setting> settings = {{"sampled", period, {}, {}}, {"not sampled", "0", {}, {}}};
    const std::atomic<bool> stop{false};
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t k = 0; k < settings.size(); ++k) {
            Setting &s = settings[(k + static_cast<std::size_t>(round)) % settings.size()];
            setenv("DEVICEBENCH_SAMPLING_PERIOD", s.period.c_str(), 1);
            RunRequest request;
            request.config = config;
            const RecordedRun run = runRecorded(request, nullptr, stop);
            if (run.outcome.status != RunStatus::Finished) {
                std::fprintf(stderr, "a run ended %s: %s\n", toString(run.outcome.status),
                             run.outcome.reason.c_str());
                return 1;
            }
            s.stableMeans.push_back(run.outcome.summary.stableMean);
            s.readings.push_back(static_cast<double>(run.record.samples.size()));
            std::fprintf(stderr, "round %d %-12s %.3f s per stable epoch, %zu readings\n",
                         round + 1, s.name, run.outcome.summary.stableMean,
                         run.record.samples.size());
        }
    }
    std::vector<double> ratios;
    for (std::size_t r = 0; r < settings[0].stableMeans.size(); ++r)
        ratios.push_back(settings[0].stableMeans[r] / settings[1].stableMeans[r]);
    std::printf("sampling overhead: %d rounds, rotating order; %d epochs (%d warm-up) of %lld + "
                "%lld %s images at %d thread(s); sampler period %s s\n",
                rounds, config.epochs, config.warmupEpochs,
                static_cast<long long>(config.trainImages),
                static_cast<long long>(config.testImages),
                config.synthetic ? "synthetic" : "CIFAR-10", config.threads, period.c_str());
    std::printf("%-12s %18s %12s\n", "setting", "median stable s", "readings");
    for (const Setting &s : settings)
        std::printf("%-12s %18.3f %12.0f\n", s.name, median(s.stableMeans), median(s.readings));
    std::vector<double> sorted = ratios;
    std::sort(sorted.begin(), sorted.end());
    std::printf("sampled / not sampled, per round: median %.4f (min %.4f, max %.4f): %+.2f %%\n",
                median(ratios), sorted.front(), sorted.back(), 100.0 * (median(ratios) - 1.0));
    printIdleCost(std::atof(period.c_str()) > 0.0 ? std::atof(period.c_str()) : 0.5, idleSeconds);
    return 0;
}
