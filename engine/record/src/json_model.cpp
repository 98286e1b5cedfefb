// SPDX-License-Identifier: MIT
#include "json_model.h"

namespace devicebench::detail {

void writeModelConfig(nlohmann::ordered_json &config, const RunConfig &c) {
    config["model"] = c.model;
    config["imageSize"] = c.imageSize;
}

void writeModelStarted(nlohmann::ordered_json &started, const RunStarted &s) {
    started["modelParameters"] = s.modelParameters;
    started["multiplyAddsPerImage"] = s.multiplyAddsPerImage;
}

void readModelConfig(const FieldReader &r, const nlohmann::json &config,
                     const std::string &topLevelModel, RunConfig *c) {
    const std::string p = "config";
    c->model = config.contains("model") ? r.string(config, "model", p) : topLevelModel;
    c->imageSize =
        config.contains("imageSize") ? r.integer(config, "imageSize", p) : kDefaultImageSize;
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
}

} // namespace devicebench::detail
