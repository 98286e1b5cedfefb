// SPDX-License-Identifier: MIT
// How fast can this machine run a network's own convolutions? The denominator of "achieved
// GFLOP/s" in bench/speed.sh (the small CNN) and of the speedrun's fraction of the convolution
// peak in bench/speedrun_steps.sh.
//
// For each convolution of the network, in NCHW and in channels-last, it times the forward pass
// and the forward + backward pass (gradients of weight, bias and, where the step computes it,
// the input) through LibTorch in the given precision, the way a training step calls them, and
// prints the median of --reps repetitions after 5 warm-up ones. The measurement is the engine's
// (measureConvolutions, devicebench/conv_throughput.h), the same one the sweep's measured peak
// takes its best case from.
//   --network small-cnn (default): the three 5x5 convolutions of engine/train/src/small_cnn.cpp
//     (3->32 on 32x32, 32->32 on 16x16, 32->64 on 8x8, padding 2), batch 64;
//   --network speedrun: airbench94's six 3x3 convolutions (speedrunConvolutions()), batch 1024.
//
// FLOP counts (1 multiply-add = 2 FLOP): forward 2*B*Cout*Hout*Wout*Cin*k*k; backward twice that
// (input gradient + weight gradient), once for a layer whose input needs no gradient. The lines
//   "conv throughput: X GFLOP/s (FORMAT)"
// give the layers' forward + backward FLOP of one training step over their summed median time in
// the faster memory format: the best this machine does on this network's own convolutions, and
//   "best layer: Y GFLOP/s (LAYER)"
// the fastest single case. For the small CNN, the floor of an epoch is then the epoch's
// arithmetic over that throughput ("epoch arithmetic: T TFLOP (...)", "epoch floor: S s"),
// every layer counted (convolutions and the two linear layers) for 50,000 training images
// (forward + backward) and 10,000 test images (forward), as in ../shared/reference/README.md.
// For the speedrun, "step arithmetic: G GFLOP" (its convolutions' forward + backward for one
// batch) and "step floor: S s" (that over the conv throughput).
//
// usage: conv_throughput [--network small-cnn|speedrun] [--precision fp32|bf16] [--threads N]
//                        [--reps N] [--batch N]
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

void usage() {
    std::fprintf(stderr, "usage: conv_throughput [--network small-cnn|speedrun] "
                         "[--precision fp32|bf16] [--threads N] [--reps N] [--batch N]\n");
}

// The small CNN's epoch arithmetic (every layer) and floor at `throughput` FLOP/s.
void printEpochFloor(double throughput) {
    using namespace devicebench;
    const std::vector<ConvLayerShape> layers = smallCnnConvolutions();
    double forwardMacs = 0.0;
    for (const ConvLayerShape &l : layers)
        forwardMacs += convMultiplyAdds(l, 1);
    forwardMacs += 64.0 * 4 * 4 * 64 + 64.0 * 10; // fc1 (1024 -> 64) and fc2 (64 -> 10)
    const double trainFlopPerImage = 2.0 * (3.0 * forwardMacs - convMultiplyAdds(layers[0], 1));
    const double testFlopPerImage = 2.0 * forwardMacs;
    const double epochFlop = 50000.0 * trainFlopPerImage + 10000.0 * testFlopPerImage;
    std::printf("epoch arithmetic: %.3f TFLOP (forward %.2f M multiply-adds per image; "
                "50000 training images forward + backward, 10000 test images forward)\n",
                epochFlop / 1e12, forwardMacs / 1e6);
    std::printf("epoch floor: %.2f s (epoch arithmetic / conv throughput)\n",
                epochFlop / throughput);
}

} // namespace

int main(int argc, char **argv) {
    using namespace devicebench;
    int threads = 0, reps = 0, batch = 0;
    std::string network = "small-cnn", precisionName = "fp32";
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "%s needs a value\n", flag.c_str());
            usage();
            return 2;
        }
        if (flag == "--threads")
            threads = bench::positiveWholeNumber("--threads", argv[++i]);
        else if (flag == "--reps")
            reps = bench::positiveWholeNumber("--reps", argv[++i]);
        else if (flag == "--batch")
            batch = bench::positiveWholeNumber("--batch", argv[++i]);
        else if (flag == "--network")
            network = argv[++i];
        else if (flag == "--precision")
            precisionName = argv[++i];
        else {
            std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
            usage();
            return 2;
        }
    }
    const bool speedrun = network == "speedrun";
    if (!speedrun && network != "small-cnn") {
        std::fprintf(stderr, "--network: '%s' is not small-cnn or speedrun\n", network.c_str());
        return 2;
    }
    ConvTimingOptions options;
    if (precisionName == "bf16")
        options.precision = Precision::BFloat16;
    else if (precisionName != "fp32") {
        std::fprintf(stderr, "--precision: '%s' is not fp32 or bf16\n", precisionName.c_str());
        return 2;
    }
    options.batch = batch > 0 ? batch : (speedrun ? 1024 : 64);
    options.reps = reps > 0 ? reps : (speedrun ? 5 : 30);
    if (threads > 0)
        at::set_num_threads(threads);
    std::printf("# conv throughput: %s, %s, batch %lld, %d threads, median of %d repetitions\n",
                network.c_str(), precisionName.c_str(), static_cast<long long>(options.batch),
                at::get_num_threads(), options.reps);
    std::printf("%-24s %-13s %9s %9s %12s %12s\n", "layer", "format", "fwd ms", "fwd GF/s",
                "fwd+bwd ms", "fwd+bwd GF/s");

    struct Total {
        double flop = 0.0, seconds = 0.0;
    };
    Total totals[2];
    const char *formatNames[2] = {"NCHW", "channels-last"};
    double bestLayer = 0.0;
    std::string bestName;
    for (const ConvTiming &t :
         measureConvolutions(speedrun ? speedrunConvolutions() : smallCnnConvolutions(), options)) {
        const int f = t.channelsLast ? 1 : 0;
        const double fwd = median(t.forwardSeconds);
        const double both = median(t.bothSeconds);
        const double rate = (t.forwardFlop + t.backwardFlop) / both;
        std::printf("%-24s %-13s %9.3f %9.1f %12.3f %12.1f\n", t.layer.name.c_str(), formatNames[f],
                    1e3 * fwd, t.forwardFlop / fwd / 1e9, 1e3 * both, rate / 1e9);
        totals[f].flop += t.forwardFlop + t.backwardFlop;
        totals[f].seconds += both;
        if (rate > bestLayer) {
            bestLayer = rate;
            bestName = t.layer.name + ", " + formatNames[f];
        }
    }
    const int best = totals[1].flop / totals[1].seconds > totals[0].flop / totals[0].seconds;
    const double throughput = totals[best].flop / totals[best].seconds;
    for (int f = 0; f < 2; ++f)
        std::printf("training step convolutions, %s: %.1f GFLOP/s\n", formatNames[f],
                    totals[f].flop / totals[f].seconds / 1e9);
    std::printf("conv throughput: %.1f GFLOP/s (%s)\n", throughput / 1e9, formatNames[best]);
    std::printf("best layer: %.1f GFLOP/s (%s)\n", bestLayer / 1e9, bestName.c_str());
    if (!speedrun) {
        printEpochFloor(throughput);
        return 0;
    }
    std::printf("step arithmetic: %.1f GFLOP (the convolutions, forward + backward, batch %lld)\n",
                totals[best].flop / 1e9, static_cast<long long>(options.batch));
    std::printf("step floor: %.3f s (step arithmetic / conv throughput)\n", totals[best].seconds);
    return 0;
}
