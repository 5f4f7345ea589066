# Installs tcc into a fresh prefix, then configures, builds and runs a
# libtorch-style project against it through find_package(Torch). Checks
# that the build read no header and linked no library of a real libtorch
# (Debian's libtorch-dev puts ATen/c10/torch headers on the default path).
# -DBUILD_DIR=<tcc build> -DSOURCE=<this folder> -DWORK=<scratch folder>
include(${CMAKE_CURRENT_LIST_DIR}/../../ConsumerProject.cmake)
file(REMOVE_RECURSE ${WORK})
tcc_install_components(${BUILD_DIR} ${WORK}/prefix eager Unspecified)
foreach(file include/tcc/compat/torch/torch.h lib/cmake/Torch/TorchConfig.cmake
             lib/cmake/tcc/tccConfig.cmake)
  if(NOT EXISTS ${WORK}/prefix/${file})
    message(FATAL_ERROR "the install tree lacks ${file}")
  endif()
endforeach()
tcc_build_consumer(${SOURCE} ${WORK}/build ${WORK}/prefix
                   "the libtorch-style consumer (find_package(Torch))")

# Every header the compile read: from the install tree or the system's C++
# library, none from a libtorch.
execute_process(COMMAND ninja -C ${WORK}/build -t deps
                OUTPUT_VARIABLE deps RESULT_VARIABLE rc)
if(rc OR NOT deps MATCHES "include/tcc/compat/torch/torch.h")
  message(FATAL_ERROR "could not list the consumer's headers:\n${deps}")
endif()
string(REGEX MATCHALL "[^\n ]*/(ATen|c10|torch|caffe2)/[^\n ]*" torchHeaders "${deps}")
foreach(h ${torchHeaders})
  if(NOT h MATCHES "^${WORK}/prefix/include/tcc/compat/")
    message(FATAL_ERROR "the consumer read a header outside tcc: ${h}")
  endif()
endforeach()
execute_process(COMMAND ldd ${WORK}/build/consumer OUTPUT_VARIABLE libs)
if(libs MATCHES "libtorch|libc10|libcaffe2")
  message(FATAL_ERROR "the consumer links a libtorch library:\n${libs}")
endif()

execute_process(COMMAND ${WORK}/build/consumer WORKING_DIRECTORY ${WORK}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer ran but did not learn y = 3x - 1")
endif()
