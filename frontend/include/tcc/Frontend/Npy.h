//===- Npy.h - Tensors to and from NumPy .npy files -------------*- C++ -*-===//
//
// `tcc::save_npy(path, t)` writes a tensor as a .npy file (version 1.0, or
// 2.0 when the header needs it); `tcc::load_npy(path)` reads one back as a
// contiguous CPU tensor. Every dtype the dialect has is supported: float32,
// float64, float16, bfloat16 (as NumPy's two-byte void '<V2', which is how
// ml_dtypes' bfloat16 arrays save), int64, int32, int8, uint8 and bool.
// The reading and writing is the runtime's (tcc/runtime/Npy.h), so `tcc run`
// and the eager library accept exactly the same files. Problems (a missing
// or malformed file, an unsupported dtype) throw tcc::Error naming the path.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NPY_H
#define TCC_FRONTEND_NPY_H

#include "tcc/Frontend/Tensor.h"

#include <string>

namespace tcc {

void save_npy(const std::string &path, const Tensor &tensor);
Tensor load_npy(const std::string &path);

} // namespace tcc

#endif // TCC_FRONTEND_NPY_H
