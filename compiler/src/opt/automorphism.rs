//! Automorphism groups of coloured graphs, by partition refinement and search (the method
//! of nauty, bliss and Traces, without their canonical labelling): the symmetry pass
//! encodes a game's structure as such a graph and asks for the permutations of its
//! element vertices that preserve it.
//!
//! A graph has coloured vertices and coloured, directed edges. [`Graph::automorphisms`]
//! refines the colouring until it is equitable (two vertices of one cell have, for each
//! edge colour, direction and cell, as many neighbours there), then searches: it
//! individualises a vertex of the first cell of more than one vertex, refines again, and
//! so on to a discrete colouring (a leaf). The first leaf found is the reference; every
//! other leaf whose map from it preserves the graph gives an automorphism. At each node of
//! the first path, the search tries the vertices of the cell individualised there that
//! the automorphisms found so far do not already map to one tried, so it finds generators
//! of the whole group; [`group`] closes them, up to a bound.

use std::collections::BTreeMap;

/// A permutation of a graph's vertices: `p[v]` is the image of `v`.
pub type Perm = Vec<u32>;

/// A vertex's signature in refinement: its cell, and its neighbours' (edge colour,
/// direction, cell).
type Signature = (u32, Vec<(u64, bool, u32)>);

/// A vertex- and edge-coloured directed graph.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    colours: Vec<u64>,
    /// Out-edges: `(target, colour)`.
    out: Vec<Vec<(u32, u64)>>,
    /// In-edges: `(source, colour)`.
    into: Vec<Vec<(u32, u64)>>,
}

/// How many leaves a search may visit before it gives up (the group it found so far is
/// then returned: a subgroup, which is still a group of automorphisms).
const LEAF_LIMIT: usize = 20_000;

/// How much refinement a search may do before it gives up, as the search stops at
/// [`LEAF_LIMIT`]: in vertices and edges visited, summed over every round of every
/// refinement. The examples' searches do at most about 10⁵; a graph of a thousand
/// vertices whose leaves each need several rounds reached the leaf limit only after
/// seconds, and this bound stops it in a fraction of one.
const WORK_LIMIT: usize = 10_000_000;

impl Graph {
    /// An empty graph.
    pub fn new() -> Graph {
        Graph::default()
    }

    /// Adds a vertex of colour `colour`; returns it.
    pub fn vertex(&mut self, colour: u64) -> u32 {
        self.colours.push(colour);
        self.out.push(Vec::new());
        self.into.push(Vec::new());
        (self.colours.len() - 1) as u32
    }

    /// Adds an edge from `a` to `b` of colour `colour`.
    pub fn edge(&mut self, a: u32, b: u32, colour: u64) {
        self.out[a as usize].push((b, colour));
        self.into[b as usize].push((a, colour));
    }

    /// How many vertices it has.
    pub fn len(&self) -> usize {
        self.colours.len()
    }

    /// Whether it has no vertex.
    pub fn is_empty(&self) -> bool {
        self.colours.is_empty()
    }

    /// Whether `p` maps the graph onto itself.
    pub fn preserves(&self, p: &[u32]) -> bool {
        let n = self.len();
        if p.len() != n {
            return false;
        }
        for v in 0..n {
            if self.colours[v] != self.colours[p[v] as usize] {
                return false;
            }
            let mut mine: Vec<(u32, u64)> = self.out[v]
                .iter()
                .map(|&(w, c)| (p[w as usize], c))
                .collect();
            let mut theirs = self.out[p[v] as usize].clone();
            mine.sort_unstable();
            theirs.sort_unstable();
            if mine != theirs {
                return false;
            }
        }
        true
    }

