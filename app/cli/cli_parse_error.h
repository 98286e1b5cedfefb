// SPDX-License-Identifier: MIT
// CLI11's parse errors said in devicebench-cli's own words: "--epochs was given 2 times; give
// it once" for "--epochs: At Most 1 required but received 2", and so on for the errors a user
// meets (a value missing or not a number, out of range or not one of the choices, an unknown
// option, two options that exclude each other). Help and --version are not errors.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace devicebench::cli {

// The message for `e` without a prefix or a trailing newline; CLI11's own text when it is not
// one of the errors above. `command` (may be null) is the subcommand whose option it is: it
// says what a value that did not convert should have been ("a whole number").
std::string parseErrorInOurWords(const CLI::ParseError &e, const CLI::App *command);

// Prints `e` on stderr as "devicebench-cli: error: <message>" and "see `devicebench-cli run
// --help`" for the subcommand parsed; help and --version print as CLI11 prints them. Returns
// the exit code: 0 for help and --version, else 2.
int printParseError(const CLI::App &app, const CLI::ParseError &e);

// "--python needs a value: leave it out for its default" when an option of the subcommand
// parsed was given an empty value (an empty value would silently mean the default; an empty
// environment variable is unset instead). Options named in `mayBeEmpty` (a script's own
// arguments) may be. "" when none was.
std::string emptyValueProblem(const CLI::App &app, const std::vector<std::string> &mayBeEmpty);

// Every number option of `app` and its commands read in decimal: "010" is ten (CLI11 would
// read octal eight), "0x2", "0b1" and hexadecimal floating point are refused as not a number.
// Call once every option is declared.
void readNumbersInDecimal(CLI::App &app);

// The first whole number given to an option of the commands parsed that not even a 64-bit
// integer holds (CLI11 would keep the nearest end, so that a run would use another number):
// "--train-images: 99999999999999999999 is out of range: it must be from ... to ...". "" when
// none was.
std::string outOfRangeProblem(const CLI::App &app);

} // namespace devicebench::cli
