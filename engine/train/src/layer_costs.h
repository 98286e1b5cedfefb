// SPDX-License-Identifier: MIT
// Engine-internal (train): multiply-adds of one image through a layer, read from the layer's
// own options, for ImageClassifierImpl::multiplyAddsPerImage() (models.h states the
// convention: 1 multiply-add per weight use; bias, normalisation and activations not counted).
#pragma once

#include <torch/torch.h>

#include <cstdint>

namespace devicebench::detail {

// Output side of a convolution or pooling over `in` pixels: (in + 2 pad - kernel) / stride + 1.
inline std::int64_t outputSide(std::int64_t in, std::int64_t kernel, std::int64_t stride,
                               std::int64_t padding) {
    return (in + 2 * padding - kernel) / stride + 1;
}

// The padding of a square convolution: explicit, "valid" or "same".
struct PaddingOf {
    std::int64_t kernel;
    std::int64_t operator()(const torch::ExpandingArray<2> &p) const { return (*p)[0]; }
    std::int64_t operator()(const torch::enumtype::kValid & /*valid*/) const { return 0; }
    std::int64_t operator()(const torch::enumtype::kSame & /*same*/) const {
        return (kernel - 1) / 2;
    }
};

// A 2-d convolution on a square input of `inSide` pixels: Cout x Hout x Wout x (Cin / groups)
// x Kh x Kw. Sets *outSide (when given) to the output's side.
inline std::int64_t conv2dMultiplyAdds(const torch::nn::Conv2dImpl &conv, std::int64_t inSide,
                                       std::int64_t *outSide = nullptr) {
    const auto &o = conv.options;
    const std::int64_t kh = (*o.kernel_size())[0];
    const std::int64_t kw = (*o.kernel_size())[1];
    const std::int64_t stride = (*o.stride())[0];
    // Unqualified: found by argument-dependent lookup, c10::visit for LibTorch 1.13's
    // c10::variant, std::visit for 2.x's std::variant.
    const std::int64_t pad = visit(PaddingOf{kh}, o.padding());
    const std::int64_t side = outputSide(inSide, kh, stride, pad);
    if (outSide != nullptr) {
        *outSide = side;
    }
    return o.out_channels() * side * side * (o.in_channels() / o.groups()) * kh * kw;
}

// A linear layer applied to `tokens` vectors: tokens x in x out.
inline std::int64_t linearMultiplyAdds(const torch::nn::LinearImpl &linear,
                                       std::int64_t tokens = 1) {
    return tokens * linear.options.in_features() * linear.options.out_features();
}

// Multi-head self-attention's two matrix products over `tokens` tokens of `width` features
// (all heads together, width = heads x head width): the scores Q K^T, tokens x tokens x width,
// and the weighted sum of the values, the same again: 2 x tokens^2 x width. The q, k, v and
// output projections are linear layers, counted with linearMultiplyAdds; the scaling and the
// softmax are not counted (models.h).
inline std::int64_t attentionMultiplyAdds(std::int64_t tokens, std::int64_t width) {
    return 2 * tokens * tokens * width;
}

} // namespace devicebench::detail
