//===- Json.h - The JSON that safetensors headers use -----------*- C++ -*-===//
//
// A strict reader (RFC 8259 plus nothing) with a nesting limit, since the
// header comes from an untrusted file, and the writer helpers the
// safetensors writer needs. Numbers keep their text so integers are read
// exactly (int64) and checked for range.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_SERIALIZE_JSON_H
#define TCC_LIB_SERIALIZE_JSON_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tcc {
namespace json {

struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::string text; // String: the decoded string; Number: the literal
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object; // in file order

  bool isObject() const { return kind == Kind::Object; }
  bool isArray() const { return kind == Kind::Array; }
  bool isString() const { return kind == Kind::String; }
  bool isNumber() const { return kind == Kind::Number; }
  /// The member named `key`, or null.
  const Value *find(std::string_view key) const;
  /// The number as an int64, if it is an integer literal in range.
  bool toInt64(int64_t &out) const;
  /// The number as a double.
  double toDouble() const;
};

/// Parses one JSON value filling all of `text` (whitespace around it is
/// allowed). Throws tcc::Error naming `what` and the byte offset on any
/// syntax error, a nesting deeper than `maxDepth`, or invalid UTF-8 escapes.
Value parse(std::string_view text, const std::string &what, int maxDepth = 64);

/// `s` as a JSON string literal, quotes included.
std::string quote(std::string_view s);

} // namespace json
} // namespace tcc

#endif // TCC_LIB_SERIALIZE_JSON_H
