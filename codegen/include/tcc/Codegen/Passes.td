//===- Passes.td - Lowering passes of tcc's code generator -*- tablegen -*-===//

#ifndef TCC_CODEGEN_PASSES_TD
#define TCC_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def TccLowerToLinalg : Pass<"tcc-lower-to-linalg"> {
  let summary = "Lower tcc ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every tcc op of a kernel into upstream ops on tensors:
    elementwise ops become `linalg.generic` with broadcasting indexing maps,
    reductions `linalg.generic` with reduction iterators (float sums with
    `fastmath<reassoc>` so that LLVM vectorizes them), convolution and
    pooling generics over a padded copy of the input, data movement explicit
    index arithmetic, so that later bufferization yields loops and no
    library calls. ui8 tensors become i8 (unsigned arithmetic is chosen from
    the op's types); f16/bf16 compute in f32. Index-driven reads (gather,
    index_select, embedding) clamp out-of-range indices. Kernel arguments
    are marked read-only for bufferization, and a function never returns
    its own argument or one value twice (each result gets its own buffer).

    Before:
    ```mlir
    %0 = tcc.exp %x : tensor<4xf32>
    ```
    After:
    ```mlir
    %e = tensor.empty() : tensor<4xf32>
    %0 = linalg.generic {...} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %1 = math.exp %in : f32
      linalg.yield %1 : f32
    } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def TccFuseGenerics : Pass<"tcc-fuse-generics"> {
  let summary = "Fuse linalg generics into their consumers, recomputing cheap "
                "pointwise producers that have several";
  let description = [{
    MLIR's elementwise fusion (`linalg-fuse-elementwise-ops`: producer
    generics into consumer generics, reshapes by expansion, constant
    folding) with one change to when a producer fuses: besides a producer
    with a single use, a cheap pointwise producer whose every use is a
    generic fuses into each of them, so it is computed again in each loop
    instead of being written to a scratch tensor and read back. Cheap: all
    loops parallel, one result, at most 4 arith ops and no division except
    by a constant.

    What stays: a producer with math ops (exp, tanh, ...), which would be
    computed once per consumer at real cost; a producer with a use that is
    not a generic (a returned value), which must be written anyway.

    The encoder layer's softmax kernel (the attention scale x / 8 feeding
    the row max and the exponentials): the 256 KiB scratch tensor and one
    of its five passes over the scores go away.

    Before (the scale feeds two generics):
    ```mlir
    %s = linalg.generic ins(%x) outs(%e0) { divf %a, 8.0 }
    %m = linalg.generic ins(%s) outs(%max) { maximumf }   // reduction
    %p = linalg.generic ins(%s, %m) outs(%e1, %sum) { exp(%a - %m), addf }
    ```
    After:
    ```mlir
    %m = linalg.generic ins(%x) outs(%max) { divf %a, 8.0; maximumf }
    %p = linalg.generic ins(%x, %m) outs(%e1, %sum) { divf %a, 8.0; exp, addf }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def TccExpandMath : Pass<"tcc-expand-math"> {
  let summary = "Replace math ops by polynomial approximations and expansions";
  let description = [{
    Wraps MLIR's math approximation and expansion patterns (which mlir-opt 19
    exposes only as a test pass) so that compiled kernels vectorize and call
    no libm function: exp, log, log1p, tanh, erf, sin, cos become polynomial
    approximations; powf, roundeven, ceil, floor, fma expand to arith.

    Before: `%y = math.exp %x : f32`. After: a sequence of arith ops
    (range reduction, a polynomial, an exponent bit-cast).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect", "::mlir::x86vector::X86VectorDialect"
  ];
}

