"""GraphProperties and BatchSemantics (spec sections 2 and 3)."""

from __future__ import annotations

import dataclasses
import math

from dyng._errors import InvalidArgumentError, NotSupportedError

__all__ = ["BatchSemantics", "GraphProperties"]

_EXISTING = ("upsert", "error", "ignore")
_MISSING = ("ignore", "error")
_SELF_LOOP = ("keep", "drop", "error")
_ORDERS = ("sorted", "append")
_PARALLEL = ("forbid", "allow")
_LAYOUTS_PLANNED = ("slotted", "slack")
_SEMANTICS_NAMES = ("upsert_last_wins", "set")
_PRESETS = ("default", "mosp_compatible", "cycle_enum_compatible")


def _choice(owner, field, value, allowed):
    if not isinstance(value, str) or value not in allowed:
        raise InvalidArgumentError(
            f"{owner}(): {field}={value!r} is not valid; use one of "
            + ", ".join(repr(a) for a in allowed)
        )


def _flag(owner, field, value):
    if not isinstance(value, bool):
        raise InvalidArgumentError(
            f"{owner}(): {field}={value!r} is not a bool; pass True or False"
        )


@dataclasses.dataclass
class BatchSemantics:
    """How [`dyng.Graph.apply`][] resolves a batch against the current edges.

    Defaults are [`upsert_last_wins`][dyng.BatchSemantics.upsert_last_wins]. String fields take
    the names listed per field; a graph keeps its semantics in
    [`GraphProperties.semantics`][dyng.GraphProperties].

    Attributes
    ----------
    on_existing_insert : {"upsert", "error", "ignore"}
        Inserting an edge that exists: overwrite its weights, raise, or ignore the insertion.
    on_missing_delete : {"ignore", "error"}
        Deleting an absent edge.
    on_self_loop : {"keep", "drop", "error"}
        Inserting (v, v).
    deletions_first : bool
        Apply the batch's deletions before its insertions.
    allow_vertex_growth : bool
        An id >= num_vertices grows the vertex set (otherwise InvalidArgumentError).
    as_sets : bool
        Treat each list as a set: repeated insertions keep the first weight; a deleted and
        re-inserted edge counts as one cancelled pair.

    Examples
    --------
    >>> import dyng
    >>> dyng.BatchSemantics.set().on_existing_insert
    'ignore'
    >>> dyng.BatchSemantics(on_missing_delete="error").on_missing_delete
    'error'
    """

    on_existing_insert: str = "upsert"
    on_missing_delete: str = "ignore"
    on_self_loop: str = "keep"
    deletions_first: bool = True
    allow_vertex_growth: bool = True
    as_sets: bool = False

    def __post_init__(self):
        self.validate()

    def validate(self) -> None:
        """Checks every field; raises InvalidArgumentError naming the first one with a bad value.

        The constructor calls it; call it again after changing a field.

        Raises
        ------
        InvalidArgumentError
            For a name outside a field's choices, or a flag that is not a bool.

        Examples
        --------
        >>> import dyng
        >>> semantics = dyng.BatchSemantics()
        >>> semantics.on_self_loop = "skip"
        >>> try:
        ...     semantics.validate()
        ... except dyng.InvalidArgumentError as error:
        ...     print(error)
        BatchSemantics(): on_self_loop='skip' is not valid; use one of 'keep', 'drop', 'error'
        """
        owner = "BatchSemantics"
        _choice(owner, "on_existing_insert", self.on_existing_insert, _EXISTING)
        _choice(owner, "on_missing_delete", self.on_missing_delete, _MISSING)
        _choice(owner, "on_self_loop", self.on_self_loop, _SELF_LOOP)
        _flag(owner, "deletions_first", self.deletions_first)
        _flag(owner, "allow_vertex_growth", self.allow_vertex_growth)
        _flag(owner, "as_sets", self.as_sets)

    @classmethod
    def upsert_last_wins(cls):
        """Deletions first; inserting an existing edge overwrites it; the last weight wins.

        Returns
        -------
        BatchSemantics
            ``BatchSemantics()``: the defaults.

        Examples
        --------
        >>> import dyng
        >>> dyng.BatchSemantics.upsert_last_wins() == dyng.BatchSemantics()
        True
        """
        return cls()

    @classmethod
    def set(cls):
        """Set semantics: existing insertions ignored, missing deletions ignored, loops dropped.

        Each list of a batch is read as a set (``as_sets``); vertex growth is allowed.

        Returns
        -------
        BatchSemantics
            ``BatchSemantics("ignore", "ignore", "drop", True, True, True)``.

        Examples
        --------
        >>> import dyng
        >>> dyng.BatchSemantics.set().as_sets
        True
        """
        return cls("ignore", "ignore", "drop", True, True, True)

    @classmethod
    def coerce(cls, value, owner="BatchSemantics"):
        """A fresh BatchSemantics from None, a name ("upsert_last_wins", "set") or an instance.

        Parameters
        ----------
        value : None, str or BatchSemantics
            None or "upsert_last_wins" for the defaults, "set" for
            [`set`][dyng.BatchSemantics.set], or an instance to copy (after checking it).
        owner : str, optional
            The function an error message names.

        Returns
        -------
        BatchSemantics
            A new object: changing it leaves `value` as it was.

        Raises
        ------
        InvalidArgumentError
            For another name or type, or an instance with a bad field.

        Examples
        --------
        >>> import dyng
        >>> dyng.BatchSemantics.coerce("set") == dyng.BatchSemantics.set()
        True
        >>> original = dyng.BatchSemantics()
        >>> dyng.BatchSemantics.coerce(original) is original
        False
        """
        if value is None or value == "upsert_last_wins":
            return cls.upsert_last_wins()
        if value == "set":
            return cls.set()
        if isinstance(value, cls):
            value.validate()
            return dataclasses.replace(value)
        raise InvalidArgumentError(
            f"{owner}(): semantics={value!r} is not valid; use 'upsert_last_wins', 'set' or a "
            f"dyng.BatchSemantics"
        )


