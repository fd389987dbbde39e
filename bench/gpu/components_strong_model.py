# A host model of a GPU strong-components repair that keeps two breadth-first trees of the giant
# component's hub between batches (a design question; nothing on the GPU uses it yet):
#   F: what the hub reaches (parent and depth of each vertex in it), B: what reaches the hub.
# The giant component is F & B. After a batch, the vertices whose tree path lost an edge are
# cut off (a walk up the parents per vertex), then the trees grow back from the vertices left:
# a cut-off vertex with a kept in-neighbour, or the head of an inserted edge from a kept vertex,
# and onwards (the vertices reached that way, with every edge they read). The other changes:
#   - a deletion inside a smaller component reopens that component;
#   - an insertion between components outside the giant one can close a cycle only when
#     (v in F implies u in F) and (u in B implies v in B); then a search v ~> u that skips the
#     giant component's vertices (a cycle through one of them would put u and v in it).
# Per batch it prints the work (vertices and edges read) beside the graph's edges, and checks the
# giant component and the touched vertices against SciPy's components of the new graph.
#   PYTHONPATH=. python3 bench/gpu/components_strong_model.py [SCALE] [BATCHES] [CHANGES]
import sys
import time

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order, connected_components

from bench import generators

scale = int(sys.argv[1]) if len(sys.argv) > 1 else 20
num_batches = int(sys.argv[2]) if len(sys.argv) > 2 else 5
num_changes = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
SEARCH_EDGES = 4096  # bound of one insertion's search, as the weak end searches

g = generators.by_name(f"rmat{scale}", 1)
n = g.num_vertices
src, dst = g.src.astype(np.int64), g.dst.astype(np.int64)
rng = np.random.default_rng(7)


def matrices(s, d):
    a = csr_matrix((np.ones(len(s), bool), (s, d)), shape=(n, n))
    return a, a.T.tocsr()


def strong_labels(a):
    _, lab = connected_components(a, directed=True, connection="strong")
    mins = np.full(lab.max() + 1, n, np.int64)
    np.minimum.at(mins, lab, np.arange(n))
    return mins[lab]


def gather(m, verts):
    """(owner, neighbour) of every entry in the rows `verts` of CSR `m`."""
    starts, ends = m.indptr[verts], m.indptr[verts + 1]
    counts = ends - starts
    owner = np.repeat(verts, counts)
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    return owner, m.indices[np.repeat(starts, counts) + offsets].astype(np.int64)


def bfs_tree(m, root):
    _, pred = breadth_first_order(m, root, directed=True, return_predecessors=True)
    parent = np.where(pred >= 0, pred, -1).astype(np.int64)
    parent[root] = root
    return parent, depths(parent, root)


def depths(parent, root):
    inside = parent >= 0
    anc = np.where(inside, parent, np.arange(n))
    d = (inside & (np.arange(n) != root)).astype(np.int64)
    for _ in range(40):
        d = d + d[anc] * (anc != np.arange(n))
        nxt = anc[anc]
        if np.array_equal(nxt, anc):
            break
        anc = nxt
    return d


def cut_subtrees(parent, roots):
    """Vertices of the tree whose path to the root passes a vertex in `roots` (and the rounds)."""
    flag = np.zeros(n, bool)
    flag[roots] = True
    anc = np.where(parent >= 0, parent, np.arange(n))
    rounds = 0
    while True:
        rounds += 1
        flag |= flag[anc]
        nxt = anc[anc]
        if np.array_equal(nxt, anc):
            return flag & (parent >= 0), rounds
        anc = nxt


def repair_tree(parent, depth, lost_edges, ins, expand, against, work):
    """The tree after the batch: `lost_edges` (tail, head in the tree's direction) deleted,
    `ins` inserted; `expand` the rows it grows along, `against` the rows of in-neighbours."""
    tails, heads = lost_edges
    roots = heads[parent[heads] == tails]
    cut, rounds = cut_subtrees(parent, roots)
    work["pointer_rounds"] += rounds
    kept = (parent >= 0) & ~cut
    parent = np.where(kept, parent, -1)
    cut_ids = np.flatnonzero(cut)
    owner, nb = gather(against, cut_ids)
    work["edges"] += len(nb)
    work["cut"] += len(cut_ids)
    ok = kept[nb]
    frontier_parent = {}
    for o, z in zip(owner[ok].tolist(), nb[ok].tolist()):
        if o not in frontier_parent or depth[z] < depth[frontier_parent[o]]:
            frontier_parent[o] = z
    it, ih = ins
    for u, v in zip(it.tolist(), ih.tolist()):
        if kept[u] and not kept[v] and v not in frontier_parent:
            frontier_parent[v] = u
    frontier = np.array(sorted(frontier_parent), np.int64)
    for v in frontier.tolist():
        parent[v] = frontier_parent[v]
        depth[v] = depth[frontier_parent[v]] + 1
    kept[frontier] = True
    grown = len(frontier)
    while len(frontier):
        owner, nb = gather(expand, frontier)
        work["edges"] += len(nb)
        fresh = ~kept[nb]
        owner, nb = owner[fresh], nb[fresh]
        nb, first = np.unique(nb, return_index=True)
        parent[nb] = owner[first]
        depth[nb] = depth[owner[first]] + 1
        kept[nb] = True
        grown += len(nb)
        frontier = nb
    work["grown"] += grown
    return parent, depth


