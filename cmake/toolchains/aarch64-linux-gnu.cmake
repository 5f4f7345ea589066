# Cross builds for 64-bit Arm Linux with Debian's GNU toolchain
# (g++-aarch64-linux-gnu), tests run under QEMU's user-mode emulator:
#   cmake -G Ninja -S . -B build-aarch64 -DTCC_RUNTIME_ONLY=ON \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
# (scripts/test-aarch64.sh does this, builds and runs ctest). flatc runs on
# the build machine; GoogleTest is built from /usr/src/googletest.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(TCC_AARCH64_PREFIX aarch64-linux-gnu- CACHE STRING "Cross tool prefix")
set(TCC_AARCH64_SYSROOT /usr/aarch64-linux-gnu CACHE PATH
    "Target libraries and headers (Debian's multiarch cross root)")

set(CMAKE_C_COMPILER ${TCC_AARCH64_PREFIX}gcc)
set(CMAKE_CXX_COMPILER ${TCC_AARCH64_PREFIX}g++)

# Debian's cross compilers know their own headers and libraries; the path
# tells find_* where the target's files are, and QEMU where its loader is.
set(CMAKE_FIND_ROOT_PATH ${TCC_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER) # flatc, readelf: the host's
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Header-only FlatBuffers comes from the host's /usr/include.
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)

# ctest (and gtest_discover_tests) run target programs through this.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;${TCC_AARCH64_SYSROOT})
