//! What erosion and sediment did to the ground, stored on the lattice and read anywhere. The
//! worked ground is `share · natural + change`: a share of the natural field (all of it
//! where only sediment settled, a tenth where erosion remade the land) keeps its fine
//! detail between nodes, and the change, known at every node, is interpolated between them
//! so the one ground function (`PlanetHeight`) carries it.
//!
//! Interpolation is Franke and Little's modified Shepard with a linear term per node: each
//! node within `R` (1.6 node spacings) of the point offers its change plus its least-squares
//! gradient times the offset, weighted by `((R − d)₊ / (R·d))²`. It is exact at the nodes
//! (the drainage sees the heights it was given), continuous everywhere, and has no flat
//! spot at the nodes, so shading between them stays smooth.
//!
//! A query walks the neighbour graph out from the nearest node to find the nodes in its
//! support. Each thread keeps its last walk: the next query from the same node that finds
//! every node the walk met on the same side of the support's edge would walk the same way,
//! so it reads those nodes again without walking. Where nothing changed near a node (only
//! sediment worked the ground, and far from here), a query close to it finds only zeros in
//! its support and reads zero without walking.

use crate::ground::lattice::FibonacciLattice;
use crate::ground::topology::Topology;
use glam::DVec3;
use rayon::prelude::*;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Support radius of a node's weight, in mean node spacings.
const SUPPORT_SPACINGS: f64 = 1.6;

/// How far from a quiet node a query may stand and still read zero without walking, in mean
/// node spacings: beyond the farthest a point's nearest node can be.
const QUIET_SPACINGS: f64 = 1.0;

/// Nodes a query looks at, at most (the support holds about ten): one bit each of a `u64`.
const MAX_CANDIDATES: usize = 64;
const _: () = assert!(MAX_CANDIDATES <= u64::BITS as usize);

/// The next field's [`ErodedField::id`] (0 is no field's).
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Height changes (metres, worked minus `natural_share` times natural) at every node of a
/// lattice.
#[derive(Debug, Clone)]
pub struct ErodedField {
    lattice: Arc<FibonacciLattice>,
    natural_share: f64,
    /// The change and its gradient at every node, side by side: a query reads both.
    nodes: Vec<NodeChange>,
    /// Support radius on the unit sphere (chord length).
    support: f64,
    /// The largest squared chord whose square root is below `support`: a node is inside the
    /// support exactly when its squared chord is at most this.
    inside_squared: f64,
    /// Tells this field's walks from other fields' in a thread's [`LastWalk`] (a clone
    /// holds the same changes and keeps it).
    id: u64,
    /// Per node, whether no changed node (a change or a gradient not zero) stands within the
    /// support plus [`QUIET_SPACINGS`] of it; empty when every node changed.
    quiet: Vec<bool>,
    /// The squared chord within which a query from a quiet node reads zero.
    quiet_squared: f64,
}

/// A node's change and its gradient, in one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(align(32))]
struct NodeChange {
    /// Metres.
    delta_m: f64,
    /// Metres per unit of chord, in the plane tangent to the sphere at the node.
    gradient: DVec3,
}

impl ErodedField {
    /// The field of `delta_m` (one change per node of `lattice`, metres) over
    /// `natural_share` (0..=1) of the natural ground.
    ///
    /// # Panics
    /// If `delta_m.len() != lattice.len()`.
    pub fn new(lattice: Arc<FibonacciLattice>, natural_share: f64, delta_m: Vec<f64>) -> Self {
        assert_eq!(delta_m.len(), lattice.len(), "one change per node");
        let support = SUPPORT_SPACINGS * lattice.spacing();
        let nodes: Vec<NodeChange> = (0..lattice.len())
            .into_par_iter()
            .map(|i| NodeChange { delta_m: delta_m[i], gradient: tangent_gradient(&lattice, &delta_m, i) })
            .collect();
        let inside_squared = largest_square_below(support);
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let margin = QUIET_SPACINGS * lattice.spacing();
        let quiet = quiet_nodes(&lattice, &nodes, support + margin);
        ErodedField {
            lattice,
            natural_share,
            nodes,
            support,
            inside_squared,
            id,
            quiet,
            quiet_squared: margin * margin,
        }
    }

    /// The lattice the changes are stored on.
    pub(crate) fn lattice(&self) -> &FibonacciLattice {
        &self.lattice
    }

    /// Share of the natural ground the worked ground keeps, 0..=1.
    pub fn natural_share(&self) -> f64 {
        self.natural_share
    }

