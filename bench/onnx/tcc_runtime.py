"""ctypes bindings to libtcc_runtime's C API (runtime/include/tcc/runtime/
tcc_runtime.h), enough to load an artifact and time runs from Python in the
same process as a peer (ONNX Runtime)."""
import ctypes
import numpy as np

_DTYPES = {0: np.float32, 1: np.float64, 2: np.float16, 4: np.int64,
           5: np.int32, 6: np.int8, 7: np.uint8, 8: np.bool_}


class _TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_size_t), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("byte_size", ctypes.c_size_t)]


class _SessionOptions(ctypes.Structure):
    # tcc_parallel pointer, tcc_allocator_t (opaque here: initialized by the
    # library), device pointer. The allocator is a struct of three pointers.
    _fields_ = [("parallel", ctypes.c_void_p), ("allocator", ctypes.c_void_p * 3),
                ("device", ctypes.c_void_p)]


class Runtime:
    def __init__(self, library_path):
        lib = self.lib = ctypes.CDLL(library_path)
        vp, sz = ctypes.c_void_p, ctypes.c_size_t
        lib.tcc_status_message.restype = ctypes.c_char_p
        lib.tcc_status_message.argtypes = [vp]
        lib.tcc_status_free.argtypes = [vp]
        lib.tcc_model_load_file.argtypes = [ctypes.c_char_p, vp, ctypes.POINTER(vp)]
        lib.tcc_model_load_file.restype = vp
        lib.tcc_model_release.argtypes = [vp]
        lib.tcc_model_input_count.argtypes = [vp]
        lib.tcc_model_input_count.restype = sz
        lib.tcc_model_output_count.argtypes = [vp]
        lib.tcc_model_output_count.restype = sz
        for f in (lib.tcc_model_input_info, lib.tcc_model_output_info):
            f.argtypes = [vp, sz, ctypes.POINTER(_TensorInfo)]
            f.restype = vp
        lib.tcc_thread_pool_create.argtypes = [ctypes.c_int32, ctypes.POINTER(vp)]
        lib.tcc_thread_pool_create.restype = vp
        lib.tcc_thread_pool_parallel.argtypes = [vp]
        lib.tcc_thread_pool_parallel.restype = vp
        lib.tcc_thread_pool_release.argtypes = [vp]
        lib.tcc_session_options_initialize.argtypes = [ctypes.POINTER(_SessionOptions)]
        lib.tcc_session_create.argtypes = [vp, ctypes.POINTER(_SessionOptions), ctypes.POINTER(vp)]
        lib.tcc_session_create.restype = vp
        lib.tcc_session_release.argtypes = [vp]
        lib.tcc_session_bind_input.argtypes = [vp, sz, vp, sz]
        lib.tcc_session_bind_input.restype = vp
        lib.tcc_session_run.argtypes = [vp]
        lib.tcc_session_run.restype = vp
        lib.tcc_session_output.argtypes = [vp, sz, ctypes.POINTER(vp), ctypes.POINTER(sz)]
        lib.tcc_session_output.restype = vp

    def check(self, status, what):
        if status:
            message = self.lib.tcc_status_message(status).decode()
            self.lib.tcc_status_free(status)
            raise RuntimeError(f"{what}: {message}")


class Model:
    """A loaded artifact with one session on a pool of `threads` threads."""

    def __init__(self, runtime, path, threads):
        self.rt, lib = runtime, runtime.lib
        self.model, self.pool, self.session = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
        runtime.check(lib.tcc_model_load_file(path.encode(), None, ctypes.byref(self.model)), f"loading {path}")
        runtime.check(lib.tcc_thread_pool_create(threads, ctypes.byref(self.pool)), "creating the pool")
        options = _SessionOptions()
        lib.tcc_session_options_initialize(ctypes.byref(options))
        options.parallel = lib.tcc_thread_pool_parallel(self.pool)
        runtime.check(lib.tcc_session_create(self.model, ctypes.byref(options), ctypes.byref(self.session)),
                      "creating the session")
        self.outputs = []
        for i in range(lib.tcc_model_output_count(self.model)):
            info = _TensorInfo()
            runtime.check(lib.tcc_model_output_info(self.model, i, ctypes.byref(info)), "output info")
            self.outputs.append((_DTYPES[info.dtype], tuple(info.shape[k] for k in range(info.rank))))
        self._bound = []

    def bind(self, arrays):
        self._bound = [np.ascontiguousarray(a) for a in arrays]
        for i, a in enumerate(self._bound):
            self.rt.check(self.rt.lib.tcc_session_bind_input(self.session, i, a.ctypes.data, a.nbytes),
                          f"binding input {i}")

    def run(self):
        self.rt.check(self.rt.lib.tcc_session_run(self.session), "running")

    def output(self, i):
        data, size = ctypes.c_void_p(), ctypes.c_size_t()
        self.rt.check(self.rt.lib.tcc_session_output(self.session, i, ctypes.byref(data), ctypes.byref(size)),
                      "reading an output")
        dtype, shape = self.outputs[i]
        buf = (ctypes.c_char * size.value).from_address(data.value)
        return np.frombuffer(buf, dtype=dtype).reshape(shape).copy()

    def close(self):
        lib = self.rt.lib
        lib.tcc_session_release(self.session)
        lib.tcc_thread_pool_release(self.pool)
        lib.tcc_model_release(self.model)
