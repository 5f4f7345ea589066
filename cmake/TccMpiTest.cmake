# tcc_mpi_test(<name> NP <n> PROGRAM <target> [ARGS ...] [ENV ...]): a ctest
# entry running `mpirun -n <n> --oversubscribe <program> <args>` (more ranks
# than cores is fine: the tests are small). CI runs as root, where Open MPI
# starts only with the two variables below.
function(tcc_mpi_test name)
  cmake_parse_arguments(ARG "" "NP;PROGRAM" "ARGS;ENV" ${ARGN})
  add_test(NAME ${name}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ARG_NP}
            --oversubscribe ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${ARG_PROGRAM}>
            ${MPIEXEC_POSTFLAGS} ${ARG_ARGS})
  # Under ASan, Open MPI's own leaks are suppressed (the file says why);
  # seeing its frames takes the slow unwinder, so only here.
  set(_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ${ARG_ENV})
  if(TCC_SANITIZE MATCHES "address")
    list(APPEND _env "LSAN_OPTIONS=fast_unwind_on_malloc=0:suppressions=${PROJECT_SOURCE_DIR}/cmake/lsan-openmpi.supp")
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 ENVIRONMENT "${_env}")
endfunction()
