# sssp tests