    /// The coarsest equitable refinement of `cells` (an ordered partition: each vertex's
    /// cell index), splitting cells in an order that depends only on the graph's structure,
    /// so that isomorphic inputs give isomorphic outputs.
    ///
    /// Returns the work done: vertices and edges visited, summed over its rounds.
    fn refine(&self, cells: &mut [u32]) -> usize {
        let round = self.len() + self.out.iter().map(Vec::len).sum::<usize>() * 2;
        let mut work = 0;
        loop {
            work += round;
            let count = *cells.iter().max().map_or(&0, |c| c) as usize + 1;
            // Each vertex's signature: its cell, then its neighbours' (colour, direction,
            // cell) counts.
            let signatures: Vec<Signature> = (0..self.len())
                .map(|v| {
                    let mut sig: Vec<(u64, bool, u32)> = Vec::new();
                    for &(w, c) in &self.out[v] {
                        sig.push((c, true, cells[w as usize]));
                    }
                    for &(w, c) in &self.into[v] {
                        sig.push((c, false, cells[w as usize]));
                    }
                    sig.sort_unstable();
                    (cells[v], sig)
                })
                .collect();
            // New cells ordered by (old cell, signature): an order of the structure alone.
            let mut order: Vec<usize> = (0..signatures.len()).collect();
            order.sort_unstable_by(|&a, &b| signatures[a].cmp(&signatures[b]));
            let mut renumbered = vec![0u32; signatures.len()];
            let mut cell = 0u32;
            for (k, &v) in order.iter().enumerate() {
                if k > 0 && signatures[order[k - 1]] != signatures[v] {
                    cell += 1;
                }
                renumbered[v] = cell;
            }
            if cell as usize + 1 == count {
                return work;
            }
            cells.copy_from_slice(&renumbered);
        }
    }

    /// The initial ordered partition: by colour.
    fn colouring(&self) -> Vec<u32> {
        let mut distinct = self.colours.clone();
        distinct.sort_unstable();
        distinct.dedup();
        self.colours
            .iter()
            .map(|c| distinct.binary_search(c).unwrap_or(0) as u32)
            .collect()
    }

    /// `cells` with `v` individualised: put in a cell of its own, before the rest of its
    /// cell.
    fn individualise(cells: &[u32], v: u32) -> Vec<u32> {
        let target = cells[v as usize];
        cells
            .iter()
            .enumerate()
            .map(|(w, &c)| match c {
                c if c < target => 2 * c,
                c if c > target => 2 * c + 1,
                _ if w == v as usize => 2 * c,
                _ => 2 * c + 1,
            })
            .collect()
    }

    /// The first cell of more than one vertex, and its vertices.
    fn target(cells: &[u32]) -> Option<Vec<u32>> {
        let mut members: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for (v, &c) in cells.iter().enumerate() {
            members.entry(c).or_default().push(v as u32);
        }
        members.into_values().find(|m| m.len() > 1)
    }

    /// Generators of the automorphism group (the identity left out), as permutations of
    /// all vertices; `complete` is false when the search stopped at its leaf or work limit
    /// (the generators then generate a subgroup).
    pub fn automorphisms(&self) -> (Vec<Perm>, bool) {
        if let Some(found) = self.automorphisms_by_twins() {
            return found;
        }
        self.search()
    }

    /// [`Graph::automorphisms`] by the search alone.
    pub fn search(&self) -> (Vec<Perm>, bool) {
        let mut root = self.colouring();
        let work = self.refine(&mut root);
        let mut search = Search {
            graph: self,
            reference: None,
            generators: Vec::new(),
            leaves: 0,
            work,
        };
        search.first_path(&root);
        let complete = !search.spent();
        (search.generators, complete)
    }
}

