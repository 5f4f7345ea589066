/* Kernels for artifacts built by tests: a code segment like the ones the
 * code generator emits (kernel signature of the schema, no libc, no
 * undefined symbols; runtime functions come through tcc_imports). */

#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

typedef float (*unary_fn)(float);

/* Filled by the loader from Model.imports: [0] expf. */
EXPORT void *tcc_imports[1];

/* bindings: a, b, out (f32); one element per tile. */
EXPORT void tcc_test_add_f32(void *const *bindings, int64_t begin,
                             int64_t end) {
  const float *a = bindings[0], *b = bindings[1];
  float *out = bindings[2];
  for (int64_t i = begin; i < end; ++i)
    out[i] = a[i] + b[i];
}

EXPORT void tcc_test_mul_f32(void *const *bindings, int64_t begin,
                             int64_t end) {
  const float *a = bindings[0], *b = bindings[1];
  float *out = bindings[2];
  for (int64_t i = begin; i < end; ++i)
    out[i] = a[i] * b[i];
}

/* bindings: in, out (f32); out = expf(in) through the import table. */
EXPORT void tcc_test_exp_f32(void *const *bindings, int64_t begin,
                             int64_t end) {
  unary_fn expf_ = (unary_fn)tcc_imports[0];
  const float *in = bindings[0];
  float *out = bindings[1];
  for (int64_t i = begin; i < end; ++i)
    out[i] = expf_(in[i]);
}

/* bindings: counts (i32); counts[i] += 1 for each tile i it runs. */
EXPORT void tcc_test_count_tiles(void *const *bindings, int64_t begin,
                                 int64_t end) {
  int32_t *counts = bindings[0];
  for (int64_t i = begin; i < end; ++i)
    counts[i] += 1;
}
