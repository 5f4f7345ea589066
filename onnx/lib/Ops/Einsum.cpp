//===- Einsum.cpp - ONNX Einsum -------------------------------------------===//
//
// Einsum by transposes, reshapes, reductions and batched matmuls. Each
// operand first loses its repeated labels (diagonals, by an index_select of
// the flattened pair) and the labels nothing else needs (a sum); then the
// operands are multiplied left to right, each pair as one matmul
// [batch, left, contracted] x [batch, contracted, right]; a last sum and
// transpose give the output's labels.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "Constants.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// Labels are ints: letters as themselves, the dims of "..." from 1000 on,
/// right-aligned so that broadcasting ellipsis dims share labels.
using Labels = std::vector<int>;
constexpr int kEllipsis = 1000;

/// A tensor with one label per dim.
struct Term {
  Value value;
  Labels labels;
};

class Einsum {
public:
  explicit Einsum(NodeContext &n) : n(n) {}
  void run();

private:
  Labels parseTerm(const std::string &text, int64_t rank, bool isOutput);
  Term takeDiagonals(Term t);
  Term sumOut(Term t, const std::set<int> &keep);
  Term permute(Term t, const Labels &order);
  Term multiply(Term a, Term b, const std::set<int> &keep);
  int64_t size(int label) const { return sizes.at(label); }

  NodeContext &n;
  int ellipsisRank = 0;
  std::map<int, int64_t> sizes;
};

Labels Einsum::parseTerm(const std::string &text, int64_t rank,
                         bool isOutput) {
  Labels labels;
  int letters = 0;
  size_t dots = text.find("...");
  for (char c : text)
    if (std::isalpha(static_cast<unsigned char>(c)))
      ++letters;
    else if (c != '.')
      n.fail("equation term '" + text + "' has the character '" +
             std::string(1, c) + "'");
  int64_t ellipsisDims = dots == std::string::npos ? 0
                         : isOutput                ? ellipsisRank
                                                   : rank - letters;
  if (!isOutput && (ellipsisDims < 0 || (dots == std::string::npos && letters != rank)))
    n.fail("equation term '" + text + "' does not match an operand of rank " +
           std::to_string(rank));
  for (size_t i = 0; i < text.size(); ++i) {
    if (i == dots) {
      for (int64_t d = 0; d < ellipsisDims; ++d)
        labels.push_back(kEllipsis + int(ellipsisRank - ellipsisDims + d));
      i += 2;
      continue;
    }
    if (text[i] == '.')
      n.fail("equation term '" + text + "' has a '.' outside '...'");
    labels.push_back(text[i]);
  }
  return labels;
}

/// Removes a repeated label by taking the diagonal of its two dims.
Term Einsum::takeDiagonals(Term t) {
  for (size_t i = 0; i < t.labels.size(); ++i)
    for (size_t j = i + 1; j < t.labels.size(); ++j) {
      if (t.labels[i] != t.labels[j])
        continue;
      Labels order;
      for (size_t k = 0; k < t.labels.size(); ++k)
        if (k != i && k != j)
          order.push_back(k);
      order.insert(order.end(), {int(i), int(j)});
      Labels rest;
      std::vector<int64_t> perm, flat;
      for (int k : order)
        perm.push_back(k);
      Value v = n.create<tcc::TransposeOp>(
          t.value, {n.i64ArrayAttr("permutation", perm)});
      for (size_t k = 0; k + 2 < order.size(); ++k) {
        rest.push_back(t.labels[order[k]]);
        flat.push_back(size(rest.back()));
      }
      int64_t d = size(t.labels[i]);
      checkTableSize(n, d, "the diagonal's index vector");
      flat.push_back(d * d);
      std::vector<int64_t> diagonal;
      for (int64_t k = 0; k < d; ++k)
        diagonal.push_back(k * (d + 1));
      v = n.create<tcc::IndexSelectOp>(
          {n.reshape(v, flat), n.i64Vector(diagonal)},
          {n.i64Attr("dim", int64_t(flat.size() - 1))});
      rest.push_back(t.labels[i]);
      return takeDiagonals(Term{v, rest});
    }
  return t;
}

/// Sums over the labels not in `keep`.
Term Einsum::sumOut(Term t, const std::set<int> &keep) {
  std::vector<int64_t> dims;
  Labels rest;
  for (size_t i = 0; i < t.labels.size(); ++i)
    if (keep.count(t.labels[i]))
      rest.push_back(t.labels[i]);
    else
      dims.push_back(i);
  if (dims.empty())
    return t;
  Value v = n.create<tcc::ReduceSumOp>(
      t.value, {n.i64ArrayAttr("dims", dims), n.boolAttr("keepdim", false)});
  return Term{v, rest};
}

/// `t` with its dims in the order of `order` (a permutation of its labels).
Term Einsum::permute(Term t, const Labels &order) {
  std::vector<int64_t> perm;
  bool identity = true;
  for (int label : order) {
    auto it = std::find(t.labels.begin(), t.labels.end(), label);
    perm.push_back(it - t.labels.begin());
    identity &= perm.back() == int64_t(perm.size() - 1);
  }
  if (identity)
    return Term{t.value, order};
  return Term{n.create<tcc::TransposeOp>(t.value,
                                         {n.i64ArrayAttr("permutation", perm)}),
              order};
}

