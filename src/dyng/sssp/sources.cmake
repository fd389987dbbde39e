# sssp sources
