//===- Conv2dArgs.h - tcc_conv2d arguments of a Conv2d plan step -*- C++ -*-===//
//
// The shape half of tcc_conv2d_args (no pointers) for a plan step: what the
// validator checks sizes with and the session runs with.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_ARTIFACT_CONV2DARGS_H
#define TCC_RUNTIME_LIB_ARTIFACT_CONV2DARGS_H

#include "tcc/runtime/artifact_generated.h"
#include "tcc/runtime/kernels.h"

namespace tcc {
namespace runtime {
namespace detail {

inline tcc_conv2d_args conv2dArgs(const artifact::Conv2d &c) {
  tcc_conv2d_args args{};
  args.batch = c.batch();
  args.in_channels = c.in_channels();
  args.in_height = c.in_height();
  args.in_width = c.in_width();
  args.out_channels = c.out_channels();
  args.kernel_height = c.kernel_height();
  args.kernel_width = c.kernel_width();
  args.stride_h = c.stride_h();
  args.stride_w = c.stride_w();
  args.pad_h = c.pad_h();
  args.pad_w = c.pad_w();
  args.dilation_h = c.dilation_h();
  args.dilation_w = c.dilation_w();
  args.groups = c.groups();
  args.layout = c.nhwc() ? TCC_LAYOUT_NHWC : TCC_LAYOUT_NCHW;
  return args;
}

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_ARTIFACT_CONV2DARGS_H
