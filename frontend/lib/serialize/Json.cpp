//===- Json.cpp - Strict JSON reading for safetensors headers -------------===//

#include "Json.h"

#include "tcc/Frontend/Check.h"

#include <cerrno>
#include <cstdlib>

namespace tcc {
namespace json {
namespace {

class Parser {
public:
  Parser(std::string_view text, const std::string &what, int maxDepth)
      : s_(text), what_(what), maxDepth_(maxDepth) {}

  Value parseDocument() {
    skipSpace();
    Value v = parseValue(0);
    skipSpace();
    if (pos_ != s_.size())
      fail("unexpected characters after the JSON value");
    return v;
  }

private:
  [[noreturn]] void fail(const std::string &why) const {
    detail::throwError(
        detail::str(what_, ": invalid JSON at byte ", pos_, ": ", why));
  }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' ||
                                s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  bool consume(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c))
      fail(std::string("expected '") + c + "'");
  }
  void expectWord(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w)
      fail("unknown literal");
    pos_ += w.size();
  }

  Value parseValue(int depth) {
    if (depth > maxDepth_)
      fail(detail::str("nesting deeper than ", maxDepth_, " levels"));
    if (pos_ >= s_.size())
      fail("unexpected end of input");
    Value v;
    char c = s_[pos_];
    if (c == '{') {
      v.kind = Value::Kind::Object;
      ++pos_;
      skipSpace();
      if (consume('}'))
        return v;
      do {
        skipSpace();
        if (pos_ >= s_.size() || s_[pos_] != '"')
          fail("expected a string key");
        std::string key = parseString();
        skipSpace();
        expect(':');
        skipSpace();
        v.object.emplace_back(std::move(key), parseValue(depth + 1));
        skipSpace();
      } while (consume(','));
      expect('}');
    } else if (c == '[') {
      v.kind = Value::Kind::Array;
      ++pos_;
      skipSpace();
      if (consume(']'))
        return v;
      do {
        skipSpace();
        v.array.push_back(parseValue(depth + 1));
        skipSpace();
      } while (consume(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Value::Kind::String;
      v.text = parseString();
    } else if (c == 't') {
      expectWord("true");
      v.kind = Value::Kind::Bool;
      v.boolean = true;
    } else if (c == 'f') {
      expectWord("false");
      v.kind = Value::Kind::Bool;
    } else if (c == 'n') {
      expectWord("null");
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = Value::Kind::Number;
      v.text = parseNumber();
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
    return v;
  }

  std::string parseNumber() {
    size_t start = pos_;
    consume('-');
    auto digits = [&] {
      size_t d = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9')
        ++pos_;
      if (pos_ == d)
        fail("expected a digit");
    };
    if (consume('0')) {
      if (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9')
        fail("leading zeros are not allowed");
    } else {
      digits();
    }
    if (consume('.'))
      digits();
    if (consume('e') || consume('E')) {
      if (!consume('+'))
        consume('-');
      digits();
    }
    return std::string(s_.substr(start, pos_ - start));
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size())
      fail("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= unsigned(c - 'A' + 10);
      else
        fail("bad hex digit in \\u escape");
    }
    return v;
  }

  static void appendUtf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  std::string parseString() {
    expect('"');
    std::string out;
    while (true) {
      if (pos_ >= s_.size())
        fail("unterminated string");
      char c = s_[pos_++];
      if (c == '"')
        return out;
      if (static_cast<unsigned char>(c) < 0x20)
        fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size())
        fail("unterminated escape");
      char e = s_[pos_++];
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned cp = hex4();
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (!(consume('\\') && consume('u')))
            fail("unpaired surrogate in \\u escape");
          unsigned lo = hex4();
          if (lo < 0xDC00 || lo > 0xDFFF)
            fail("unpaired surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          fail("unpaired surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        fail(std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  std::string_view s_;
  const std::string &what_;
  int maxDepth_;
  size_t pos_ = 0;
};

} // namespace

const Value *Value::find(std::string_view key) const {
  for (const auto &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

bool Value::toInt64(int64_t &out) const {
  if (kind != Kind::Number || text.find_first_of(".eE") != std::string::npos)
    return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || end != text.c_str() + text.size())
    return false;
  out = v;
  return true;
}

double Value::toDouble() const { return std::strtod(text.c_str(), nullptr); }

Value parse(std::string_view text, const std::string &what, int maxDepth) {
  return Parser(text, what, maxDepth).parseDocument();
}

std::string quote(std::string_view s) {
  static const char *hex = "0123456789abcdef";
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += "\\u00";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

} // namespace json
} // namespace tcc
