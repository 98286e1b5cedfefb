// SPDX-License-Identifier: MIT
// How fast can this machine run the small CNN's convolutions? The denominator of "achieved
// GFLOP/s" in bench/speed.sh.
//
// For each of the network's three 5x5 convolutions (engine/train/src/small_cnn.cpp: 3->32 on 32x32,
// 32->32 on 16x16, 32->64 on 8x8, padding 2, batch 64), in NCHW and in channels-last, it times
// the forward pass and the forward + backward pass (gradients of weight, bias and, except for
// the first layer whose input is the image, the input) through LibTorch, the way a training
// step calls them, and prints the median of --reps repetitions after 5 warm-up ones.
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
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Layer {
    const char *name;
    std::int64_t in, out, size; // channels in, channels out, input height = width
    bool inputNeedsGrad;        // false for the first layer: its input is the image
};

constexpr Layer kLayers[] = {
    {"conv1 3->32 @32x32", 3, 32, 32, false},
    {"conv2 32->32 @16x16", 32, 32, 16, true},
    {"conv3 32->64 @8x8", 32, 64, 8, true},
};
constexpr std::int64_t kKernel = 5;

double macs(const Layer &l, std::int64_t batch) {
    return static_cast<double>(batch * l.out * l.size * l.size * l.in * kKernel * kKernel);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class F> double medianSeconds(int reps, F &&f) {
    for (int i = 0; i < 5; ++i)
        f();
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return median(t);
}

int intArg(const char *flag, const char *value) {
    char *end = nullptr;
    const long v = std::strtol(value, &end, 10);
    if (end == value || *end != '\0' || v <= 0 || v > 100000) {
        std::fprintf(stderr, "%s: not a positive whole number: '%s'\n", flag, value);
        std::exit(2);
    }
    return static_cast<int>(v);
}

} // namespace

int main(int argc, char **argv) {
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
            threads = intArg("--threads", argv[++i]);
        else if (flag == "--reps")
            reps = intArg("--reps", argv[++i]);
        else if (flag == "--batch")
            batch = intArg("--batch", argv[++i]);
        else {
            std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
            return 2;
        }
    }
    if (threads > 0)
        at::set_num_threads(threads);
    torch::manual_seed(0);
    std::printf("# conv throughput: batch %d, %d threads, median of %d repetitions\n", batch,
                at::get_num_threads(), reps);
    std::printf("%-22s %-13s %9s %9s %12s %12s\n", "layer", "format", "fwd ms", "fwd GF/s",
                "fwd+bwd ms", "fwd+bwd GF/s");

    struct Total {
        double flop = 0.0, seconds = 0.0;
    };
    Total totals[2];
    const torch::MemoryFormat formats[2] = {torch::MemoryFormat::Contiguous,
                                            torch::MemoryFormat::ChannelsLast};
    const char *formatNames[2] = {"NCHW", "channels-last"};
    for (const Layer &l : kLayers) {
        for (int f = 0; f < 2; ++f) {
            const auto fmt = formats[f];
            auto x = torch::rand({batch, l.in, l.size, l.size}).contiguous(fmt);
            x.set_requires_grad(l.inputNeedsGrad);
            auto w = (torch::rand({l.out, l.in, kKernel, kKernel}) - 0.5)
                         .contiguous(fmt)
                         .set_requires_grad(true);
            auto b = torch::zeros({l.out}).set_requires_grad(true);
            const auto gradOut = torch::ones({batch, l.out, l.size, l.size}).contiguous(fmt);
            const double fwdFlop = 2.0 * macs(l, batch);
            const double bwdFlop = fwdFlop * (l.inputNeedsGrad ? 2.0 : 1.0);
            const double fwd = medianSeconds(reps, [&] {
                torch::NoGradGuard noGrad;
                auto y = torch::conv2d(x, w, b, 1, 2);
            });
            const double both = medianSeconds(reps, [&] {
                auto y = torch::conv2d(x, w, b, 1, 2);
                y.backward(gradOut);
                w.mutable_grad() = torch::Tensor();
                b.mutable_grad() = torch::Tensor();
                if (l.inputNeedsGrad)
                    x.mutable_grad() = torch::Tensor();
            });
            std::printf("%-22s %-13s %9.3f %9.1f %12.3f %12.1f\n", l.name, formatNames[f],
                        1e3 * fwd, fwdFlop / fwd / 1e9, 1e3 * both,
                        (fwdFlop + bwdFlop) / both / 1e9);
            totals[f].flop += fwdFlop + bwdFlop;
            totals[f].seconds += both;
        }
    }
    const int best = totals[1].flop / totals[1].seconds > totals[0].flop / totals[0].seconds;
    const double throughput = totals[best].flop / totals[best].seconds;
    for (int f = 0; f < 2; ++f)
        std::printf("training step convolutions, %s: %.1f GFLOP/s\n", formatNames[f],
                    totals[f].flop / totals[f].seconds / 1e9);
    std::printf("conv throughput: %.1f GFLOP/s (%s)\n", throughput / 1e9, formatNames[best]);

    // Every layer, per image: the convolutions plus fc1 (1024 -> 64) and fc2 (64 -> 10).
    double forwardMacs = 0.0;
    for (const Layer &l : kLayers)
        forwardMacs += macs(l, 1);
    forwardMacs += 64.0 * 4 * 4 * 64 + 64.0 * 10;
    const double trainFlopPerImage = 2.0 * (3.0 * forwardMacs - macs(kLayers[0], 1));
    const double testFlopPerImage = 2.0 * forwardMacs;
    const double epochFlop = 50000.0 * trainFlopPerImage + 10000.0 * testFlopPerImage;
    std::printf("epoch arithmetic: %.3f TFLOP (forward %.2f M multiply-adds per image; "
                "50000 training images forward + backward, 10000 test images forward)\n",
                epochFlop / 1e12, forwardMacs / 1e6);
    std::printf("epoch floor: %.2f s (epoch arithmetic / conv throughput)\n",
                epochFlop / throughput);
    return 0;
}
