//===- ProcessGroupMPI.hpp - c10d::ProcessGroupMPI on tcc -------*- C++ -*-===//
//
// libtorch's MPI process group: createProcessGroupMPI() makes tcc's
// default group with the "mpi" backend (tcc::distributed), or returns it
// when it exists. Link the install's lib/libc10d.a (it names
// libtcc_distributed and what it needs) or tcc::distributed.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPAT_C10D_PROCESSGROUPMPI_HPP
#define TCC_COMPAT_C10D_PROCESSGROUPMPI_HPP

#include "c10d/ProcessGroup.hpp"

#include <vector>

namespace c10d {

class ProcessGroupMPI : public ProcessGroup {
public:
  using ProcessGroup::ProcessGroup;

  /// Sub-groups (`ranks` other than every rank) are not supported.
  static c10::intrusive_ptr<ProcessGroupMPI>
  createProcessGroupMPI(std::vector<int> ranks = {}) {
    auto group = tcc::distributed::is_initialized()
                     ? tcc::distributed::default_group_ptr()
                     : tcc::distributed::init_process_group("mpi");
    TCC_CHECK(ranks.empty() || int(ranks.size()) == group->size(),
              "createProcessGroupMPI: groups of some ranks are not "
              "supported by tcc; pass no ranks (every process)");
    TCC_CHECK(group->backend_name() == "mpi",
              "createProcessGroupMPI: the default process group uses the '",
              group->backend_name(), "' backend");
    return c10::make_intrusive<ProcessGroupMPI>(group);
  }

  /// Ends every process of the job (MPI_Abort).
  void abort() { group_->abort(1); }
  const std::string getBackendName() const override { return "mpi"; }
};

} // namespace c10d

#endif // TCC_COMPAT_C10D_PROCESSGROUPMPI_HPP
