//===- Signing.cpp - Ed25519 signatures of artifacts ----------------------===//
//
// The signed message is the whole file with two ranges read as zero: the
// header hash in the preamble and the signature's own 64 bytes (see table
// Signature in artifact.fbs). It is fed to libsodium's Ed25519ph in pieces,
// so a large model is never copied to be signed or checked.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/Signing.h"

#include "Checks.h"
#include "FileLayout.h"
#include "Sodium.h"
#include "Validator.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace tcc {
namespace runtime {

using namespace tcc::artifact;
using detail::cat;

namespace {

// Preamble bytes 16..23: the header hash, rewritten after signing.
constexpr size_t kHeaderHashOffset = 16, kHeaderHashSize = 8;

// Where the 64 signature bytes are in the file, or an error when the
// table is absent or malformed.
Status signatureOffset(const Model &model, const uint8_t *file,
                       size_t *out) {
  const Signature *s = model.signature();
  if (!s)
    return Status(TCC_STATUS_FAILED_PRECONDITION,
                  "the artifact is not signed, and a public key was given");
  TCC_RETURN_IF_ERROR(detail::checkSignatureTable(model));
  *out = size_t(s->signature()->Data() - file);
  return Status();
}

// Runs Ed25519ph over the signed message of `file`, whose signature bytes
// start at `sigAt`, and finishes with `finish(state)`.
template <typename Finish>
int overMessage(const detail::Sodium &na, const uint8_t *file, size_t size,
                size_t sigAt, Finish finish) {
  std::unique_ptr<unsigned char[]> state(new unsigned char[na.statebytes()]);
  static const uint8_t zeros[kSignatureSize] = {};
  auto feed = [&](const uint8_t *p, size_t n) {
    na.update(state.get(), p, n);
  };
  na.init(state.get());
  feed(file, kHeaderHashOffset);
  feed(zeros, kHeaderHashSize);
  size_t after = kHeaderHashOffset + kHeaderHashSize;
  feed(file + after, sigAt - after);
  feed(zeros, kSignatureSize);
  feed(file + sigAt + kSignatureSize, size - sigAt - kSignatureSize);
  return finish(state.get());
}

Status readKeyFile(const std::string &path, std::vector<uint8_t> *out) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return Status(errno == ENOENT ? TCC_STATUS_NOT_FOUND : TCC_STATUS_IO_ERROR,
                  cat(path, ": cannot open key file: ", std::strerror(errno)));
  // A key is small: read one byte past the largest size to detect more.
  out->resize(kSecretKeySize + 1);
  size_t n = std::fread(out->data(), 1, out->size(), f);
  bool failed = std::ferror(f);
  std::fclose(f);
  if (failed)
    return Status(TCC_STATUS_IO_ERROR, cat(path, ": cannot read key file"));
  out->resize(n);
  return Status();
}

void rehash(std::vector<uint8_t> &file, uint32_t headerSize) {
  ArtifactPreamble p;
  p.formatVersion = kArtifactFormatVersion;
  p.headerSize = headerSize;
  p.headerHash = hash64(file.data() + kArtifactPreambleSize, headerSize);
  encodePreamble(p, file.data());
}

} // namespace

namespace detail {

Status checkSignatureTable(const Model &model) {
  const Signature *s = model.signature();
  if (s && (!s->public_key() || s->public_key()->size() != kPublicKeySize ||
            !s->signature() || s->signature()->size() != kSignatureSize))
    return corrupt("signature: the public key must have ", kPublicKeySize,
                   " bytes and the signature ", kSignatureSize);
  return Status();
}

} // namespace detail

Status readSigningKey(const std::string &path, SigningKey *out) {
  std::vector<uint8_t> bytes;
  TCC_RETURN_IF_ERROR(readKeyFile(path, &bytes));
  if (bytes.size() != kSecretKeySize && bytes.size() != kSeedSize)
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat(path, ": a signing key has ", kSecretKeySize,
                      " bytes (an Ed25519 secret key) or ", kSeedSize,
                      " (a seed), this file has ",
                      bytes.size() > kSecretKeySize ? "more"
                                                    : std::to_string(bytes.size())));
  const detail::Sodium *na = nullptr;
  TCC_RETURN_IF_ERROR(detail::openSodium(&na));
  // libsodium's secret key is the seed followed by the public key.
  na->seedKeypair(out->publicKey.data(), out->secretKey.data(), bytes.data());
  if (bytes.size() == kSecretKeySize &&
      std::memcmp(bytes.data(), out->secretKey.data(), kSecretKeySize) != 0)
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat(path, ": not an Ed25519 secret key (its second half is "
                            "not the public key of its first)"));
  return Status();
}

