/* The C API used from C: the header compiles as C and the calls work. */

#include "tcc/runtime/tcc_runtime.h"

#include <string.h>

/* Loads `size` bytes of a model with inputs x, y (f32[3]) and output z,
 * runs it and copies z into `out`. Returns 0 or the failing status code. */
int tcc_test_run_from_c(const void *bytes, size_t size, const float *x,
                        const float *y, float *out) {
  tcc_model_t *model = NULL;
  tcc_session_t *session = NULL;
  tcc_status_t status = tcc_model_load_memory(bytes, size, NULL, &model);
  if (status == NULL)
    status = tcc_session_create(model, NULL, &session);
  if (status == NULL)
    status = tcc_session_bind_input_by_name(session, "x", x, 3 * sizeof(float));
  if (status == NULL)
    status = tcc_session_bind_input_by_name(session, "y", y, 3 * sizeof(float));
  if (status == NULL)
    status = tcc_session_run(session);
  const void *z = NULL;
  if (status == NULL)
    status = tcc_session_output(session, 0, &z, NULL);
  if (status == NULL)
    memcpy(out, z, 3 * sizeof(float));
  int code = (int)tcc_status_code(status);
  tcc_status_free(status);
  tcc_session_release(session);
  tcc_model_release(model);
  return code;
}
