/*===- tcc_runtime.h - C API of the tcc runtime ----------------------------===*
 *
 * Loads a compiled model (`model.bin`, see runtime/schema/artifact.fbs) and
 * runs it. The style follows IREE's runtime API:
 *
 *  - Every call that can fail returns a tcc_status_t: NULL means success,
 *    anything else is an error object with a code and a message that the
 *    caller reads and then frees with tcc_status_free.
 *  - Results come back through `out_` parameters, written only on success.
 *  - Large memory (model copies, session arenas, output buffers) comes from
 *    an explicit tcc_allocator_t; tcc_allocator_system() is the default.
 *  - Models and sessions are reference counted (retain/release); a session
 *    retains its model.
 *  - Option structs are filled with defaults by *_options_initialize.
 *
 * Devices (tcc_device_t) run sessions: "cpu" is built in, other devices
 * are plugins opened with dlopen (see tcc_device_plugin.h), so this library
 * links no GPU library. A session runs synchronously (tcc_session_run) or
 * on its device's queue (tcc_session_run_async), which signals an event.
 * Loading a model opens the device named after each code module's kind
 * (tcc_device_open's search) to load its code and hold its device memory.
 *
 * Threading: a loaded model is immutable and may be shared by any number of
 * threads and sessions. A session is used by one thread at a time; run many
 * sessions of one model concurrently for parallel requests. Intra-op
 * parallelism comes from the tcc_parallel given in the session options.
 *===----------------------------------------------------------------------===*/

#ifndef TCC_RUNTIME_TCC_RUNTIME_H
#define TCC_RUNTIME_TCC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "tcc/runtime/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TCC_RUNTIME_API __attribute__((visibility("default")))
#else
#define TCC_RUNTIME_API
#endif

/*---------------------------------------------------------------------------
 * Status
 *-------------------------------------------------------------------------*/

typedef enum tcc_status_code_e {
  TCC_STATUS_OK = 0,
  TCC_STATUS_INVALID_ARGUMENT = 1,    /* an argument of the call is wrong */
  TCC_STATUS_NOT_FOUND = 2,           /* a file, name or symbol is missing */
  TCC_STATUS_OUT_OF_RANGE = 3,        /* an index is out of range */
  TCC_STATUS_FAILED_PRECONDITION = 4, /* e.g. an input is not bound, the
                                         host CPU lacks a required feature */
  TCC_STATUS_RESOURCE_EXHAUSTED = 5,  /* an allocation failed */
  TCC_STATUS_DATA_LOSS = 6,     /* a file is truncated, corrupt or malformed */
  TCC_STATUS_UNIMPLEMENTED = 7, /* valid but unsupported (format version) */
  TCC_STATUS_INTERNAL = 8,      /* a kernel reported an error */
  TCC_STATUS_IO_ERROR = 9,      /* reading or writing a file failed */
  TCC_STATUS_DEADLINE_EXCEEDED = 10, /* a wait's timeout passed first */
  /* Makes the enum hold any int32 value, so a value from a newer library
   * or a bad cast is defined behaviour in C++ (as Vulkan's *_MAX_ENUM). */
  TCC_STATUS_CODE_MAX_ENUM = 0x7FFFFFFF,
} tcc_status_code_t;

/* NULL is success; otherwise an error owned by the caller. */
typedef struct tcc_status_s *tcc_status_t;

/* A new error status; never returns NULL (falls back to a static
 * out-of-memory status when it cannot allocate). */
TCC_RUNTIME_API tcc_status_t tcc_status_make(tcc_status_code_t code,
                                             const char *message);
/* TCC_STATUS_OK for NULL. */
TCC_RUNTIME_API tcc_status_code_t tcc_status_code(tcc_status_t status);
/* "" for NULL; valid until the status is freed. */
TCC_RUNTIME_API const char *tcc_status_message(tcc_status_t status);
/* Frees an error status; NULL is a no-op. */
TCC_RUNTIME_API void tcc_status_free(tcc_status_t status);
/* "OK", "INVALID_ARGUMENT", ... */
TCC_RUNTIME_API const char *tcc_status_code_name(tcc_status_code_t code);

/*---------------------------------------------------------------------------
 * Allocator
 *-------------------------------------------------------------------------*/

