// SPDX-License-Identifier: MIT
// How fast can this machine run the small CNN's convolutions? The denominator of "achieved
// GFLOP/s" in bench/speed.sh.
//
// For each of the network's three 5x5 convolutions (engine/train/src/small_cnn.cpp: 3->32 on 32x32,
// 32->32 on 16x16, 32->64 on 8x8, padding 2, batch 64), in NCHW and in channels-last, it times
// the forward pass and the forward + backward pass (gradients of weight, bias and, except for
// the first layer whose input is the image, the input) through LibTorch, the way a training
// step calls them, and prints the median of --reps repetitions after 5 warm-up ones. The
// measurement is the engine's (measureSmallCnnConvolutions, devicebench/conv_throughput.h),
// the same one the sweep's measured peak takes its best case from.
//
// FLOP counts (1 multiply-add = 2 FLOP): forward 2*B*Cout*H*W*Cin*25; backward twice that
// (input gradient + weight gradient), once for the first layer. The line
//   "conv throughput: X GFLOP/s (FORMAT)"
// gives the three layers' forward + backward FLOP of one training step over their summed
// median time in the faster memory format: the best this machine does on this network's own
// convolutions. The floor of an epoch is then the epoch's arithmetic over that throughput:
//   "epoch arithmetic: T TFLOP (...)", "epoch floor: S s".
// The epoch's arithmetic counts every layer of the network (convolutions and the two linear
// layers) for 50,000 training images (forward + backward) and 10,000 test images (forward),
// as in ../shared/reference/README.md (about 3.7 TFLOP).
//
// usage: conv_throughput [--threads N] [--reps N] [--batch N]
#include "bench_args.h"

#include "devicebench/conv_throughput.h"

#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

int main(int argc, char **argv) {
    using namespace devicebench;
    int threads = 0, reps = 30, batch = 64;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr,
                         "%s needs a value\nusage: conv_throughput [--threads N] "
                         "[--reps N] [--batch N]\n",
                         flag.c_str());
            return 2;
        }
        if (flag == "--threads")
            threads = bench::positiveWholeNumber("--threads", argv[++i]);
        else if (flag == "--reps")
            reps = bench::positiveWholeNumber("--reps", argv[++i]);
        else if (flag == "--batch")
            batch = bench::positiveWholeNumber("--batch", argv[++i]);
        else {
            std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
            return 2;
        }
    }
    if (threads > 0)
        at::set_num_threads(threads);
    std::printf("# conv throughput: batch %d, %d threads, median of %d repetitions\n", batch,
                at::get_num_threads(), reps);
    std::printf("%-22s %-13s %9s %9s %12s %12s\n", "layer", "format", "fwd ms", "fwd GF/s",
                "fwd+bwd ms", "fwd+bwd GF/s");

    struct Total {
        double flop = 0.0, seconds = 0.0;
    };
    Total totals[2];
    const char *formatNames[2] = {"NCHW", "channels-last"};
    ConvTimingOptions options;
    options.batch = batch;
    options.reps = reps;
    for (const ConvTiming &t : measureSmallCnnConvolutions(options)) {
        const int f = t.channelsLast ? 1 : 0;
        const double fwd = median(t.forwardSeconds);
        const double both = median(t.bothSeconds);
        std::printf("%-22s %-13s %9.3f %9.1f %12.3f %12.1f\n", t.layer.name.c_str(), formatNames[f],
                    1e3 * fwd, t.forwardFlop / fwd / 1e9, 1e3 * both,
                    (t.forwardFlop + t.backwardFlop) / both / 1e9);
        totals[f].flop += t.forwardFlop + t.backwardFlop;
        totals[f].seconds += both;
    }
    const int best = totals[1].flop / totals[1].seconds > totals[0].flop / totals[0].seconds;
    const double throughput = totals[best].flop / totals[best].seconds;
    for (int f = 0; f < 2; ++f)
        std::printf("training step convolutions, %s: %.1f GFLOP/s\n", formatNames[f],
                    totals[f].flop / totals[f].seconds / 1e9);
    std::printf("conv throughput: %.1f GFLOP/s (%s)\n", throughput / 1e9, formatNames[best]);

    // Every layer, per image: the convolutions plus fc1 (1024 -> 64) and fc2 (64 -> 10).
    const std::vector<ConvLayerShape> layers = smallCnnConvolutions();
    double forwardMacs = 0.0;
    for (const ConvLayerShape &l : layers)
        forwardMacs += convMultiplyAdds(l, 1);
    forwardMacs += 64.0 * 4 * 4 * 64 + 64.0 * 10;
    const double trainFlopPerImage = 2.0 * (3.0 * forwardMacs - convMultiplyAdds(layers[0], 1));
    const double testFlopPerImage = 2.0 * forwardMacs;
    const double epochFlop = 50000.0 * trainFlopPerImage + 10000.0 * testFlopPerImage;
    std::printf("epoch arithmetic: %.3f TFLOP (forward %.2f M multiply-adds per image; "
                "50000 training images forward + backward, 10000 test images forward)\n",
                epochFlop / 1e12, forwardMacs / 1e6);
    std::printf("epoch floor: %.2f s (epoch arithmetic / conv throughput)\n",
                epochFlop / throughput);
    return 0;
}