Status readPublicKey(const std::string &path, PublicKey *out) {
  std::vector<uint8_t> bytes;
  TCC_RETURN_IF_ERROR(readKeyFile(path, &bytes));
  if (bytes.size() != kPublicKeySize)
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat(path, ": a public key has ", kPublicKeySize,
                      " bytes, this file has ",
                      bytes.size() > kSecretKeySize ? "more"
                                                    : std::to_string(bytes.size())));
  std::memcpy(out->data(), bytes.data(), kPublicKeySize);
  return Status();
}

std::string publicKeyHex(const uint8_t key[kPublicKeySize]) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (size_t i = 0; i < kPublicKeySize; ++i) {
    hex += digits[key[i] >> 4];
    hex += digits[key[i] & 15];
  }
  return hex;
}

Status signArtifact(std::vector<uint8_t> *file, const SigningKey &key) {
  const detail::Sodium *na = nullptr;
  TCC_RETURN_IF_ERROR(detail::openSodium(&na));
  const Model *model = nullptr;
  TCC_RETURN_IF_ERROR(verifyArtifactBytes(file->data(), file->size(), &model));
  ModelT unpacked;
  model->UnPackTo(&unpacked);
  std::vector<SegmentBytes> payloads;
  for (const Segment &s : unpacked.segments)
    payloads.push_back({file->data() + s.offset(), size_t(s.size())});
  unpacked.signature = std::make_unique<SignatureT>();
  unpacked.signature->public_key.assign(key.publicKey.begin(),
                                        key.publicKey.end());
  unpacked.signature->signature.assign(kSignatureSize, 0);
  std::vector<uint8_t> signedFile =
      detail::writeArtifactFile(unpacked, payloads, {});

  const Model *header = GetModel(signedFile.data() + kArtifactPreambleSize);
  size_t sigAt = 0;
  TCC_RETURN_IF_ERROR(signatureOffset(*header, signedFile.data(), &sigAt));
  uint8_t *sig = signedFile.data() + sigAt;
  int failed = overMessage(*na, signedFile.data(), signedFile.size(), sigAt,
                           [&](void *state) {
                             return na->finalCreate(state, sig, nullptr,
                                                    key.secretKey.data());
                           });
  if (failed)
    return Status(TCC_STATUS_INTERNAL, "Ed25519 signing failed");
  uint32_t headerSize;
  std::memcpy(&headerSize, signedFile.data() + 12, 4);
  rehash(signedFile, headerSize);
  *file = std::move(signedFile);
  return Status();
}

Status checkArtifactSignature(const Model &model, const uint8_t *file,
                              size_t size, const uint8_t *trusted) {
  size_t sigAt = 0;
  TCC_RETURN_IF_ERROR(signatureOffset(model, file, &sigAt));
  const uint8_t *signer = model.signature()->public_key()->Data();
  if (std::memcmp(signer, trusted, kPublicKeySize) != 0)
    return Status(TCC_STATUS_FAILED_PRECONDITION,
                  cat("the artifact is signed by public key ",
                      publicKeyHex(signer), ", not by the trusted key ",
                      publicKeyHex(trusted)));
  const detail::Sodium *na = nullptr;
  TCC_RETURN_IF_ERROR(detail::openSodium(&na));
  const uint8_t *sig = file + sigAt;
  int bad = overMessage(*na, file, size, sigAt, [&](void *state) {
    return na->finalVerify(state, sig, trusted);
  });
  if (bad)
    return Status(TCC_STATUS_FAILED_PRECONDITION,
                  "the signature does not match the artifact's bytes (they "
                  "were changed after signing)");
  return Status();
}

} // namespace runtime
} // namespace tcc
