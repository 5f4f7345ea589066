//===- IValue.h - A value of one of a few kinds -----------------*- C++ -*-===//
//
// libtorch's IValue, reduced to what user code stores in
// AutogradContext::saved_data: None, Tensor, double, int, bool, string and
// lists of int, double or Tensor.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_IVALUE_H
#define TCC_FRONTEND_IVALUE_H

#include "tcc/Frontend/Tensor.h"

#include <string>
#include <vector>

namespace tcc {

class IValue {
public:
  enum class Tag : uint8_t {
    None, Tensor, Double, Int, Bool, String, IntList, DoubleList, TensorList
  };

  IValue() = default;
  IValue(Tensor t) : tag_(Tag::Tensor), tensor_(std::move(t)) {}
  IValue(double d) : tag_(Tag::Double), d_(d) {}
  IValue(float d) : tag_(Tag::Double), d_(d) {}
  IValue(int64_t i) : tag_(Tag::Int), i_(i) {}
  IValue(int i) : tag_(Tag::Int), i_(i) {}
  IValue(bool b) : tag_(Tag::Bool), i_(b) {}
  IValue(std::string s) : tag_(Tag::String), s_(std::move(s)) {}
  IValue(const char *s) : tag_(Tag::String), s_(s) {}
  IValue(std::vector<int64_t> v) : tag_(Tag::IntList), ints_(std::move(v)) {}
  IValue(std::vector<double> v)
      : tag_(Tag::DoubleList), doubles_(std::move(v)) {}
  IValue(std::vector<Tensor> v)
      : tag_(Tag::TensorList), tensors_(std::move(v)) {}
  IValue(const Scalar &s)
      : tag_(s.isFloatingPoint() ? Tag::Double
             : s.isBoolean()     ? Tag::Bool
                                 : Tag::Int),
        d_(s.toDouble()), i_(s.isFloatingPoint() ? 0 : s.toLong()) {}

  Tag tag() const { return tag_; }
  bool isNone() const { return tag_ == Tag::None; }
  bool isTensor() const { return tag_ == Tag::Tensor; }
  bool isDouble() const { return tag_ == Tag::Double; }
  bool isInt() const { return tag_ == Tag::Int; }
  bool isBool() const { return tag_ == Tag::Bool; }
  bool isString() const { return tag_ == Tag::String; }
  bool isIntList() const { return tag_ == Tag::IntList; }
  bool isDoubleList() const { return tag_ == Tag::DoubleList; }
  bool isTensorList() const { return tag_ == Tag::TensorList; }

  const Tensor &toTensor() const {
    expect(Tag::Tensor, "Tensor");
    return tensor_;
  }
  double toDouble() const {
    expect(Tag::Double, "Double");
    return d_;
  }
  int64_t toInt() const {
    expect(Tag::Int, "Int");
    return i_;
  }
  bool toBool() const {
    expect(Tag::Bool, "Bool");
    return i_ != 0;
  }
  const std::string &toStringRef() const {
    expect(Tag::String, "String");
    return s_;
  }
  const std::vector<int64_t> &toIntVector() const {
    expect(Tag::IntList, "IntList");
    return ints_;
  }
  const std::vector<double> &toDoubleVector() const {
    expect(Tag::DoubleList, "DoubleList");
    return doubles_;
  }
  const std::vector<Tensor> &toTensorVector() const {
    expect(Tag::TensorList, "TensorList");
    return tensors_;
  }
  Scalar toScalar() const {
    if (tag_ == Tag::Double)
      return d_;
    if (tag_ == Tag::Bool)
      return i_ != 0;
    expect(Tag::Int, "Scalar");
    return i_;
  }
  const char *tagKind() const;

private:
  void expect(Tag t, const char *what) const;

  Tag tag_ = Tag::None;
  Tensor tensor_;
  double d_ = 0;
  int64_t i_ = 0;
  std::string s_;
  std::vector<int64_t> ints_;
  std::vector<double> doubles_;
  std::vector<Tensor> tensors_;
};

} // namespace tcc

#endif // TCC_FRONTEND_IVALUE_H
