//! The Fibonacci lattice: N equal-area points on the sphere and their neighbour graph.
//!
//! Neighbours come from Fibonacci index offsets: on a spherical Fibonacci lattice a point's
//! nearest neighbours sit at index offsets ±F_k for a few consecutive Fibonacci numbers that
//! depend only on latitude. Each point keeps its six nearest such candidates; the lists are
//! then made symmetric (if a keeps b, b gets a), so no one-sided list leaves a false sink.

use crate::cancel;
use crate::ground::topology::{NodeId, Topology};
use crate::math::sphere;
use glam::DVec3;
use rayon::prelude::*;
use std::cell::Cell;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

/// Golden ratio.
const PHI: f64 = 1.618_033_988_749_895;
/// Neighbours each point picks before the lists are made symmetric.
const PICKS: usize = 6;

/// N points on the unit sphere with a symmetric neighbour graph in CSR form.
#[derive(Debug, Clone)]
pub struct FibonacciLattice {
    positions: Vec<DVec3>,
    /// `neighbors[offsets[i]..offsets[i + 1]]` are node i's neighbours, ascending.
    offsets: Vec<u32>,
    neighbors: Vec<u32>,
    area_m2: f64,
    radius_m: f64,
    /// The inverse mapping's basis for every zone a point of the sphere can fall in, by
    /// zone from zone 0 (points fall in zone 2 or above).
    zones: Vec<ZoneBasis>,
    /// The squared chord two mean spacings long: a node this near a point sought is a few
    /// steps from the nearest one.
    near_squared: f64,
}

thread_local! {
    /// The node the thread's last search found, on whichever lattice: where its next search
    /// starts when that node is near the point sought.
    static LAST_FOUND: Cell<usize> = const { Cell::new(usize::MAX) };
}

impl FibonacciLattice {
    /// Builds `n` points (at least 16) on a sphere of `radius_m`.
    ///
    /// # Complexity
    /// O(n): twelve candidate distances per point; for symmetry, the few picks the picked
    /// node did not return are sorted (O(m log m) for m of them) and each list is filled and
    /// sorted in parallel.
    pub fn new(n: usize, radius_m: f64) -> Self {
        match Self::new_cancellable(n, radius_m, &AtomicBool::new(false)) {
            Some(lattice) => lattice,
            None => unreachable!("nothing sets the flag"),
        }
    }

    /// [`FibonacciLattice::new`] that gives up, returning `None`, once `cancel` is set (read
    /// every 65,536 nodes of the neighbour search).
    pub fn new_cancellable(n: usize, radius_m: f64, cancel: &AtomicBool) -> Option<Self> {
        let n = n.max(16);
        let positions: Vec<DVec3> = (0..n).into_par_iter().map(|i| sphere::fibonacci(i, n)).collect();
        let fib = fibonacci_numbers(n);
        let mut picks: Vec<[u32; PICKS]> = Vec::with_capacity(n);
        for start in (0..n).step_by(cancel::CHECK_EVERY) {
            if cancel::requested(cancel) {
                return None;
            }
            let end = (start + cancel::CHECK_EVERY).min(n);
            picks.par_extend((start..end).into_par_iter().map(|i| pick(&positions, &fib, i)));
        }
        let (offsets, neighbors) = symmetric_csr(&picks);
        let area_m2 = 4.0 * std::f64::consts::PI * radius_m * radius_m / n as f64;
        let zones = (0..=zone(0.0, n).max(2) as usize).map(|k| ZoneBasis::new(k as f64, n)).collect();
        let near_squared = 4.0 * (4.0 * std::f64::consts::PI / n as f64);
        Some(FibonacciLattice { positions, offsets, neighbors, area_m2, radius_m, zones, near_squared })
    }

    /// Unit position of every node.
    pub fn positions(&self) -> &[DVec3] {
        &self.positions
    }

    /// Radius of the sphere the lattice covers, metres.
    pub fn radius_m(&self) -> f64 {
        self.radius_m
    }

