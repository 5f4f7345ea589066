//===- Guarded.h - C API entry points that never throw ----------*- C++ -*-===//
//
// Every C entry point runs its body through guarded(): no C++ exception
// crosses the C boundary, and running out of memory is a status.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_CAPI_GUARDED_H
#define TCC_RUNTIME_LIB_CAPI_GUARDED_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/tcc_runtime.h"

#include "../Artifact/Checks.h"

#include <exception>
#include <new>

namespace tcc {
namespace runtime {
namespace capi {

// Runs `fn` (returning a Status) and hands its status to the C caller.
template <typename Fn> tcc_status_t guarded(Fn &&fn) {
  try {
    return fn().release();
  } catch (const std::bad_alloc &) {
    return tcc_status_make(TCC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  } catch (const std::exception &e) {
    return tcc_status_make(TCC_STATUS_INTERNAL, e.what());
  } catch (...) {
    return tcc_status_make(TCC_STATUS_INTERNAL, "unknown exception");
  }
}

// The status of a required pointer argument that is NULL.
inline Status nullArgument(const char *what) {
  return Status(TCC_STATUS_INVALID_ARGUMENT, detail::cat(what, " is NULL"));
}

} // namespace capi
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_CAPI_GUARDED_H
