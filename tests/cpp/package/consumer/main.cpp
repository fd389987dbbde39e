// Builds a 3-vertex graph and solves sssp through the installed headers and library.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "dyng/graph/graph.hpp"
#include "dyng/sssp/sssp.hpp"

int main() {
  const std::vector<int32_t> src{0, 1}, dst{1, 2}, weights{3, 4};
  auto graph = dyng::graph_t<int32_t, int32_t>::from_edges(3, src, dst, weights, {});
  dyng::sssp::state_t<int32_t> state;
  dyng::sssp::compute(graph, int32_t{0}, {}, {}, state);
  std::printf("%lld\n", static_cast<long long>(state.distances[2]));
  return state.distances[2] == 7 ? 0 : 1;
}
