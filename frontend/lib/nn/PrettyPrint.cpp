//===- PrettyPrint.cpp - How stateless modules print themselves ---------===//
//
// libtorch's spellings ("torch::nn::ReLU()"), so logs read the same.
//
//===----------------------------------------------------------------------===//

#include "tcc/Frontend/nn/modules/Activation.h"
#include "tcc/Frontend/nn/modules/Loss.h"
#include "tcc/Frontend/nn/modules/Pooling.h"

#include <ostream>

namespace tcc {
namespace nn {

void ReLUImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::ReLU(";
  if (options.inplace())
    s << "inplace=true";
  s << ")";
}
void LeakyReLUImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::LeakyReLU(negative_slope=" << options.negative_slope();
  if (options.inplace())
    s << ", inplace=true";
  s << ")";
}
void GELUImpl::pretty_print(std::ostream &s) const { s << "torch::nn::GELU()"; }
void SiLUImpl::pretty_print(std::ostream &s) const { s << "torch::nn::SiLU()"; }
void SigmoidImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::Sigmoid()";
}
void TanhImpl::pretty_print(std::ostream &s) const { s << "torch::nn::Tanh()"; }
void SoftmaxImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::Softmax(dim=" << options.dim() << ")";
}
void LogSoftmaxImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::LogSoftmax(dim=" << options.dim() << ")";
}

void MaxPool2dImpl::pretty_print(std::ostream &s) const {
  s << std::boolalpha
    << "torch::nn::MaxPool2d(kernel_size=" << options.kernel_size()
    << ", stride=" << options.stride() << ", padding=" << options.padding()
    << ", dilation=" << options.dilation()
    << ", ceil_mode=" << options.ceil_mode() << ")";
}
void AvgPool2dImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::AvgPool2d(kernel_size=" << options.kernel_size()
    << ", stride=" << options.stride() << ", padding=" << options.padding()
    << ")";
}
void AdaptiveAvgPool2dImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::AdaptiveAvgPool2d(output_size=" << options.output_size()
    << ")";
}

void MSELossImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::MSELoss()";
}
void L1LossImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::L1Loss()";
}
void SmoothL1LossImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::SmoothL1Loss()";
}
void BCELossImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::BCELoss()";
}
void BCEWithLogitsLossImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::BCEWithLogitsLoss()";
}
void NLLLossImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::NLLLoss()";
}
void CrossEntropyLossImpl::pretty_print(std::ostream &s) const {
  s << "torch::nn::CrossEntropyLoss()";
}

} // namespace nn
} // namespace tcc