typedef struct tcc_allocator_t {
  void *self; /* passed back to alloc/free */
  /* `size` bytes aligned to `alignment` (a power of two), or NULL. */
  void *(*alloc)(void *self, size_t size, size_t alignment);
  void (*free)(void *self, void *ptr);
} tcc_allocator_t;

/* The C library's aligned allocation; blocks of 4 MiB or more start on a
 * 2 MiB boundary with transparent huge pages requested (Linux; set
 * TCC_HUGE_PAGES=0 to not request them). */
TCC_RUNTIME_API tcc_allocator_t tcc_allocator_system(void);

/*---------------------------------------------------------------------------
 * Element types (values equal tcc.artifact.DType of the schema)
 *-------------------------------------------------------------------------*/

typedef enum tcc_dtype_e {
  TCC_DTYPE_F32 = 0,
  TCC_DTYPE_F64 = 1,
  TCC_DTYPE_F16 = 2,
  TCC_DTYPE_BF16 = 3,
  TCC_DTYPE_I64 = 4,
  TCC_DTYPE_I32 = 5,
  TCC_DTYPE_I8 = 6,
  TCC_DTYPE_U8 = 7,
  TCC_DTYPE_BOOL = 8,
  TCC_DTYPE_MAX_ENUM = 0x7FFFFFFF, /* see TCC_STATUS_CODE_MAX_ENUM */
} tcc_dtype_t;

#define TCC_DTYPE_COUNT 9

/* Bytes per element; 0 for an unknown value. */
TCC_RUNTIME_API size_t tcc_dtype_size(tcc_dtype_t dtype);
/* "f32", "f64", "f16", "bf16", "i64", "i32", "i8", "u8", "bool"; "?" for an
 * unknown value. */
TCC_RUNTIME_API const char *tcc_dtype_name(tcc_dtype_t dtype);

/*---------------------------------------------------------------------------
 * Thread pools (intra-op parallelism)
 *-------------------------------------------------------------------------*/

typedef struct tcc_thread_pool_s tcc_thread_pool_t;

/* The most threads a pool may have. */
#define TCC_MAX_THREADS 1024

/* A pool that runs work on `num_threads` threads, the calling thread
 * included (num_threads - 1 workers), 1 <= num_threads <= TCC_MAX_THREADS.
 * Many sessions may share one pool. When the system cannot start that many
 * threads, returns TCC_STATUS_RESOURCE_EXHAUSTED with no thread left
 * running. */
TCC_RUNTIME_API tcc_status_t
tcc_thread_pool_create(int32_t num_threads, tcc_thread_pool_t **out_pool);
TCC_RUNTIME_API void tcc_thread_pool_retain(tcc_thread_pool_t *pool);
TCC_RUNTIME_API void tcc_thread_pool_release(tcc_thread_pool_t *pool);
/* The pool as the kernels' tcc_parallel; valid while the pool lives. */
TCC_RUNTIME_API const tcc_parallel *
tcc_thread_pool_parallel(tcc_thread_pool_t *pool);

/*---------------------------------------------------------------------------
 * Models
 *-------------------------------------------------------------------------*/

typedef struct tcc_model_s tcc_model_t;

/* Map the code from an unlinked temporary file instead of a memfd (the
 * loader falls back to this by itself where executable memfds are
 * forbidden). */
#define TCC_MODEL_LOAD_FLAG_CODE_FROM_TEMP_FILE 0x1u
/* tcc_model_load_file: use the file's weights in place from a read-only
 * mapping (shared with other processes, paged in on demand) instead of
 * reading them into memory from the allocator, where large models get
 * huge pages and so run faster (docs/performance.md, "Measurements behind
 * choices in the code"). */
#define TCC_MODEL_LOAD_FLAG_MAP_FILE 0x2u

/* Bytes of an Ed25519 public key (libsodium's crypto_sign_PUBLICKEYBYTES). */
#define TCC_PUBLIC_KEY_SIZE 32

typedef struct tcc_model_load_options_t {
  uint32_t flags; /* TCC_MODEL_LOAD_FLAG_* */
  tcc_allocator_t allocator;
  /* NULL, or TCC_PUBLIC_KEY_SIZE bytes: load only artifacts signed by this
   * Ed25519 key (FAILED_PRECONDITION for unsigned, other-key or tampered
   * ones), checked before anything else in the header is used. libsodium
   * (libsodium.so.23) is opened then; without it the load fails NOT_FOUND.
   * The bytes are read during the load call only. */
  const uint8_t *public_key;
} tcc_model_load_options_t;

