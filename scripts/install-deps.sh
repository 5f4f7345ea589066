#!/usr/bin/env bash
# Installs every system package tcc needs to build and test, with apt-get.
# Idempotent: when everything is present it installs nothing and says so.
set -euo pipefail

packages=(
  cmake ninja-build ccache g++ python3 python3-pip
  python3-venv # scripts/python-env.sh: the pinned onnx of the ONNX suite
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools lld-19 clang-19
  libclang-rt-19-dev # libFuzzer and the sanitizers for clang (scripts/fuzz.sh)
  libflatbuffers-dev flatbuffers-compiler
  # ONNX import: the vendored onnx.proto compiled with Debian's protoc
  # against libprotobuf-lite (onnx/CMakeLists.txt)
  protobuf-compiler libprotobuf-dev
  # The ONNX model tests (test/onnx-models) export torchvision's models with
  # Debian's /usr/bin/python3 (torch 1.13, torchvision 0.14); without these
  # the tests are not registered.
  python3-torch python3-torchvision
  googletest libgtest-dev libgmock-dev
  # tcc::distributed's MPI backend and mpirun for its tests
  # (distributed/CMakeLists.txt: without them the library is not built)
  openmpi-bin libopenmpi-dev
  pkgconf # the runtime's install test builds the C example with pkg-config
  graphviz # `tcc viz` draws graphs through its `dot`
  # libsodium: Ed25519 signing (tcc compile --sign) and signature checks
  # (--public-key); the runtime dlopens libsodium.so.23 only when a key is
  # used, so it is not a link dependency.
  libsodium-dev
  # qemu-user: kernel tests on an emulated AVX2-only CPU, and the AArch64
  # stage's tests (scripts/test-aarch64.sh), cross-built with
  # g++-aarch64-linux-gnu (GoogleTest from the googletest sources above);
  # OpenBLAS: the GEMM benchmark's peer.
  qemu-user g++-aarch64-linux-gnu libopenblas-dev
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libffi-dev libcurl4-openssl-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
