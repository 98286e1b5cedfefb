// SPDX-License-Identifier: MIT
#include "cli_parse_error.h"

#include "cli_command.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace devicebench::cli {
namespace {

// CLI11 writes range ends with std::to_string: "0.000000", and DBL_MAX in full (2.4: "0" and
// "1.79769e+308"). The ends as a user would write them: "0", and no upper end at all when it
// is that large.
std::string plainNumber(const std::string &text) {
    if (text.find('.') == std::string::npos)
        return text;
    std::string t = text;
    while (!t.empty() && t.back() == '0')
        t.pop_back();
    if (!t.empty() && t.back() == '.')
        t.pop_back();
    return t;
}

std::string rangeText(const std::string &low, const std::string &high) {
    // DBL_MAX (in full before CLI11 2.4, "1.79769e+308" since) or INT64_MAX: only a lower end
    if (high.size() > 20 || std::strtod(high.c_str(), nullptr) >= 9e18)
        return "it must be at least " + plainNumber(low);
    return "it must be from " + plainNumber(low) + " to " + plainNumber(high);
}

// "{fp32,bf16,fp16}" -> "fp32, bf16 or fp16".
std::string choicesText(const std::string &braced) {
    std::vector<std::string> items;
    std::stringstream in(braced.substr(1, braced.size() - 2));
    for (std::string item; std::getline(in, item, ',');)
        items.push_back(item);
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i)
        text += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
    return text;
}

// What option `name` of `command` takes, as a phrase: "a whole number" for INT and UINT.
std::string kindOf(const CLI::App *command, const std::string &name) {
    const CLI::Option *option = command ? command->get_option_no_throw(name) : nullptr;
    const std::string type = option ? option->get_type_name() : "";
    if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0)
        return "a whole number";
    if (type.rfind("FLOAT", 0) == 0)
        return "a number";
    return "a value it takes";
}

// Whether option `name` of `command` has the CLI11 check described as `description`
// (CLI::NonNegativeNumber: "NONNEGATIVE", CLI::PositiveNumber: "POSITIVE").
bool hasCheck(const CLI::App *command, const std::string &name, const std::string &description) {
    auto *option = command ? const_cast<CLI::App *>(command)->get_option_no_throw(name) : nullptr;
    for (int i = 0; option != nullptr; ++i) {
        try {
            if (option->get_validator(i)->get_description() == description)
                return true;
        } catch (const CLI::OptionNotFound &) { // past the last check
            break;
        }
    }
    return false;
}

// "x --other 5 --bogus" -> "--bogus 5 --other x": CLI11 joins the arguments it did not expect
// last first.
std::string inGivenOrder(const std::string &reversed) {
    std::vector<std::string> words;
    std::stringstream in(reversed);
    for (std::string word; in >> word;)
        words.push_back(word);
    std::string text;
    for (auto it = words.rbegin(); it != words.rend(); ++it)
        text += (text.empty() ? "" : " ") + *it;
    return text;
}

// "it must be from <low> to <high>" for a whole number `value` that option `name` could not
// hold: an option of a type that holds it (int64) is an int, else an int64 (UINT: unsigned);
// the low end raised by a NONNEGATIVE (0) or POSITIVE (1) check. "" when `value` is not a whole
// number or the option holds no whole numbers.
std::string wholeNumberRange(const CLI::App *command, const std::string &name,
                             const std::string &value) {
    static const std::regex whole(R"(^[+-]?[0-9]+$)");
    auto *option = command ? const_cast<CLI::App *>(command)->get_option_no_throw(name) : nullptr;
    if (option == nullptr || kindOf(command, name) != "a whole number" ||
        !std::regex_match(value, whole))
        return {};
    std::int64_t parsed = 0;
    const char *begin = value.data() + (value[0] == '+' ? 1 : 0);
    const bool fitsInt64 =
        std::from_chars(begin, value.data() + value.size(), parsed).ec == std::errc();
    const bool isUnsigned = option->get_type_name().rfind("UINT", 0) == 0;
    std::string low = isUnsigned  ? "0"
                      : fitsInt64 ? std::to_string(std::numeric_limits<int>::min())
                                  : std::to_string(std::numeric_limits<std::int64_t>::min());
    const std::string high =
        fitsInt64 ? std::to_string(isUnsigned ? std::numeric_limits<unsigned>::max()
                                              : unsigned(std::numeric_limits<int>::max()))
                  : std::to_string(std::numeric_limits<std::int64_t>::max());
    if (hasCheck(command, name, "NONNEGATIVE"))
        low = "0";
    if (hasCheck(command, name, "POSITIVE"))
        low = "1";
    return "it must be from " + low + " to " + high;
}

} // namespace

