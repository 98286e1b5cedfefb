// SPDX-License-Identifier: MIT
// A main() for a fuzz target built without libFuzzer: runs LLVMFuzzerTestOneInput once on each
// file named, or on each file of each folder named (sorted by name), and says how many it ran.
// ctest runs it over the seed corpus (tests/fuzz/corpus/<target>/), so the seeds and any
// crash input added there after a fix stay regression tests in every build and with any
// compiler. A target signals a failure by aborting; finding no input at all is a failure too.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

namespace fs = std::filesystem;

namespace {

void runOne(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
        std::exit(2);
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
    std::printf("replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
    std::fflush(stdout); // the last name printed is the input that crashed
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
}

} // namespace

int main(int argc, char **argv) {
    std::size_t ran = 0;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg(argv[i]);
        std::vector<fs::path> files;
        if (fs::is_directory(arg)) {
            for (const auto &entry : fs::directory_iterator(arg)) {
                if (entry.is_regular_file()) {
                    files.push_back(entry.path());
                }
            }
            std::sort(files.begin(), files.end());
        } else {
            files.push_back(arg);
        }
        for (const auto &file : files) {
            runOne(file);
            ++ran;
        }
    }
    if (ran == 0) {
        std::fprintf(stderr, "replay: no input given or found\n");
        return 1;
    }
    std::printf("replay: ran %zu inputs, none failed\n", ran);
    return 0;
}