    /// Neighbour lists in CSR form: `(offsets, neighbors)`, `offsets.len() == len() + 1`.
    pub fn csr(&self) -> (&[u32], &[u32]) {
        (&self.offsets, &self.neighbors)
    }

    /// Node `i`'s neighbours, ascending.
    pub fn neighbor_slice(&self, i: usize) -> &[u32] {
        &self.neighbors[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Mean distance between neighbours along the unit sphere (multiply by the radius for metres).
    pub fn spacing(&self) -> f64 {
        (4.0 * std::f64::consts::PI / self.positions.len() as f64).sqrt()
    }

    /// The node nearest to direction `dir` (normalised first).
    ///
    /// # Complexity
    /// O(1): the node the thread's last search found proposes itself when it is within two
    /// spacings, the inverse Fibonacci mapping proposes one otherwise; then a walk over
    /// neighbours moves to any closer one until none is closer. Searches for points near one
    /// another (a batch sorted along a curve, a row of samples) skip the mapping.
    pub fn nearest_node(&self, dir: DVec3) -> NodeId {
        let p = sphere::unit(dir);
        let last = LAST_FOUND.get();
        let start = match self.positions.get(last) {
            Some(q) if q.distance_squared(p) < self.near_squared => last,
            _ => inverse_fibonacci(&self.positions, &self.zones, p).min(self.positions.len() - 1),
        };
        let found = self.descend(p, start);
        LAST_FOUND.set(found.index());
        found
    }

    /// [`FibonacciLattice::nearest_node`] searched from node `near` instead of the inverse
    /// mapping's guess: the same node, found in a step or two when `near` is the nearest node
    /// of a point close by.
    pub fn nearest_node_from(&self, dir: DVec3, near: usize) -> NodeId {
        self.descend(sphere::unit(dir), near.min(self.positions.len() - 1))
    }

    /// The node where a walk from node `start` to ever nearer neighbours of unit direction
    /// `p` (ties to the lower index) stops: the node nearest `p`.
    fn descend(&self, p: DVec3, start: usize) -> NodeId {
        let mut best = start;
        let mut best_d = self.positions[best].distance_squared(p);
        loop {
            let mut moved = false;
            for &j in self.neighbor_slice(best) {
                let d = self.positions[j as usize].distance_squared(p);
                if d < best_d || (d == best_d && (j as usize) < best) {
                    best = j as usize;
                    best_d = d;
                    moved = true;
                }
            }
            if !moved {
                return NodeId(best as u32);
            }
        }
    }
}

impl Topology for FibonacciLattice {
    fn len(&self) -> usize {
        self.positions.len()
    }

    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbor_slice(i).iter().map(|&j| j as usize)
    }

    fn area_m2(&self, _i: usize) -> f64 {
        self.area_m2
    }

    fn distance_m(&self, a: usize, b: usize) -> f64 {
        (self.positions[a] - self.positions[b]).length() * self.radius_m
    }

    fn on_edge(&self, _i: usize) -> bool {
        false
    }
}

/// Fibonacci numbers 1, 2, 3, 5, … below `n`.
fn fibonacci_numbers(n: usize) -> Vec<usize> {
    let mut out = vec![1, 2];
    while let [.., a, b] = out[..] {
        if a + b >= n {
            break;
        }
        out.push(a + b);
    }
    out.retain(|&f| f < n);
    out
}

/// The zone of a latitude: which Fibonacci offsets hold a point's nearest neighbours.
fn zone(y: f64, n: usize) -> i64 {
    zone_of((n as f64 * std::f64::consts::PI * 5f64.sqrt() * (1.0 - y * y)).max(1.0))
}

/// `⌊log(s) / log φ²⌋` as `libm` rounds it, for a band size `s` ≥ 1: the number of powers
/// of φ² from φ² up to `s`. That count is the formula's answer except within a hair of a
/// power, where the formula's own rounding decides (its error is some 10⁻¹⁴ of a zone; a
/// size 10⁻⁹ from every power lies some 10⁻⁹ of a zone from every whole number).
fn zone_of(s: f64) -> i64 {
    let powers = phi_squared_powers();
    // φ² is 2^1.388…: from s's binary exponent e, the power φ^(2k) for k = ⌊0.7197 e⌋ is at
    // most 2^e, so at or below s, and the next power or the one after is above it.
    let exponent = (s.to_bits() >> 52) as usize - 1023;
    let mut k = ((exponent * 737) >> 10).min(powers.len() - 1);
    while k + 1 < powers.len() && powers[k + 1] <= s {
        k += 1;
    }
    let close = |t: f64| (s - t).abs() <= t * 1e-9;
    if k + 1 == powers.len() || close(powers[k]) || close(powers[k + 1]) {
        return floor(libm::log(s) / log_phi_squared()) as i64;
    }
    k as i64
}

/// φ⁰, φ², φ⁴, … φ¹²⁶, each within some 10⁻¹⁴ of its value: the sizes where the zones
/// change, worked out once per process.
fn phi_squared_powers() -> &'static [f64; 64] {
    static POWERS: OnceLock<[f64; 64]> = OnceLock::new();
    POWERS.get_or_init(|| {
        let mut powers = [1.0; 64];
        for k in 1..64 {
            powers[k] = powers[k - 1] * (PHI * PHI);
        }
        powers
    })
}

