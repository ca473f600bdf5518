//! Distances across a whole planet from many sources at once (the sea, lakes, rivers), as
//! life reads them: walked along the lattice's edges on lattices up to [`WALKED_NODES`],
//! straight distances read from a cover of that many cells on finer ones.

use crate::drainage::walk::{cheapest_costs, cheapest_walks, on_front_of};
use crate::ground::lattice::FibonacciLattice;
use crate::ground::topology::Topology;
use crate::math::nearest::{NearestSources, Reads, Source};
use rayon::prelude::*;

/// The most lattice nodes whose distances are walked node by node. A finer lattice reads
/// them from this many cells instead: cells a thousandth of the radius wide (35 m on a 10 km
/// planet), a ninth of moisture's reach ([`MOISTURE_REACH`](crate::life::climate::MOISTURE_REACH)),
/// so the field keeps its shape at any finer size, for a pass over the nodes instead of a
/// walk through them.
pub const WALKED_NODES: usize = 1_000_000;

/// How much longer a walk along the lattice's edges is than the straight line, on the
/// whole: 1.06 to 1.15 by the spiral's direction at that latitude (measured over coasts at
/// three latitudes and over scattered sources, on 90,000 and 1,000,000 nodes; the test
/// below measures it again). Straight distances are stretched by it, so a field keeps its
/// size across [`WALKED_NODES`].
pub const WALK_PER_STRAIGHT: f64 = 1.1;

/// No source: what [`cheapest_sources_from`] names where none is within reach.
pub const NO_SOURCE: u32 = u32::MAX;

/// At each node of `lattice`, the cheapest `start[source] + distance to it` over the sources
/// (nodes with a finite `start`, metres), written over `start`: the walk along the edges
/// ([`cheapest_costs`]) up to [`WALKED_NODES`] nodes, beyond that the straight distance
/// stretched by [`WALK_PER_STRAIGHT`], exact near the cheapest source and at most a cell's
/// width dearer far from it; infinite where there is no source.
pub(crate) fn cheapest_from(lattice: &FibonacciLattice, start: Vec<f64>) -> Vec<f64> {
    if lattice.len() <= WALKED_NODES {
        return cheapest_costs(lattice, &start, f64::INFINITY);
    }
    straight_costs(lattice, start, WALKED_NODES)
}

/// [`cheapest_from`]'s straight distances, read from about `cells` cells.
fn straight_costs(lattice: &FibonacciLattice, start: Vec<f64>, cells: usize) -> Vec<f64> {
    let mut field = StraightField::new(lattice, Starts::Costs(start), f64::INFINITY, &|_| true, cells);
    // Each node's cost reads only its own start: written over it, into memory already in use.
    let mut costs = std::mem::replace(&mut field.start, Starts::Costs(Vec::new())).into_costs(lattice.len());
    costs.par_iter_mut().enumerate().for_each(|(i, cost)| *cost = field.at_from(i, *cost).0);
    costs
}

/// Where walks start from, and at what cost.
pub(crate) enum Starts<'r> {
    /// Each node's cost to start from, metres (infinite: not a source).
    Costs(Vec<f64>),
    /// Sources at no cost where the test holds, and no others: nothing held per node.
    Free(Box<dyn Fn(usize) -> bool + Sync + 'r>),
}

impl Starts<'_> {
    /// Node `i`'s cost to start from, metres (infinite: not a source).
    fn at(&self, i: usize) -> f64 {
        match self {
            Starts::Costs(costs) => costs[i],
            Starts::Free(is_source) if is_source(i) => 0.0,
            Starts::Free(_) => f64::INFINITY,
        }
    }

    /// Every node's cost to start from on a lattice of `n` nodes, metres.
    fn into_costs(self, n: usize) -> Vec<f64> {
        match self {
            Starts::Costs(costs) => costs,
            free => (0..n).into_par_iter().map(|i| free.at(i)).collect(),
        }
    }
}

/// [`cheapest_from`] up to `limit` metres (infinite beyond), with the source each node's
/// cheapest comes from ([`NO_SOURCE`] beyond `limit`; ties go to the lower source), to be
/// read at the nodes where `read` holds ([`Cheapest::at`]; infinite and [`NO_SOURCE`] at the
/// rest): walked ahead on lattices up to [`WALKED_NODES`], read from cells as they are asked
/// for on finer ones.
pub(crate) fn cheapest_sources_from<'r>(
    lattice: &'r FibonacciLattice,
    start: Starts<'r>,
    limit: f64,
    read: &'r (dyn Fn(usize) -> bool + Sync),
) -> Cheapest<'r> {
    if lattice.len() <= WALKED_NODES {
        let (cost, source) = cheapest_walks(lattice, &start.into_costs(lattice.len()), limit);
        let source = source.into_par_iter().map(|s| s.map_or(NO_SOURCE, |s| s as u32)).collect();
        return Cheapest { read, ahead: Ahead::Walked { cost, source } };
    }
    Cheapest {
        read,
        ahead: Ahead::Cells(Box::new(StraightField::new(lattice, start, limit, read, WALKED_NODES))),
    }
}