std::string parseErrorInOurWords(const CLI::ParseError &e, const CLI::App *command) {
    const std::string what = e.what();
    std::smatch m;
    static const std::regex atMost(R"(^(\S+): At Most (\d+) required but received (\d+)$)");
    static const std::regex missing(R"(^(\S+): (\d+) required (\S+) missing$)");
    static const std::regex convert(R"(^Could not convert: (\S+) = (.*)$)");
    // CLI11 2.3 and before: "Value 0 not in range 0.000000 to 1.79769e+308"; 2.4 and after
    // (Debian 13): "Value 0 not in range [2.22507e-308 - 1.79769e+308]"
    static const std::regex range(
        R"(^(\S+): Value (\S+) not in range \[?(\S+)(?: to | - )([^\s\]]+)\]?$)");
    static const std::regex choice(R"(^(\S+): (.*) not in (\{.*\})$)");
    static const std::regex own(R"(^(\S+): (\1 .*)$)"); // our validators name the option again
    static const std::regex extras(R"(^The following arguments? (?:was|were) not expected: (.*)$)");
    static const std::regex excludes(R"(^(\S+) excludes (\S+)$)");
    static const std::regex required(R"(^(\S+) is required$)");
    if (std::regex_match(what, m, atMost))
        return m[1].str() + " was given " + m[3].str() + " times; give it once";
    if (std::regex_match(what, m, missing))
        return m[1].str() + " needs a value (" + m[3].str() + ")";
    if (std::regex_match(what, m, convert)) {
        if (const std::string allowed = wholeNumberRange(command, m[1].str(), m[2].str());
            !allowed.empty())
            return m[1].str() + ": " + m[2].str() + " is out of range: " + allowed;
        return m[1].str() + ": '" + m[2].str() + "' is not " + kindOf(command, m[1].str());
    }
    if (std::regex_match(what, m, range)) {
        if (hasCheck(command, m[1].str(), "POSITIVE")) // its low end prints as 0.000000
            return m[1].str() + ": " + m[2].str() + " is out of range: it must be " +
                   (kindOf(command, m[1].str()) == "a whole number" ? "at least 1" : "more than 0");
        return m[1].str() + ": " + m[2].str() +
               " is out of range: " + rangeText(m[3].str(), m[4].str());
    }
    if (std::regex_match(what, m, choice))
        return m[1].str() + ": '" + m[2].str() + "' is not one of " + choicesText(m[3].str());
    if (std::regex_match(what, m, own))
        return m[2].str();
    if (std::regex_match(what, m, extras)) // CLI11 lists them last first
        return "unknown option or argument: " + inGivenOrder(m[1].str());
    if (std::regex_match(what, m, required))
        return m[1].str()[0] == '-' ? m[1].str() + " must be given"
                                    : "the " + m[1].str() + " must be given";
    if (std::regex_match(what, m, excludes))
        return m[1].str() + " and " + m[2].str() + " cannot be given together; give one";
    return what;
}

int printParseError(const CLI::App &app, const CLI::ParseError &e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) { // help, --version
        app.exit(e);
        return kExitOk;
    }
    const CLI::App *command = &app; // the subcommand parsed, as deep as it goes
    std::string name = app.get_name();
    while (!command->get_subcommands().empty()) {
        command = command->get_subcommands().front();
        name += " " + command->get_name();
    }
    std::cerr << "devicebench-cli: error: " << parseErrorInOurWords(e, command) << "\n"
              << "see `" << name << " --help`\n";
    return kExitUsage;
}

std::string emptyValueProblem(const CLI::App &app, const std::vector<std::string> &mayBeEmpty) {
    for (const CLI::App *command = &app; command != nullptr;
         command = command->get_subcommands().empty() ? nullptr
                                                      : command->get_subcommands().front()) {
        for (const CLI::Option *option : command->get_options()) {
            if (option->get_type_size_max() == 0) // a flag: no value to be empty
                continue;
            const std::string name = option->get_name();
            if (std::find(mayBeEmpty.begin(), mayBeEmpty.end(), name) != mayBeEmpty.end())
                continue;
            const CLI::results_t &given = option->results();
            if (std::find(given.begin(), given.end(), std::string()) != given.end())
                return name + " needs a value: leave it out for its default";
        }
    }
    return {};
}

void readNumbersInDecimal(CLI::App &app) {
    static const std::regex prefixed(R"(^[+-]?0[xXbBoO].*)");
    static const std::regex whole(R"(^([+-]?)0*([0-9]+)$)");
    for (CLI::Option *option : app.get_options()) {
        const std::string kind = kindOf(&app, option->get_name());
        if (kind == "a value it takes")
            continue;
        const std::string name = option->get_name();
        option->transform(CLI::Validator(
            [name, kind](std::string &value) -> std::string {
                std::smatch m;
                if (std::regex_match(value, prefixed) ||
                    (kind == "a number" && value.find_first_of("xX") != std::string::npos))
                    return "'" + value + "' is not " + kind + " (decimal digits only)";
                if (kind == "a whole number" && std::regex_match(value, m, whole))
                    value = m[1].str() + m[2].str(); // "010" is ten, not octal eight
                return {};
            },
            ""));
    }
    for (CLI::App *sub : app.get_subcommands([](CLI::App *) { return true; }))
        readNumbersInDecimal(*sub);
}

std::string outOfRangeProblem(const CLI::App &app) {
    for (const CLI::App *command = &app; command != nullptr;
         command = command->get_subcommands().empty() ? nullptr
                                                      : command->get_subcommands().front()) {
        for (const CLI::Option *option : command->get_options()) {
            const std::string name = option->get_name();
            for (const std::string &value : option->results()) {
                std::int64_t parsed = 0;
                const char *begin = value.data() + (!value.empty() && value[0] == '+' ? 1 : 0);
                if (std::from_chars(begin, value.data() + value.size(), parsed).ec !=
                    std::errc::result_out_of_range)
                    continue;
                if (const std::string allowed = wholeNumberRange(command, name, value);
                    !allowed.empty())
                    return name + ": " + value + " is out of range: " + allowed;
            }
        }
    }
    return {};
}

} // namespace devicebench::cli
