//===- InputGuards.cpp - Reading untrusted IR files safely ----------------===//

#include "tcc/Support/InputGuards.h"

#include "FloatLiterals.h"

#include "tcc/IR/TensorSizes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/thread.h"

using namespace mlir;
using namespace mlir::tcc;

std::string mlir::tcc::checkInputPath(llvm::StringRef path) {
  if (path == "-")
    return "";
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return ""; // opening it reports why, as each tool words it
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return "'" + path.str() + "' is not a regular file";
  if (status.getSize() > kMaxInputFileBytes)
    return "'" + path.str() + "' has " + std::to_string(status.getSize()) +
           " bytes, more than the " + std::to_string(kMaxInputFileBytes) +
           " an IR file may have";
  return "";
}

bool tcc::isBytecode(llvm::MemoryBufferRef buffer) {
  return buffer.getBuffer().starts_with("ML\xefR");
}

//===----------------------------------------------------------------------===//
// Text scan
//===----------------------------------------------------------------------===//

namespace {
/// One pass over IR text. It knows just enough of MLIR's lexical syntax to
/// skip strings and comments, count brackets and read shaped-type dims.
class TextScanner {
public:
  TextScanner(StringRef text, const InputLimits &limits)
      : text(text), limits(limits) {}

  std::optional<TextProblem> run() {
    unsigned depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (c == '"') {
        size_t close = skipString(i);
        // MLIR 19's lexer steps past the buffer's terminating NUL when a
        // string is still open there and lexes on from memory beyond it.
        if (close == text.size())
          return problem(i, "string is not closed before the end of the file");
        i = close;
      } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
        i = text.find('\n', i);
        if (i == StringRef::npos)
          break;
      } else if (c == '{' || c == '[' || c == '(' || c == '<') {
        if (++depth > limits.maxNesting)
          return problem(i, "nesting is deeper than " +
                                std::to_string(limits.maxNesting) +
                                " levels of brackets");
      } else if (c == '}' || c == ']' || c == ')' || c == '>') {
        bool isArrow = c == '>' && i > 0 && text[i - 1] == '-';
        if (!isArrow && depth > 0)
          --depth;
      } else if (isIdentifierStart(c) &&
                 (i == 0 || !isIdentifierChar(text[i - 1]))) {
        size_t end = i;
        while (end < text.size() && isIdentifierChar(text[end]))
          ++end;
        StringRef word = text.slice(i, end);
        if ((word == "tensor" || word == "memref" || word == "vector") &&
            end < text.size() && text[end] == '<')
          if (std::optional<TextProblem> p = checkShape(i, end + 1))
            return p;
        i = end - 1; // the '<' is counted by the loop
      }
    }
    return std::nullopt;
  }

private:
  static bool isIdentifierStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  }
  static bool isIdentifierChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '$' || c == '.';
  }

  /// The index of the closing quote of the string opening at `i`, of the
  /// newline that ends it unclosed (the parser reports that), or the end.
  size_t skipString(size_t i) const {
    for (++i; i < text.size(); ++i) {
      if (text[i] == '\\')
        ++i;
      else if (text[i] == '"' || text[i] == '\n')
        return i;
    }
    return text.size();
  }

  /// Reads the dims list of a shaped type starting at `pos` (after its '<')
  /// and checks that their product fits in int64_t.
  std::optional<TextProblem> checkShape(size_t typeStart, size_t pos) const {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
    int64_t count = 1;
    bool overflow = false;
    unsigned rank = 0;
    while (pos < text.size()) {
      if (rank > limits.maxRank)
        return problem(typeStart, "shaped type has more than " +
                                      std::to_string(limits.maxRank) +
                                      " dimensions");
      size_t dimStart = pos;
      bool scalable = text[pos] == '[';
      if (scalable)
        ++pos;
      if (pos < text.size() && text[pos] == '?') {
        ++pos;
      } else if (pos < text.size() &&
                 std::isdigit(static_cast<unsigned char>(text[pos]))) {
        int64_t dim = 0;
        for (; pos < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[pos]));
             ++pos) {
          std::optional<int64_t> next =
              llvm::checkedMulAdd<int64_t>(dim, 10, text[pos] - '0');
          if (!next)
            return problem(dimStart, "dimension " +
                                         text.slice(dimStart, pos + 1).str() +
                                         "... does not fit in int64_t");
          dim = *next;
        }
        std::optional<int64_t> next = llvm::checkedMul(count, dim);
        overflow |= !next;
        if (next)
          count = *next;
      } else {
        break; // the element type: the dims list has ended
      }
      ++rank;
      if (scalable && (pos >= text.size() || text[pos++] != ']'))
        break;
      if (pos >= text.size() || text[pos] != 'x')
        break;
      ++pos;
    }
    if (overflow)
      return problem(typeStart,
                     "shaped type has more elements than int64_t can count");
    return std::nullopt;
  }

  std::optional<TextProblem> problem(size_t pos, std::string message) const {
    return TextProblem{llvm::SMLoc::getFromPointer(text.data() + pos),
                       std::move(message)};
  }

  StringRef text;
  const InputLimits &limits;
};

