//===- Signing.h - Ed25519 signatures of artifacts --------------*- C++ -*-===//
//
// An artifact is code: anyone who can write a model file can run code in
// the process that loads it. Signing lets a loader refuse every artifact
// not signed by a key it trusts, before any of it is used. The signed
// bytes are defined in runtime/schema/artifact.fbs (table Signature);
// docs/reliability.md states what signing promises. libsodium is opened
// with dlopen only when a key is used.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_SIGNING_H
#define TCC_RUNTIME_SIGNING_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/artifact_generated.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace runtime {

inline constexpr size_t kPublicKeySize = 32;  // crypto_sign_PUBLICKEYBYTES
inline constexpr size_t kSecretKeySize = 64;  // crypto_sign_SECRETKEYBYTES
inline constexpr size_t kSeedSize = 32;       // crypto_sign_SEEDBYTES
inline constexpr size_t kSignatureSize = 64;  // crypto_sign_BYTES

using PublicKey = std::array<uint8_t, kPublicKeySize>;

struct SigningKey {
  std::array<uint8_t, kSecretKeySize> secretKey{};
  PublicKey publicKey{};
};

// Reads a key file for signing: a 64-byte libsodium secret key (whose
// second half, the public key, must match its seed) or a 32-byte seed.
// Opens libsodium. Errors name the file.
TCC_RUNTIME_API Status readSigningKey(const std::string &path,
                                      SigningKey *out);

// Reads a 32-byte public key file. Errors name the file.
TCC_RUNTIME_API Status readPublicKey(const std::string &path, PublicKey *out);

// The key as 64 lowercase hex digits, as `tcc inspect` shows it.
TCC_RUNTIME_API std::string publicKeyHex(const uint8_t key[kPublicKeySize]);

// Signs a complete artifact in place: checks its structure, writes a
// Signature table with `key`'s public key into the header (replacing any
// earlier one; the segments move with the header) and signs the result.
TCC_RUNTIME_API Status signArtifact(std::vector<uint8_t> *file,
                                    const SigningKey &key);

// Whether `file` (an artifact whose header passed the FlatBuffers verifier)
// is signed by `trusted`: FAILED_PRECONDITION when it is unsigned, signed
// by another key, or its bytes do not match the signature.
TCC_RUNTIME_API Status checkArtifactSignature(const tcc::artifact::Model &model,
                                              const uint8_t *file, size_t size,
                                              const uint8_t *trusted);

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_SIGNING_H
