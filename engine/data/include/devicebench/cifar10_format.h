// SPDX-License-Identifier: MIT
// CIFAR-10, binary version (Krizhevsky 2009; https://www.cs.toronto.edu/~kriz/cifar.html): the
// file format's sizes and the reader's error type. LibTorch-free, so that the folder check
// (data_location.h, checkCifar10Folder) and the download (fetch.h) can use them without
// LibTorch. The tensor reader is cifar10.h.
// Layout of every batch file: 10,000 records of 3,073 bytes: 1 label byte (0-9), then 3,072
// pixel bytes: 1,024 red, 1,024 green, 1,024 blue, each plane row-major 32x32.
// Training split: data_batch_1.bin .. data_batch_5.bin (50,000 images); test split:
// test_batch.bin (10,000 images).
#pragma once

#include <cstdint>
#include <stdexcept>

namespace devicebench {

inline constexpr std::int64_t kCifarImageBytes = 3 * 32 * 32;           // 3,072
inline constexpr std::int64_t kCifarRecordBytes = 1 + kCifarImageBytes; // 3,073
inline constexpr std::int64_t kCifarRecordsPerFile = 10000;
inline constexpr std::int64_t kCifarTrainImages = 5 * kCifarRecordsPerFile; // 50,000
inline constexpr std::int64_t kCifarTestImages = kCifarRecordsPerFile;      // 10,000
inline constexpr int kCifarClasses = 10;

// Any problem with the data folder or a batch file; what() names the path and what is wrong.
class DataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace devicebench