/// The cheapest costs from sources, and the source of each, node by node
/// ([`cheapest_sources_from`]).
pub(crate) struct Cheapest<'r> {
    read: &'r (dyn Fn(usize) -> bool + Sync),
    ahead: Ahead<'r>,
}

/// What [`Cheapest`] worked out ahead.
enum Ahead<'r> {
    /// Every node's cost (metres) and source, walked.
    Walked { cost: Vec<f64>, source: Vec<u32> },
    /// The cells to read them from.
    Cells(Box<StraightField<'r>>),
}

impl Cheapest<'_> {
    /// Node `i`'s cheapest cost (metres) and the source it comes from; infinite and
    /// [`NO_SOURCE`] where there is none within the limit or `i` is not read.
    pub(crate) fn at(&self, i: usize) -> (f64, u32) {
        if !(self.read)(i) {
            return (f64::INFINITY, NO_SOURCE);
        }
        match &self.ahead {
            Ahead::Walked { cost, source } => (cost[i], source[i]),
            Ahead::Cells(field) => field.at(i),
        }
    }
}

/// [`cheapest_sources_from`]'s straight distances on a lattice, on about `cells` cells.
struct StraightField<'r> {
    lattice: &'r FibonacciLattice,
    start: Starts<'r>,
    limit: f64,
    field: NearestSources,
    /// The node of each of the field's sources.
    nodes: Vec<u32>,
}

impl<'r> StraightField<'r> {
    fn new(
        lattice: &'r FibonacciLattice,
        start: Starts<'r>,
        limit: f64,
        read: &(dyn Fn(usize) -> bool + Sync),
        cells: usize,
    ) -> Self {
        let front = front(lattice, &start);
        let nodes: Vec<u32> = front.iter().map(|&(_, i)| i as u32).collect();
        let sources: Vec<Source> = front.into_iter().map(|(s, _)| s).collect();
        // No cost is below 0 and no two nodes share a place: a free source is its own
        // cheapest and is not read.
        let reads = Reads { n: lattice.len(), read: &|i| start.at(i) != 0.0 && read(i), limit };
        let field = NearestSources::for_reads(sources, cells, lattice.radius_m() * WALK_PER_STRAIGHT, &reads);
        StraightField { lattice, start, limit, field, nodes }
    }

    /// Node `i`'s cost (metres) and source.
    fn at(&self, i: usize) -> (f64, u32) {
        self.at_from(i, self.start.at(i))
    }

    /// Node `i`'s cost (metres) and source, `own` its start.
    fn at_from(&self, i: usize, own: f64) -> (f64, u32) {
        if own == 0.0 && self.limit >= 0.0 {
            return (0.0, i as u32);
        }
        let p = self.lattice.positions()[i];
        let near = self.field.at_fibonacci_within(i, self.lattice.len(), p, self.limit);
        let (c, k) = match near.map(|(c, k)| (c, self.nodes[k])) {
            Some((c, k)) if c < own || (c == own && (k as usize) < i) => (c, k),
            _ if own.is_finite() => (own, i as u32),
            _ => (f64::INFINITY, NO_SOURCE),
        };
        if c <= self.limit {
            (c, k)
        } else {
            (f64::INFINITY, NO_SOURCE)
        }
    }
}

