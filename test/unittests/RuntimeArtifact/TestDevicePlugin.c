/*===- TestDevicePlugin.c - device plugins for the runtime's tests --------===*
 *
 * Built three times (see CMakeLists.txt):
 *  - libtcc_device_fake.so: host memory (its TCC_MEMORY_DEVICE memory is
 *    marked not host-visible) and a queue that holds submitted work until
 *    the test calls tcc_test_fake_device_flush, so a test can look at a run
 *    that is in flight;
 *  - libtcc_device_badabi.so: reports ABI version 999;
 *  - libtcc_device_noentry.so: exports no entry point.
 *===----------------------------------------------------------------------===*/

#include "tcc/runtime/tcc_device_plugin.h"

#include <stdlib.h>

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

static int host_visible(void *self, tcc_memory_kind_t kind) {
  (void)self;
  return kind == TCC_MEMORY_HOST;
}

static tcc_status_t allocate(void *self, tcc_memory_kind_t kind,
                             size_t byte_size, size_t alignment,
                             void **out_address) {
  (void)self;
  (void)kind;
  size_t rounded = (byte_size + alignment - 1) / alignment * alignment;
  *out_address = aligned_alloc(alignment, rounded ? rounded : alignment);
  return *out_address ? NULL
                      : tcc_status_make(TCC_STATUS_RESOURCE_EXHAUSTED,
                                        "fake device: out of memory");
}

static void release(void *self, tcc_memory_kind_t kind, void *address) {
  (void)self;
  (void)kind;
  free(address);
}

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

__attribute__((visibility("default"))) tcc_status_t
tcc_device_plugin_v1(uint32_t runtime_abi_version,
                     tcc_device_plugin_t *out_plugin) {
  if (runtime_abi_version != TCC_DEVICE_PLUGIN_ABI_VERSION)
    return tcc_status_make(TCC_STATUS_UNIMPLEMENTED, "fake device: ABI");
#ifdef TCC_TEST_PLUGIN_ABI
  out_plugin->abi_version = TCC_TEST_PLUGIN_ABI;
#else
  out_plugin->abi_version = TCC_DEVICE_PLUGIN_ABI_VERSION;
#endif
  out_plugin->host_visible = host_visible;
  out_plugin->allocate = allocate;
  out_plugin->free = release;
  out_plugin->queue_create = queue_create;
  out_plugin->queue_destroy = queue_destroy;
  out_plugin->queue_submit = queue_submit;
  return NULL;
}

#else

__attribute__((visibility("default"))) int tcc_test_not_a_device(void) {
  return 0;
}

#endif
