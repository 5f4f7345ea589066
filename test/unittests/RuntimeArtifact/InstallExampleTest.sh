#!/usr/bin/env bash
# Installs the runtime component into a temporary prefix and uses it the way
# an application would: the C example built through the CMake package and
# through pkg-config, and the installed tcc tool.
# Usage: InstallExampleTest.sh BUILD_DIR SOURCE_DIR TCC_MAKE_TEST_MODEL WORK_DIR TOOLS
# TOOLS: the tools the build installs ("tcc-run,tcc", or tcc-run alone in a
# runtime-only build).
set -euo pipefail
build=$1 src=$2 maker=$3 work=$4 tools=$5
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" --component runtime > "$work/install.log"
libdir=$(dirname "$(find "$prefix" -name libtcc_runtime.so | head -n1)")
for f in "$libdir/libtcc_runtime.a" "$libdir/pkgconfig/tcc_runtime.pc" \
         "$libdir/cmake/tcc_runtime/tcc_runtimeConfig.cmake" \
         "$prefix/include/tcc/runtime/tcc_runtime.h" \
         "$prefix/include/tcc/runtime/Runtime.h" \
         "$prefix/include/tcc/runtime/artifact_generated.h" "$prefix/bin/tcc-run"; do
  [ -e "$f" ] || { echo "not installed: $f"; exit 1; }
done

"$maker" add-mul 4 "$work/model.bin"
"$maker" npy "$work/x.npy" f32 4 1 1 1 1
expected="output 0 'z': f32[4]
  2 4 6 8"
check() { # name, output
  if ! grep -qF "$expected" <<< "$2"; then
    echo "$1: unexpected output:"; echo "$2"; exit 1
  fi
  echo "$1: ok"
}

# The CMake package (find_package(tcc_runtime) -> tcc::runtime).
cmake -S "$src/examples/runtime_c" -B "$work/cmake-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/configure.log"
cmake --build "$work/cmake-build" > "$work/build.log"
check "cmake package" "$("$work/cmake-build/tcc_runtime_example" "$work/model.bin" 2)"

# pkg-config.
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs tcc_runtime)
cc "$src/examples/runtime_c/main.c" $flags -o "$work/pkg-config-example"
check "pkg-config" "$(LD_LIBRARY_PATH="$libdir" "$work/pkg-config-example" "$work/model.bin")"

# The installed tools find their library through their RPATH.
if [[ ",$tools," == *",tcc,"* ]]; then
  "$prefix/bin/tcc" inspect "$work/model.bin" | grep -q "runs on this host: yes"
  echo "installed tcc: ok"
fi
# tcc-run runs the model with nothing but the runtime.
check "installed tcc-run" "$("$prefix/bin/tcc-run" run "$work/model.bin" \
  --input "$work/x.npy" --input "$work/x.npy")"
if ldd "$prefix/bin/tcc-run" | grep -E 'LLVM|MLIR'; then
  echo "installed tcc-run links LLVM or MLIR"; exit 1
fi
