//===- serialize.h - save/load, safetensors, checkpoints --------*- C++ -*-===//

#ifndef TCC_SERIALIZE_H
#define TCC_SERIALIZE_H

#include "tcc/Frontend/serialize/Archive.h"
#include "tcc/Frontend/serialize/Checkpoint.h"
#include "tcc/Frontend/serialize/Safetensors.h"
#include "tcc/Frontend/serialize/Serialize.h"

#endif // TCC_SERIALIZE_H
