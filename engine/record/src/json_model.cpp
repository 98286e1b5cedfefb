// SPDX-License-Identifier: MIT
#include "json_model.h"

#include "devicebench/display_text.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace devicebench::detail {

void writeModelConfig(nlohmann::ordered_json &config, const RunConfig &c) {
    config["model"] = c.model;
    config["imageSize"] = c.imageSize;
    if (c.script.empty() && c.scriptArgs.empty() && c.scriptHash.empty() &&
        c.scriptStartSeconds == kDefaultScriptStartSeconds)
        return; // not a script run
    config["script"] = c.script;
    config["scriptArgs"] = c.scriptArgs;
    config["scriptHash"] = c.scriptHash;
    config["scriptStartSeconds"] = c.scriptStartSeconds;
}

void writeModelStarted(nlohmann::ordered_json &started, const RunStarted &s) {
    started["modelParameters"] = s.modelParameters;
    started["multiplyAddsPerImage"] = s.multiplyAddsPerImage;
    if (!s.modelName.empty())
        started["modelName"] = s.modelName;
    if (!s.modelWrapper.empty())
        started["modelWrapper"] = s.modelWrapper;
    if (s.batchSize > 0)
        started["batchSize"] = s.batchSize;
    if (std::isfinite(s.learningRate))
        started["learningRate"] = s.learningRate;
    if (s.scriptFilesRecorded) { // absent: not recorded (older records, other runs)
        nlohmann::ordered_json files = nlohmann::ordered_json::object();
        for (const auto &[path, sha256] : s.scriptFiles)
            files[path] = sha256;
        started["scriptFiles"] = std::move(files);
    }
}

void readModelConfig(const FieldReader &r, const nlohmann::json &config,
                     const std::string &topLevelModel, RunConfig *c) {
    const std::string p = "config";
    c->model = config.contains("model") ? r.string(config, "model", p) : topLevelModel;
    c->imageSize =
        config.contains("imageSize") ? r.integer(config, "imageSize", p) : kDefaultImageSize;
    if (!config.contains("script"))
        return;
    c->script = r.string(config, "script", p);
    c->scriptHash = config.contains("scriptHash") ? r.string(config, "scriptHash", p) : "";
    if (config.contains("scriptStartSeconds"))
        c->scriptStartSeconds = r.integer(config, "scriptStartSeconds", p);
    c->scriptArgs.clear();
    const auto args = config.find("scriptArgs");
    if (args == config.end())
        return;
    if (!args->is_array())
        r.fail(p + ".scriptArgs", "must be an array of strings");
    for (const auto &arg : *args) {
        if (!arg.is_string())
            r.fail(p + ".scriptArgs", "must be an array of strings");
        c->scriptArgs.push_back(visibleText(arg.get<std::string>())); // shown, never obeyed
    }
}

void readModelStarted(const FieldReader &r, const nlohmann::json &started, const RunConfig &c,
                      RunStarted *s) {
    const std::string p = "started";
    // Before models were recorded every run trained small-cnn at 32 x 32, whose counts are known.
    const bool knownSmallCnn =
        !s->device.empty() && c.model == kDefaultModel && c.imageSize == kDefaultImageSize;
    s->modelParameters = started.contains("modelParameters")
                             ? r.int64(started, "modelParameters", p)
                             : (knownSmallCnn ? kSmallCnnParameters : 0);
    s->multiplyAddsPerImage = started.contains("multiplyAddsPerImage")
                                  ? r.int64(started, "multiplyAddsPerImage", p)
                                  : (knownSmallCnn ? kSmallCnnMultiplyAdds : 0);
    if (started.contains("modelName"))
        s->modelName = r.string(started, "modelName", p);
    if (started.contains("modelWrapper"))
        s->modelWrapper = r.string(started, "modelWrapper", p);
    if (started.contains("batchSize"))
        s->batchSize = r.int64(started, "batchSize", p);
    if (started.contains("learningRate")) // null: not stated
        s->learningRate = r.numberOrNull(started, "learningRate", p);
    if (started.contains("scriptFiles")) {
        const nlohmann::json &files = r.object(started, "scriptFiles", p);
        for (auto it = files.begin(); it != files.end(); ++it) {
            if (!it->is_string())
                r.fail(p + ".scriptFiles", "must map each file to its sha256 text");
            s->scriptFiles.emplace_back(visibleText(it.key()), it->get<std::string>());
        }
        std::sort(s->scriptFiles.begin(), s->scriptFiles.end());
        s->scriptFilesRecorded = true;
    }
}

} // namespace devicebench::detail
