"""What to cite: ``dyng.citation`` and ``dyng.citation_keys``.

The bibliography is data (one record per work); BibTeX text is rendered from it. An algorithm's
own papers come from its registry record (``Algorithm.cite``), so a new algorithm brings its
citations with it; the other topics name work of the dyng project whose algorithms this release
does not ship yet, so that a script written for 0.2 still finds their keys.
"""

from __future__ import annotations

from dyng import _registry
from dyng._errors import InvalidArgumentError

__all__ = ["citation", "citation_keys"]

# key -> (entry type, fields in the order they are written)
_WORKS = {
    "dyng2027": (
        "software",
        (
            ("author", "Shovan, S. M."),
            ("title", "{dynG}: Dynamic Graph and Hypergraph Updates on {GPUs}"),
            ("year", "2026"),
            ("url", "https://github.com/dyng-dev/dyng"),
            ("license", "Apache-2.0"),
            ("note", "Missouri University of Science and Technology"),
        ),
    ),
    "dynamosp2025": (
        "inproceedings",
        (
            ("author", "Shovan, S. M. and Khanda, Arindam and Das, Sajal K."),
            (
                "title",
                "{DynaMOSP}: A Parallel Multi-Objective Shortest Path Update Algorithm for "
                "Fully Dynamic Networks",
            ),
            (
                "booktitle",
                "IEEE International Parallel and Distributed Processing Symposium (IPDPS)",
            ),
            ("year", "2025"),
        ),
    ),
    "dynamosptpds2025": (
        "article",
        (
            ("author", "Shovan, S. M. and Khanda, Arindam and Das, Sajal K."),
            (
                "title",
                "Parallel Multi-Objective Shortest Path Update Algorithm in Large Dynamic Networks",
            ),
            ("journal", "IEEE Transactions on Parallel and Distributed Systems"),
            ("volume", "36"),
            ("number", "5"),
            ("pages", "932--944"),
            ("year", "2025"),
        ),
    ),
    "trucy2026": (
        "unpublished",
        (
            ("author", "Khanda, Arindam and Shovan, S. M. and Satpathy, Anurag and Das, Sajal K."),
            (
                "title",
                "{TruCy}: {GPU}-Accelerated Cycle Enumeration for Large-Scale Static and "
                "Dynamic Networks",
            ),
            ("year", "2026"),
            ("note", "Manuscript submitted to IEEE Transactions on Computers"),
        ),
    ),
    "escher2026": (
        "inproceedings",
        (
            (
                "author",
                "Shovan, S. M. and Khanda, Arindam and Bhowmick, Sanjukta and Das, Sajal K.",
            ),
            (
                "title",
                "{ESCHER}: Efficient and Scalable Hypergraph Evolution Representation with "
                "Application to Triad Counting",
            ),
            (
                "booktitle",
                "2026 IEEE International Parallel and Distributed Processing Symposium (IPDPS)",
            ),
            ("year", "2026"),
        ),
    ),
    "escherplus2026": (
        "article",
        (
            ("author", "Shovan, S. M. and Khanda, Arindam and Das, Sajal K."),
            ("title", "{ESCHER+}: Memory-Efficient Dynamic Hypergraph Evolution on {GPU}"),
            ("journal", "IEEE Transactions on Knowledge and Data Engineering"),
            ("year", "2026"),
        ),
    ),
    "dynlp2026": (
        "inproceedings",
        (
            ("author", "Shovan, S. M. and Ferdous, S. M. and Khanda, Arindam and Das, Sajal K."),
            (
                "title",
                "{DynLP}: Parallel Dynamic Batch Update for Graph-based Label Propagation in "
                "Semi-Supervised Learning",
            ),
            ("booktitle", "ACM International Conference on Supercomputing (ICS)"),
            ("year", "2026"),
        ),
    ),
    "hsosp2026": (
        "inproceedings",
        (
            (
                "author",
                "Khanda, Arindam and Shovan, S. M. and Bhowmick, Sanjukta and Das, Sajal K.",
            ),
            ("title", "Parallel Shortest Hyperpath Update in Large Dynamic Hypergraphs"),
            (
                "booktitle",
                "Workshop on Irregular Applications: Architectures and Algorithms (IA3), "
                "SC26 Workshops",
            ),
            ("year", "2026"),
        ),
    ),
}

