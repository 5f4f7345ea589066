//===- KernelLinkage.h - references to the microkernels ---------*- C++ -*-===//
//
// Until the microkernels are in this tree (TCC_RUNTIME_HAS_KERNELS, see
// runtime/CMakeLists.txt), the runtime references them weakly: the library
// and its tools link without them, and a model whose plan needs one fails to
// load with an error saying so. Once they are here the references are
// ordinary ones.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_EXECUTOR_KERNELLINKAGE_H
#define TCC_RUNTIME_LIB_EXECUTOR_KERNELLINKAGE_H

#include "tcc/runtime/kernels.h"

#if !TCC_RUNTIME_HAS_KERNELS
#pragma weak tcc_sgemm
#pragma weak tcc_sgemm_pack_b
#pragma weak tcc_sgemm_packed_b_size
#pragma weak tcc_conv2d
#pragma weak tcc_conv2d_workspace_size
#endif

namespace tcc {
namespace runtime {
namespace detail {

// False when `fn` is a weak reference that nothing defines.
template <typename F> bool isLinked(F *fn) { return fn != nullptr; }

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_EXECUTOR_KERNELLINKAGE_H
