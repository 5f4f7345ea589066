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

#define TCC_DEVICE_PLUGIN_ABI_VERSION 2u
#define TCC_DEVICE_PLUGIN_ENTRY "tcc_device_plugin_v2"

/* What program_load gets: the verified artifact, which outlives the program. */
typedef struct tcc_device_program_source_t {
  const void *file; /* the artifact's bytes */
  size_t file_size;
  const void *model; /* its header, a tcc::artifact::Model (artifact.fbs) */
  const void *constants; /* the constants segment, 64-byte aligned, or NULL */
  size_t constant_bytes;
} tcc_device_program_source_t;

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

  /* Programs: a device whose code the host cannot call (a GPU) runs the
   * plan of a model whose steps are all on its modules itself. The runtime
   * keeps the model's inputs and outputs in host memory and hands them to
   * each run; the device owns everything else (constants, arenas, staging
   * buffers, streams). Optional, as a group: without program_load, models
   * run on the host as described above.
   *
   * program_run runs the plan once: `inputs[i]` and `outputs[i]` hold the
   * model's inputs and outputs (their byte sizes are the model's). With
   * `step_ns` (one counter per plan step) it adds each step's device time to
   * its counter. It returns when the outputs are written. */
  tcc_status_t (*program_load)(void *self,
                               const tcc_device_program_source_t *source,
                               void **out_program);
  void (*program_unload)(void *self, void *program);
  tcc_status_t (*program_session_create)(void *self, void *program,
                                         void **out_session);
  void (*program_session_destroy)(void *self, void *session);
  tcc_status_t (*program_run)(void *self, void *session,
                              const void *const *inputs, void *const *outputs,
                              uint64_t *step_ns);
} tcc_device_plugin_t;

/* The entry point: fills *out_plugin (zeroed by the caller) for a device
 * that the runtime, speaking `runtime_abi_version`, opens. */
typedef tcc_status_t (*tcc_device_plugin_entry_fn)(
    uint32_t runtime_abi_version, tcc_device_plugin_t *out_plugin);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCC_RUNTIME_TCC_DEVICE_PLUGIN_H */