TCC_RUNTIME_API void
tcc_model_load_options_initialize(tcc_model_load_options_t *out_options);

/* Reads the file into memory from the options' allocator (or maps it, with
 * TCC_MODEL_LOAD_FLAG_MAP_FILE) and verifies all of it (structure, sizes,
 * CPU features, hashes, a device for each code module's kind) before
 * mapping its code. `options` may be NULL. */
TCC_RUNTIME_API tcc_status_t
tcc_model_load_file(const char *path, const tcc_model_load_options_t *options,
                    tcc_model_t **out_model);

/* Same from memory; the bytes are copied, so the caller may free them when
 * the call returns. */
TCC_RUNTIME_API tcc_status_t tcc_model_load_memory(
    const void *data, size_t size, const tcc_model_load_options_t *options,
    tcc_model_t **out_model);

TCC_RUNTIME_API void tcc_model_retain(tcc_model_t *model);
TCC_RUNTIME_API void tcc_model_release(tcc_model_t *model);

/* A named input or output. Pointers stay valid while the model lives. */
typedef struct tcc_tensor_info_t {
  const char *name;
  tcc_dtype_t dtype;
  size_t rank;
  const int64_t *shape; /* rank dimensions */
  size_t byte_size;     /* product(shape) * tcc_dtype_size(dtype) */
} tcc_tensor_info_t;

TCC_RUNTIME_API size_t tcc_model_input_count(const tcc_model_t *model);
TCC_RUNTIME_API size_t tcc_model_output_count(const tcc_model_t *model);
TCC_RUNTIME_API tcc_status_t tcc_model_input_info(const tcc_model_t *model,
                                                  size_t index,
                                                  tcc_tensor_info_t *out_info);
TCC_RUNTIME_API tcc_status_t tcc_model_output_info(const tcc_model_t *model,
                                                   size_t index,
                                                   tcc_tensor_info_t *out_info);
/* TCC_STATUS_NOT_FOUND when no input/output has that name. */
TCC_RUNTIME_API tcc_status_t tcc_model_find_input(const tcc_model_t *model,
                                                  const char *name,
                                                  size_t *out_index);
TCC_RUNTIME_API tcc_status_t tcc_model_find_output(const tcc_model_t *model,
                                                   const char *name,
                                                   size_t *out_index);

/*---------------------------------------------------------------------------
 * Sessions
 *-------------------------------------------------------------------------*/

/*---------------------------------------------------------------------------
 * Devices and buffers
 *-------------------------------------------------------------------------*/

typedef struct tcc_device_s tcc_device_t;

/* Opens the device `name`: "cpu" is built in; any other name is a plugin,
 * libtcc_device_<name>.so, looked up in the directories of the
 * colon-separated TCC_DEVICE_PATH and then in the directory of
 * libtcc_runtime.so. TCC_STATUS_NOT_FOUND names the directories searched
 * when there is no such plugin; TCC_STATUS_UNIMPLEMENTED when the plugin
 * was built for another plugin ABI version. */
TCC_RUNTIME_API tcc_status_t tcc_device_open(const char *name,
                                             tcc_device_t **out_device);
TCC_RUNTIME_API void tcc_device_retain(tcc_device_t *device);
TCC_RUNTIME_API void tcc_device_release(tcc_device_t *device);
/* "cpu", "cuda", ...; "" for NULL. Valid while the device lives. */
TCC_RUNTIME_API const char *tcc_device_name(const tcc_device_t *device);

typedef enum tcc_memory_kind_e {
  TCC_MEMORY_HOST = 0,   /* host memory the device can use */
  TCC_MEMORY_DEVICE = 1, /* the device's own memory (host memory on "cpu") */
  TCC_MEMORY_KIND_MAX_ENUM = 0x7FFFFFFF, /* see TCC_STATUS_CODE_MAX_ENUM */
} tcc_memory_kind_t;

/* Memory of a device, reference counted; it retains its device. */
typedef struct tcc_buffer_s tcc_buffer_t;

