//===- OrderedDict.h - Insertion-ordered string-keyed map -------*- C++ -*-===//
//
// libtorch's torch::OrderedDict: what named_parameters(), named_modules()
// and friends return. Items keep insertion order; lookup by key is a hash.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_ORDEREDDICT_H
#define TCC_FRONTEND_NN_ORDEREDDICT_H

#include "tcc/Frontend/Error.h"

#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tcc {

template <class Key, class Value> class OrderedDict {
public:
  class Item {
  public:
    Item(Key key, Value value) : pair_(std::move(key), std::move(value)) {}
    Value &operator*() { return value(); }
    const Value &operator*() const { return value(); }
    Value *operator->() { return &value(); }
    const Value *operator->() const { return &value(); }
    const Key &key() const noexcept { return pair_.first; }
    Value &value() noexcept { return pair_.second; }
    const Value &value() const noexcept { return pair_.second; }
    const std::pair<Key, Value> &pair() const noexcept { return pair_; }

  private:
    std::pair<Key, Value> pair_;
  };

  using key_type = Key;
  using mapped_type = Value;
  using Iterator = typename std::vector<Item>::iterator;
  using ConstIterator = typename std::vector<Item>::const_iterator;

  /// `key_description` names keys in errors ("Parameter", "Submodule").
  explicit OrderedDict(std::string key_description = "Key")
      : keyDescription_(std::move(key_description)) {}
  OrderedDict(std::initializer_list<Item> items) : OrderedDict() {
    for (const Item &item : items)
      insert(item.key(), item.value());
  }

  const std::string &key_description() const noexcept {
    return keyDescription_;
  }

  Item &front() { return checkedItems().front(); }
  const Item &front() const { return checkedItems().front(); }
  Item &back() { return checkedItems().back(); }
  const Item &back() const { return checkedItems().back(); }
  Item &operator[](size_t index) { return at(index); }
  const Item &operator[](size_t index) const { return at(index); }
  Value &operator[](const Key &key) {
    if (Value *v = find(key))
      return *v;
    detail::throwError(keyDescription_ + " '" + key + "' is not defined");
  }
  const Value &operator[](const Key &key) const {
    if (const Value *v = find(key))
      return *v;
    detail::throwError(keyDescription_ + " '" + key + "' is not defined");
  }

  Value *find(const Key &key) noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  const Value *find(const Key &key) const noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  bool contains(const Key &key) const noexcept {
    return index_.count(key) != 0;
  }

  Iterator begin() { return items_.begin(); }
  ConstIterator begin() const { return items_.begin(); }
  Iterator end() { return items_.end(); }
  ConstIterator end() const { return items_.end(); }
  size_t size() const noexcept { return items_.size(); }
  bool is_empty() const noexcept { return items_.empty(); }
  void reserve(size_t n) {
    items_.reserve(n);
    index_.reserve(n);
  }

  /// Adds a new item; a key that exists already is an error.
  template <class K, class V> Value &insert(K &&key, V &&value) {
    if (index_.count(key))
      detail::throwError(keyDescription_ + " '" + Key(key) +
                         "' already defined");
    Key k(std::forward<K>(key));
    index_.emplace(k, items_.size());
    items_.emplace_back(std::move(k), Value(std::forward<V>(value)));
    return items_.back().value();
  }
  /// Inserts every item of `other`, replacing values of keys present.
  void update(const OrderedDict &other) {
    for (const Item &item : other) {
      if (Value *v = find(item.key()))
        *v = item.value();
      else
        insert(item.key(), item.value());
    }
  }
  void erase(const Key &key) {
    auto it = index_.find(key);
    if (it == index_.end())
      detail::throwError(keyDescription_ + " '" + key + "' is not defined");
    size_t pos = it->second;
    index_.erase(it);
    items_.erase(items_.begin() + pos);
    for (auto &entry : index_)
      if (entry.second > pos)
        --entry.second;
  }
  void clear() {
    index_.clear();
    items_.clear();
  }

  const std::vector<Item> &items() const noexcept { return items_; }
  std::vector<Key> keys() const {
    std::vector<Key> out;
    out.reserve(size());
    for (const Item &item : items_)
      out.push_back(item.key());
    return out;
  }
  std::vector<Value> values() const {
    std::vector<Value> out;
    out.reserve(size());
    for (const Item &item : items_)
      out.push_back(item.value());
    return out;
  }
  std::vector<std::pair<Key, Value>> pairs() const {
    std::vector<std::pair<Key, Value>> out;
    out.reserve(size());
    for (const Item &item : items_)
      out.push_back(item.pair());
    return out;
  }

private:
  Item &at(size_t index) {
    if (index >= items_.size())
      detail::throwError("Index " + std::to_string(index) +
                         " is out of bounds for an OrderedDict of size " +
                         std::to_string(items_.size()));
    return items_[index];
  }
  const Item &at(size_t index) const {
    return const_cast<OrderedDict *>(this)->at(index);
  }
  std::vector<Item> &checkedItems() {
    if (items_.empty())
      detail::throwError("Called front()/back() on an empty OrderedDict");
    return items_;
  }
  const std::vector<Item> &checkedItems() const {
    return const_cast<OrderedDict *>(this)->checkedItems();
  }

  std::unordered_map<Key, size_t> index_;
  std::vector<Item> items_;
  std::string keyDescription_;
};

} // namespace tcc

#endif // TCC_FRONTEND_NN_ORDEREDDICT_H
