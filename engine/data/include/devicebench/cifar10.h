// SPDX-License-Identifier: MIT
// CIFAR-10's binary batch files read into LibTorch tensors, synthetic data of the same shape,
// and the conversions a run makes before and inside its epochs. The file format and DataError:
// cifar10_format.h.
#pragma once

#include "devicebench/cifar10_format.h"

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace devicebench {

// One split held on the host as bytes.
struct Split {
    torch::Tensor images; // uint8, N x 3 x 32 x 32 (channel planes R, G, B), contiguous
    torch::Tensor labels; // int64, N, each 0..9
    std::int64_t size() const { return labels.defined() ? labels.size(0) : 0; }
};

struct Cifar10 {
    Split train;
    Split test;
    std::string source; // the folder read, or "synthetic"
    bool synthetic = false;
};

// Reads one batch file. With `maxRecords` > 0 only the first maxRecords records are kept
// (the file is still checked whole). Throws DataError naming `path` when the file is missing
// or unreadable, its size is not a multiple of 3,073 bytes, it does not hold exactly 10,000
// records, or a label byte is over 9 (the message gives the record index, from 0).
Split readBatchFile(const std::string &path, std::int64_t maxRecords = 0);

// Parses any whole, non-zero number of 3,073-byte records held in memory (copied). Throws
// DataError naming `source` when there are no bytes, the size is not a multiple of 3,073 (a
// multiple of 3,074 is named as CIFAR-100), or a label byte is over 9 (giving the record index).
Split parseBatchRecords(const std::uint8_t *bytes, std::size_t size, const std::string &source);

// Reads both splits from `dir` (a cifar-10-batches-bin folder); `trainImages` / `testImages` > 0
// keep the first N images (later files are checked for presence and size, not read). Throws
// DataError naming the path: folder or batch file missing, the Python pickle variant given,
// any readBatchFile() error, N beyond the split.
Cifar10 loadCifar10(const std::string &dir, std::int64_t trainImages = 0,
                    std::int64_t testImages = 0);

// CIFAR-shaped generated data: uniform random bytes and labels 0..9 from a generator seeded
// with `seed`. Timing on it is real; accuracy on it is meaningless.
Cifar10 makeSyntheticCifar10(std::int64_t trainImages, std::int64_t testImages,
                             std::uint64_t seed = 0);

// A batch as the network takes it: float32 in [0, 1] (bytes / 255, as torchvision's ToTensor),
// same shape as `images` (B x 3 x 32 x 32).
torch::Tensor toUnitFloat(const torch::Tensor &images);

// `images` (uint8 N x 3 x H x W) resized to `side` x `side` pixels as PyTorch's
// F.interpolate(mode="bilinear", align_corners=False), rounded back to uint8; in chunks of
// 1,000 images so the float copy stays small. The images' own side returns them unchanged.
// Throws std::invalid_argument for side < 1 or images that are not uint8 N x 3 x H x W.
torch::Tensor resizeImages(const torch::Tensor &images, std::int64_t side);

} // namespace devicebench
