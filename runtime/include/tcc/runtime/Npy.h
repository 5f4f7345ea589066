//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes the NumPy array format (versions 1.0, 2.0 and 3.0) for
// every dtype of the runtime: f32 '<f4', f64 '<f8', f16 '<f2', i64 '<i8',
// i32 '<i4', i8 '|i1', u8 '|u1', bool '|b1', and bf16 as '<V2' (NumPy has no
// bf16; ml_dtypes' bfloat16 arrays save as two-byte voids). Reading accepts
// big-endian data and Fortran order and converts both; arrays come back
// little-endian and row-major. Malformed files give an error naming what is
// wrong, never a crash. Shared by `tcc run` and the frontend's
// save_npy/load_npy.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_NPY_H
#define TCC_RUNTIME_NPY_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/tcc_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace runtime {

struct NpyArray {
  tcc_dtype_t dtype = TCC_DTYPE_F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; // row-major, little-endian

  // product(shape); 1 for a scalar.
  size_t elementCount() const {
    size_t n = 1;
    for (int64_t d : shape)
      n *= static_cast<size_t>(d);
    return n;
  }
};

// Parses the bytes of a .npy file.
TCC_RUNTIME_API Status parseNpy(const void *bytes, size_t size, NpyArray *out);
// Reads a .npy file; errors start with the path.
TCC_RUNTIME_API Status readNpy(const std::string &path, NpyArray *out);

// The bytes of a version 1.0 .npy file (2.0 when the header needs it);
// `byteSize` must be product(shape) * tcc_dtype_size(dtype).
TCC_RUNTIME_API Status encodeNpy(tcc_dtype_t dtype,
                                 const std::vector<int64_t> &shape,
                                 const void *data, size_t byteSize,
                                 std::vector<uint8_t> *out);
TCC_RUNTIME_API Status writeNpy(const std::string &path, tcc_dtype_t dtype,
                                const std::vector<int64_t> &shape,
                                const void *data, size_t byteSize);

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_NPY_H
