//===- autograd.h - Part of libtorch's API (all of it here) -----*- C++ -*-===//
//
// libtorch splits its frontend into headers; tcc's compatibility layer is
// one header, so each of them includes all of it.
//
//===----------------------------------------------------------------------===//

#include <torch/torch.h>