/// Node i's `PICKS` nearest among the candidates at offsets ±F_j around its zone.
fn pick(positions: &[DVec3], fib: &[usize], i: usize) -> [u32; PICKS] {
    let n = positions.len();
    let p = positions[i];
    // The zone's basis is F_k, F_k+1; `fib[m]` is F_(m+2). Take F_(k-2) ..= F_(k+3).
    let k = zone(p.y, n).max(2);
    let lo = (k - 4).max(0) as usize;
    let hi = ((k + 2).max(0) as usize).min(fib.len());
    let mut nearest = Nearest::default();
    // Offsets ±F_j of different Fibonacci numbers reach different nodes, none of them i.
    for &f in &fib[lo.min(hi)..hi] {
        if i + f < n {
            nearest.offer_new(positions[i + f].distance_squared(p), (i + f) as u32);
        }
        if i >= f {
            nearest.offer_new(positions[i - f].distance_squared(p), (i - f) as u32);
        }
    }
    // Near the poles the bands are short: make sure there are enough candidates.
    let mut step = 1;
    while nearest.met < PICKS && step < n {
        if i + step < n {
            nearest.offer(positions[i + step].distance_squared(p), (i + step) as u32);
        }
        if i >= step {
            nearest.offer(positions[i - step].distance_squared(p), (i - step) as u32);
        }
        step += 1;
    }
    let mut out = [0u32; PICKS];
    for (o, c) in out.iter_mut().zip(&nearest.best[..nearest.len]) {
        *o = c.1;
    }
    out
}

/// The `PICKS` nearest candidates offered so far, by squared distance then index, and how
/// many different candidates were offered.
#[derive(Default)]
struct Nearest {
    best: [(f64, u32); PICKS],
    len: usize,
    met: usize,
}

impl Nearest {
    /// Offers node `j` at squared distance `d`; a node offered again changes nothing.
    ///
    /// A node offered twice was either kept the first time (and is found among the best),
    /// or beaten by `PICKS` others, which it would not beat now either; while fewer than
    /// `PICKS` were met, every one of them is kept, so `met` counts different nodes.
    fn offer(&mut self, d: f64, j: u32) {
        if !self.best[..self.len].iter().any(|&(_, c)| c == j) {
            self.offer_new(d, j);
        }
    }

    /// Offers node `j`, not offered before, at squared distance `d` (a square, never NaN
    /// or -0, so `<` orders it as `f64::total_cmp` would).
    #[inline]
    fn offer_new(&mut self, d: f64, j: u32) {
        let before = |a: (f64, u32), b: (f64, u32)| a.0 < b.0 || (a.0 == b.0 && a.1 < b.1);
        self.met += 1;
        if self.len == PICKS && !before((d, j), self.best[PICKS - 1]) {
            return;
        }
        let mut at = self.len.min(PICKS - 1);
        while at > 0 && before((d, j), self.best[at - 1]) {
            self.best[at] = self.best[at - 1];
            at -= 1;
        }
        self.best[at] = (d, j);
        self.len = (self.len + 1).min(PICKS);
    }
}

