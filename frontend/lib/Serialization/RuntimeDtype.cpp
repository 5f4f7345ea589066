//===- RuntimeDtype.cpp - Eager scalar types <-> runtime dtypes -----------===//

#include "tcc/Frontend/RuntimeDtype.h"

#include <utility>

namespace tcc {

namespace {
constexpr std::pair<ScalarType, tcc_dtype_t> kPairs[] = {
    {kFloat, TCC_DTYPE_F32}, {kDouble, TCC_DTYPE_F64},
    {kHalf, TCC_DTYPE_F16},  {kBFloat16, TCC_DTYPE_BF16},
    {kLong, TCC_DTYPE_I64},  {kInt, TCC_DTYPE_I32},
    {kChar, TCC_DTYPE_I8},   {kByte, TCC_DTYPE_U8},
    {kBool, TCC_DTYPE_BOOL}};
} // namespace

std::optional<tcc_dtype_t> to_runtime_dtype(ScalarType t) {
  for (auto [eager, runtime] : kPairs)
    if (eager == t)
      return runtime;
  return std::nullopt;
}

std::optional<ScalarType> from_runtime_dtype(tcc_dtype_t t) {
  for (auto [eager, runtime] : kPairs)
    if (runtime == t)
      return eager;
  return std::nullopt;
}

} // namespace tcc
