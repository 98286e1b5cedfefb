// SPDX-License-Identifier: MIT
// What the canary (devicebench/canary.h) costs a run and how steady it is on a steady machine.
//
// For each setting (the CPU at 1 thread and at --threads; CUDA when a device is usable), in
// rotating order round by round (A B C, B C A, ...), it makes the run's Canary and times
// --rounds calls of measure(), each after a tenth of a second of other convolutions at the
// setting's threads (as a run's canary follows its epoch): the wall time of one call is what the
// canary adds to each epoch (its warm-ups, its repetitions, and on the CPU both thread counts). It
// prints, per setting, the median cost, the canary's median seconds and noise, the largest change
// between the first measurement and any later one (what the drift rule would see on this machine
// with nothing changing), and the epoch time above which the cost stays under 1 % (100 x the cost).
//
// usage: canary_cost [--threads N] [--rounds N]
#include "bench_args.h"

#include "devicebench/canary.h"
#include "devicebench/devices.h"
#include "devicebench/machine_drift.h"
#include "devicebench/summary.h"

#include <torch/cuda.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Setting {
    std::string name;
    std::unique_ptr<devicebench::Canary> canary;
    int threads = 1;
    bool cuda = false;
    std::vector<double> cost, seconds, noise, change;
    devicebench::CanaryTime first;

    // About a tenth of a second of convolutions at the setting's threads, untimed (their
    // outputs allocated and freed, as a training epoch's are).
    void epoch() const {
        torch::NoGradGuard noGrad;
        if (!cuda)
            at::set_num_threads(threads);
        const auto device = cuda ? torch::Device("cuda:0") : torch::Device(torch::kCPU);
        const auto x = torch::ones({64, 32, 32, 32}, device);
        const auto w = torch::ones({32, 32, 3, 3}, device);
        for (int i = 0; i < 10; ++i)
            (void)torch::conv2d(x, w, {}, 1, 1);
        if (cuda)
            torch::cuda::synchronize();
    }
};

} // namespace

int main(int argc, char **argv) {
    using namespace devicebench;
    int threads = 2, rounds = 15;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--threads")
            threads = bench::positiveWholeNumber(argv[i], argv[i + 1], 1024);
        else if (flag == "--rounds")
            rounds = bench::positiveWholeNumber(argv[i], argv[i + 1], 10000);
        else {
            std::fprintf(stderr, "usage: canary_cost [--threads N] [--rounds N]\n");
            return 2;
        }
    }
    std::vector<Setting> settings;
    for (int t : {1, threads}) {
        if (t == 1 && !settings.empty())
            continue;
        settings.push_back({"cpu x" + std::to_string(t), std::make_unique<Canary>("cpu", t), t});
    }
    if (torch::cuda::is_available())
        settings.push_back({"cuda:0", std::make_unique<Canary>("cuda:0", 1), 1, true});
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t k = 0; k < settings.size(); ++k) {
            Setting &s = settings[(k + static_cast<std::size_t>(round)) % settings.size()];
            s.epoch(); // as in a run: the canary follows an epoch at the run's threads
            const auto t0 = std::chrono::steady_clock::now();
            const CanaryTime c = s.canary->measure();
            const auto t1 = std::chrono::steady_clock::now();
            s.cost.push_back(std::chrono::duration<double>(t1 - t0).count());
            s.seconds.push_back(c.seconds);
            s.noise.push_back(c.noise);
            if (round == 0)
                s.first = c;
            else
                s.change.push_back(std::abs(canaryChange(s.first, c)));
        }
    }
    std::printf("canary: matrix product %d^3 (CPU) / %d^3 x%d (CUDA), %d warm-up + %d "
                "repetitions, median; %d rounds, rotating order\n",
                kCanaryCpuSide, kCanaryCudaSide, kCanaryCudaLaunches, kCanaryWarmups,
                kCanaryRepetitions, rounds);
    std::printf("%-10s %12s %12s %9s %12s %9s %16s\n", "setting", "cost ms", "canary ms", "noise %",
                "max |chg| %", "flagged", "1 % of epoch >=");
    for (Setting &s : settings) {
        int flagged = 0;
        for (std::size_t i = 0; i < s.change.size(); ++i) {
            CanaryTime later;
            later.measured = true;
            later.seconds = s.seconds[i + 1];
            later.noise = s.noise[i + 1];
            flagged += judgeSpeedChange(s.first, later, canaryChange(s.first, later)) ? 1 : 0;
        }
        const double cost = median(s.cost);
        std::printf("%-10s %12.2f %12.3f %9.1f %12.1f %6d/%-2zu %14.1f s\n", s.name.c_str(),
                    1e3 * cost, 1e3 * median(s.seconds), 100.0 * median(s.noise),
                    s.change.empty() ? 0.0
                                     : 100.0 * *std::max_element(s.change.begin(), s.change.end()),
                    flagged, s.change.size(), 100.0 * cost);
    }
    return 0;
}
