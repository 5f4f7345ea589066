//===- Npy.cpp - save_npy / load_npy on the runtime's .npy reader ---------===//

#include "tcc/Frontend/Npy.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/OpObserver.h"
#include "tcc/Frontend/RuntimeDtype.h"
#include "tcc/runtime/Npy.h"

#include <cstring>
#include <optional>

namespace tcc {

namespace {

ScalarType scalarType(tcc_dtype_t t) {
  if (std::optional<ScalarType> type = from_runtime_dtype(t))
    return *type;
  detail::throwError("load_npy: unknown runtime dtype " +
                     std::to_string(int(t)));
}

} // namespace

void save_npy(const std::string &path, const Tensor &tensor) {
  TCC_CHECK(tensor.defined(), "save_npy(", path, "): undefined tensor");
  TCC_CHECK(tensor.is_cpu(), "save_npy(", path, "): expected a CPU tensor");
  std::optional<tcc_dtype_t> dtype = to_runtime_dtype(tensor.dtype());
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
