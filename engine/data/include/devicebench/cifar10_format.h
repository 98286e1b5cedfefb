// SPDX-License-Identifier: MIT
// CIFAR-10, binary version (Krizhevsky 2009; https://www.cs.toronto.edu/~kriz/cifar.html): the
// file format's sizes and the reader's error type, LibTorch-free so that the folder check and
// the download can use them. Each of data_batch_1..5.bin (training) and test_batch.bin holds
// 10,000 records: 1 label byte (0-9), then 1,024 red, 1,024 green, 1,024 blue bytes (32 x 32,
// row-major).
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