def unchanged(old, new):
    """Vertices whose component is the same set before and after."""
    pair = old * (n + 1) + new
    _, pi, pc = np.unique(pair, return_inverse=True, return_counts=True)
    _, oi, oc = np.unique(old, return_inverse=True, return_counts=True)
    _, ni, nc = np.unique(new, return_inverse=True, return_counts=True)
    return (pc[pi] == oc[oi]) & (pc[pi] == nc[ni])


def search(a, start, target, skip, bound):
    seen, stack, edges = {start}, [start], 0
    while stack:
        x = stack.pop()
        row = a.indices[a.indptr[x] : a.indptr[x + 1]]
        edges += len(row)
        if edges > bound:
            return "open", edges, seen
        for w in row.tolist():
            if w == target:
                return "closed a cycle", edges, seen
            if w not in seen and not skip[w]:
                seen.add(w)
                stack.append(w)
    return "no cycle", edges, seen


t0 = time.time()
a, at = matrices(src, dst)
labels = strong_labels(a)
sizes = np.bincount(labels, minlength=n)
giant_label = int(np.argmax(sizes))
degree = np.diff(a.indptr) + np.diff(at.indptr)
members = np.flatnonzero(labels == giant_label)
hub = int(members[np.argmax(degree[members])])
f_parent, f_depth = bfs_tree(a, hub)
b_parent, b_depth = bfs_tree(at, hub)
print(
    f"rmat{scale}: {n} vertices, {len(src)} edges; giant {sizes[giant_label]}, hub {hub} "
    f"(degree {degree[hub]}); trees depth {f_depth.max()}/{b_depth.max()}; "
    f"F {np.sum(f_parent >= 0)}, B {np.sum(b_parent >= 0)}; prepared in {time.time() - t0:.0f} s"
)

for batch in range(num_batches):
    gone = rng.choice(len(src), num_changes // 2, replace=False)
    del_s, del_d = src[gone], dst[gone]
    want = num_changes - num_changes // 2
    keys = set((src * n + dst).tolist())
    ins = set()
    while len(ins) < want:
        u, v = rng.integers(0, n, 2).tolist()
        if u != v and u * n + v not in keys:
            ins.add((u, v))
    ins_s = np.array([p[0] for p in sorted(ins)], np.int64)
    ins_d = np.array([p[1] for p in sorted(ins)], np.int64)
    keep = np.ones(len(src), bool)
    keep[gone] = False
    src, dst = np.concatenate([src[keep], ins_s]), np.concatenate([dst[keep], ins_d])
    a, at = matrices(src, dst)
    work = dict(edges=0, cut=0, grown=0, pointer_rounds=0)
    old_giant = (f_parent >= 0) & (b_parent >= 0)
    f_parent, f_depth = repair_tree(f_parent, f_depth, (del_s, del_d), (ins_s, ins_d), a, at, work)
    b_parent, b_depth = repair_tree(b_parent, b_depth, (del_d, del_s), (ins_d, ins_s), at, a, work)
    in_f, in_b = f_parent >= 0, b_parent >= 0
    giant = in_f & in_b
    touched = giant ^ old_giant
    reopened = old_giant & ~giant
    # deletions inside a smaller component reopen it
    for x, y in zip(del_s.tolist(), del_d.tolist()):
        if labels[x] == labels[y] and not old_giant[x]:
            touched |= labels == labels[x]
            work["edges"] += int(sizes[labels[x]])
    outcomes = {"skipped": 0, "no cycle": 0, "closed a cycle": 0, "open": 0}
    for u, v in zip(ins_s.tolist(), ins_d.tolist()):
        if labels[u] == labels[v] or (giant[u] and giant[v]):
            outcomes["skipped"] += 1
            continue
        if (in_f[v] and not in_f[u]) or (in_b[u] and not in_b[v]):
            outcomes["skipped"] += 1
            continue
        result, edges, seen = search(a, v, u, giant, SEARCH_EDGES)
        outcomes[result] += 1
        work["edges"] += edges
        if result != "no cycle":
            touched[list(seen)] = True
            touched[u] = True
    new_labels = strong_labels(a)
    true_giant = new_labels == new_labels[hub]
    # the giant component's vertices are decided by F & B (its label: their smallest id)
    changed = ~unchanged(labels, new_labels) & ~(giant | old_giant)
    missed = int(np.sum(changed & ~touched))
    print(
        f"batch {batch}: giant {'OK' if np.array_equal(true_giant, giant) else 'WRONG'}, "
        f"changed outside it {int(changed.sum())} (not touched: {missed}), reopened giant {int(reopened.sum())}; "
        f"trees: cut {work['cut']}, grown {work['grown']}, pointer rounds {work['pointer_rounds']}, "
        f"depth {f_depth[in_f].max()}/{b_depth[in_b].max()}; edges read {work['edges']} "
        f"({work['edges'] / len(src):.2%} of m); insertions {outcomes}"
    )
    labels = new_labels
    sizes = np.bincount(labels, minlength=n)
