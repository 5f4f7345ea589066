//===- MakeTestModel.cpp - writes small models and .npy files for lit -----===//
//
//   tcc-make-test-model add-mul N OUT.bin   z = (x + y) * [1..N], f32[N]
//   tcc-make-test-model exp N OUT.bin       out = exp(in) via the imports
//   tcc-make-test-model add-mul-cuda N OUT.bin
//       add-mul plus a cuda code module and its device memory space, which
//       this runtime inspects but loads only with a cuda device plugin
//   tcc-make-test-model all-dtypes OUT.bin  one input/output per dtype, copied
//   tcc-make-test-model npy OUT.npy DTYPE DIMS V...
//       DIMS is "2,3" or "scalar"; values are parsed as doubles and stored
//       in DTYPE, except f16 and bf16, whose values are bit patterns
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"

#include "tcc/runtime/Npy.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace tcc;
using namespace tcc::artifact;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: tcc-make-test-model add-mul|add-mul-cuda|exp N OUT.bin\n"
               "       tcc-make-test-model all-dtypes OUT.bin\n"
               "       tcc-make-test-model npy OUT.npy DTYPE DIMS V...\n");
  return 2;
}

runtime::ArtifactBuilder allDTypes() {
  runtime::ArtifactBuilder b;
  for (int d = 0; d < TCC_DTYPE_COUNT; ++d) {
    std::string name = tcc_dtype_name(tcc_dtype_t(d));
    uint32_t in = b.addInput(name, DType(d), {2});
    uint32_t out = b.addOutput(name, DType(d), {2});
    CopyT copy;
    copy.src = in;
    copy.dst = out;
    copy.bytes = 2 * tcc_dtype_size(tcc_dtype_t(d));
    OpUnion op;
    op.Set(std::move(copy));
    b.addStep(std::move(op), {"tcc.copy"});
  }
  return b;
}

int writeValues(const char *path, tcc_dtype_t dtype, char *dims, int count,
                char **values);

int writeNpy(int argc, char **argv) {
  if (argc < 5)
    return usage();
  int dtype = TCC_DTYPE_COUNT;
  for (int d = 0; d < TCC_DTYPE_COUNT; ++d)
    if (!std::strcmp(argv[3], tcc_dtype_name(tcc_dtype_t(d))))
      dtype = d;
  if (dtype == TCC_DTYPE_COUNT)
    return usage();
  return writeValues(argv[2], tcc_dtype_t(dtype), argv[4], argc - 5, argv + 5);
}

int writeValues(const char *path, tcc_dtype_t dtype, char *dims, int count,
                char **values) {
  std::vector<int64_t> shape;
  if (std::strcmp(dims, "scalar") != 0)
    for (char *p = dims; *p;) {
      shape.push_back(std::strtoll(p, &p, 10));
      if (*p == ',')
        ++p;
    }
  size_t size = tcc_dtype_size(dtype);
  std::vector<uint8_t> data;
  for (int i = 0; i < count; ++i) {
    double v = std::strtod(values[i], nullptr);
    uint8_t bytes[8];
    switch (dtype) {
    case TCC_DTYPE_F32: {
      float f = float(v);
      std::memcpy(bytes, &f, 4);
      break;
    }
    case TCC_DTYPE_F64:
      std::memcpy(bytes, &v, 8);
      break;
    case TCC_DTYPE_I64: {
      int64_t x = int64_t(v);
      std::memcpy(bytes, &x, 8);
      break;
    }
    case TCC_DTYPE_I32: {
      int32_t x = int32_t(v);
      std::memcpy(bytes, &x, 4);
      break;
    }
    case TCC_DTYPE_F16:
    case TCC_DTYPE_BF16: {
      uint16_t x = uint16_t(v);
      std::memcpy(bytes, &x, 2);
      break;
    }
    default:
      bytes[0] = uint8_t(int(v));
    }
    data.insert(data.end(), bytes, bytes + size);
  }
  runtime::Status s =
      runtime::writeNpy(path, dtype, shape, data.data(), data.size());
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  return 0;
}

runtime::ArtifactBuilder addMulCuda(int64_t n) {
  runtime::ArtifactBuilder b = test::addMulModel(n);
  uint32_t module = test::addCudaModule(b, {"sm_90"});
  b.addMemorySpace(MemoryKind::Device, 256, module);
  return b;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3)
    return usage();
  std::string what = argv[1];
  if (what == "npy")
    return writeNpy(argc, argv);
  std::vector<uint8_t> bytes;
  if (what == "all-dtypes" && argc == 3) {
    bytes = allDTypes().finish();
    test::writeFile(argv[2], bytes);
    return 0;
  }
  if (argc != 4)
    return usage();
  int64_t n = std::atoll(argv[2]);
  if (what == "add-mul")
    bytes = test::addMulModel(n).finish();
  else if (what == "add-mul-cuda")
    bytes = addMulCuda(n).finish();
  else if (what == "exp")
    bytes = test::expModel(n).finish();
  else
    return usage();
  test::writeFile(argv[3], bytes);
  return 0;
}