impl Graph {
    /// Classes of *twins*: vertices of one colour with the same out- and in-neighbours
    /// (by colour), none of them a neighbour of another, each class of more than one
    /// vertex, ascending. Any permutation of a class is an automorphism.
    fn twin_classes(&self) -> Vec<Vec<u32>> {
        type Key = (u64, Vec<(u32, u64)>, Vec<(u32, u64)>);
        let key = |v: usize| -> Key {
            let mut out = self.out[v].clone();
            let mut into = self.into[v].clone();
            out.sort_unstable();
            into.sort_unstable();
            (self.colours[v], out, into)
        };
        let mut classes: BTreeMap<Key, Vec<u32>> = BTreeMap::new();
        for v in 0..self.len() {
            classes.entry(key(v)).or_default().push(v as u32);
        }
        (classes.into_iter())
            .filter(|(_, class)| class.len() > 1)
            // Twins joined to one another (a class with edges inside it) are left to the
            // search: outside such edges, a class's members are interchangeable.
            .filter(|((_, out, into), class)| {
                !(out.iter().chain(into)).any(|(w, _)| class.binary_search(w).is_ok())
            })
            .map(|(_, class)| class)
            .collect()
    }

    /// The automorphisms found through twins, where the graph has some: every twin but
    /// the first of its class removed, that one coloured with its class's size, the
    /// smaller graph's automorphisms lifted (a class onto a class of the same size, member
    /// by member) and each swap of two twins added. `None` where there are no twins, or
    /// where a lifted map fails to preserve the graph (then the search does it all).
    fn automorphisms_by_twins(&self) -> Option<(Vec<Perm>, bool)> {
        let classes = self.twin_classes();
        if classes.is_empty() {
            return None;
        }
        let n = self.len();
        // Each vertex's class (its own, alone, if it has no twin).
        let mut members: Vec<Vec<u32>> = (0..n as u32).map(|v| vec![v]).collect();
        let mut kept = vec![true; n];
        for class in &classes {
            members[class[0] as usize] = class.clone();
            for &v in &class[1..] {
                kept[v as usize] = false;
                members[v as usize].clear();
            }
        }
        // The smaller graph: the kept vertices, renumbered in order.
        let old: Vec<u32> = (0..n as u32).filter(|&v| kept[v as usize]).collect();
        let mut new = vec![u32::MAX; n];
        for (i, &v) in old.iter().enumerate() {
            new[v as usize] = i as u32;
        }
        // A class maps onto a class of its size: each kept vertex is coloured by its colour
        // and its class's size, numbered in order as `colouring` numbers colours.
        let key = |v: u32| (self.colours[v as usize], members[v as usize].len());
        let mut keys: Vec<(u64, usize)> = old.iter().map(|&v| key(v)).collect();
        keys.sort_unstable();
        keys.dedup();
        let mut small = Graph::new();
        for &v in &old {
            small.vertex(keys.binary_search(&key(v)).unwrap_or(0) as u64);
        }
        for &v in &old {
            for &(w, c) in &self.out[v as usize] {
                if kept[w as usize] {
                    small.edge(new[v as usize], new[w as usize], c);
                }
            }
        }
        let (generators, complete) = small.automorphisms();
        let mut lifted = Vec::with_capacity(generators.len() + n);
        for g in generators {
            let mut p: Perm = (0..n as u32).collect();
            for (i, &image) in g.iter().enumerate() {
                let (from, to) = (
                    &members[old[i] as usize],
                    &members[old[image as usize] as usize],
                );
                if from.len() != to.len() {
                    return None;
                }
                for (&a, &b) in from.iter().zip(to) {
                    p[a as usize] = b;
                }
            }
            if !self.preserves(&p) {
                return None;
            }
            lifted.push(p);
        }
        // Swaps of consecutive twins generate every permutation of a class.
        for class in &classes {
            for pair in class.windows(2) {
                let mut p: Perm = (0..n as u32).collect();
                p.swap(pair[0] as usize, pair[1] as usize);
                if !self.preserves(&p) {
                    return None;
                }
                lifted.push(p);
            }
        }
        Some((lifted, complete))
    }
}

struct Search<'g> {
    graph: &'g Graph,
    /// The first leaf: its vertex at each position.
    reference: Option<Vec<u32>>,
    generators: Vec<Perm>,
    leaves: usize,
    /// Refinement work done so far (see [`WORK_LIMIT`]).
    work: usize,
}