/// The blob header's alignment (its first 4 bytes, little-endian) unless it
/// is a power of two up to kMaxBlobAlignment: MLIR's parser aborts on 0 and
/// allocates whatever a larger one asks. `hex` is the text after "0x".
std::optional<std::string> badBlobAlignment(StringRef hex) {
  uint32_t alignment = 0;
  for (int byte = 0; byte < 4; ++byte) {
    unsigned value;
    if (hex.size() < size_t(2 * byte + 2) ||
        hex.substr(2 * byte, 2).getAsInteger(16, value))
      return std::nullopt; // no header: MLIR's parser reports it
    alignment |= uint32_t(value) << (8 * byte);
  }
  if (llvm::isPowerOf2_32(alignment) && alignment <= kMaxBlobAlignment)
    return std::nullopt;
  return "has alignment " + std::to_string(alignment) +
         " in its header; blobs are aligned to a power of two up to " +
         std::to_string(kMaxBlobAlignment);
}

/// In the file metadata's `dialect_resources: { builtin: { key: "0x...",
/// ... } }`: a bad blob header (badBlobAlignment), or a second blob of one
/// key (MLIR's parser keeps the last one silently, so a file with two would
/// compile with whichever came last).
std::optional<TextProblem> findResourceProblem(StringRef text) {
  size_t meta = text.rfind("{-#");
  if (meta == StringRef::npos)
    return std::nullopt;
  size_t builtin = text.find("builtin", meta);
  if (builtin == StringRef::npos)
    return std::nullopt;
  size_t pos = builtin + strlen("builtin");
  auto skipSpace = [&] { // and comments
    for (;;) {
      while (pos < text.size() &&
             std::isspace(static_cast<unsigned char>(text[pos])))
        ++pos;
      if (!text.substr(pos).starts_with("//"))
        return;
      pos = std::min(text.find('\n', pos), text.size());
    }
  };
  skipSpace();
  if (pos >= text.size() || text[pos++] != ':')
    return std::nullopt;
  skipSpace();
  if (pos >= text.size() || text[pos++] != '{')
    return std::nullopt;
  llvm::StringSet<> keys;
  for (;;) {
    skipSpace();
    if (pos < text.size() && text[pos] == ',') {
      ++pos;
      continue;
    }
    if (pos >= text.size() || text[pos] == '}')
      return std::nullopt;
    size_t keyStart = pos;
    StringRef key;
    if (text[pos] == '"') { // a quoted key
      size_t close = text.find('"', pos + 1);
      if (close == StringRef::npos)
        return std::nullopt; // the parser reports it
      key = text.slice(pos + 1, close);
      pos = close + 1;
    } else {
      while (pos < text.size() && text[pos] != ':' &&
             !std::isspace(static_cast<unsigned char>(text[pos])))
        ++pos;
      key = text.slice(keyStart, pos);
    }
    if (!keys.insert(key).second)
      return TextProblem{llvm::SMLoc::getFromPointer(text.data() + keyStart),
                         "dense_resource '" + key.str() +
                             "' has a second blob (a file holds one per "
                             "name)"};
    skipSpace();
    if (pos >= text.size() || text[pos++] != ':')
      return std::nullopt;
    skipSpace();
    if (pos >= text.size() || text[pos] != '"')
      return std::nullopt;
    size_t close = text.find('"', pos + 1); // hex: no escapes
    if (close == StringRef::npos)
      return std::nullopt;
    StringRef blob = text.slice(pos + 1, close);
    if (blob.starts_with("0x"))
      if (std::optional<std::string> bad = badBlobAlignment(blob.substr(2)))
        return TextProblem{llvm::SMLoc::getFromPointer(text.data() + pos),
                           "dense_resource '" + key.str() + "' " + *bad};
    pos = close + 1;
  }
}
} // namespace

