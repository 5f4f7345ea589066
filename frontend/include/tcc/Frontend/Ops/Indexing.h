//===- Indexing.h - Joining, splitting, gathering, scattering, padding -*- C++
//-*-//
//
// libtorch's functions of the same names; the Tensor methods (`x.gather`,
// `x.split`, `x.masked_fill_`, ...) are declared in Tensor.h. Index tensors
// are int64 (index_select also takes int32); indices are never negative.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_OPS_INDEXING_H
#define TCC_FRONTEND_OPS_INDEXING_H

#include "tcc/Frontend/Tensor.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tcc {

/// Concatenates along `dim`; dtypes promote. 1-D empty tensors are skipped,
/// as in PyTorch.
Tensor cat(TensorList tensors, int64_t dim = 0);
/// Joins equal-shaped tensors along a new dim.
Tensor stack(TensorList tensors, int64_t dim = 0);

/// Views of `split_size` along `dim` (the last may be shorter).
std::vector<Tensor> split(const Tensor &self, int64_t split_size,
                          int64_t dim = 0);
/// Views with the given sizes (they sum to the dim's size).
std::vector<Tensor> split(const Tensor &self, IntArrayRef split_sizes,
                          int64_t dim = 0);
std::vector<Tensor> split_with_sizes(const Tensor &self,
                                     IntArrayRef split_sizes, int64_t dim = 0);
/// `chunks` views (fewer when the dim is short), each ceil(size / chunks).
std::vector<Tensor> chunk(const Tensor &self, int64_t chunks, int64_t dim = 0);
/// The slices along `dim`, each without it.
std::vector<Tensor> unbind(const Tensor &self, int64_t dim = 0);

/// out[i][j] = self[index[i][j]][j] (dim 0), and so on.
Tensor gather(const Tensor &self, int64_t dim, const Tensor &index,
              bool sparse_grad = false);
/// self with self[index[i][j]][j] = src[i][j] (dim 0), and so on. With
/// repeated indices the last write wins.
Tensor scatter(const Tensor &self, int64_t dim, const Tensor &index,
               const Tensor &src);
Tensor scatter(const Tensor &self, int64_t dim, const Tensor &index,
               const Scalar &value);
/// As scatter, accumulating: self[index[i][j]][j] += src[i][j].
Tensor scatter_add(const Tensor &self, int64_t dim, const Tensor &index,
                   const Tensor &src);
/// As scatter, reducing every src value that lands on a position with
/// `reduce` ("sum", "prod", "mean", "amax", "amin"; amax/amin propagate
/// NaN, integer means round down). Without include_self, self's value at a
/// position that receives updates takes no part.
Tensor scatter_reduce(const Tensor &self, int64_t dim, const Tensor &index,
                      const Tensor &src, const std::string &reduce,
                      bool include_self = true);
/// Entries `index` (1-D) of dim `dim`.
Tensor index_select(const Tensor &self, int64_t dim, const Tensor &index);
/// `value` where the bool `mask` (broadcast) is true, else self.
Tensor masked_fill(const Tensor &self, const Tensor &mask, const Scalar &value);
/// `value` is a 0-dim tensor (differentiable).
Tensor masked_fill(const Tensor &self, const Tensor &mask, const Tensor &value);

/// Pads the trailing dims; `pad` lists (left, right) pairs, last dim first.
/// Negative constant padding crops.
Tensor constant_pad_nd(const Tensor &self, IntArrayRef pad,
                       const Scalar &value = 0);
/// mode: "constant" (with `value`, default 0), "reflect", "replicate" or
/// "circular" (non-negative padding, less than the dim for "reflect").
Tensor pad(const Tensor &self, IntArrayRef pad,
           std::string_view mode = "constant",
           std::optional<double> value = std::nullopt);

} // namespace tcc

#endif // TCC_FRONTEND_OPS_INDEXING_H