impl Search<'_> {
    /// Whether the search has reached its leaf or work limit.
    fn spent(&self) -> bool {
        self.leaves >= LEAF_LIMIT || self.work >= WORK_LIMIT
    }

    /// `cells` with `v` individualised, refined; the work counted.
    fn child(&mut self, cells: &[u32], v: u32) -> Vec<u32> {
        let mut c = Graph::individualise(cells, v);
        self.work += self.graph.refine(&mut c);
        c
    }

    /// The vertex at each position of a discrete partition.
    fn order(cells: &[u32]) -> Vec<u32> {
        let mut order = vec![0u32; cells.len()];
        for (v, &c) in cells.iter().enumerate() {
            order[c as usize] = v as u32;
        }
        order
    }

    /// Follows the first path (individualising the first vertex of each target cell) to
    /// the reference leaf; then, from the deepest node up, tries the other vertices of each
    /// target cell that no automorphism found so far maps to a vertex tried.
    fn first_path(&mut self, root: &[u32]) {
        let mut path: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
        let mut cells = root.to_vec();
        while let Some(target) = Graph::target(&cells) {
            let next = self.child(&cells, target[0]);
            path.push((cells, target));
            cells = next;
        }
        self.reference = Some(Self::order(&cells));
        self.leaves += 1;
        for (node, target) in path.iter().rev() {
            let first = target[0];
            let mut tried = vec![first];
            for &w in &target[1..] {
                if self.spent() {
                    return;
                }
                // Skip `w` when the generators found so far (which fix every vertex
                // individualised above this node) map some vertex tried to it.
                if self.same_orbit(&tried, w) {
                    continue;
                }
                let c = self.child(node, w);
                self.find(&c);
                tried.push(w);
            }
        }
    }

    /// Whether `w` lies in the orbit of `tried` under the generators found so far.
    fn same_orbit(&self, tried: &[u32], w: u32) -> bool {
        let mut seen = vec![false; self.graph.len()];
        let mut work: Vec<u32> = tried.to_vec();
        for &t in tried {
            seen[t as usize] = true;
        }
        while let Some(v) = work.pop() {
            if v == w {
                return true;
            }
            for g in &self.generators {
                let u = g[v as usize];
                if !seen[u as usize] {
                    seen[u as usize] = true;
                    work.push(u);
                }
            }
        }
        false
    }

    /// Searches below the node `cells` for a leaf equivalent to the reference; records the
    /// automorphism and returns true when one is found.
    fn find(&mut self, cells: &[u32]) -> bool {
        if self.spent() {
            return false;
        }
        match Graph::target(cells) {
            None => {
                self.leaves += 1;
                let order = Self::order(cells);
                let Some(reference) = &self.reference else {
                    return false;
                };
                let mut p = vec![0u32; cells.len()];
                for (i, &v) in reference.iter().enumerate() {
                    p[v as usize] = order[i];
                }
                if self.graph.preserves(&p) {
                    self.generators.push(p);
                    true
                } else {
                    false
                }
            }
            Some(target) => {
                for &v in &target {
                    let c = self.child(cells, v);
                    if self.find(&c) {
                        return true;
                    }
                }
                false
            }
        }
    }
}

/// The group generated by `generators` (permutations of `0..n`), the identity first, or
/// `None` when it has more than `limit` elements.
pub fn group(n: usize, generators: &[Perm], limit: usize) -> Option<Vec<Perm>> {
    let identity: Perm = (0..n as u32).collect();
    let mut elements = vec![identity.clone()];
    let mut seen: std::collections::HashSet<Perm> = std::collections::HashSet::new();
    seen.insert(identity);
    let mut next = 0;
    while next < elements.len() {
        let e = elements[next].clone();
        next += 1;
        for g in generators {
            let composed: Perm = e.iter().map(|&x| g[x as usize]).collect();
            if seen.insert(composed.clone()) {
                if elements.len() >= limit {
                    return None;
                }
                elements.push(composed);
            }
        }
    }
    Some(elements)
}