    /// The change at unit direction `p`, metres: exact at a node, interpolated between.
    pub fn at(&self, p: DVec3) -> f64 {
        self.at_from(p, self.lattice.nearest_node(p).index())
    }

    /// [`ErodedField::at`] with the lattice's nearest node to `p` already found (`start`).
    pub(crate) fn at_from(&self, p: DVec3, start: usize) -> f64 {
        // Every node in the support is within the support plus the margin of a quiet start,
        // so unchanged: the walk would weigh only zeros and read zero.
        if self.quiet.get(start).copied().unwrap_or(false)
            && (p - self.lattice.positions()[start]).length_squared() <= self.quiet_squared
        {
            return 0.0;
        }
        LAST_WALK.with_borrow_mut(|last| {
            if last.field == self.id && last.start == start {
                if let Some(change) = self.replay(last, p) {
                    return change;
                }
            }
            self.walk(p, start, last)
        })
    }

    /// The change at `p` from a walk out of node `start`, kept in `last` unless `p` stands
    /// on a node.
    fn walk(&self, p: DVec3, start: usize, last: &mut LastWalk) -> f64 {
        let lattice = &*self.lattice;
        let positions = lattice.positions();
        // Walk out from the nearest node over the neighbour graph through the nodes inside
        // the support: every node inside has a neighbour nearer to `p` (greedy routing on
        // the near-Delaunay graph), so the walk reaches them all.
        last.begin(start as u32);
        let mut inside = 0u64;
        let mut k = 0;
        while k < last.count {
            let i = last.nodes[k] as usize;
            let point = positions[i];
            last.points[k] = point;
            let squared = (point - p).length_squared();
            if squared <= self.inside_squared {
                if squared == 0.0 {
                    return self.nodes[i].delta_m;
                }
                inside |= 1 << k;
                for &j in lattice.neighbor_slice(i) {
                    last.meet(j);
                }
            }
            k += 1;
        }
        (last.field, last.start, last.inside) = (self.id, start, inside);
        self.weighted(p, last)
    }

    /// The change at `p` from `last`'s walk, if a walk to `p` from the same node would meet
    /// the same nodes in the same order (every node it met is on the same side of the
    /// support's edge) and `p` stands on none of them.
    fn replay(&self, last: &LastWalk, p: DVec3) -> Option<f64> {
        for (k, &point) in last.points[..last.count].iter().enumerate() {
            let squared = (point - p).length_squared();
            if squared == 0.0 || (squared <= self.inside_squared) != (last.inside >> k & 1 == 1) {
                return None;
            }
        }
        Some(self.weighted(p, last))
    }

    /// The weighted mean at `p` over the nodes inside the support in `walk`, in the order
    /// the walk met them; the start's change when none is inside.
    fn weighted(&self, p: DVec3, walk: &LastWalk) -> f64 {
        if walk.inside == 0 {
            return self.nodes[walk.start].delta_m;
        }
        let r = self.support;
        let (mut sum, mut weights) = (0.0, 0.0);
        let mut inside = walk.inside;
        while inside != 0 {
            let k = inside.trailing_zeros() as usize;
            inside &= inside - 1;
            let (node, point) = (&self.nodes[walk.nodes[k] as usize], walk.points[k]);
            let d = (point - p).length_squared().sqrt();
            let w = ((r - d) / (r * d)).powi(2);
            sum += w * (node.delta_m + node.gradient.dot(p - point));
            weights += w;
        }
        sum / weights
    }
}

/// Per node of `lattice`, whether no node whose change or gradient is not zero stands within
/// the chord `reach` of it (a little more, for rounding); empty when every node changed.
/// Only a change of +0 counts as none: it is what an untouched node holds, and a walk over
/// such nodes reads +0 whatever the signs of their gradients' zeros.
fn quiet_nodes(lattice: &FibonacciLattice, nodes: &[NodeChange], reach: f64) -> Vec<bool> {
    let changed: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].delta_m.to_bits() != 0 || nodes[i].gradient != DVec3::ZERO)
        .collect();
    if changed.len() == nodes.len() {
        return Vec::new();
    }
    let positions = lattice.positions();
    let reach_squared = (reach * (1.0 + 1e-9)).powi(2);
    let mut quiet = vec![true; nodes.len()];
    // Out from each changed node over the neighbour graph through the nodes within reach:
    // every node within reach has a neighbour nearer to the changed one (as for a query's
    // walk), so this meets them all.
    let mut met_from = vec![usize::MAX; nodes.len()];
    let mut stack = Vec::new();
    for &centre in &changed {
        met_from[centre] = centre;
        stack.push(centre);
        while let Some(i) = stack.pop() {
            quiet[i] = false;
            for &j in lattice.neighbor_slice(i) {
                let j = j as usize;
                if met_from[j] != centre
                    && (positions[j] - positions[centre]).length_squared() <= reach_squared
                {
                    met_from[j] = centre;
                    stack.push(j);
                }
            }
        }
    }
    quiet
}