Term Einsum::multiply(Term a, Term b, const std::set<int> &keep) {
  auto in = [](const Labels &l, int x) {
    return std::find(l.begin(), l.end(), x) != l.end();
  };
  // Labels neither the other operand nor `keep` needs are summed first.
  std::set<int> keepA(keep), keepB(keep);
  keepA.insert(b.labels.begin(), b.labels.end());
  keepB.insert(a.labels.begin(), a.labels.end());
  a = sumOut(a, keepA);
  b = sumOut(b, keepB);
  Labels batch, left, contracted, right;
  for (int l : a.labels)
    (in(b.labels, l) ? (keep.count(l) ? batch : contracted) : left).push_back(l);
  for (int l : b.labels)
    if (!in(a.labels, l))
      right.push_back(l);
  auto product = [&](const Labels &ls) {
    int64_t p = 1;
    for (int l : ls)
      p *= size(l);
    return p;
  };
  auto dimsOf = [&](const Labels &ls) {
    std::vector<int64_t> d;
    for (int l : ls)
      d.push_back(size(l));
    return d;
  };
  Labels orderA(batch), orderB(batch);
  orderA.insert(orderA.end(), left.begin(), left.end());
  orderA.insert(orderA.end(), contracted.begin(), contracted.end());
  orderB.insert(orderB.end(), contracted.begin(), contracted.end());
  orderB.insert(orderB.end(), right.begin(), right.end());
  // Ellipsis dims of size 1 broadcast against the other operand's.
  auto full = [&](Term t, const Labels &order) {
    t = permute(t, order);
    return n.broadcastTo(t.value, dimsOf(order));
  };
  Value va = n.reshape(full(a, orderA),
                       {product(batch), product(left), product(contracted)});
  Value vb = n.reshape(full(b, orderB),
                       {product(batch), product(contracted), product(right)});
  Value v = n.create<tcc::MatmulOp>({va, vb});
  Labels labels(batch);
  labels.insert(labels.end(), left.begin(), left.end());
  labels.insert(labels.end(), right.begin(), right.end());
  return Term{n.reshape(v, dimsOf(labels)), labels};
}

void Einsum::run() {
  n.checkAttrs({"equation"});
  if (!n.hasAttr("equation"))
    n.fail("attribute 'equation' is required");
  std::string equation;
  for (char c : n.stringAttr("equation"))
    if (c != ' ')
      equation += c;
  size_t arrow = equation.find("->");
  std::string lhs = equation.substr(0, arrow);
  std::vector<std::string> texts;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    texts.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (texts.size() != n.numInputs())
    n.fail("the equation has " + std::to_string(texts.size()) +
           " operands for " + std::to_string(n.numInputs()) + " inputs");
  std::vector<Term> terms;
  for (size_t i = 0; i < texts.size(); ++i) {
    int64_t rank = NodeContext::rankOf(n.input(i));
    int letters = std::count_if(texts[i].begin(), texts[i].end(), ::isalpha);
    if (texts[i].find("...") != std::string::npos)
      ellipsisRank = std::max<int>(ellipsisRank, rank - letters);
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    Value v = n.input(i);
    Term t{v, parseTerm(texts[i], NodeContext::rankOf(v), false)};
    auto shape = NodeContext::shapeOf(v);
    for (size_t d = 0; d < shape.size(); ++d) {
      auto [it, fresh] = sizes.insert({t.labels[d], shape[d]});
      if (!fresh && it->second != shape[d]) {
        bool ellipsis = t.labels[d] >= kEllipsis;
        if (!ellipsis || (it->second != 1 && shape[d] != 1))
          n.fail("label sizes disagree (" + std::to_string(it->second) +
                 " and " + std::to_string(shape[d]) + ")");
        it->second = std::max(it->second, shape[d]);
      }
    }
    terms.push_back(t);
  }
  Labels output;
  if (arrow != std::string::npos) {
    output = parseTerm(equation.substr(arrow + 2), 0, true);
  } else {
    // Implicit output: the ellipsis, then the labels used once, sorted.
    std::map<int, int> uses;
    for (const Term &t : terms)
      for (int l : t.labels)
        ++uses[l];
    for (int d = 0; d < ellipsisRank; ++d)
      output.push_back(kEllipsis + d);
    for (auto [label, count] : uses)
      if (count == 1 && label < kEllipsis)
        output.push_back(label);
  }
  for (int l : output)
    if (!sizes.count(l))
      n.fail("output label '" + std::string(1, char(l)) +
             "' is in no operand");
  std::set<int> outputSet(output.begin(), output.end());
  if (outputSet.size() != output.size())
    n.fail("the output repeats a label");

  // Labels needed after operand i: the output's and those of later operands.
  std::vector<std::set<int>> neededAfter(terms.size(), outputSet);
  for (size_t i = terms.size(); i-- > 1;) {
    neededAfter[i - 1] = neededAfter[i];
    neededAfter[i - 1].insert(terms[i].labels.begin(), terms[i].labels.end());
  }
  Term acc = sumOut(takeDiagonals(terms[0]), neededAfter[0]);
  for (size_t i = 1; i < terms.size(); ++i) {
    std::set<int> keep(neededAfter[i]);
    Term next = sumOut(takeDiagonals(terms[i]), [&] {
      std::set<int> k(keep);
      k.insert(acc.labels.begin(), acc.labels.end());
      return k;
    }());
    acc = multiply(acc, next, keep);
  }
  acc = sumOut(acc, outputSet);
  Term result = permute(acc, output);
  std::vector<int64_t> shape;
  for (int l : output)
    shape.push_back(size(l));
  n.setOutput(0, n.broadcastTo(result.value, shape));
}

void einsum(NodeContext &n) { Einsum(n).run(); }

} // namespace

void mlir::tcc::onnx::registerEinsumOps(OpTable &t) { t.add("Einsum", 12, einsum); }