@dataclasses.dataclass
class GraphProperties:
    """Storage choices of a graph (spec section 2).

    Attributes
    ----------
    directed : bool
        False stores every edge in both directions.
    store_transposed : bool
        Also keep in-edges (the traversals' repairs read them: an algorithm's compute says
        when it needs them).
    num_weights : int
        Weights per edge (K); taken from the input when a graph is built.
    layout : str
        Only "compact" is implemented; "slotted" and "slack" raise NotSupportedError.
    headroom : float
        Spare slots kept per row as a fraction of its degree, so small batches edit in place.
    order : {"sorted", "append"}
        Neighbours kept sorted, or in insertion order.
    parallel_edges : {"forbid", "allow"}
        Whether repeated (u, v) pairs are kept.
    semantics : BatchSemantics
        How batches are resolved ("upsert_last_wins" and "set" are accepted as names).

    Examples
    --------
    >>> import dyng
    >>> p = dyng.GraphProperties.preset("mosp_compatible")
    >>> (p.order, p.parallel_edges)
    ('append', 'allow')
    >>> dyng.GraphProperties(semantics="set").semantics.as_sets
    True
    """

    directed: bool = True
    store_transposed: bool = True
    num_weights: int = 1
    layout: str = "compact"
    headroom: float = 0.125
    order: str = "sorted"
    parallel_edges: str = "forbid"
    semantics: BatchSemantics = dataclasses.field(default_factory=BatchSemantics)

    def __post_init__(self):
        self.semantics = BatchSemantics.coerce(self.semantics, "GraphProperties")
        self.validate()

    def validate(self) -> None:
        """Checks every field (and the semantics); raises for the first bad one.

        The constructor calls it; call it again after changing a field.

        Raises
        ------
        InvalidArgumentError
            For a value outside a field's domain (``num_weights`` outside [0, 64], a negative
            ``headroom``, an unknown name...).
        NotSupportedError
            For a layout that is planned but not implemented ("slotted", "slack").

        Examples
        --------
        >>> import dyng
        >>> properties = dyng.GraphProperties()
        >>> properties.layout = "slack"
        >>> try:
        ...     properties.validate()
        ... except dyng.NotSupportedError as error:
        ...     print(error)
        GraphProperties(): layout='slack' is not implemented; use layout='compact'
        """
        check_properties(self, "GraphProperties")

    @classmethod
    def default(cls):
        """Sorted rows, no parallel edges, upsert_last_wins semantics.

        Returns
        -------
        GraphProperties
            ``GraphProperties()``: the defaults.

        Examples
        --------
        >>> import dyng
        >>> dyng.GraphProperties.default() == dyng.GraphProperties()
        True
        """
        return cls()

    @classmethod
    def mosp_compatible(cls):
        """Rows in insertion order with parallel edges allowed, as the MOSP tools expect.

        Returns
        -------
        GraphProperties
            ``GraphProperties(order="append", parallel_edges="allow")``.

        Examples
        --------
        >>> import dyng
        >>> dyng.GraphProperties.mosp_compatible().order
        'append'
        """
        return cls(order="append", parallel_edges="allow")

    @classmethod
    def cycle_enum_compatible(cls):
        """Sorted rows, no parallel edges, set semantics, unweighted.

        Returns
        -------
        GraphProperties
            ``GraphProperties(num_weights=0, semantics=BatchSemantics.set())``.

        Examples
        --------
        >>> import dyng
        >>> dyng.GraphProperties.cycle_enum_compatible().num_weights
        0
        """
        return cls(num_weights=0, semantics=BatchSemantics.set())

    @classmethod
    def preset(cls, name):
        """The preset called `name`: "default", "mosp_compatible" or "cycle_enum_compatible".

        Parameters
        ----------
        name : str
            The name of one of the classmethods above.

        Returns
        -------
        GraphProperties
            What that classmethod returns.

        Raises
        ------
        InvalidArgumentError
            For another name.

        Examples
        --------
        >>> import dyng
        >>> dyng.GraphProperties.preset("cycle_enum_compatible").semantics.as_sets
        True
        """
        if name not in _PRESETS:
            raise InvalidArgumentError(
                f"GraphProperties.preset(): unknown preset {name!r}; use one of "
                + ", ".join(repr(p) for p in _PRESETS)
            )
        return getattr(cls, name)()

    def _to_native(self, native_module, num_weights):
        self.validate()
        p = native_module.Properties()
        p.directed = self.directed
        p.store_transposed = self.store_transposed
        p.num_weights = num_weights
        p.headroom = float(self.headroom)
        p.order = self.order
        p.allow_parallel_edges = self.parallel_edges == "allow"
        s = self.semantics
        p.on_existing_insert = s.on_existing_insert
        p.on_missing_delete = s.on_missing_delete
        p.on_self_loop = s.on_self_loop
        p.deletions_first = s.deletions_first
        p.allow_vertex_growth = s.allow_vertex_growth
        p.as_sets = s.as_sets
        return p

    @classmethod
    def _from_native(cls, p):
        semantics = BatchSemantics(
            p.on_existing_insert,
            p.on_missing_delete,
            p.on_self_loop,
            p.deletions_first,
            p.allow_vertex_growth,
            p.as_sets,
        )
        return cls(
            directed=p.directed,
            store_transposed=p.store_transposed,
            num_weights=p.num_weights,
            headroom=p.headroom,
            order=p.order,
            parallel_edges="allow" if p.allow_parallel_edges else "forbid",
            semantics=semantics,
        )