/// The largest square whose root (as rounded) is below `r`, a positive finite number.
fn largest_square_below(r: f64) -> f64 {
    let mut t = r * r;
    while t.sqrt() >= r {
        t = t.next_down();
    }
    while t.next_up().sqrt() < r {
        t = t.next_up();
    }
    t
}

/// A thread's last walk over one field: the nodes it met in order, their positions, and
/// which of them were inside the support (bit `k` for the `k`th); and the set of the nodes
/// met, which lets the walk under way meet each node once.
struct LastWalk {
    /// The field's id; 0 for none (and while a walk is under way).
    field: u64,
    start: usize,
    count: usize,
    nodes: [u32; MAX_CANDIDATES],
    points: [DVec3; MAX_CANDIDATES],
    inside: u64,
    /// Open-addressed set of the nodes in `nodes`: each slot holds a walk's generation (high
    /// 32 bits) and a node; a slot of an earlier generation is empty.
    slots: [u64; WALK_SLOTS],
    /// The walk under way's generation, from 1 (0 marks the slots no walk has filled).
    generation: u32,
}

/// No walk: what a thread keeps before its first.
const NO_WALK: LastWalk = LastWalk {
    field: 0,
    start: 0,
    count: 0,
    nodes: [0; MAX_CANDIDATES],
    points: [DVec3::ZERO; MAX_CANDIDATES],
    inside: 0,
    slots: [0; WALK_SLOTS],
    generation: 0,
};

thread_local! {
    static LAST_WALK: RefCell<LastWalk> = const { RefCell::new(NO_WALK) };
}

/// Slots of a walk's set: a power of two, at least twice [`MAX_CANDIDATES`].
const WALK_SLOTS: usize = 2 * MAX_CANDIDATES;

impl LastWalk {
    /// Forgets the last walk and starts one at node `start`, which it has met.
    fn begin(&mut self, start: u32) {
        self.field = 0;
        self.count = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Slots from 2³² walks ago would read as met: empty them all once.
            self.slots = [0; WALK_SLOTS];
            self.generation = 1;
        }
        self.meet(start);
    }

    /// Meets `node`, unless this walk met it before or is full.
    fn meet(&mut self, node: u32) {
        if self.count == MAX_CANDIDATES {
            return;
        }
        let current = u64::from(self.generation) << 32;
        let entry = current | u64::from(node);
        // The node's low bits pick its first slot: the nodes near a point differ by sums of
        // a few Fibonacci numbers, which seldom agree there (the top bits of the node times
        // an odd constant did, for about a sixth of the nodes met).
        let mut slot = node as usize % WALK_SLOTS;
        let first = self.slots[slot];
        if (first < current) | (first == entry) {
            // The first slot decides, as it nearly always does with the set at most half
            // full: empty for a new node, the node itself for one met before. Written without
            // a jump, since which of the two it is cannot be foreseen.
            let new = first < current;
            self.slots[slot] = entry;
            self.nodes[self.count] = node;
            self.count += usize::from(new);
            return;
        }
        loop {
            slot = (slot + 1) % WALK_SLOTS;
            match self.slots[slot] {
                empty if empty < current => break,
                met if met == entry => return,
                _ => {}
            }
        }
        self.slots[slot] = entry;
        self.nodes[self.count] = node;
        self.count += 1;
    }

    /// The nodes this walk has met, in order.
    #[cfg(test)]
    fn met(&self) -> Vec<usize> {
        self.nodes[..self.count].iter().map(|&i| i as usize).collect()
    }
}

