//===- optim.h - Optimizers and schedulers (tcc::optim) ---------*- C++ -*-===//

#ifndef TCC_OPTIM_H
#define TCC_OPTIM_H

#include "tcc/tcc.h"

#include "tcc/Frontend/optim/Adam.h"
#include "tcc/Frontend/optim/Optimizer.h"
#include "tcc/Frontend/optim/RMSprop.h"
#include "tcc/Frontend/optim/SGD.h"
#include "tcc/Frontend/optim/Schedulers.h"

#endif // TCC_OPTIM_H
