//===- Npy.cpp - save_npy / load_npy on the runtime's .npy reader ---------===//

#include "tcc/Frontend/Npy.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/OpObserver.h"
#include "tcc/runtime/Npy.h"

#include <cstring>
#include <optional>

namespace tcc {

namespace {

std::optional<tcc_dtype_t> runtimeDtype(ScalarType t) {
  switch (t) {
  case kFloat:
    return TCC_DTYPE_F32;
  case kDouble:
    return TCC_DTYPE_F64;
  case kHalf:
    return TCC_DTYPE_F16;
  case kBFloat16:
    return TCC_DTYPE_BF16;
  case kLong:
    return TCC_DTYPE_I64;
  case kInt:
    return TCC_DTYPE_I32;
  case kChar:
    return TCC_DTYPE_I8;
  case kByte:
    return TCC_DTYPE_U8;
  case kBool:
    return TCC_DTYPE_BOOL;
  default:
    return std::nullopt;
  }
}

ScalarType scalarType(tcc_dtype_t t) {
  switch (t) {
  case TCC_DTYPE_F32:
    return kFloat;
  case TCC_DTYPE_F64:
    return kDouble;
  case TCC_DTYPE_F16:
    return kHalf;
  case TCC_DTYPE_BF16:
    return kBFloat16;
  case TCC_DTYPE_I64:
    return kLong;
  case TCC_DTYPE_I32:
    return kInt;
  case TCC_DTYPE_I8:
    return kChar;
  case TCC_DTYPE_U8:
    return kByte;
  case TCC_DTYPE_BOOL:
    return kBool;
  }
  detail::throwError("load_npy: unknown runtime dtype " +
                     std::to_string(int(t)));
}

} // namespace

void save_npy(const std::string &path, const Tensor &tensor) {
  TCC_CHECK(tensor.defined(), "save_npy(", path, "): undefined tensor");
  TCC_CHECK(tensor.is_cpu(), "save_npy(", path, "): expected a CPU tensor");
  std::optional<tcc_dtype_t> dtype = runtimeDtype(tensor.dtype());
  TCC_CHECK(dtype, "save_npy(", path, "): dtype ", tensor.dtype(),
            " has no .npy encoding here (supported: Float, Double, Half, "
            "BFloat16, Long, Int, Char, Byte, Bool)");
  // Reading the bytes is not part of any traced program.
  detail::RecordPauseGuard pause;
  NoGradGuard noGrad;
  Tensor c = tensor.contiguous();
  std::vector<int64_t> shape(c.sizes().begin(), c.sizes().end());
  runtime::Status s = runtime::writeNpy(
      path, *dtype, shape, c.unsafeGetTensorImpl()->data(), c.nbytes());
  TCC_CHECK(s.ok(), "save_npy: ", s.message());
}

Tensor load_npy(const std::string &path) {
  runtime::NpyArray array;
  runtime::Status s = runtime::readNpy(path, &array);
  TCC_CHECK(s.ok(), "load_npy: ", s.message());
  Tensor t = empty(array.shape, TensorOptions().dtype(scalarType(array.dtype)));
  TCC_CHECK(t.nbytes() == array.data.size(), "load_npy: ", path, ": holds ",
            array.data.size(), " data bytes, expected ", t.nbytes());
  if (!array.data.empty())
    std::memcpy(t.unsafeGetTensorImpl()->data(), array.data.data(),
                array.data.size());
  return t;
}

} // namespace tcc