std::optional<TextProblem> tcc::findTextProblem(llvm::MemoryBufferRef buffer,
                                                const InputLimits &limits) {
  if (isBytecode(buffer)) {
    if (limits.allowBytecode)
      return std::nullopt;
    return TextProblem{
        llvm::SMLoc::getFromPointer(buffer.getBufferStart()),
        "this is MLIR bytecode, which is read only with --allow-bytecode: "
        "MLIR's bytecode reader is not hardened against corrupted files, so "
        "allow it only for files you trust (or convert one to text with "
        "`tcc-opt --allow-bytecode FILE -o FILE.ir`)"};
  }
  if (std::optional<TextProblem> p =
          TextScanner(buffer.getBuffer(), limits).run())
    return p;
  if (std::optional<TextProblem> p =
          findFloatLiteralProblem(buffer.getBuffer()))
    return p;
  return findResourceProblem(buffer.getBuffer());
}

LogicalResult tcc::checkInputFile(const llvm::MemoryBuffer &buffer,
                                  llvm::raw_ostream &os,
                                  const InputLimits &limits) {
  std::optional<TextProblem> problem =
      findTextProblem(buffer.getMemBufferRef(), limits);
  if (!problem)
    return success();
  if (isBytecode(buffer.getMemBufferRef())) { // no source line to show
    os << buffer.getBufferIdentifier() << ": error: " << problem->message
       << "\n";
    return failure();
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  sourceMgr.PrintMessage(os, problem->loc, llvm::SourceMgr::DK_Error,
                         problem->message);
  return failure();
}

//===----------------------------------------------------------------------===//
// Parsed IR
//===----------------------------------------------------------------------===//

LogicalResult tcc::checkTensorSizes(Operation *root) {
  std::optional<Type> bad;
  AttrTypeWalker walker;
  walker.addWalk([&](Type type) {
    if (hasBoundedSize(type))
      return WalkResult::advance();
    bad = type;
    return WalkResult::interrupt();
  });
  auto holdsBadType = [&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (walker.walk(type).wasInterrupted())
        return true;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          if (walker.walk(type).wasInterrupted())
            return true;
    if (walker.walk(op->getAttrDictionary()).wasInterrupted())
      return true;
    Attribute props = op->getPropertiesAsAttribute();
    return props && walker.walk(props).wasInterrupted();
  };
  Operation *where = nullptr;
  root->walk([&](Operation *op) {
    if (!holdsBadType(op))
      return WalkResult::advance();
    where = op;
    return WalkResult::interrupt();
  });
  if (!where)
    return success();
  return where->emitError("type ")
         << *bad << " has an element count or byte size that overflows int64_t";
}

OwningOpRef<ModuleOp> tcc::parseModelFile(llvm::SourceMgr &sourceMgr,
                                          MLIRContext *context,
                                          const InputLimits &limits) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (std::optional<TextProblem> problem =
          findTextProblem(buffer->getMemBufferRef(), limits)) {
    auto [line, column] = isBytecode(buffer->getMemBufferRef())
                              ? std::pair<unsigned, unsigned>(0, 0)
                              : sourceMgr.getLineAndColumn(problem->loc);
    emitError(FileLineColLoc::get(context, buffer->getBufferIdentifier(), line,
                                  column))
        << problem->message;
    return {};
  }
  // Sizes are checked before the verifier, which may count elements.
  ParserConfig config(context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module || failed(checkTensorSizes(*module)) || failed(verify(*module)))
    return {};
  return module;
}

int tcc::runWithLargeStack(llvm::function_ref<int()> work,
                           unsigned stackBytes) {
  int result = 1;
  llvm::thread worker(std::optional<unsigned>(stackBytes),
                      [&] { result = work(); });
  worker.join();
  return result;
}
