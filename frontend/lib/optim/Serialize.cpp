//===- Serialize.cpp - Options and state of the optimizers in archives ----===//

#include "tcc/Frontend/optim/Adam.h"
#include "tcc/Frontend/optim/RMSprop.h"
#include "tcc/Frontend/optim/SGD.h"

#include "tcc/Frontend/serialize/Archive.h"

namespace tcc {
namespace optim {
namespace {

using serialize::InputArchive;
using serialize::OutputArchive;

void put(OutputArchive &a, const char *key, double v) {
  a.write(key, IValue(v));
}
void put(OutputArchive &a, const char *key, bool v) { a.write(key, IValue(v)); }
void put(OutputArchive &a, const char *key, int64_t v) {
  a.write(key, IValue(v));
}
void put(OutputArchive &a, const char *key, const Tensor &t) {
  if (t.defined())
    a.write(key, t);
}

double getDouble(InputArchive &a, const char *key) {
  IValue v;
  a.read(key, v);
  return v.isInt() ? double(v.toInt()) : v.toDouble();
}
bool getBool(InputArchive &a, const char *key) {
  IValue v;
  a.read(key, v);
  return v.toBool();
}
int64_t getInt(InputArchive &a, const char *key) {
  IValue v;
  a.read(key, v);
  return v.toInt();
}
/// The saved tensor (a fresh copy, not aliasing the archive), or undefined.
Tensor getTensor(InputArchive &a, const char *key) {
  Tensor t;
  if (!a.try_read(key, t))
    return Tensor();
  return t.clone();
}

} // namespace

void SGDOptions::serialize(OutputArchive &a) const {
  put(a, "lr", lr());
  put(a, "momentum", momentum());
  put(a, "dampening", dampening());
  put(a, "weight_decay", weight_decay());
  put(a, "nesterov", nesterov());
}
void SGDOptions::serialize(InputArchive &a) {
  lr(getDouble(a, "lr"));
  momentum(getDouble(a, "momentum"));
  dampening(getDouble(a, "dampening"));
  weight_decay(getDouble(a, "weight_decay"));
  nesterov(getBool(a, "nesterov"));
}
void SGDParamState::serialize(OutputArchive &a) const {
  put(a, "momentum_buffer", momentum_buffer());
}
void SGDParamState::serialize(InputArchive &a) {
  momentum_buffer(getTensor(a, "momentum_buffer"));
}

template <class O> static void putAdam(OutputArchive &a, const O &o) {
  put(a, "lr", o.lr());
  put(a, "beta1", std::get<0>(o.betas()));
  put(a, "beta2", std::get<1>(o.betas()));
  put(a, "eps", o.eps());
  put(a, "weight_decay", o.weight_decay());
  put(a, "amsgrad", o.amsgrad());
}
template <class O> static void getAdam(InputArchive &a, O &o) {
  o.lr(getDouble(a, "lr"));
  o.betas(std::make_tuple(getDouble(a, "beta1"), getDouble(a, "beta2")));
  o.eps(getDouble(a, "eps"));
  o.weight_decay(getDouble(a, "weight_decay"));
  o.amsgrad(getBool(a, "amsgrad"));
}
void AdamOptions::serialize(OutputArchive &a) const { putAdam(a, *this); }
void AdamOptions::serialize(InputArchive &a) { getAdam(a, *this); }
void AdamWOptions::serialize(OutputArchive &a) const { putAdam(a, *this); }
void AdamWOptions::serialize(InputArchive &a) { getAdam(a, *this); }
void AdamParamState::serialize(OutputArchive &a) const {
  put(a, "step", step());
  put(a, "exp_avg", exp_avg());
  put(a, "exp_avg_sq", exp_avg_sq());
  put(a, "max_exp_avg_sq", max_exp_avg_sq());
}
void AdamParamState::serialize(InputArchive &a) {
  step(getInt(a, "step"));
  exp_avg(getTensor(a, "exp_avg"));
  exp_avg_sq(getTensor(a, "exp_avg_sq"));
  max_exp_avg_sq(getTensor(a, "max_exp_avg_sq"));
}

void RMSpropOptions::serialize(OutputArchive &a) const {
  put(a, "lr", lr());
  put(a, "alpha", alpha());
  put(a, "eps", eps());
  put(a, "weight_decay", weight_decay());
  put(a, "momentum", momentum());
  put(a, "centered", centered());
}
void RMSpropOptions::serialize(InputArchive &a) {
  lr(getDouble(a, "lr"));
  alpha(getDouble(a, "alpha"));
  eps(getDouble(a, "eps"));
  weight_decay(getDouble(a, "weight_decay"));
  momentum(getDouble(a, "momentum"));
  centered(getBool(a, "centered"));
}
void RMSpropParamState::serialize(OutputArchive &a) const {
  put(a, "step", step());
  put(a, "square_avg", square_avg());
  put(a, "momentum_buffer", momentum_buffer());
  put(a, "grad_avg", grad_avg());
}
void RMSpropParamState::serialize(InputArchive &a) {
  step(getInt(a, "step"));
  square_avg(getTensor(a, "square_avg"));
  momentum_buffer(getTensor(a, "momentum_buffer"));
  grad_avg(getTensor(a, "grad_avg"));
}

void AdagradOptions::serialize(OutputArchive &a) const {
  put(a, "lr", lr());
  put(a, "lr_decay", lr_decay());
  put(a, "weight_decay", weight_decay());
  put(a, "initial_accumulator_value", initial_accumulator_value());
  put(a, "eps", eps());
}
void AdagradOptions::serialize(InputArchive &a) {
  lr(getDouble(a, "lr"));
  lr_decay(getDouble(a, "lr_decay"));
  weight_decay(getDouble(a, "weight_decay"));
  initial_accumulator_value(getDouble(a, "initial_accumulator_value"));
  eps(getDouble(a, "eps"));
}
void AdagradParamState::serialize(OutputArchive &a) const {
  put(a, "sum", sum());
  put(a, "step", step());
}
void AdagradParamState::serialize(InputArchive &a) {
  sum(getTensor(a, "sum"));
  step(getInt(a, "step"));
}

} // namespace optim
} // namespace tcc
