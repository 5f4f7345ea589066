//===- SigningTest.cpp - Ed25519 signatures of artifacts ------------------===//
//
// Keys are RFC 8032's test vectors (section 7.1, tests 1 and 2), so the
// public key derived from a seed is checked against a published value.
// The AArch64 stage runs these tests under qemu with a sysroot that has no
// libsodium: there every key use must fail naming the library, and the
// tests that need it are skipped; a native build requires it
// (TCC_TEST_SODIUM_REQUIRED, scripts/install-deps.sh).
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/Signing.h"

#include <gtest/gtest.h>

#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

using namespace tcc::runtime;
using namespace tcc::artifact;
using namespace tcc::test;

namespace {

bool sodiumPresent() {
  void *lib = ::dlopen("libsodium.so.23", RTLD_NOW | RTLD_LOCAL);
  if (lib)
    ::dlclose(lib);
  return lib != nullptr;
}

#define REQUIRE_SODIUM()                                                       \
  do {                                                                         \
    if (!sodiumPresent()) {                                                    \
      if (TCC_TEST_SODIUM_REQUIRED)                                            \
        FAIL() << "libsodium.so.23 is missing (scripts/install-deps.sh)";     \
      GTEST_SKIP() << "no libsodium.so.23 here";                               \
    }                                                                          \
  } while (false)

std::vector<uint8_t> fromHex(const char *hex) {
  std::vector<uint8_t> out;
  for (size_t i = 0; hex[i] && hex[i + 1]; i += 2)
    out.push_back(uint8_t(std::stoi(std::string(hex + i, 2), nullptr, 16)));
  return out;
}

const char kSeedHex[] =
    "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const char kPublicHex[] =
    "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
const char kOtherPublicHex[] =
    "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";

/// A key file of this process alone: ctest runs each test in its own
/// process, in parallel, and two writing one path read each other's
/// half-written file.
std::string keyFile(const std::string &name, const std::vector<uint8_t> &b) {
  std::string path = ::testing::TempDir() + "/signing_" +
                     std::to_string(getpid()) + "_" + name;
  writeFile(path, b);
  return path;
}

SigningKey rfcKey() {
  SigningKey key;
  EXPECT_TCC_OK(readSigningKey(keyFile("seed", fromHex(kSeedHex)), &key));
  return key;
}

Status load(const std::vector<uint8_t> &file, const uint8_t *key) {
  tcc_model_load_options_t options;
  tcc_model_load_options_initialize(&options);
  options.public_key = key;
  tcc_model_t *model = nullptr;
  Status s(tcc_model_load_memory(file.data(), file.size(), &options, &model));
  tcc_model_release(model);
  return s;
}

std::vector<uint8_t> signedModel() {
  std::vector<uint8_t> file = addMulModel(4).finish();
  EXPECT_TCC_OK(signArtifact(&file, rfcKey()));
  return file;
}

TEST(Signing, SeedGivesThePublishedPublicKey) {
  REQUIRE_SODIUM();
  SigningKey key = rfcKey();
  EXPECT_EQ(publicKeyHex(key.publicKey.data()), kPublicHex);
  // The 64-byte secret key form (seed, then public key) reads the same.
  std::vector<uint8_t> secret = fromHex(kSeedHex);
  std::vector<uint8_t> pub = fromHex(kPublicHex);
  secret.insert(secret.end(), pub.begin(), pub.end());
  SigningKey same;
  ASSERT_TCC_OK(readSigningKey(keyFile("secret", secret), &same));
  EXPECT_EQ(same.secretKey, key.secretKey);
  secret.back() ^= 1;
  EXPECT_TCC_ERROR(readSigningKey(keyFile("badsecret", secret), &same),
                   TCC_STATUS_INVALID_ARGUMENT,
                   "its second half is not the public key of its first");
}

TEST(Signing, SignedModelLoadsWithItsKeyAndWithout) {
  REQUIRE_SODIUM();
  std::vector<uint8_t> file = signedModel();
  std::vector<uint8_t> pub = fromHex(kPublicHex);
  EXPECT_TCC_OK(load(file, pub.data()));
  EXPECT_TCC_OK(load(file, nullptr));
  const Model *m = nullptr;
  ASSERT_TCC_OK(verifyArtifactBytes(file.data(), file.size(), &m));
  ASSERT_NE(m->signature(), nullptr);
  EXPECT_EQ(publicKeyHex(m->signature()->public_key()->Data()), kPublicHex);
  // Signing again replaces the signature.
  std::vector<uint8_t> again = file;
  ASSERT_TCC_OK(signArtifact(&again, rfcKey()));
  EXPECT_EQ(again, file);
}

TEST(Signing, UnsignedModelIsRefusedGivenAKey) {
  REQUIRE_SODIUM();
  std::vector<uint8_t> pub = fromHex(kPublicHex);
  EXPECT_TCC_ERROR(load(addMulModel(4).finish(), pub.data()),
                   TCC_STATUS_FAILED_PRECONDITION,
                   "<memory>: the artifact is not signed, and a public key "
                   "was given");
}

TEST(Signing, OtherKeyIsRefused) {
  REQUIRE_SODIUM();
  std::vector<uint8_t> other = fromHex(kOtherPublicHex);
  EXPECT_TCC_ERROR(load(signedModel(), other.data()),
                   TCC_STATUS_FAILED_PRECONDITION,
                   std::string("signed by public key ") + kPublicHex +
                       ", not by the trusted key " + kOtherPublicHex);
}

// Rewrites segment `index`'s recorded hash (a struct, patched in place)
// and the header hash, as a forger would after changing the segment.
void rehashSegment(std::vector<uint8_t> &file, uint32_t index) {
  const Model *m = GetModel(file.data() + kArtifactPreambleSize);
  const Segment *s = m->segments()->Get(index);
  uint64_t hash = hash64(file.data() + s->offset(), s->size());
  // The struct's last field is the hash, little-endian like the file.
  static_assert(sizeof(Segment) == 32, "kind, offset, size, hash");
  std::memcpy(reinterpret_cast<uint8_t *>(const_cast<Segment *>(s)) + 24,
              &hash, sizeof(hash));
  rehashHeader(file);
}

TEST(Signing, TamperedBytesWithRecomputedHashesAreRefused) {
  REQUIRE_SODIUM();
  std::vector<uint8_t> pub = fromHex(kPublicHex);
  std::vector<uint8_t> file = signedModel();
  const Model *m = GetModel(file.data() + kArtifactPreambleSize);
  const Segment *constants = m->segments()->Get(0);
  ASSERT_EQ(constants->kind(), SegmentKind::Constants);
  file[constants->offset()] ^= 0x40; // a weight
  rehashSegment(file, 0);
  EXPECT_TCC_OK(load(file, nullptr)); // every checksum agrees
  EXPECT_TCC_ERROR(load(file, pub.data()), TCC_STATUS_FAILED_PRECONDITION,
                   "the signature does not match the artifact's bytes");
  // So is any header byte, e.g. the version string.
  std::vector<uint8_t> header = signedModel();
  auto *version = const_cast<flatbuffers::String *>(
      GetModel(header.data() + kArtifactPreambleSize)->tcc_version());
  ASSERT_NE(version, nullptr);
  const_cast<char *>(version->c_str())[0] ^= 1;
  rehashHeader(header);
  EXPECT_TCC_OK(load(header, nullptr));
  EXPECT_TCC_ERROR(load(header, pub.data()), TCC_STATUS_FAILED_PRECONDITION,
                   "the signature does not match");
}

TEST(Signing, MissingLibsodiumIsANamedError) {
  if (sodiumPresent())
    GTEST_SKIP() << "libsodium.so.23 is present";
  std::vector<uint8_t> pub = fromHex(kPublicHex);
  EXPECT_TCC_ERROR(load(addMulModel(4).finish([](ModelT &m) {
                     m.signature = std::make_unique<SignatureT>();
                     m.signature->public_key = fromHex(kPublicHex);
                     m.signature->signature.assign(64, 0);
                   }),
                        pub.data()),
                   TCC_STATUS_NOT_FOUND, "cannot load libsodium.so.23");
  SigningKey key;
  EXPECT_TCC_ERROR(readSigningKey(keyFile("seed", fromHex(kSeedHex)), &key),
                   TCC_STATUS_NOT_FOUND, "cannot load libsodium.so.23");
}

TEST(Signing, KeyFilesOfTheWrongSizeAreRefused) {
  PublicKey pub;
  EXPECT_TCC_ERROR(readPublicKey(keyFile("short", std::vector<uint8_t>(31)),
                                 &pub),
                   TCC_STATUS_INVALID_ARGUMENT,
                   "a public key has 32 bytes, this file has 31");
  EXPECT_TCC_ERROR(readPublicKey(keyFile("long", std::vector<uint8_t>(4096)),
                                 &pub),
                   TCC_STATUS_INVALID_ARGUMENT, "this file has more");
  SigningKey key;
  EXPECT_TCC_ERROR(readSigningKey(keyFile("odd", std::vector<uint8_t>(48)),
                                  &key),
                   TCC_STATUS_INVALID_ARGUMENT,
                   "a signing key has 64 bytes (an Ed25519 secret key) or 32 "
                   "(a seed), this file has 48");
  EXPECT_TCC_ERROR(readPublicKey("/nonexistent/key.pub", &pub),
                   TCC_STATUS_NOT_FOUND, "/nonexistent/key.pub: cannot open");
}

TEST(Signing, MalformedSignatureTableIsCorrupt) {
  std::vector<uint8_t> file = addMulModel(4).finish([](ModelT &m) {
    m.signature = std::make_unique<SignatureT>();
    m.signature->public_key.assign(31, 0);
    m.signature->signature.assign(64, 0);
  });
  const Model *m = nullptr;
  EXPECT_TCC_ERROR(verifyArtifactBytes(file.data(), file.size(), &m),
                   TCC_STATUS_DATA_LOSS,
                   "signature: the public key must have 32 bytes");
}

} // namespace
