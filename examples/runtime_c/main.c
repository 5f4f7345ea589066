/* Runs a compiled model with the runtime's C API.
 *
 *   tcc_runtime_example MODEL.bin [THREADS]
 *
 * Loads the model, prints its inputs and outputs, fills every input with
 * ones, runs it on a pool of THREADS threads (default 1) and prints the
 * first values of each output. Every call returns a status: NULL is
 * success, anything else carries a code and a message. */

#include <tcc/runtime/tcc_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(tcc_status_t status, const char *what) {
  if (status == NULL)
    return 0;
  fprintf(stderr, "%s: %s: %s\n", what,
          tcc_status_code_name(tcc_status_code(status)),
          tcc_status_message(status));
  tcc_status_free(status);
  return 1;
}

static void print_info(const char *kind, size_t i,
                       const tcc_tensor_info_t *info) {
  printf("%s %zu '%s': %s[", kind, i, info->name, tcc_dtype_name(info->dtype));
  for (size_t d = 0; d < info->rank; ++d)
    printf(d ? ",%lld" : "%lld", (long long)info->shape[d]);
  printf("]\n");
}

/* One, in the input's element type. */
static void fill_ones(void *data, const tcc_tensor_info_t *info) {
  size_t n = info->byte_size / tcc_dtype_size(info->dtype);
  for (size_t i = 0; i < n; ++i) {
    switch (info->dtype) {
    case TCC_DTYPE_F32: ((float *)data)[i] = 1.0f; break;
    case TCC_DTYPE_F64: ((double *)data)[i] = 1.0; break;
    case TCC_DTYPE_I64: ((int64_t *)data)[i] = 1; break;
    case TCC_DTYPE_I32: ((int32_t *)data)[i] = 1; break;
    case TCC_DTYPE_F16: ((uint16_t *)data)[i] = 0x3C00; break;
    case TCC_DTYPE_BF16: ((uint16_t *)data)[i] = 0x3F80; break;
    default: ((uint8_t *)data)[i] = 1; break;
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL.bin [THREADS]\n", argv[0]);
    return 2;
  }
  int threads = argc > 2 ? atoi(argv[2]) : 1;

  tcc_model_t *model = NULL;
  if (check(tcc_model_load_file(argv[1], NULL, &model), "load"))
    return 1;

  tcc_thread_pool_t *pool = NULL;
  tcc_session_options_t options;
  tcc_session_options_initialize(&options);
  if (threads > 1) {
    if (check(tcc_thread_pool_create(threads, &pool), "thread pool"))
      return 1;
    options.parallel = tcc_thread_pool_parallel(pool);
  }
  tcc_session_t *session = NULL;
  int failed = check(tcc_session_create(model, &options, &session), "session");

  size_t inputs = tcc_model_input_count(model);
  void **buffers = calloc(inputs ? inputs : 1, sizeof(void *));
  for (size_t i = 0; !failed && i < inputs; ++i) {
    tcc_tensor_info_t info;
    failed = check(tcc_model_input_info(model, i, &info), "input info");
    if (failed)
      break;
    print_info("input", i, &info);
    buffers[i] = malloc(info.byte_size ? info.byte_size : 1);
    fill_ones(buffers[i], &info);
    failed = check(
        tcc_session_bind_input(session, i, buffers[i], info.byte_size), "bind");
  }
  if (!failed)
    failed = check(tcc_session_run(session), "run");

  for (size_t i = 0; !failed && i < tcc_model_output_count(model); ++i) {
    tcc_tensor_info_t info;
    const void *data = NULL;
    failed = check(tcc_model_output_info(model, i, &info), "output info") ||
             check(tcc_session_output(session, i, &data, NULL), "output");
    if (failed)
      break;
    print_info("output", i, &info);
    if (info.dtype == TCC_DTYPE_F32) {
      size_t n = info.byte_size / sizeof(float);
      for (size_t k = 0; k < n && k < 8; ++k)
        printf(k ? " %g" : "  %g", ((const float *)data)[k]);
      printf(n > 8 ? " ...\n" : "\n");
    }
  }

  for (size_t i = 0; i < inputs; ++i)
    free(buffers[i]);
  free(buffers);
  tcc_session_release(session);
  tcc_thread_pool_release(pool);
  tcc_model_release(model);
  return failed;
}