/// Nodes whose neighbour lists are written together: one share of the parallel fill.
const CSR_GROUP: usize = 4096;

/// CSR of the union of every pick and its reverse, each list ascending without repeats.
///
/// Most picks are mutual (each side picked the other); a node's list is its own picks and
/// the nodes that picked it one-sidedly, which appear in no pick of its own, so no list
/// holds a repeat.
fn symmetric_csr(picks: &[[u32; PICKS]]) -> (Vec<u32>, Vec<u32>) {
    let n = picks.len();
    // (picked, picker) for every pick the picked node did not return, by picked then picker.
    let mut one_sided: Vec<(u32, u32)> = picks
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, list)| {
            let i = i as u32;
            list.iter().filter(move |&&j| !picks[j as usize].contains(&i)).map(move |&j| (j, i))
        })
        .collect();
    one_sided.par_sort_unstable();
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0u32);
    let mut next = one_sided.iter().map(|&(j, _)| j as usize).peekable();
    for i in 0..n {
        let mut degree = PICKS as u32;
        while next.next_if_eq(&i).is_some() {
            degree += 1;
        }
        offsets.push(offsets[i] + degree);
    }
    // Node i's one-sided pickers are those before node i + 1's in `one_sided`.
    let pickers = |i: usize| {
        let (start, end) = (offsets[i] as usize - PICKS * i, offsets[i + 1] as usize - PICKS * (i + 1));
        one_sided[start..end].iter().map(|&(_, picker)| picker)
    };
    let mut neighbors = vec![0u32; offsets[n] as usize];
    let mut groups = Vec::with_capacity(n.div_ceil(CSR_GROUP));
    let mut rest = neighbors.as_mut_slice();
    for first in (0..n).step_by(CSR_GROUP) {
        let last = (first + CSR_GROUP).min(n);
        let (head, tail) = rest.split_at_mut((offsets[last] - offsets[first]) as usize);
        groups.push((first..last, head));
        rest = tail;
    }
    groups.into_par_iter().for_each(|(nodes, out)| {
        let base = offsets[nodes.start] as usize;
        for i in nodes {
            let list = &mut out[offsets[i] as usize - base..offsets[i + 1] as usize - base];
            let (own, theirs) = list.split_at_mut(PICKS);
            own.copy_from_slice(&picks[i]);
            theirs.iter_mut().zip(pickers(i)).for_each(|(slot, picker)| *slot = picker);
            list.sort_unstable();
        }
    });
    (offsets, neighbors)
}

/// `ln φ²` as `libm` gives it, worked out once per process instead of once per query: the
/// zones' logarithm base.
fn log_phi_squared() -> f64 {
    static LOG: OnceLock<f64> = OnceLock::new();
    *LOG.get_or_init(|| libm::log(PHI * PHI))
}

/// The inverse mapping's basis for one zone: a 2 × 2 matrix from lattice steps to
/// (longitude, height) and its determinant.
#[derive(Debug, Clone, Copy)]
struct ZoneBasis {
    b00: f64,
    b01: f64,
    b10: f64,
    b11: f64,
    det: f64,
}

impl ZoneBasis {
    /// The basis of zone `k` (a whole number) on a lattice of `n` nodes.
    fn new(k: f64, n: usize) -> Self {
        let nf = n as f64;
        let tau = std::f64::consts::TAU;
        let fk = libm::pow(PHI, k) / 5f64.sqrt();
        let (f0, f1) = (fk.round(), (fk * PHI).round());
        let madfrac = |a: f64, b: f64| (a * b).fract();
        let b00 = tau * madfrac(f0 + 1.0, PHI - 1.0) - tau * (PHI - 1.0);
        let b01 = tau * madfrac(f1 + 1.0, PHI - 1.0) - tau * (PHI - 1.0);
        let (b10, b11) = (-2.0 * f0 / nf, -2.0 * f1 / nf);
        let det = b00 * b11 - b01 * b10;
        ZoneBasis { b00, b01, b10, b11, det }
    }
}

