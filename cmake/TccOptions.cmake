# Project-wide build settings that every layer shares.

find_program(TCC_CCACHE ccache)
if(TCC_CCACHE)
  # CI builds clean clones in other folders: a base dir keeps hashes
  # path-free, and NOHASHDIR keeps the build folder out of them too (with -g
  # ccache hashes it by default, so no clone elsewhere would ever hit).
  set(_launcher ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
      CCACHE_NOHASHDIR=1 ${TCC_CCACHE})
  set(CMAKE_C_COMPILER_LAUNCHER ${_launcher})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${_launcher})
endif()

option(TCC_WERROR "Treat warnings as errors" OFF)
add_compile_options(-Wall -Wextra -Wno-unused-parameter)
if(TCC_WERROR)
  add_compile_options(-Werror)
endif()

# Release builds keep assertions out but stay debuggable.
string(APPEND CMAKE_CXX_FLAGS_RELEASE " -g1")

set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
set(CMAKE_ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)

# A sanitizer build (scripts/test-sanitizers.sh, scripts/sanitize.sh):
# TCC_SANITIZE=address,undefined or thread instruments everything built
# here; any report fails the program.
set(TCC_SANITIZE "" CACHE STRING "Sanitizers for every target (-fsanitize=)")
if(TCC_SANITIZE)
  add_compile_options(-fsanitize=${TCC_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${TCC_SANITIZE})
endif()
