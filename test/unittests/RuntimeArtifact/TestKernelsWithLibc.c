/* A code segment that breaks the rules the loader enforces: it links libc
 * (so dlsym on it also finds libc's symbols) and its import table is
 * read-only. */

#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void *const tcc_imports[1] = {0};

EXPORT void tcc_test_copy_f32(void *const *bindings, int64_t begin,
                              int64_t end) {
  memcpy((float *)bindings[1] + begin, (const float *)bindings[0] + begin,
         (size_t)(end - begin) * sizeof(float));
}
