# graph sources: owned by the graph area
