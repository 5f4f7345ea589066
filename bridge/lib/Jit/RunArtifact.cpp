//===- RunArtifact.cpp - Run an artifact's bytes on eager tensors ---------===//

#include "tcc/jit/RunArtifact.h"

#include "tcc/Frontend/RuntimeDtype.h"
#include "tcc/runtime/Runtime.h"

#include <cstring>
#include <optional>

namespace tcc {
namespace jit {

std::string runArtifact(const std::vector<uint8_t> &bytes,
                        const std::vector<Tensor> &inputs,
                        std::vector<Tensor> *outputs) {
  try {
    runtime::Model model;
    runtime::Status s =
        runtime::Model::loadMemory(bytes.data(), bytes.size(), &model);
    if (!s.ok())
      return "load: " + s.toString();
    if (model.inputCount() != inputs.size())
      return "the artifact has " + std::to_string(model.inputCount()) +
             " inputs, given " + std::to_string(inputs.size());
    runtime::Session session;
    if (!(s = model.createSession(/*parallel=*/nullptr, &session)).ok())
      return "session: " + s.toString();
    std::vector<Tensor> contiguous;
    for (size_t i = 0; i < inputs.size(); ++i) {
      contiguous.push_back(inputs[i].contiguous());
      if (!(s = session.bindInput(i, contiguous.back().data_ptr(),
                                  contiguous.back().nbytes()))
               .ok())
        return "bind input " + std::to_string(i) + ": " + s.toString();
    }
    if (!(s = session.run()).ok())
      return "run: " + s.toString();
    for (size_t i = 0; i < model.outputCount(); ++i) {
      runtime::TensorInfo info;
      const uint8_t *data = nullptr;
      size_t size = 0;
      if (!(s = model.output(i, &info)).ok() ||
          !(s = session.output(i, &data, &size)).ok())
        return "output " + std::to_string(i) + ": " + s.toString();
      std::optional<ScalarType> dtype = from_runtime_dtype(info.dtype);
      if (!dtype)
        return "output " + std::to_string(i) +
               " has a dtype the eager library lacks";
      Tensor out = empty(info.shape, *dtype);
      if (out.nbytes() != size)
        return "output " + std::to_string(i) + " has " +
               std::to_string(size) + " bytes, its signature says " +
               std::to_string(out.nbytes());
      if (size)
        std::memcpy(out.data_ptr(), data, size);
      outputs->push_back(out);
    }
    return "";
  } catch (const std::exception &e) { // the eager library's errors
    return std::string("the outputs: ") + e.what();
  }
}

} // namespace jit
} // namespace tcc
