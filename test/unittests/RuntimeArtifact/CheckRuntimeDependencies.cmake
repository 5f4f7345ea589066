# Checks that libtcc_runtime depends only on the C and C++ runtime libraries:
# its DT_NEEDED entries are a subset of the allowed ones, and nothing it loads
# (ldd) is LLVM or MLIR.
#   cmake -DLIBRARY=path/libtcc_runtime.so [-DREAD_LOADED=0] -P CheckRuntimeDependencies.cmake
# READ_LOADED=0 skips ldd (a cross-built library the host cannot load).
set(allowed libc.so.6 libstdc++.so.6 libm.so.6 libgcc_s.so.1 libdl.so.2
    libpthread.so.0 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1)

execute_process(COMMAND readelf -d ${LIBRARY} OUTPUT_VARIABLE dynamic
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf -d ${LIBRARY} failed")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]]+\\]" entries "${dynamic}")
if(NOT entries)
  message(FATAL_ERROR "no NEEDED entries found in ${LIBRARY}")
endif()
foreach(entry ${entries})
  string(REGEX REPLACE ".*\\[(.*)\\]" "\\1" name "${entry}")
  list(FIND allowed ${name} found)
  if(found EQUAL -1)
    message(FATAL_ERROR "${LIBRARY} needs ${name}, outside the allowed set: ${allowed}")
  endif()
  message(STATUS "NEEDED ${name}")
endforeach()

if(DEFINED READ_LOADED AND NOT READ_LOADED)
  return()
endif()
execute_process(COMMAND ldd ${LIBRARY} OUTPUT_VARIABLE loaded RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ldd ${LIBRARY} failed")
endif()
if(loaded MATCHES "LLVM|MLIR|libflatbuffers")
  message(FATAL_ERROR "${LIBRARY} loads LLVM, MLIR or FlatBuffers:\n${loaded}")
endif()