def TccCopyReturnedArguments : Pass<"tcc-copy-returned-arguments"> {
  let summary = "Give returned arguments and repeated results buffers of their own";
  let description = [{
    Bufferization turns kernel results into out-parameters, and MLIR 19's
    `buffer-results-to-out-params` dereferences the defining op of every
    returned buffer, so a kernel must never return one of its arguments nor
    one value twice. Each such result becomes a `linalg.copy` into a new
    tensor. The lowering does this too, but canonicalization after it can
    fold a kernel into its operand again (`maximum(x, x)` is `x`), so the
    kernel pipeline runs this pass right before bufferization.

    Before:
    ```mlir
    func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
    ```
    After:
    ```mlir
    func.func @k(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = tensor.empty() : tensor<4xf32>
      %1 = linalg.copy ins(%x : tensor<4xf32>) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
      return %1 : tensor<4xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TccPromoteAllocs : Pass<"tcc-promote-allocs", "::mlir::ModuleOp"> {
  let summary = "Turn buffers allocated inside kernels into scratch arguments";
  let description = [{
    Kernels never allocate: the memory plan owns every buffer. Each static
    `memref.alloc` in a public function becomes a new trailing argument (a
    scratch binding the planner places in the arena), and the function gets
    a `tcc.scratch_bytes` array attribute with each one's size. A dynamic
    allocation is an error.

    Before:
    ```mlir
    func.func @k(%in: memref<4xf32>, %out: memref<4xf32>) {
      %t = memref.alloc() : memref<4xf32>
      ...
    }
    ```
    After:
    ```mlir
    func.func @k(%in: memref<4xf32>, %out: memref<4xf32>, %t: memref<4xf32>)
        attributes {tcc.scratch_bytes = [16]} { ... }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TccCoalesceLoops : Pass<"tcc-coalesce-loops", "::mlir::ModuleOp"> {
  let summary = "Merge loop dims that every access walks contiguously";
  let description = [{
    A top-level `scf.parallel` whose consecutive induction variables i, j
    index consecutive dims d, d+1 of every memref access that uses them
    (with memref dim d+1 of j's extent, and no other use of either) walks
    those dims as one: they become one variable over the product of the
    extents, and each access reads a collapse_shape view of its memref. A
    pointwise kernel over [1, 672, 14, 14] then has one loop of 131712
    iterations that vectorizes, instead of rows of 14 that leave 512-bit
    vectors idle; a broadcast operand that no group variable indexes is
    read as before. In a function with several top-level loops the first
    variable is never merged: tcc-tile-kernels needs its extent to be the
    same in every loop.

    Before:
    ```mlir
    scf.parallel (%c, %h, %w) = (%c0, %c0, %c0) to (%c8, %c14, %c14) ... {
      %s = memref.load %scale[%c0, %c, %c0, %c0] : memref<1x8x1x1xf32>
      %x = memref.load %a[%c0, %c, %h, %w] : memref<1x8x14x14xf32>
      ...
    }
    ```
    After (%c stays: the scale reads it without %h, %w):
    ```mlir
    %av = memref.collapse_shape %a [[0], [1], [2, 3]]
    scf.parallel (%c, %hw) = (%c0, %c0) to (%c8, %c196) ... {
      %s = memref.load %scale[%c0, %c, %c0, %c0] : memref<1x8x1x1xf32>
      %x = memref.load %av[%c0, %c, %hw] : memref<1x8x196xf32>
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TccTileKernels : Pass<"tcc-tile-kernels", "::mlir::ModuleOp"> {
  let summary = "Give kernels a tile range the runtime's threads split";
  let description = [{
    Appends `tile_begin, tile_end : index` to every public function. When the
    function's top-level loops are `scf.parallel` with one common bound D
    of their first induction variable, and every buffer the function writes
    is indexed by that variable in one dim, the same in all its loads and
    stores (made directly or through one collapse_shape / expand_shape
    view), tiles are independent: the first variable's bounds become
    [tile_begin, tile_end) and the function gets `tcc.tiles = D`. The dim
    need not be dim 0: a batch-1 NHWC transpose tiles along H. Otherwise it
    runs whole (`tcc.tiles = 1`) and ignores the range.

    Before:
    ```mlir
    func.func @k(%a: memref<8x4xf32>, %o: memref<8x4xf32>) {
      scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {...}
    }
    ```
    After:
    ```mlir
    func.func @k(%a: memref<8x4xf32>, %o: memref<8x4xf32>, %b: index, %e: index)
        attributes {tcc.tiles = 8 : i64} {
      scf.parallel (%i, %j) = (%b, %c0) to (%e, %c4) step (%c1, %c1) {...}
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TccMapToGpu : Pass<"tcc-map-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Map kernels' parallel loops to GPU blocks and threads";
  let description = [{
    Prepares bufferized kernels (public functions of memref arguments whose
    work is top-level `scf.parallel` loops) for `convert-parallel-loops-to-gpu`:
     - top-level work outside a parallel loop (a full reduction's `scf.for`,
       a store) is wrapped in a one-iteration `scf.parallel`, so every
       piece of work becomes a launch and the host function only launches;
     - pure values a loop uses (constants, views of arguments) are cloned
       into it, so its launch captures only the function's arguments (bare
       pointers);
     - each top-level loop is collapsed to one dimension of N iterations and
       tiled by a block of min(N, 256) threads (a multiple of 32 above 32),
       the tile loop mapped to blocks (x) and the loop in it to threads (x);
       parallel loops nested deeper run sequentially in their thread;
     - except a row reduction (an `scf.for` nest over at least 32 reduced
       elements accumulating into one element per row, RowReductions.h):
       one block per row, of min(256, length rounded up to 32) threads
       striding over the row, their partial results combined by a uniform
       `gpu.all_reduce` and folded into the accumulator by thread 0;
     - before collapsing, a loop whose accesses of 32-bit elements walk the
       innermost dim (a multiple of 4), or do not depend on it, covers 4
       elements of that dim per iteration: `vector.load`/`vector.store` of `vector<4xT>` and four
       copies of the scalar body (VectorizeInnerDim.h).

    Before:
    ```mlir
    func.func @k(%a: memref<8x64xf32>, %o: memref<8x64xf32>) {
      scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {...}
    }
    ```
    After:
    ```mlir
    func.func @k(%a: memref<8x64xf32>, %o: memref<8x64xf32>) {
      scf.parallel (%b) = (%c0) to (%c512) step (%c256) {
        scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
          ... // guarded by %b + %t < 512
        } {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>]}
      } {mapping = [#gpu.loop_dim_map<processor = block_x, ...>]}
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def TccLowerGpuAllReduce : Pass<"tcc-lower-gpu-all-reduce",
                                 "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.all_reduce to warp shuffles and workgroup memory";
  let description = [{
    Applies MLIR's GPU rewrite patterns to the kernels of a `gpu.module`: a
    uniform `gpu.all_reduce` becomes a butterfly of `gpu.shuffle xor` within
    each warp, the warps' results exchanged through a buffer in workgroup
    (shared) memory attributed to the kernel, between `gpu.barrier`s; a
    shuffle of a 64-bit value becomes two 32-bit shuffles.

    Before:
    ```mlir
    %total = gpu.all_reduce add %partial uniform {} : (f32) -> f32
    ```
    After:
    ```mlir
    gpu.func @k(...) workgroup(%buffer : memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      %shuffled, %valid = gpu.shuffle xor %partial, %c1, %c32 : f32
      ...
      gpu.barrier
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def TccAlignVectorAccesses : Pass<"tcc-align-vector-accesses",
                                   "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give the kernels' vector loads and stores their alignment";
  let description = [{
    `convert-gpu-to-nvvm` gives an `llvm.load`/`llvm.store` of a vector its
    element's alignment, which makes LLVM's NVPTX backend split it into
    scalar accesses. tcc's GPU kernels access vectors only where
    tcc-map-to-gpu made them (VectorizeInnerDim.h), at offsets of a
    multiple of the vector's size in buffers aligned to at least 16 bytes:
    this pass gives each vector access of at most 16 bytes the vector's
    size as alignment, so that it stays one `ld.global.v4`/`st.global.v4`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TccUseNvptxIntrinsics : Pass<"tcc-use-nvptx-intrinsics"> {
  let summary = "Replace libdevice calls that have an LLVM intrinsic by it";
  let description = [{
    `convert-gpu-to-nvvm` lowers math that LLVM's NVPTX backend has
    instructions for (floor, ceil, fabs, sqrt, fma, rint, trunc, copysign,
    fmod) to calls of libdevice (`__nv_floorf`), which tcc does not link.
    This pass calls the LLVM intrinsic instead (the PTX instruction), and
    removes the declarations it no longer needs. A libdevice call without an
    intrinsic (`__nv_expf`: tcc-expand-math should have expanded it) stays,
    and the GPU compiler refuses it.

    Before:
    ```mlir
    %1 = llvm.call @__nv_floorf(%0) : (f32) -> f32
    ```
    After:
    ```mlir
    %1 = llvm.intr.floor(%0) : (f32) -> f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TCC_CODEGEN_PASSES_TD
