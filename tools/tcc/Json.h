//===- Json.h - a small JSON writer for tool output -------------*- C++ -*-===//

#ifndef TCC_TOOLS_TCC_JSON_H
#define TCC_TOOLS_TCC_JSON_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tcc {
namespace tool {

// Writes indented JSON; commas and nesting are tracked for the caller.
class JsonWriter {
public:
  explicit JsonWriter(FILE *out) : out_(out) {}

  void beginObject() { open('{'); }
  void endObject() { close('}'); }
  void beginArray() { open('['); }
  // An array written on one line (for short lists of numbers).
  void beginInlineArray() {
    open('[');
    inline_.back() = true;
  }
  void endArray() { close(']'); }
  // The key of the next value in the current object.
  void key(const std::string &k) {
    separate();
    writeString(k);
    std::fputs(": ", out_);
    afterKey_ = true;
  }
  void value(const std::string &s) {
    separate();
    writeString(s);
  }
  void value(const char *s) { value(std::string(s)); }
  void value(uint64_t v) {
    separate();
    std::fprintf(out_, "%llu", (unsigned long long)v);
  }
  void value(int64_t v) {
    separate();
    std::fprintf(out_, "%lld", (long long)v);
  }
  void value(double v) {
    separate();
    std::fprintf(out_, "%.6g", v);
  }
  void value(bool v) {
    separate();
    std::fputs(v ? "true" : "false", out_);
  }
  void finish() { std::fputc('\n', out_); }

private:
  void open(char c) {
    separate();
    std::fputc(c, out_);
    first_.push_back(true);
    inline_.push_back(false);
  }
  void close(char c) {
    bool empty = first_.back(), isInline = inline_.back();
    first_.pop_back();
    inline_.pop_back();
    if (!empty && !isInline)
      newline();
    std::fputc(c, out_);
  }
  // A comma before every element but the first, and the indentation.
  void separate() {
    if (afterKey_) {
      afterKey_ = false;
      return;
    }
    if (first_.empty())
      return;
    if (!first_.back())
      std::fputs(inline_.back() ? ", " : ",", out_);
    first_.back() = false;
    if (!inline_.back())
      newline();
  }
  void newline() {
    std::fputc('\n', out_);
    for (size_t i = 0; i < first_.size(); ++i)
      std::fputs("  ", out_);
  }
  void writeString(const std::string &s) {
    std::fputc('"', out_);
    for (unsigned char c : s) {
      if (c == '"' || c == '\\')
        std::fprintf(out_, "\\%c", c);
      else if (c < 0x20)
        std::fprintf(out_, "\\u%04x", c);
      else
        std::fputc(c, out_);
    }
    std::fputc('"', out_);
  }

  FILE *out_;
  std::vector<bool> first_;  // per open container: nothing written yet
  std::vector<bool> inline_; // per open container: on one line
  bool afterKey_ = false;
};

/// `v` as a JSON array of strings on one line.
inline void writeStringsJson(JsonWriter &j, const std::vector<std::string> &v) {
  j.beginInlineArray();
  for (const std::string &s : v)
    j.value(s);
  j.endArray();
}

} // namespace tool
} // namespace tcc

#endif