def check_properties(props, owner, names=None):
    """Validates `props` in the words of the call that made them: `owner` is the public function
    and `names` maps a field to the argument that set it (Graph.from_edges takes multi_edges for
    parallel_edges), so a message names what the caller actually wrote."""
    names = names or {}

    def name(field):
        return names.get(field, field)

    _flag(owner, name("directed"), props.directed)
    _flag(owner, name("store_transposed"), props.store_transposed)
    k = props.num_weights
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 64:
        raise InvalidArgumentError(
            f"{owner}(): {name('num_weights')}={k!r} is not valid; use an int in [0, 64]"
        )
    if props.layout in _LAYOUTS_PLANNED:
        raise NotSupportedError(
            f"{owner}(): {name('layout')}={props.layout!r} is not implemented; use layout='compact'"
        )
    _choice(owner, name("layout"), props.layout, ("compact",))
    h = props.headroom
    if isinstance(h, bool) or not isinstance(h, (int, float)) or not math.isfinite(h) or h < 0:
        raise InvalidArgumentError(
            f"{owner}(): {name('headroom')}={h!r} is not valid; use a finite number >= 0"
        )
    _choice(owner, name("order"), props.order, _ORDERS)
    _choice(owner, name("parallel_edges"), props.parallel_edges, _PARALLEL)
    if not isinstance(props.semantics, BatchSemantics):
        props.semantics = BatchSemantics.coerce(props.semantics, owner)
    props.semantics.validate()
