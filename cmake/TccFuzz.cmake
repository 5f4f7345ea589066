# Fuzz targets. Each target is one LLVMFuzzerTestOneInput (tcc_add_fuzzer):
# - in every build, a replay driver tcc-fuzz-<name>-replay (ReplayMain.cpp,
#   any compiler) and a ctest, Fuzz.<name>, that runs it once over the
#   target's seed corpus and saved crashes (test/fuzz/{corpus,crashes}/<name>),
#   so the test command replays them deterministically;
# - with TCC_FUZZERS=ON (clang, scripts/fuzz.sh's own build), the libFuzzer
#   binary tcc-fuzz-<name>, with everything compiled in that build carrying
#   ASan, UBSan and coverage (Debian's LLVM/MLIR libraries are not).

option(TCC_FUZZERS "Build libFuzzer targets with ASan and UBSan (clang)" OFF)
if(TCC_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TCC_FUZZERS needs clang (scripts/fuzz.sh uses clang-19)")
  endif()
  # UBSan findings stop the run, so libFuzzer saves the input.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()

set(TCC_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR}/../test/fuzz)
get_filename_component(TCC_FUZZ_DIR ${TCC_FUZZ_DIR} ABSOLUTE)

# tcc_add_fuzzer(<name> SOURCES <src>... LINK <lib>... [SEEDS <arg>...])
# SEEDS: more replay arguments (ReplayMain's --suffix= and folders).
function(tcc_add_fuzzer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK;SEEDS" ${ARGN})
  if(TCC_FUZZERS)
    add_executable(tcc-fuzz-${name} ${ARG_SOURCES})
    target_link_libraries(tcc-fuzz-${name} PRIVATE ${ARG_LINK})
    target_link_options(tcc-fuzz-${name} PRIVATE -fsanitize=fuzzer)
    return()
  endif()
  if(NOT TARGET tcc_fuzz_replay_main) # compiled once for every target
    add_library(tcc_fuzz_replay_main OBJECT ${TCC_FUZZ_DIR}/ReplayMain.cpp)
  endif()
  add_executable(tcc-fuzz-${name}-replay ${ARG_SOURCES})
  target_link_libraries(tcc-fuzz-${name}-replay PRIVATE tcc_fuzz_replay_main
                        ${ARG_LINK})
  add_test(NAME Fuzz.${name}
           COMMAND tcc-fuzz-${name}-replay ${TCC_FUZZ_DIR}/corpus/${name}
                   --optional ${TCC_FUZZ_DIR}/crashes/${name} ${ARG_SEEDS})
endfunction()
