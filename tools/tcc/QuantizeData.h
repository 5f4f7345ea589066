//===- QuantizeData.h - Calibration and evaluation data for tcc quantize -===//
//
// Model inputs from a folder of .npy files, one .npy file, or an IDX images
// file, cut into batches of the model's batch size; labels from .npy or IDX.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_QUANTIZEDATA_H
#define TCC_TOOLS_TCC_QUANTIZEDATA_H

#include "tcc/Quant/Calibrate.h"

#include <string>
#include <vector>

namespace tcc {
namespace tool {

/// How IDX images (bytes 0..255) become floats: (v / 255 - mean) / std.
struct ImageNormalization {
  double mean = 0, std = 1;
};

/// Reads `path` for a model of signature `signature`:
///   - a folder: one batch per file, `INPUT.npy` or `INPUT.TAG.npy` for each
///     model input (files of one TAG form one batch);
///   - a .npy file (models of one input);
///   - an IDX images file (models of one float input).
/// An array of [k * B, ...] for an input of shape [B, ...] is k batches.
/// Returns an error naming the input and the file, or "" with `*batches`
/// filled.
std::string readModelInputs(const std::string &path,
                            const jit::Signature &signature,
                            const ImageNormalization &normalization,
                            std::vector<quant::Batch> *batches);

/// Reads labels (.npy of integers, or an IDX labels file) and cuts them into
/// the batches of `batches`.
std::string readLabels(const std::string &path,
                       const std::vector<quant::Batch> &batches,
                       std::vector<Tensor> *labels);

} // namespace tool
} // namespace tcc

#endif // TCC_TOOLS_TCC_QUANTIZEDATA_H
