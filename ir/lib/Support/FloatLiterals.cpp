//===- FloatLiterals.cpp - Float literals that would become infinity ------===//
//
// MLIR's parser rounds a decimal literal to its float type and turns one
// beyond the type's range into infinity without a word (`1.0e10` as f16,
// `1.0e999` as f32). A model whose weight silently became infinity computes
// a wrong answer, so such a literal is refused before parsing. Hex literals
// (`0x7C00`) state their bits and are taken as they are.
//
// The type of a literal is the one written after it: `dense<...> : T` for
// every literal of a dense attribute (T's element type), `1.0 : f16` for a
// scalar one; an untyped float literal is f64. Literals whose type is not
// written next to them, or is not f16, bf16, f32 or f64, are left to MLIR.
//
//===----------------------------------------------------------------------===//

#include "FloatLiterals.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cctype>

using namespace mlir;
using namespace mlir::tcc;

namespace {

const llvm::fltSemantics *semanticsOf(StringRef type) {
  if (type == "f16")
    return &llvm::APFloat::IEEEhalf();
  if (type == "bf16")
    return &llvm::APFloat::BFloat();
  if (type == "f32")
    return &llvm::APFloat::IEEEsingle();
  if (type == "f64")
    return &llvm::APFloat::IEEEdouble();
  return nullptr;
}

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }
bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.';
}

class FloatLiteralScanner {
public:
  explicit FloatLiteralScanner(StringRef text) : text(text) {}

  std::optional<TextProblem> run() {
    for (size_t i = 0; i < text.size();) {
      char c = text[i];
      if (c == '"') {
        i = skipString(i);
      } else if (c == '/' && text.substr(i).starts_with("//")) {
        i = std::min(text.find('\n', i), text.size());
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
                 c == '%' || c == '@' || c == '#' || c == '^' || c == '!') {
        size_t end = i + 1;
        while (end < text.size() && isIdentifierChar(text[end]))
          ++end;
        if (text.slice(i, end) == "dense" && end < text.size() &&
            text[end] == '<') {
          if (std::optional<TextProblem> p = checkDense(end, &end))
            return p;
        }
        i = end;
      } else if (isDigit(c)) {
        auto [end, isFloat] = readNumber(i);
        if (isFloat)
          if (std::optional<TextProblem> p =
                  check(i, end, typeAfter(end).value_or("f64")))
            return p;
        i = end;
      } else {
        ++i;
      }
    }
    return std::nullopt;
  }

private:
  /// The index after the string opening at `i`.
  size_t skipString(size_t i) const {
    for (++i; i < text.size(); ++i) {
      if (text[i] == '\\')
        ++i;
      else if (text[i] == '"' || text[i] == '\n')
        return i + 1;
    }
    return text.size();
  }

  /// The end of the number starting at `i` and whether it is a decimal
  /// float literal (a '.' or an exponent); hex literals are not.
  std::pair<size_t, bool> readNumber(size_t i) const {
    size_t pos = i;
    if (text.substr(pos).starts_with("0x")) {
      pos += 2;
      while (pos < text.size() &&
             std::isxdigit(static_cast<unsigned char>(text[pos])))
        ++pos;
      return {pos, false};
    }
    bool isFloat = false;
    while (pos < text.size() && isDigit(text[pos]))
      ++pos;
    if (pos < text.size() && text[pos] == '.') {
      isFloat = true;
      for (++pos; pos < text.size() && isDigit(text[pos]);)
        ++pos;
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      size_t exp = pos + 1;
      if (exp < text.size() && (text[exp] == '+' || text[exp] == '-'))
        ++exp;
      if (exp < text.size() && isDigit(text[exp])) {
        isFloat = true;
        for (pos = exp; pos < text.size() && isDigit(text[pos]);)
          ++pos;
      }
    }
    return {pos, isFloat};
  }

  size_t skipSpace(size_t pos) const {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
    return pos;
  }

  /// The element type of `: T` at `pos` (after spaces): T itself, or the
  /// element type of `tensor<...xT>` and the other shaped types.
  std::optional<StringRef> typeAfter(size_t pos) const {
    pos = skipSpace(pos);
    if (pos >= text.size() || text[pos] != ':')
      return std::nullopt;
    pos = skipSpace(pos + 1);
    size_t end = pos;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) ||
            text[end] == '<' || text[end] == 'x' || text[end] == '?'))
      ++end;
    StringRef type = text.slice(pos, end);
    size_t open = type.find('<');
    if (open == StringRef::npos)
      return type;
    StringRef dimsAndElement = type.substr(open + 1); // "2x3xf16"
    size_t x = dimsAndElement.rfind('x');
    return x == StringRef::npos ? dimsAndElement : dimsAndElement.substr(x + 1);
  }

  /// Checks the literals of the dense attribute whose '<' is at `open`;
  /// `*end` is set past its '>'.
  std::optional<TextProblem> checkDense(size_t open, size_t *end) {
    llvm::SmallVector<std::pair<size_t, size_t>> literals;
    unsigned depth = 0;
    size_t pos = open;
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '<') {
        ++depth, ++pos;
      } else if (c == '>') {
        ++pos;
        if (--depth == 0)
          break;
      } else if (c == '"') {
        pos = skipString(pos);
      } else if (isDigit(c)) {
        auto [numberEnd, isFloat] = readNumber(pos);
        // Whole numbers count too: `dense<100000> : tensor<f16>` is
        // infinity as well.
        if (!text.substr(pos).starts_with("0x"))
          literals.push_back({pos, numberEnd});
        pos = numberEnd;
      } else {
        ++pos;
      }
    }
    *end = pos;
    std::optional<StringRef> type = typeAfter(pos);
    if (!type)
      return std::nullopt;
    for (auto [from, to] : literals)
      if (std::optional<TextProblem> p = check(from, to, *type))
        return p;
    return std::nullopt;
  }

  /// A problem if the literal at [from, to) overflows `type`.
  std::optional<TextProblem> check(size_t from, size_t to,
                                   StringRef type) const {
    const llvm::fltSemantics *semantics = semanticsOf(type);
    if (!semantics)
      return std::nullopt;
    llvm::APFloat value(*semantics);
    if (from > 0 && text[from - 1] == '-')
      --from; // named with its sign
    StringRef literal = text.slice(from, to);
    auto status =
        value.convertFromString(literal, llvm::APFloat::rmNearestTiesToEven);
    if (!status) { // malformed: the parser says so
      llvm::consumeError(status.takeError());
      return std::nullopt;
    }
    if (!(*status & llvm::APFloat::opOverflow))
      return std::nullopt;
    llvm::APFloat largest = llvm::APFloat::getLargest(*semantics);
    llvm::SmallString<16> largestText;
    largest.toString(largestText);
    return TextProblem{llvm::SMLoc::getFromPointer(text.data() + from),
                       "float literal " + literal.str() +
                           " is out of range of " + type.str() +
                           " (largest finite value " + largestText.str().str() +
                           "); it would become infinity"};
  }

  StringRef text;
};

} // namespace

std::optional<TextProblem> mlir::tcc::findFloatLiteralProblem(StringRef text) {
  return FloatLiteralScanner(text).run();
}
