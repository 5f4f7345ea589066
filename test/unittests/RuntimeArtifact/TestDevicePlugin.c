/*===- TestDevicePlugin.c - device plugins for the runtime's tests --------===*
 *
 * Every variant allocates host memory and has a queue that holds submitted
 * work until the test calls tcc_test_fake_device_flush, so a test can look
 * at a run that is in flight. Built several times (see CMakeLists.txt):
 *  - libtcc_device_fake.so: TCC_MEMORY_DEVICE memory is marked not
 *    host-visible; loads no code modules;
 *  - libtcc_device_test.so: loads modules of kind "test", whose code is
 *    kTestCode and whose kernels are host functions in this library; its
 *    device memory is host-visible;
 *  - libtcc_device_hidden.so: loads "hidden" modules like the test device,
 *    but its device memory is not host-visible;
 *  - libtcc_device_mismatch.so: named "mismatch", loads "test" modules;
 *  - libtcc_device_program.so: loads "program" modules by running whole
 *    plans (the ABI's programs): a run writes 2 * x into the output for a
 *    model with one f32[4] input and output, and reports 1000 ns per step
 *    of a two-step plan;
 *  - libtcc_device_badabi.so: reports ABI version 999;
 *  - libtcc_device_noentry.so: exports no entry point.
 *===----------------------------------------------------------------------===*/

#include "tcc/runtime/tcc_device_plugin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef TCC_TEST_PLUGIN_NO_ENTRY

typedef struct item_t {
  tcc_status_t (*work)(void *);
  void (*done)(void *, tcc_status_t);
  void *arg;
  struct item_t *next;
} item_t;

typedef struct queue_t {
  item_t *head, *tail;
} queue_t;

static queue_t *g_queue; /* the tests use one queue at a time */

static int g_live_device_allocations;

static int host_visible(void *self, tcc_memory_kind_t kind) {
  (void)self;
#ifdef TCC_TEST_PLUGIN_DEVICE_VISIBLE
  (void)kind;
  return 1;
#else
  return kind == TCC_MEMORY_HOST;
#endif
}

static tcc_status_t allocate(void *self, tcc_memory_kind_t kind,
                             size_t byte_size, size_t alignment,
                             void **out_address) {
  (void)self;
  (void)kind;
  size_t rounded = (byte_size + alignment - 1) / alignment * alignment;
  *out_address = aligned_alloc(alignment, rounded ? rounded : alignment);
  if (!*out_address)
    return tcc_status_make(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "fake device: out of memory");
  if (kind == TCC_MEMORY_DEVICE)
    ++g_live_device_allocations;
  return NULL;
}

static void release(void *self, tcc_memory_kind_t kind, void *address) {
  (void)self;
  if (kind == TCC_MEMORY_DEVICE)
    --g_live_device_allocations;
  free(address);
}

/* TCC_MEMORY_DEVICE blocks allocated and not yet freed. */
__attribute__((visibility("default"))) int
tcc_test_device_live_allocations(void) {
  return g_live_device_allocations;
}

#ifdef TCC_TEST_PLUGIN_MODULE_KIND

/* The code segment of a module for this device: the executable is the
 * library's own kernels, once the code says it is for them. */
static const char kTestCode[] = "tcc test device code";

/* bindings: a, b, out (f32); out = a * b + 1, one element per tile. */
static void mul_add_one_f32(void *const *bindings, int64_t begin,
                            int64_t end) {
  const float *a = bindings[0], *b = bindings[1];
  float *out = bindings[2];
  for (int64_t i = begin; i < end; ++i)
    out[i] = a[i] * b[i] + 1.0f;
}

static int g_executable; /* the address executables point at */

static tcc_status_t executable_load(void *self, const void *code, size_t size,
                                    void **out_executable) {
  (void)self;
  if (size != sizeof(kTestCode) || memcmp(code, kTestCode, size) != 0)
    return tcc_status_make(TCC_STATUS_INVALID_ARGUMENT,
                           "test device: not test device code");
  *out_executable = &g_executable;
  return NULL;
}

static tcc_status_t executable_resolve(void *self, void *executable,
                                       const char *symbol,
                                       void **out_address) {
  (void)self;
  (void)executable;
  if (strcmp(symbol, "tcc_test_device_mul_add_one_f32") != 0)
    return tcc_status_make(TCC_STATUS_NOT_FOUND,
                           "test device: no such kernel");
  *out_address = (void *)mul_add_one_f32;
  return NULL;
}

#endif

