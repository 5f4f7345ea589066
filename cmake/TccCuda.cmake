# The CUDA toolkit, where it is installed (optional: nothing here needs a
# GPU or links a CUDA library). What the layers use of it:
#   TCC_CUDA_INCLUDE_DIR   cuda.h: the cuda device plugin is built with it
#   TCC_PTXAS              ptxas: the cuda target makes cubins with it
#   TCC_CUDA_STUB_DRIVER   the toolkit's stub libcuda.so, for a test
find_package(CUDAToolkit QUIET)
find_path(TCC_CUDA_INCLUDE_DIR cuda.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
find_program(TCC_PTXAS ptxas HINTS ${CUDAToolkit_BIN_DIR})
find_library(TCC_CUDA_STUB_DRIVER NAMES cuda
  PATHS ${CUDAToolkit_LIBRARY_DIR}/stubs NO_DEFAULT_PATH)
