//===- tcc.h - The eager API of tcc -----------------------------*- C++ -*-===//
//
// Tensors, ops and autograd with libtorch's names and semantics. Light to
// compile: nothing from MLIR or LLVM, few standard headers.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TCC_H
#define TCC_TCC_H

#include "tcc/Frontend/Autograd/Autograd.h"
#include "tcc/Frontend/Autograd/Function.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/Npy.h"
#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/Ops/Loss.h"
#include "tcc/Frontend/Ops/NN.h"
#include "tcc/Frontend/Ops/Quantization.h"
#include "tcc/Frontend/Tensor.h"

#endif // TCC_TCC_H
