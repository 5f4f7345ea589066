//===- Status.cpp - tcc_status_t ------------------------------------------===//
//
// A status is one malloc'd block (code + message). When even that fails, a
// static out-of-memory status stands in; tcc_status_free ignores it.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/tcc_runtime.h"

#include <cstdlib>
#include <cstring>

struct tcc_status_s {
  tcc_status_code_t code;
  char message[1]; // NUL-terminated, allocated to its length
};

namespace {
tcc_status_s kOutOfMemory = {TCC_STATUS_RESOURCE_EXHAUSTED, {0}};
} // namespace

extern "C" {

tcc_status_t tcc_status_make(tcc_status_code_t code, const char *message) {
  if (!message)
    message = "";
  size_t length = std::strlen(message);
  auto *status = static_cast<tcc_status_s *>(
      std::malloc(offsetof(tcc_status_s, message) + length + 1));
  if (!status)
    return &kOutOfMemory;
  status->code = code == TCC_STATUS_OK ? TCC_STATUS_INTERNAL : code;
  std::memcpy(status->message, message, length + 1);
  return status;
}

tcc_status_code_t tcc_status_code(tcc_status_t status) {
  return status ? status->code : TCC_STATUS_OK;
}

const char *tcc_status_message(tcc_status_t status) {
  if (status == &kOutOfMemory)
    return "out of memory while reporting an error";
  return status ? status->message : "";
}

void tcc_status_free(tcc_status_t status) {
  if (status && status != &kOutOfMemory)
    std::free(status);
}

const char *tcc_status_code_name(tcc_status_code_t code) {
  switch (code) {
  case TCC_STATUS_OK:
    return "OK";
  case TCC_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case TCC_STATUS_NOT_FOUND:
    return "NOT_FOUND";
  case TCC_STATUS_OUT_OF_RANGE:
    return "OUT_OF_RANGE";
  case TCC_STATUS_FAILED_PRECONDITION:
    return "FAILED_PRECONDITION";
  case TCC_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  case TCC_STATUS_DATA_LOSS:
    return "DATA_LOSS";
  case TCC_STATUS_UNIMPLEMENTED:
    return "UNIMPLEMENTED";
  case TCC_STATUS_INTERNAL:
    return "INTERNAL";
  case TCC_STATUS_IO_ERROR:
    return "IO_ERROR";
  case TCC_STATUS_DEADLINE_EXCEEDED:
    return "DEADLINE_EXCEEDED";
  default:
    return "UNKNOWN";
  }
}

} // extern "C"
