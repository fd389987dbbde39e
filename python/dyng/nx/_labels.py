"""NetworkX node labels (any hashable) to dyng vertex ids and back.

dyng's vertices are 0..n-1. A label gets the next id the first time it is seen and keeps it, even
after its node is removed (its edges are gone, so no search reaches it again, and an id without
edges costs dyng no memory). Labels are kept in a NumPy object array as well, so that a result
of a million vertices turns back into labels with one fancy index instead of a Python loop.
"""

from __future__ import annotations

import numpy as np

__all__ = ["NodeIndex"]


class NodeIndex:
    """Labels <-> ids, growing as labels appear.

    Examples
    --------
    >>> from dyng.nx._labels import NodeIndex
    >>> index = NodeIndex(["a", (1, 2)])
    >>> index.id_for(3), index.id_of((1, 2)), index.id_of("zz")
    (2, 1, None)
    >>> index.labels_of([2, 0]).tolist()
    [3, 'a']
    """

    def __init__(self, labels=()):
        """`labels`: distinct labels (a graph's nodes), given ids 0, 1, ... in their order."""
        self._labels = list(labels)
        self._ids = {label: vertex for vertex, label in enumerate(self._labels)}
        self._array = np.empty(0, dtype=object)

    def __len__(self):
        return len(self._labels)

    def id_of(self, label):
        """The id of `label`, or None when it has none."""
        return self._ids.get(label)

    def id_for(self, label):
        """The id of `label`, given one if it has none yet."""
        vertex = self._ids.get(label)
        if vertex is None:
            vertex = self._ids[label] = len(self._labels)
            self._labels.append(label)
        return vertex

    def ids_for(self, labels):
        """ids of an iterable of labels, as a list."""
        ids = self._ids
        try:
            # Every label known: one C-level pass.
            return list(map(ids.__getitem__, labels))
        except KeyError:
            return [self.id_for(label) for label in labels]

    def label(self, vertex):
        return self._labels[vertex]

    def all_labels(self):
        """Every label, as a list indexed by id (do not change it)."""
        return self._labels

    def labels_of(self, ids):
        """Labels of an id array, as an object array."""
        if len(self._array) != len(self._labels):
            # fromiter keeps tuple labels whole; np.array would read them as rows.
            grown = np.fromiter(
                self._labels[len(self._array) :],
                dtype=object,
                count=len(self._labels) - len(self._array),
            )
            self._array = np.concatenate((self._array, grown))
        return self._array[ids]
