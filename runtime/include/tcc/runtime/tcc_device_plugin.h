/*===- tcc_device_plugin.h - the ABI of device plugins ---------------------===*
 *
 * A device other than "cpu" is a shared library, libtcc_device_<name>.so,
 * that tcc_device_open loads with dlopen (see tcc_runtime.h for where it
 * looks). It exports one C function, TCC_DEVICE_PLUGIN_ENTRY, which fills a
 * table of function pointers. The runtime passes the ABI version it speaks;
 * the plugin writes the version it was built for into the table, and the
 * runtime refuses a table of another version. A plugin links
 * libtcc_runtime.so for tcc_status_make; everything a device needs beyond
 * that (a GPU driver, cuBLAS) the plugin opens itself, so the core runtime
 * links no GPU library.
 *
 * All functions receive the table's `self`. Those marked optional may be
 * NULL.
 *===----------------------------------------------------------------------===*/

#ifndef TCC_RUNTIME_TCC_DEVICE_PLUGIN_H
#define TCC_RUNTIME_TCC_DEVICE_PLUGIN_H

#include "tcc/runtime/tcc_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TCC_DEVICE_PLUGIN_ABI_VERSION 1u
#define TCC_DEVICE_PLUGIN_ENTRY "tcc_device_plugin_v1"

typedef struct tcc_device_plugin_t {
  uint32_t abi_version; /* TCC_DEVICE_PLUGIN_ABI_VERSION of the plugin */
  void *self;
  /* Called once when the runtime's device object goes away. Optional. */
  void (*destroy)(void *self);

  /* Memory. `alignment` is a power of two. A model's device memory spaces
   * (arenas, constants) are TCC_MEMORY_DEVICE memory of the device of their
   * code module; the runtime's steps run on the host and use it only where
   * host_visible says the host can address it. */
  int (*host_visible)(void *self, tcc_memory_kind_t kind);
  tcc_status_t (*allocate)(void *self, tcc_memory_kind_t kind,
                           size_t byte_size, size_t alignment,
                           void **out_address);
  void (*free)(void *self, tcc_memory_kind_t kind, void *address);

  /* The executable loader for code modules of kind `module_kind` (e.g.
   * "cuda"); NULL module_kind when the device loads none. Model loading
   * opens the device named after a module's kind, so the plugin
   * libtcc_device_K.so loads modules of kind K. executable_load gets the
   * module's code segment (the runtime fills no import table for it).
   * executable_resolve gives the kernels of the model's kernel steps, which
   * the runtime calls on the host with the schema's kernel signature; a
   * device whose code cannot run on the host needs step kinds of its own
   * (not yet in this ABI). */
  const char *module_kind;
  tcc_status_t (*executable_load)(void *self, const void *code, size_t size,
                                  void **out_executable);
  tcc_status_t (*executable_resolve)(void *self, void *executable,
                                     const char *symbol, void **out_address);
  void (*executable_unload)(void *self, void *executable);

  /* The queue: runs submitted work in submission order, off the submitting
   * thread, and then calls done(arg, status of the work) exactly once.
   * done may release the queue's last user, so queue_destroy may be called
   * from within done. Optional: without queue_create and queue_submit the
   * runtime runs the work on a host thread of its own per queue. */
  tcc_status_t (*queue_create)(void *self, void **out_queue);
  void (*queue_destroy)(void *self, void *queue);
  tcc_status_t (*queue_submit)(void *self, void *queue,
                               tcc_status_t (*work)(void *arg),
                               void (*done)(void *arg, tcc_status_t status),
                               void *arg);
} tcc_device_plugin_t;

/* The entry point: fills *out_plugin (zeroed by the caller) for a device
 * that the runtime, speaking `runtime_abi_version`, opens. */
typedef tcc_status_t (*tcc_device_plugin_entry_fn)(
    uint32_t runtime_abi_version, tcc_device_plugin_t *out_plugin);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCC_RUNTIME_TCC_DEVICE_PLUGIN_H */