/// The least-squares gradient of `delta` at node `i` from its neighbours, in the plane
/// tangent to the sphere there (metres per unit of chord).
fn tangent_gradient(lattice: &FibonacciLattice, delta: &[f64], i: usize) -> DVec3 {
    let positions = lattice.positions();
    let x = positions[i];
    let e1 = x.any_orthonormal_vector();
    let e2 = x.cross(e1);
    let (mut a11, mut a12, mut a22, mut b1, mut b2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for j in lattice.neighbors(i) {
        let d = positions[j] - x;
        let (u, v) = (d.dot(e1), d.dot(e2));
        let dz = delta[j] - delta[i];
        a11 += u * u;
        a12 += u * v;
        a22 += v * v;
        b1 += u * dz;
        b2 += v * dz;
    }
    let det = a11 * a22 - a12 * a12;
    if det.abs() < f64::MIN_POSITIVE {
        return DVec3::ZERO;
    }
    e1 * ((a22 * b1 - a12 * b2) / det) + e2 * ((a11 * b2 - a12 * b1) / det)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rng::SplitMix64;
    use crate::math::sphere;

    /// A field of changes that differ from node to node, on a lattice of `nodes` points.
    fn rough_field(nodes: usize, seed: u64) -> ErodedField {
        let lattice = Arc::new(FibonacciLattice::new(nodes, 1000.0));
        let mut rng = SplitMix64::new(seed, 0);
        let delta = (0..lattice.len()).map(|_| rng.range(-40.0, 40.0)).collect();
        ErodedField::new(lattice, 0.1, delta)
    }

    fn random_direction(rng: &mut SplitMix64) -> DVec3 {
        sphere::unit(DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)))
    }

    /// The threshold is exact: its root is below the radius and the next square's is not.
    #[test]
    fn the_largest_square_below_a_radius_is_the_edge_of_its_roots() {
        let mut rng = SplitMix64::new(4, 0);
        for r in (0..10_000).map(|_| rng.range(1e-6, 1.0)).chain([0.1, 0.25, 1.0]) {
            let t = largest_square_below(r);
            assert!(t.sqrt() < r && t.next_up().sqrt() >= r, "radius {r}");
        }
    }

    /// A walk kept at one point and replayed at points around it with the same nearest node
    /// gives the bits a walk there gives, and declines exactly when the walk there meets
    /// other nodes or finds other ones inside the support.
    #[test]
    fn a_replayed_walk_gives_a_walks_bits_or_declines() {
        let field = rough_field(3000, 5);
        let lattice = &*field.lattice;
        let mut rng = SplitMix64::new(6, 0);
        let (mut kept, mut here) = (NO_WALK, NO_WALK);
        let (mut replayed, mut declined) = (0, 0);
        for _ in 0..300 {
            let p = random_direction(&mut rng);
            let start = lattice.nearest_node(p).index();
            field.walk(p, start, &mut kept);
            for _ in 0..40 {
                let q = sphere::unit(p + random_direction(&mut rng) * 0.2 * lattice.spacing());
                if lattice.nearest_node(q).index() != start {
                    continue;
                }
                let walked = field.walk(q, start, &mut here);
                let same = here.nodes[..here.count] == kept.nodes[..kept.count] && here.inside == kept.inside;
                match field.replay(&kept, q) {
                    Some(change) => {
                        assert!(same, "replayed a walk that meets other nodes at {q}");
                        assert_eq!(change.to_bits(), walked.to_bits(), "at {q}");
                        replayed += 1;
                    }
                    None => {
                        assert!(!same, "declined a walk that would go the same way at {q}");
                        declined += 1;
                    }
                }
            }
        }
        assert!(replayed > 1000 && declined > 100, "{replayed} replayed, {declined} declined");
    }

    /// Queries one after another along a path, alternating between two fields on lattices
    /// of different sizes, give the bits of a fresh walk each: a thread's kept walk serves
    /// only its own field.
    #[test]
    fn queries_along_a_path_give_a_fresh_walks_bits() {
        let fields = [rough_field(3000, 7), rough_field(2999, 8)];
        let (a, b) = (sphere::unit(DVec3::new(0.3, 0.8, -0.5)), sphere::unit(DVec3::new(-0.2, 0.7, -0.6)));
        let mut fresh = NO_WALK;
        for k in 0..=4000 {
            let p = sphere::unit(a + (b - a) * (k as f64 / 4000.0));
            for field in &fields {
                let start = field.lattice.nearest_node(p).index();
                let walked = field.walk(p, start, &mut fresh);
                assert_eq!(field.at(p).to_bits(), walked.to_bits(), "step {k}");
                assert_eq!(field.at(p).to_bits(), walked.to_bits(), "step {k}, replayed");
            }
        }
    }

    /// A field changed only in a patch (as sediment leaves one): quiet nodes have no changed
    /// node within reach (every node checked), a field changed everywhere has none, and
    /// queries anywhere, on nodes, near the patch and far from it, give a fresh walk's bits.
    #[test]
    fn quiet_nodes_read_a_walks_bits() {
        let lattice = Arc::new(FibonacciLattice::new(3000, 1000.0));
        let positions = lattice.positions();
        let patch = sphere::unit(DVec3::new(0.2, -0.4, 0.9));
        let mut rng = SplitMix64::new(9, 0);
        let delta: Vec<f64> = positions
            .iter()
            .map(|&x| if x.distance(patch) < 0.3 { rng.range(-5.0, 5.0) } else { 0.0 })
            .collect();
        let field = ErodedField::new(Arc::clone(&lattice), 1.0, delta);
        assert!(rough_field(3000, 5).quiet.is_empty(), "a field changed everywhere has no quiet node");
        let reach = field.support + QUIET_SPACINGS * lattice.spacing();
        let changed: Vec<DVec3> = (0..lattice.len())
            .filter(|&i| field.nodes[i].delta_m != 0.0 || field.nodes[i].gradient != DVec3::ZERO)
            .map(|i| positions[i])
            .collect();
        let quiet = field.quiet.iter().filter(|&&q| q).count();
        assert!(
            quiet > 1000 && quiet + changed.len() < lattice.len(),
            "{quiet} quiet, {} changed",
            changed.len()
        );
        for (i, &q) in field.quiet.iter().enumerate() {
            let near = changed.iter().any(|c| c.distance(positions[i]) <= reach);
            assert_eq!(q, !near, "node {i}");
        }
        let mut fresh = NO_WALK;
        let towards_patch =
            (0..4000).map(|k| sphere::unit(patch + DVec3::new(1.0, 0.3, -0.2) * (k as f64 / 2000.0)));
        let nodes = positions.iter().step_by(7).copied();
        let anywhere = (0..4000).map(|_| random_direction(&mut rng));
        for p in towards_patch.chain(nodes).chain(anywhere) {
            let start = lattice.nearest_node(p).index();
            let walked = field.walk(p, start, &mut fresh);
            assert_eq!(field.at(p).to_bits(), walked.to_bits(), "at {p}");
        }
    }

    /// Nodes whose first slot is taken by another probe on, and are still met once each.
    #[test]
    fn nodes_sharing_a_first_slot_are_each_met_once() {
        let slots = WALK_SLOTS as u32;
        let mut walk = NO_WALK;
        walk.begin(7);
        for node in [7 + slots, 7, 7 + 2 * slots, 7 + slots, 8, 7 + 2 * slots, 7 + 3 * slots] {
            walk.meet(node);
        }
        let slots = slots as usize;
        assert_eq!(walk.met(), vec![7, 7 + slots, 7 + 2 * slots, 8, 7 + 3 * slots]);
    }

    /// A new walk forgets the nodes the last one met, also when its generation wraps round
    /// past the slots of 2³² walks ago.
    #[test]
    fn a_new_walk_has_met_only_its_start() {
        let slots = WALK_SLOTS as u32;
        for generation in [0, 41, u32::MAX - 1, u32::MAX] {
            let mut walk = NO_WALK;
            walk.generation = generation;
            walk.begin(3);
            for node in [3 + slots, 4, 5] {
                walk.meet(node);
            }
            walk.begin(4);
            for node in [3 + slots, 4, 3, 5, 3 + slots] {
                walk.meet(node);
            }
            assert_eq!(walk.met(), vec![4, 3 + slots as usize, 3, 5], "from generation {generation}");
        }
        // Slots filled 2³² walks ago hold the generation the walk after the wrap would have.
        let mut walk = NO_WALK;
        walk.slots[9] = 1 << 32 | 9;
        walk.generation = u32::MAX;
        walk.begin(1);
        walk.meet(9);
        assert_eq!(walk.met(), vec![1, 9]);
    }

    /// Neighbours in the lattice differ by Fibonacci numbers: the walk still meets each node
    /// once, in the order pushed, and stops at [`MAX_CANDIDATES`].
    #[test]
    fn a_walk_meets_each_node_once_in_order_up_to_its_limit() {
        let fibonacci = [1u32, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987];
        let start = 50_000;
        let mut walk = NO_WALK;
        walk.begin(start);
        let mut expected = vec![start as usize];
        for round in 0..3 {
            for f in fibonacci {
                for node in [start + f * (round + 1), start - f * (round + 1), start + f] {
                    walk.meet(node);
                    if !expected.contains(&(node as usize)) && expected.len() < MAX_CANDIDATES {
                        expected.push(node as usize);
                    }
                }
            }
        }
        assert_eq!(walk.met(), expected);
        assert_eq!(walk.count, MAX_CANDIDATES, "the walk is full");
    }
}