/* `byte_size` bytes (64-byte aligned) of `kind` memory of `device`. */
TCC_RUNTIME_API tcc_status_t tcc_device_buffer_allocate(
    tcc_device_t *device, tcc_memory_kind_t kind, size_t byte_size,
    tcc_buffer_t **out_buffer);
TCC_RUNTIME_API void tcc_buffer_retain(tcc_buffer_t *buffer);
TCC_RUNTIME_API void tcc_buffer_release(tcc_buffer_t *buffer);
TCC_RUNTIME_API size_t tcc_buffer_byte_size(const tcc_buffer_t *buffer);
/* The host address of a host-visible buffer (every buffer of "cpu"), valid
 * while the buffer lives; TCC_STATUS_FAILED_PRECONDITION for memory the
 * host cannot address. */
TCC_RUNTIME_API tcc_status_t tcc_buffer_map(tcc_buffer_t *buffer,
                                            void **out_host_data);

/*---------------------------------------------------------------------------
 * Sessions
 *-------------------------------------------------------------------------*/

typedef struct tcc_session_s tcc_session_t;

typedef struct tcc_session_options_t {
  /* Intra-op thread pool (e.g. tcc_thread_pool_parallel), or NULL to run on
   * the calling thread. Must outlive the session. Results are bitwise
   * identical for the same num_threads. */
  const tcc_parallel *parallel;
  tcc_allocator_t allocator; /* arena, workspace and output buffers */
  /* The device the session runs on (retained by the session), or NULL for
   * the built-in "cpu". Added after the first two fields, so callers that
   * fill the struct through tcc_session_options_initialize keep working. */
  tcc_device_t *device;
} tcc_session_options_t;

TCC_RUNTIME_API void
tcc_session_options_initialize(tcc_session_options_t *out_options);

/* Allocates the session's arena (64-byte aligned). `options` may be NULL. */
TCC_RUNTIME_API tcc_status_t
tcc_session_create(tcc_model_t *model, const tcc_session_options_t *options,
                   tcc_session_t **out_session);
TCC_RUNTIME_API void tcc_session_retain(tcc_session_t *session);
TCC_RUNTIME_API void tcc_session_release(tcc_session_t *session);

/* Binds the caller's memory to input `index`: exactly the input's
 * byte_size bytes, aligned to its element size. The session reads it during
 * every tcc_session_run until it is bound again; it is not copied. An
 * input with no elements (byte_size 0) may be bound to NULL. A bool input's
 * bytes must each be 0 or 1 (checked here, so not changed after). */
TCC_RUNTIME_API tcc_status_t tcc_session_bind_input(tcc_session_t *session,
                                                    size_t index,
                                                    const void *data,
                                                    size_t byte_size);
TCC_RUNTIME_API tcc_status_t
tcc_session_bind_input_by_name(tcc_session_t *session, const char *name,
                               const void *data, size_t byte_size);

/* Binds caller memory that runs write output `index` into (same size and
 * alignment rules as inputs). With data == NULL the session writes into a
 * buffer of its own again (the default). */
TCC_RUNTIME_API tcc_status_t tcc_session_bind_output(tcc_session_t *session,
                                                     size_t index, void *data,
                                                     size_t byte_size);
TCC_RUNTIME_API tcc_status_t tcc_session_bind_output_by_name(
    tcc_session_t *session, const char *name, void *data, size_t byte_size);

/* Bind a buffer of the session's device to input or output `index` (same
 * size rules as above: the buffer's byte size is the tensor's). The session
 * retains the buffer until it is bound again or the session is released.
 * The buffer must be host-visible: format 3 keeps inputs and outputs in
 * host memory. */
TCC_RUNTIME_API tcc_status_t tcc_session_bind_input_buffer(
    tcc_session_t *session, size_t index, tcc_buffer_t *buffer);
TCC_RUNTIME_API tcc_status_t tcc_session_bind_output_buffer(
    tcc_session_t *session, size_t index, tcc_buffer_t *buffer);

/* Runs the execution plan once. Every input must be bound. */
TCC_RUNTIME_API tcc_status_t tcc_session_run(tcc_session_t *session);

/* A completion event, reference counted. */
typedef struct tcc_event_s tcc_event_t;

