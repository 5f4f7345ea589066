//===- nn.h - Modules, functional, init and utils (tcc::nn) -----*- C++ -*-===//
//
// libtorch's torch/nn.h: every module with its options and holder, the
// functional forms, nn::init and nn::utils. Includes the eager API.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_NN_H
#define TCC_NN_H

#include "tcc/tcc.h"

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Functional.h"
#include "tcc/Frontend/nn/Init.h"
#include "tcc/Frontend/nn/Module.h"
#include "tcc/Frontend/nn/Pimpl.h"
#include "tcc/Frontend/nn/Utils.h"
#include "tcc/Frontend/nn/modules/Activation.h"
#include "tcc/Frontend/nn/modules/AnyModule.h"
#include "tcc/Frontend/nn/modules/Container.h"
#include "tcc/Frontend/nn/modules/Conv.h"
#include "tcc/Frontend/nn/modules/Dropout.h"
#include "tcc/Frontend/nn/modules/Embedding.h"
#include "tcc/Frontend/nn/modules/Linear.h"
#include "tcc/Frontend/nn/modules/Loss.h"
#include "tcc/Frontend/nn/modules/Normalization.h"
#include "tcc/Frontend/nn/modules/Pooling.h"
#include "tcc/Frontend/nn/modules/RNN.h"
#include "tcc/Frontend/nn/modules/Transformer.h"

#endif // TCC_NN_H
