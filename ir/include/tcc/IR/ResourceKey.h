//===- ResourceKey.h - Names of dense_resource blobs ------------*- C++ -*-===//
//
// MLIR prints a dense_resource blob's key bare (`dense_resource<key>`) and
// parses it back only as a bare identifier ([A-Za-z_][A-Za-z0-9_$.]*). Keys
// come from parameter names, and nn::Sequential's children are "0", "1",
// ...: "0.weight" would print but not parse. Every blob key goes through
// this.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_IR_RESOURCEKEY_H
#define TCC_IR_RESOURCEKEY_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tcc {

/// `name` as a key MLIR's parser reads back: characters outside
/// [A-Za-z0-9_$.] become '_', and a key that does not start with a letter
/// or '_' gets a "p" in front ("0.weight" -> "p0.weight").
inline std::string resourceKey(llvm::StringRef name) {
  std::string key;
  if (name.empty() || !(llvm::isAlpha(name.front()) || name.front() == '_'))
    key = "p";
  for (char c : name)
    key += llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' ? c : '_';
  return key;
}

} // namespace mlir::tcc

#endif // TCC_IR_RESOURCEKEY_H
