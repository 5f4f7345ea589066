//===- distributed.h - Data-parallel training across processes --*- C++ -*-===//
//
// tcc::distributed (process groups and collectives, docs/distributed.md)
// and nn::parallel::DistributedDataParallel. Link tcc::distributed.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DISTRIBUTED_H
#define TCC_DISTRIBUTED_H

#include "tcc/Distributed/Backend.h"
#include "tcc/Distributed/Checkpoint.h"
#include "tcc/Distributed/DistributedDataParallel.h"
#include "tcc/Distributed/ProcessGroup.h"
#include "tcc/Distributed/Reducer.h"

#endif // TCC_DISTRIBUTED_H
