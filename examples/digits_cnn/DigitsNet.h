//===- DigitsNet.h - The CNN of the digits examples -----------------------===//
//
// Shared by digits_cnn (training with checkpoints) and digits_deploy (train,
// trace, compile, run): two 3x3 convolutions, max pooling, dropout and two
// linear layers over 8x8 images.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_EXAMPLES_DIGITSNET_H
#define TCC_EXAMPLES_DIGITSNET_H

#include "tcc/nn.h"

namespace tcc {

struct DigitsNetImpl : nn::Module {
  DigitsNetImpl()
      : conv1(register_module(
            "conv1", nn::Conv2d(nn::Conv2dOptions(1, 16, 3).padding(1)))),
        conv2(register_module(
            "conv2", nn::Conv2d(nn::Conv2dOptions(16, 32, 3).padding(1)))),
        dropout(register_module("dropout", nn::Dropout(0.25))),
        fc1(register_module("fc1", nn::Linear(32 * 4 * 4, 64))),
        fc2(register_module("fc2", nn::Linear(64, 10))) {}

  /// [N, 1, 8, 8] images -> [N, 10] log-probabilities.
  Tensor forward(Tensor x) {
    x = conv1(x).relu();
    x = max_pool2d(conv2(x).relu(), 2);
    x = dropout(x).flatten(1);
    x = fc1(x).relu();
    return fc2(x).log_softmax(1);
  }

  nn::Conv2d conv1, conv2;
  nn::Dropout dropout;
  nn::Linear fc1, fc2;
};
TCC_MODULE(DigitsNet);

} // namespace tcc

#endif // TCC_EXAMPLES_DIGITSNET_H