/// The sources some other node may be cheapest from, with their nodes: those with a dearer
/// neighbour, in node order.
fn front(lattice: &FibonacciLattice, start: &Starts<'_>) -> Vec<(Source, usize)> {
    (0..lattice.len())
        .into_par_iter()
        .filter(|&i| on_front_of(lattice, |j| start.at(j), i))
        .map(|i| ((lattice.positions()[i], start.at(i)), i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rng::SplitMix64;
    use crate::testkit::FUZZ_SEED;

    #[test]
    fn coarse_lattices_walk_and_fine_ones_read_straight_distances_from_cells() {
        let lattice = FibonacciLattice::new(20_000, 1000.0);
        let mut rng = SplitMix64::new(FUZZ_SEED, 11);
        // A sea of free sources, a few dearer ones and dry land.
        let start: Vec<f64> = (0..lattice.len())
            .map(|i| match rng.next_f64() {
                _ if lattice.positions()[i].y > 0.6 => 0.0,
                r if r < 0.01 => rng.range(0.0, 50.0),
                _ => f64::INFINITY,
            })
            .collect();
        assert_eq!(cheapest_from(&lattice, start.clone()), cheapest_costs(&lattice, &start, f64::INFINITY));
        // Every fourth node is not read.
        let read = |i: usize| i % 4 != 1;
        let (walked, from) = cheapest_walks(&lattice, &start, 80.0);
        let (walked, from): (Vec<f64>, Vec<u32>) = walked
            .into_iter()
            .zip(from)
            .enumerate()
            .map(|(i, (c, s))| match s {
                Some(s) if read(i) => (c, s as u32),
                _ => (f64::INFINITY, NO_SOURCE),
            })
            .unzip();
        let cheapest = cheapest_sources_from(&lattice, Starts::Costs(start.clone()), 80.0, &read);
        let read_back: (Vec<f64>, Vec<u32>) = (0..lattice.len()).map(|i| cheapest.at(i)).unzip();
        assert_eq!(read_back, (walked, from));

        let cells = 5_000;
        let cell_m = (4.0 * std::f64::consts::PI / cells as f64).sqrt() * 1000.0 * WALK_PER_STRAIGHT;
        let costs = straight_costs(&lattice, start.clone(), cells);
        let straight = Cheapest {
            read: &read,
            ahead: Ahead::Cells(Box::new(StraightField::new(
                &lattice,
                Starts::Costs(start.clone()),
                80.0,
                &read,
                cells,
            ))),
        };
        let (near, from): (Vec<f64>, Vec<u32>) = (0..lattice.len()).map(|i| straight.at(i)).unzip();
        let walked = cheapest_costs(&lattice, &start, f64::INFINITY);
        for i in (0..lattice.len()).step_by(3) {
            let p = lattice.positions()[i];
            let (truth, _) = (0..lattice.len())
                .filter(|&j| start[j].is_finite())
                .map(|j| (start[j] + (lattice.positions()[j] - p).length() * (1000.0 * WALK_PER_STRAIGHT), j))
                .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
            assert!(
                costs[i] >= truth - 1e-9 && costs[i] <= truth + cell_m,
                "node {i}: {} for {truth}",
                costs[i]
            );
            assert!(costs[i] <= 1.2 * walked[i] + cell_m, "node {i}: near the walk");
            if costs[i] <= 80.0 && read(i) {
                assert_ne!(from[i], NO_SOURCE, "node {i} has a source");
                let k = from[i] as usize;
                let via = start[k] + (lattice.positions()[k] - p).length() * (1000.0 * WALK_PER_STRAIGHT);
                assert_eq!(
                    (near[i].to_bits(), via.to_bits()),
                    (costs[i].to_bits(), costs[i].to_bits()),
                    "node {i}"
                );
            } else {
                assert_eq!((near[i], from[i]), (f64::INFINITY, NO_SOURCE), "node {i}");
            }
        }
        assert!(costs.iter().zip(&start).any(|(c, s)| c.is_finite() && s.is_infinite()), "land is reached");
    }

    /// Free sources named by a test read the same straight field, bit for bit, as the same
    /// sources written out as costs of 0 and infinity.
    #[test]
    fn free_sources_read_as_their_costs_would() {
        let lattice = FibonacciLattice::new(20_000, 1000.0);
        let is_source = |i: usize| lattice.positions()[i].x > 0.7 || i.is_multiple_of(997);
        let costs: Vec<f64> =
            (0..lattice.len()).map(|i| if is_source(i) { 0.0 } else { f64::INFINITY }).collect();
        let read = |i: usize| i % 3 != 2;
        let field = |start| StraightField::new(&lattice, start, 120.0, &read, 5_000);
        let (free, written) = (field(Starts::Free(Box::new(is_source))), field(Starts::Costs(costs)));
        let bits = |f: &StraightField| -> Vec<(u64, u32)> {
            (0..lattice.len()).map(|i| f.at(i)).map(|(c, s)| (c.to_bits(), s)).collect()
        };
        let (free_bits, written_bits) = (bits(&free), bits(&written));
        assert_eq!(free_bits, written_bits);
        assert!(written_bits.iter().any(|&(c, _)| c != 0 && c != f64::INFINITY.to_bits()), "land is reached");
    }

    #[test]
    fn straight_distances_stretched_keep_the_walks_size() {
        let lattice = FibonacciLattice::new(90_000, 10_000.0);
        let mut rng = SplitMix64::new(FUZZ_SEED, 12);
        let coasts = [0.3, -0.1, 0.55].map(|y0| -> Vec<f64> {
            lattice.positions().iter().map(|p| if p.y < y0 { 0.0 } else { f64::INFINITY }).collect()
        });
        let scattered: Vec<f64> =
            (0..lattice.len()).map(|_| if rng.next_f64() < 0.0005 { 0.0 } else { f64::INFINITY }).collect();
        let (mut walked_m, mut straight_m) = (0.0, 0.0);
        for start in coasts.iter().chain([&scattered]) {
            let walked = cheapest_costs(&lattice, start, f64::INFINITY);
            let straight = straight_costs(&lattice, start.clone(), 100_000);
            for (w, s) in walked.iter().zip(&straight).filter(|(w, _)| (200.0..2000.0).contains(*w)) {
                walked_m += w;
                straight_m += s;
            }
        }
        let ratio = walked_m / straight_m;
        assert!((ratio - 1.0).abs() < 0.05, "walks run {ratio} times the stretched straight distances");
    }
}
