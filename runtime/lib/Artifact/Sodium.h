//===- Sodium.h - libsodium's Ed25519 functions, opened on demand -*- C++ -*-===//
//
// The runtime needs libsodium only to sign or to check a signature, so it
// opens "libsodium.so.23" with dlopen the first time a key is used: the
// library's list of needed libraries stays libc, libstdc++, libm and
// libgcc_s, and a machine without libsodium runs unsigned models. The
// compiler signs through the same table (signArtifact).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_ARTIFACT_SODIUM_H
#define TCC_RUNTIME_LIB_ARTIFACT_SODIUM_H

#include "tcc/runtime/Status.h"

#include <cstddef>

namespace tcc {
namespace runtime {
namespace detail {

// The functions of libsodium's <sodium/crypto_sign.h> used here, with its
// C signatures (crypto_sign_state is opaque: crypto_sign_statebytes() long).
struct Sodium {
  size_t (*statebytes)();
  int (*init)(void *state);
  int (*update)(void *state, const unsigned char *m, unsigned long long mlen);
  int (*finalCreate)(void *state, unsigned char *sig,
                     unsigned long long *siglen, const unsigned char *sk);
  int (*finalVerify)(void *state, const unsigned char *sig,
                     const unsigned char *pk);
  int (*seedKeypair)(unsigned char *pk, unsigned char *sk,
                     const unsigned char *seed);
};

// The soname opened.
inline constexpr const char *kSodiumLibrary = "libsodium.so.23";

// Opens libsodium once per process (thread-safe) and returns its table, or
// NOT_FOUND naming the library and dlerror's reason.
Status openSodium(const Sodium **out);

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_ARTIFACT_SODIUM_H
