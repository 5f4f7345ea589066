//===- Sodium.cpp - libsodium's Ed25519 functions, opened on demand -------===//

#include "Sodium.h"

#include "Checks.h"

#include <dlfcn.h>
#include <string>
#include <type_traits>
#include <utility>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

// Status is move-only, so the outcome is kept as its parts.
struct Opened {
  Sodium table{};
  tcc_status_code_t code = TCC_STATUS_OK;
  std::string message;
  void fail(tcc_status_code_t c, std::string m) {
    code = c;
    message = std::move(m);
  }
};

Opened open() {
  Opened o;
  // Never closed: the table is shared by every later caller.
  void *lib = ::dlopen(kSodiumLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = ::dlerror();
    o.fail(TCC_STATUS_NOT_FOUND,
           cat("cannot load ", kSodiumLibrary,
               ", which signing and signature checks need (install "
               "libsodium23): ",
               why ? why : "unknown error"));
    return o;
  }
  auto sym = [&](const char *name, auto *out) {
    *out = reinterpret_cast<std::remove_pointer_t<decltype(out)>>(
        ::dlsym(lib, name));
    return *out != nullptr;
  };
  auto *sodiumInit = reinterpret_cast<int (*)()>(::dlsym(lib, "sodium_init"));
  Sodium &t = o.table;
  if (!sodiumInit || !sym("crypto_sign_statebytes", &t.statebytes) ||
      !sym("crypto_sign_init", &t.init) ||
      !sym("crypto_sign_update", &t.update) ||
      !sym("crypto_sign_final_create", &t.finalCreate) ||
      !sym("crypto_sign_final_verify", &t.finalVerify) ||
      !sym("crypto_sign_seed_keypair", &t.seedKeypair)) {
    o.fail(TCC_STATUS_NOT_FOUND,
           cat(kSodiumLibrary, " lacks a crypto_sign function"));
    return o;
  }
  // 0: initialized now, 1: already; -1: no usable random source, which
  // deterministic Ed25519 does not need, but libsodium asks to stop then.
  if (sodiumInit() < 0)
    o.fail(TCC_STATUS_INTERNAL, cat(kSodiumLibrary, ": sodium_init failed"));
  return o;
}

} // namespace

Status openSodium(const Sodium **out) {
  static const Opened opened = open();
  if (opened.code != TCC_STATUS_OK)
    return Status(opened.code, opened.message);
  *out = &opened.table;
  return Status();
}

} // namespace detail
} // namespace runtime
} // namespace tcc
