//===- DType.cpp - element types ------------------------------------------===//

#include "tcc/runtime/tcc_runtime.h"

#include "tcc/runtime/artifact_generated.h"

// The C enum mirrors the schema's, so values pass between them unchanged.
#define TCC_SAME_DTYPE(c, schema)                                              \
  static_assert(int(c) == int(tcc::artifact::DType::schema), #c);
TCC_SAME_DTYPE(TCC_DTYPE_F32, F32)
TCC_SAME_DTYPE(TCC_DTYPE_F64, F64)
TCC_SAME_DTYPE(TCC_DTYPE_F16, F16)
TCC_SAME_DTYPE(TCC_DTYPE_BF16, BF16)
TCC_SAME_DTYPE(TCC_DTYPE_I64, I64)
TCC_SAME_DTYPE(TCC_DTYPE_I32, I32)
TCC_SAME_DTYPE(TCC_DTYPE_I8, I8)
TCC_SAME_DTYPE(TCC_DTYPE_U8, U8)
TCC_SAME_DTYPE(TCC_DTYPE_BOOL, Bool)
static_assert(TCC_DTYPE_COUNT == int(tcc::artifact::DType::MAX) + 1,
              "a dtype was added to the schema but not to tcc_runtime.h");

extern "C" {

size_t tcc_dtype_size(tcc_dtype_t dtype) {
  switch (dtype) {
  case TCC_DTYPE_F64:
  case TCC_DTYPE_I64:
    return 8;
  case TCC_DTYPE_F32:
  case TCC_DTYPE_I32:
    return 4;
  case TCC_DTYPE_F16:
  case TCC_DTYPE_BF16:
    return 2;
  case TCC_DTYPE_I8:
  case TCC_DTYPE_U8:
  case TCC_DTYPE_BOOL:
    return 1;
  default:
    return 0;
  }
}

const char *tcc_dtype_name(tcc_dtype_t dtype) {
  switch (dtype) {
  case TCC_DTYPE_F32:
    return "f32";
  case TCC_DTYPE_F64:
    return "f64";
  case TCC_DTYPE_F16:
    return "f16";
  case TCC_DTYPE_BF16:
    return "bf16";
  case TCC_DTYPE_I64:
    return "i64";
  case TCC_DTYPE_I32:
    return "i32";
  case TCC_DTYPE_I8:
    return "i8";
  case TCC_DTYPE_U8:
    return "u8";
  case TCC_DTYPE_BOOL:
    return "bool";
  default:
    return "?";
  }
}

} // extern "C"
