//===- ATen.h - The at:: names that libtorch programs use -------*- C++ -*-===//
//
// Provided so that `#include <ATen/ATen.h>` in a compat build resolves to
// tcc instead of a real libtorch installed on the include path.
//
//===----------------------------------------------------------------------===//

#include <torch/torch.h>