#: The library itself: cited by every topic, first.
_LIBRARY_KEY = "dyng2027"

#: Topics without an algorithm in this release (0.2 answers for them too).
_OTHER_TOPICS = {
    "triad_count": ("escher2026", "escherplus2026"),
    "hypergraph": ("escher2026", "escherplus2026"),
    "label_propagation": ("dynlp2026",),
    "hyper_sssp": ("hsosp2026",),
}


def _topics():
    """Topic -> the keys it adds to the library's, in the order 0.2 lists the known names:
    dyng, the algorithms that cite papers, then the other topics."""
    topics = {"dyng": ()}
    cited = [a for a in _registry.all_algorithms() if a.cite]
    topics.update((a.name, a.cite) for a in cited)
    topics.update(_OTHER_TOPICS)
    # Algorithms with no paper of their own (the tutorials) are accepted but not advertised.
    uncited = {a.name: () for a in _registry.all_algorithms() if not a.cite}
    return topics, uncited


def _keys(what, fn):
    if not isinstance(what, str):
        raise TypeError(f"{fn}(): what must be a str; got {type(what).__name__}")
    topics, uncited = _topics()
    if what in topics:
        added = topics[what]
    elif what in uncited:
        added = ()
    else:
        raise InvalidArgumentError(
            f"{fn}(): unknown name {what!r}; pass one of {', '.join(topics)}"
        )
    return [_LIBRARY_KEY] + [key for key in added if key != _LIBRARY_KEY]


def citation_keys(what="dyng"):
    """BibTeX keys to cite for `what`: the library, then the papers behind `what`.

    Parameters
    ----------
    what : str, optional
        ``"dyng"``, an algorithm name (``dyng.algorithms()``), or one of the project's other
        topics (``"triad_count"``, ``"hypergraph"``, ``"label_propagation"``, ``"hyper_sssp"``).

    Returns
    -------
    list of str
        The library's key first, then the keys of the papers `what` follows.

    Raises
    ------
    InvalidArgumentError
        For an unknown name; the message lists the known ones.
    TypeError
        When `what` is not a str.

    Examples
    --------
    >>> import dyng
    >>> dyng.citation_keys()
    ['dyng2027']
    >>> dyng.citation_keys("mosp")
    ['dyng2027', 'dynamosp2025', 'dynamosptpds2025']
    """
    return _keys(what, "citation_keys")


def _bibtex(key):
    kind, fields = _WORKS[key]
    width = max(len(name) for name, _ in fields)
    lines = [f"@{kind}{{{key},"]
    lines += [f"  {name:<{width}} = {{{value}}}," for name, value in fields]
    lines[-1] = lines[-1][:-1]
    lines.append("}")
    return "\n".join(lines)


def citation(what="dyng"):
    """BibTeX entries to cite for `what`, separated by blank lines.

    The entries are those of [`dyng.citation_keys`][], in its order.

    Parameters
    ----------
    what : str, optional
        ``"dyng"`` (the default: the library alone), an algorithm name (``dyng.algorithms()``)
        or one of the project's other topics (see [`dyng.citation_keys`][]).

    Returns
    -------
    str
        BibTeX text, ending with a newline.

    Raises
    ------
    InvalidArgumentError
        For an unknown name; the message lists the known ones.
    TypeError
        When `what` is not a str.

    Examples
    --------
    >>> import dyng
    >>> print(dyng.citation("cycle_count").splitlines()[0])
    @software{dyng2027,
    >>> dyng.citation("sssp").count("@")
    3
    """
    return "\n\n".join(_bibtex(key) for key in _keys(what, "citation")) + "\n"