/// `x.floor()`, to the bit, without the library call baseline x86-64 makes for it. Any
/// `x`, NaN and the infinities included; the voxel fill's `whole_part` covers only 0..2⁵¹,
/// in float operations alone, so its column loop stays in vector lanes.
#[inline]
fn floor(x: f64) -> f64 {
    // At and beyond 2^52 every f64 is whole, and NaN and the infinities are their own floor.
    if x.is_nan() || x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let t = x as i64 as f64;
    if t == x {
        x
    } else if t > x {
        t - 1.0
    } else {
        t
    }
}

/// A node near `p` by inverting the spherical Fibonacci mapping (Keinert et al. 2015),
/// in this crate's axes (+Y north, longitude from +Z towards +X). `zones` holds the
/// lattice's zone bases, by zone.
fn inverse_fibonacci(positions: &[DVec3], zones: &[ZoneBasis], p: DVec3) -> usize {
    let n = positions.len();
    let nf = n as f64;
    let tau = std::f64::consts::TAU;
    let cos_theta = p.y.clamp(-1.0, 1.0);
    let phi = {
        let a = libm::atan2(p.x, p.z);
        if a < 0.0 {
            a + tau
        } else {
            a
        }
    };
    let k = zone(cos_theta, n).max(2);
    let ZoneBasis { b00, b01, b10, b11, det } =
        zones.get(k as usize).copied().unwrap_or_else(|| ZoneBasis::new(k as f64, n));
    let rhs = (phi, cos_theta - (1.0 - 1.0 / nf));
    let c0 = floor((b11 * rhs.0 - b01 * rhs.1) / det);
    let c1 = floor((-b10 * rhs.0 + b00 * rhs.1) / det);
    let mut best = (f64::INFINITY, 0usize);
    for s in 0..4 {
        let (u, v) = ((s % 2) as f64 + c0, (s / 2) as f64 + c1);
        let z = b10 * u + b11 * v + (1.0 - 1.0 / nf);
        let z = z.clamp(-1.0, 1.0) * 2.0 - z;
        let i = floor(nf * 0.5 - z * nf * 0.5).clamp(0.0, nf - 1.0) as usize;
        // positions[i] is sphere::fibonacci(i, n), already computed.
        let d = positions[i].distance_squared(p);
        if d < best.0 {
            best = (d, i);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The zone from the powers of φ² gives the formula's bits: on random sizes over the
    /// whole table, at and beside every power (to the ulp and to 10⁻⁹), and past the table.
    #[test]
    fn zones_from_the_powers_match_the_formula() {
        let formula = |s: f64| floor(libm::log(s) / log_phi_squared()) as i64;
        let mut rng = crate::math::rng::SplitMix64::new(11, 0);
        let mut sizes: Vec<f64> = (0..200_000).map(|_| libm::exp(rng.range(0.0, 125.0 * 0.9624))).collect();
        for &t in phi_squared_powers() {
            for edge in [t, t * (1.0 + 1e-9), t * (1.0 - 1e-9), t * (1.0 + 2e-9), t * (1.0 - 2e-9)] {
                let (mut up, mut down) = (edge, edge);
                for _ in 0..16 {
                    sizes.extend([up, down]);
                    (up, down) = (up.next_up(), down.next_down());
                }
            }
        }
        sizes.extend([1.0, 1.0f64.next_up(), 1e30, f64::MAX, f64::INFINITY]);
        for s in sizes.into_iter().filter(|&s| s >= 1.0) {
            assert_eq!(zone_of(s), formula(s), "size {s:e}");
        }
    }

    /// The inline floor against the library's: zeros of both signs, halves, the edge of the
    /// whole numbers at 2^52, huge values, the infinities, NaN and many random values.
    #[test]
    fn floor_gives_the_library_bits() {
        let mut rng = crate::math::rng::SplitMix64::new(5, 0);
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            -1e-300,
            4_503_599_627_370_495.5,
            -4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        values.extend((0..100_000).map(|k| rng.range(-1e6, 1e6) / if k % 2 == 0 { 1.0 } else { 1e6 }));
        for x in values {
            assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "at {x:e}");
        }
    }

    fn brute_nearest(positions: &[DVec3], p: DVec3) -> usize {
        let mut best = (f64::INFINITY, 0);
        for (i, q) in positions.iter().enumerate() {
            let d = q.distance_squared(p);
            if d < best.0 {
                best = (d, i);
            }
        }
        best.1
    }

    /// Every candidate at the zone's offsets (and, near the poles, the next indices until
    /// six differ), sorted by squared distance then index: what `pick` keeps the first six of.
    fn sorted_candidates(positions: &[DVec3], fib: &[usize], i: usize) -> Vec<u32> {
        let n = positions.len();
        let p = positions[i];
        let k = zone(p.y, n).max(2);
        let (lo, hi) = ((k - 4).max(0) as usize, ((k + 2).max(0) as usize).min(fib.len()));
        let mut cands: Vec<(f64, u32)> = Vec::new();
        let push = |cands: &mut Vec<(f64, u32)>, j: usize| {
            if j != i && !cands.iter().any(|&(_, c)| c as usize == j) {
                cands.push((positions[j].distance_squared(p), j as u32));
            }
        };
        for &f in &fib[lo.min(hi)..hi] {
            (i + f < n).then(|| push(&mut cands, i + f));
            (i >= f).then(|| push(&mut cands, i - f));
        }
        let mut step = 1;
        while cands.len() < PICKS && step < n {
            (i + step < n).then(|| push(&mut cands, i + step));
            (i >= step).then(|| push(&mut cands, i - step));
            step += 1;
        }
        cands.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        cands.into_iter().map(|(_, j)| j).collect()
    }

    #[test]
    fn picks_are_the_six_nearest_candidates() {
        for n in [16, 17, 40, 1_000, 33_333] {
            let lat = FibonacciLattice::new(n, 1.0);
            let fib = fibonacci_numbers(n);
            for i in 0..n {
                let expected = sorted_candidates(lat.positions(), &fib, i);
                assert_eq!(&pick(lat.positions(), &fib, i)[..], &expected[..PICKS], "node {i} of {n}");
            }
        }
    }

    /// Each list is the union of the node's picks and the picks naming it, ascending without
    /// repeats, as a set union works it out.
    #[test]
    fn lists_are_the_union_of_picks_and_their_reverse() {
        for n in [16, 17, 40, 1_000, 9_001, 33_333] {
            let lat = FibonacciLattice::new(n, 1.0);
            let fib = fibonacci_numbers(n);
            let picks: Vec<[u32; PICKS]> = (0..n).map(|i| pick(lat.positions(), &fib, i)).collect();
            let mut union = vec![std::collections::BTreeSet::new(); n];
            for (i, list) in picks.iter().enumerate() {
                for &j in list {
                    union[i].insert(j);
                    union[j as usize].insert(i as u32);
                }
            }
            let one_sided = picks.iter().enumerate().flat_map(|(i, l)| l.iter().map(move |&j| (i, j)));
            let one_sided = one_sided.filter(|&(i, j)| !picks[j as usize].contains(&(i as u32))).count();
            assert!(one_sided > 0, "n {n}: some picks are one-sided");
            for (i, expected) in union.iter().enumerate() {
                assert_eq!(
                    lat.neighbor_slice(i),
                    expected.iter().copied().collect::<Vec<_>>(),
                    "n {n} node {i}"
                );
            }
        }
    }

    #[test]
    fn graph_is_symmetric_without_self_loops() {
        let lat = FibonacciLattice::new(5_000, 1.0);
        for i in 0..lat.len() {
            let list = lat.neighbor_slice(i);
            assert!(!list.contains(&(i as u32)));
            for &j in list {
                assert!(lat.neighbor_slice(j as usize).contains(&(i as u32)), "{i} -> {j} one-sided");
            }
        }
    }

    #[test]
    fn degrees_are_about_six() {
        for n in [1_000, 20_000, 200_000] {
            let lat = FibonacciLattice::new(n, 1.0);
            let (offsets, neighbors) = lat.csr();
            let mean = neighbors.len() as f64 / n as f64;
            let max = offsets.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
            assert!((6.0..7.5).contains(&mean), "n {n}: mean degree {mean}");
            assert!(max <= 12, "n {n}: max degree {max}");
        }
    }

    #[test]
    fn every_true_nearest_neighbour_is_a_neighbour() {
        // Oracle: brute force over all points.
        let n = 4_000;
        let lat = FibonacciLattice::new(n, 1.0);
        let pos = lat.positions();
        for i in 0..n {
            let mut best = (f64::INFINITY, 0);
            for j in (0..n).filter(|&j| j != i) {
                let d = pos[j].distance_squared(pos[i]);
                if d < best.0 {
                    best = (d, j);
                }
            }
            assert!(lat.neighbor_slice(i).contains(&(best.1 as u32)), "node {i} misses {}", best.1);
        }
    }

    /// Asserts that `lat.nearest_node(p)` finds the node a brute-force search finds, or one
    /// as near; `what` names the point.
    fn assert_finds_nearest(lat: &FibonacciLattice, p: DVec3, what: &str) {
        let fast = lat.nearest_node(p).index();
        let slow = brute_nearest(lat.positions(), p);
        let (df, ds) = (lat.positions()[fast].distance(p), lat.positions()[slow].distance(p));
        assert!(fast == slow || df == ds, "{what}: {fast} ({df}) vs {slow} ({ds})");
    }

    #[test]
    fn nearest_node_matches_brute_force() {
        for n in [500, 10_000, 90_000] {
            let lat = FibonacciLattice::new(n, 1.0);
            for (k, d) in sphere::random_directions(9, 3_000).into_iter().enumerate() {
                assert_finds_nearest(&lat, d, &format!("n {n} sample {k}"));
            }
        }
    }

    /// Searches one after another along paths, where each starts from the node the last
    /// one found, find the nearest node, as do searches between two lattices.
    #[test]
    fn nearest_node_along_paths_matches_brute_force() {
        let lattices = [FibonacciLattice::new(10_000, 1.0), FibonacciLattice::new(9_999, 1.0)];
        let dirs = sphere::random_directions(12, 300);
        for (k, &d) in dirs.iter().enumerate() {
            let towards = dirs[(k + 1) % dirs.len()];
            for s in 0..40 {
                let p = sphere::unit(d + (towards - d) * (s as f64 / 400.0));
                for lat in &lattices {
                    assert_finds_nearest(lat, p, &format!("path {k} step {s}"));
                }
            }
        }
    }

    /// The search from any node, near or far, ends at the node the inverse mapping's search
    /// finds.
    #[test]
    fn nearest_node_from_any_start_is_the_nearest() {
        for n in [500, 10_000, 90_000] {
            let lat = FibonacciLattice::new(n, 1.0);
            let dirs = sphere::random_directions(11, 3_000);
            for (k, &d) in dirs.iter().enumerate() {
                let nearest = lat.nearest_node(d);
                let close = sphere::unit(d + dirs[(k + 1) % dirs.len()] * 2.0 * lat.spacing());
                for start in [lat.nearest_node(close).index(), (k * 7919) % n, n + 5] {
                    assert_eq!(lat.nearest_node_from(d, start), nearest, "n {n} sample {k} from {start}");
                }
            }
        }
    }

    #[test]
    fn graph_is_connected() {
        let lat = FibonacciLattice::new(30_000, 1.0);
        let mut seen = vec![false; lat.len()];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for j in lat.neighbors(i) {
                if !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