#define TCC_TIMEOUT_INFINITE UINT64_MAX

/* Queues one run of the plan on the session's device and returns at once
 * with an event that signals when the run ends. Runs submitted while others
 * are in flight are queued and run in submission order. Until the event of
 * the last submitted run has signalled, the session's bindings, outputs,
 * profiling and tracing must not be touched: tcc_session_run, the bind
 * calls, tcc_session_output and the profiling and tracing calls return
 * TCC_STATUS_FAILED_PRECONDITION then. Releasing the session or the event
 * early is allowed: a queued run holds its own references and still runs.
 * The bindings are read when the run starts, so bound memory must stay
 * valid until the event signals. */
TCC_RUNTIME_API tcc_status_t tcc_session_run_async(tcc_session_t *session,
                                                   tcc_event_t **out_event);
/* Waits until the event signals or `timeout_ns` nanoseconds pass
 * (TCC_TIMEOUT_INFINITE: no limit; 0: just look). Returns the run's status
 * (NULL: it succeeded; each call returns a new copy), or
 * TCC_STATUS_DEADLINE_EXCEEDED when the timeout passed first. Any number of
 * threads may wait on one event. */
TCC_RUNTIME_API tcc_status_t tcc_event_wait(tcc_event_t *event,
                                            uint64_t timeout_ns);
TCC_RUNTIME_API void tcc_event_retain(tcc_event_t *event);
TCC_RUNTIME_API void tcc_event_release(tcc_event_t *event);

/* Step profiling. Enabling (enabled != 0) clears the totals; while it is
 * on, every run adds each plan step's wall time to them (two clock reads
 * per step). */
TCC_RUNTIME_API tcc_status_t tcc_session_set_profiling(tcc_session_t *session,
                                                       int enabled);

/* The totals since profiling was last enabled: out_nanoseconds[i] for plan
 * step i < min(capacity, steps) (may be NULL when capacity is 0), the
 * plan's step count in *out_steps and the profiled runs in *out_runs
 * (either may be NULL). Steps are in the order of the artifact's plan (as
 * `tcc inspect` lists them). */
TCC_RUNTIME_API tcc_status_t tcc_session_step_times(tcc_session_t *session,
                                                    uint64_t *out_nanoseconds,
                                                    size_t capacity,
                                                    size_t *out_steps,
                                                    uint64_t *out_runs);

/* Step tracing. Enabling (enabled != 0) forgets what was recorded and
 * restarts the trace's clock; while it is on, every run records each plan
 * step's start, duration and the thread that ran it (the two clock reads
 * of profiling, shared with it, and an append per step). Off, a run pays
 * nothing for it. Disabling keeps the recording for the calls below. */
TCC_RUNTIME_API tcc_status_t tcc_session_set_tracing(tcc_session_t *session,
                                                     int enabled);

/* The recording as a Chrome/Perfetto trace (Trace Event Format JSON): one
 * "X" (complete) event per plan step per traced run, in run order, with
 * "ts" and "dur" in microseconds since tracing was enabled, "tid" the
 * thread that ran the step (a step split over the session's pool shows as
 * one event on the thread that ran the plan) and "args": the step's index,
 * kind, one-line summary, source ops, "flops" and "bytes" where known (as
 * `tcc inspect` describes it) and the run's index. Writes the first
 * min(capacity, size) bytes to out_json (no terminating NUL; may be NULL
 * when capacity is 0) and the whole size to *out_size. */
TCC_RUNTIME_API tcc_status_t tcc_session_trace_json(tcc_session_t *session,
                                                    char *out_json,
                                                    size_t capacity,
                                                    size_t *out_size);

/* The same trace written to the file `path`, whole or not at all: a failed
 * write (TCC_STATUS_IO_ERROR, naming the path) leaves the old file. */
TCC_RUNTIME_API tcc_status_t tcc_session_write_trace(tcc_session_t *session,
                                                     const char *path);

/* Where output `index` is: the caller's bound buffer or the session's own
 * (valid until the session is released; overwritten by the next run). */
TCC_RUNTIME_API tcc_status_t tcc_session_output(tcc_session_t *session,
                                                size_t index,
                                                const void **out_data,
                                                size_t *out_byte_size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TCC_RUNTIME_TCC_RUNTIME_H */
