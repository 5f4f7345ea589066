//===- data.h - Datasets, transforms, samplers, loaders (tcc::data) -*- C++
//-*-//

#ifndef TCC_DATA_H
#define TCC_DATA_H

#include "tcc/tcc.h"

#include "tcc/Frontend/data/DataLoader.h"
#include "tcc/Frontend/data/Datasets.h"
#include "tcc/Frontend/data/Example.h"
#include "tcc/Frontend/data/MNIST.h"
#include "tcc/Frontend/data/Samplers.h"
#include "tcc/Frontend/data/Transforms.h"

#endif // TCC_DATA_H