static tcc_status_t queue_create(void *self, void **out_queue) {
  (void)self;
  queue_t *queue = calloc(1, sizeof(queue_t));
  if (!queue)
    return tcc_status_make(TCC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  g_queue = queue;
  *out_queue = queue;
  return NULL;
}

static void queue_destroy(void *self, void *queue) {
  (void)self;
  if (g_queue == queue)
    g_queue = NULL;
  free(queue);
}

static tcc_status_t queue_submit(void *self, void *queue,
                                 tcc_status_t (*work)(void *),
                                 void (*done)(void *, tcc_status_t),
                                 void *arg) {
  (void)self;
  queue_t *q = queue;
  item_t *item = calloc(1, sizeof(item_t));
  if (!item)
    return tcc_status_make(TCC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  item->work = work;
  item->done = done;
  item->arg = arg;
  if (q->tail)
    q->tail->next = item;
  else
    q->head = item;
  q->tail = item;
  return NULL;
}

/* Runs what the current queue holds, in order; returns how many. */
__attribute__((visibility("default"))) int tcc_test_fake_device_flush(void) {
  int n = 0;
  while (g_queue && g_queue->head) {
    item_t *item = g_queue->head;
    g_queue->head = item->next;
    if (!g_queue->head)
      g_queue->tail = NULL;
    item->done(item->arg, item->work(item->arg)); /* may destroy the queue */
    free(item);
    ++n;
  }
  return n;
}

#ifdef TCC_TEST_PLUGIN_PROGRAMS
static int g_live_programs, g_live_program_sessions;

__attribute__((visibility("default"))) int tcc_test_device_live_programs(void) {
  return g_live_programs * 100 + g_live_program_sessions;
}

static tcc_status_t program_load(void *self,
                                 const tcc_device_program_source_t *source,
                                 void **out_program) {
  (void)self;
  if (!source->file || !source->model || !source->file_size)
    return tcc_status_make(TCC_STATUS_INVALID_ARGUMENT,
                           "fake device: no artifact");
  ++g_live_programs;
  *out_program = &g_live_programs;
  return NULL;
}

static void program_unload(void *self, void *program) {
  (void)self;
  (void)program;
  --g_live_programs;
}

static tcc_status_t program_session_create(void *self, void *program,
                                           void **out_session) {
  (void)self;
  ++g_live_program_sessions;
  *out_session = program;
  return NULL;
}

static void program_session_destroy(void *self, void *session) {
  (void)self;
  (void)session;
  --g_live_program_sessions;
}

static tcc_status_t program_run(void *self, void *session,
                                const void *const *inputs,
                                void *const *outputs, uint64_t *step_ns) {
  (void)self;
  (void)session;
  const float *x = (const float *)inputs[0];
  float *z = (float *)outputs[0];
  for (int i = 0; i < 4; ++i)
    z[i] = 2 * x[i];
  if (step_ns) {
    step_ns[0] += 1000;
    step_ns[1] += 1000;
  }
  return NULL;
}
#endif

__attribute__((visibility("default"))) tcc_status_t
tcc_device_plugin_v2(uint32_t runtime_abi_version,
                     tcc_device_plugin_t *out_plugin) {
  if (runtime_abi_version != TCC_DEVICE_PLUGIN_ABI_VERSION)
    return tcc_status_make(TCC_STATUS_UNIMPLEMENTED, "fake device: ABI");
#ifdef TCC_TEST_PLUGIN_ABI
  out_plugin->abi_version = TCC_TEST_PLUGIN_ABI;
#else
  out_plugin->abi_version = TCC_DEVICE_PLUGIN_ABI_VERSION;
#endif
#ifdef TCC_TEST_PLUGIN_MODULE_KIND
  out_plugin->module_kind = TCC_TEST_PLUGIN_MODULE_KIND;
  out_plugin->executable_load = executable_load;
  out_plugin->executable_resolve = executable_resolve;
#endif
  out_plugin->host_visible = host_visible;
  out_plugin->allocate = allocate;
  out_plugin->free = release;
  out_plugin->queue_create = queue_create;
  out_plugin->queue_destroy = queue_destroy;
  out_plugin->queue_submit = queue_submit;
#ifdef TCC_TEST_PLUGIN_PROGRAMS
  out_plugin->program_load = program_load;
  out_plugin->program_unload = program_unload;
  out_plugin->program_session_create = program_session_create;
  out_plugin->program_session_destroy = program_session_destroy;
  out_plugin->program_run = program_run;
#endif
  return NULL;
}

#else

__attribute__((visibility("default"))) int tcc_test_not_a_device(void) {
  return 0;
}

#endif
