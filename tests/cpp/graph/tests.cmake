# graph tests
