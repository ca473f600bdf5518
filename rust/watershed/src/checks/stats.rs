//! Checks and diagnostics of a solved world, kept apart from the stages they check: carve
//! and water invariants, the teleport check. The probes, the tests and `report.json` read
//! these counts.

use crate::carve::{CarveStats, Reach, ReachEnd};
use crate::drainage::NodeKind;
use crate::math::sphere;
use crate::output::stream::ReachStreamer;
use crate::water::levels::{Body, Water, WaterStats};
use crate::water::world::World;
use glam::DVec3;
use rayon::prelude::*;

/// A lake shore walk goes this many times the distance from a lake node to its dry
/// neighbour: through that neighbour's cell and into the next.
pub const SHORE_WALK_SPACINGS: f64 = 2.5;

/// Carve invariants and counts: beds, joins, faces, falls, collars, and `samples` points
/// along every reach's centre line checked against the carved ground.
pub fn carve_stats(world: &World, samples: usize) -> CarveStats {
    let reaches = &world.terrain.carve.reaches;
    let mut s = CarveStats { reaches: reaches.len(), samples_per_reach: samples, ..Default::default() };
    for reach in reaches {
        if reach.rises() {
            s.bed_rising += 1;
        }
        if reach.ends_in == ReachEnd::River && reach.bed_end_m() < world.terrain.carve.bed_of(reach.to) {
            s.tributary_below_main += 1;
        }
        if reach.face_slope() > crate::carve::MAX_FACE_SLOPE + 1e-9 {
            s.steep_faces += 1;
        }
        if reach.fall {
            s.falls += 1;
            s.tallest_fall_m = s.tallest_fall_m.max(reach.drop_m);
        }
        if reach.ends_in == ReachEnd::Sea {
            s.mouths_with_collar += 1;
        }
    }
    let per_reach: Vec<(usize, usize)> = reaches
        .par_iter()
        .map(|reach| {
            let lake_m = (reach.ends_in == ReachEnd::Lake)
                .then(|| world.terrain.drainage.water_level_m(reach.to.index()));
            let (mut floating, mut shallow) = (0, 0);
            for k in 0..samples {
                let t = (k as f64 + 0.5) / samples as f64;
                let p = reach.point_at(t);
                let bed = reach.bed_at(t * reach.length_m);
                let (ground, natural) = world.terrain.ground_and_natural(p);
                // Where the sea, or the lake it ends in, covers the ground, the river
                // has ended.
                if world.terrain.settings.sea && natural < world.terrain.settings.sea_level_m
                    || lake_m.is_some_and(|lake| natural < lake)
                {
                    continue;
                }
                if bed - ground > 6.0 {
                    floating += 1;
                }
                if natural - bed < 0.1 {
                    shallow += 1;
                }
            }
            (floating, shallow)
        })
        .collect();
    for (f, sh) in per_reach {
        s.floating_stretches += f;
        s.shallow_stretches += sh;
    }
    s
}

/// The teleport check: levels at `points` (directions) measured cold, then after
/// streaming reaches in along one walk over the points and along another in a different
/// order; returns how many points read a different level (bit for bit) either time.
pub fn teleport_check(world: &World, points: &[DVec3]) -> usize {
    let bits = |world: &World| -> Vec<Option<u64>> {
        points.iter().map(|&p| world.water().level_at(p).map(f64::to_bits)).collect()
    };
    let radius = world.terrain.settings.radius_m;
    let cold = bits(world);
    let mut near = ReachStreamer::new(300.0);
    for &p in points.iter().rev() {
        near.update(&world.terrain.carve.reaches, radius, sphere::unit(p) * (radius + 2.0));
    }
    let walked = bits(world);
    let mut far = ReachStreamer::new(120.0);
    for &p in points.iter().step_by(2).chain(points.iter().skip(1).step_by(2)) {
        far.update(&world.terrain.carve.reaches, radius, sphere::unit(p) * (radius + 30.0));
    }
    let teleported = bits(world);
    (0..points.len()).filter(|&i| cold[i] != walked[i] || cold[i] != teleported[i]).count()
}

/// Points on every `stride`-th reach's centre line, at its middle: where the teleport
/// check measures.
pub fn river_sample_points(world: &World, stride: usize) -> Vec<DVec3> {
    world.terrain.carve.reaches.iter().step_by(stride.max(1)).map(|r| r.middle()).collect()
}

/// Counts: bank mismatches, steps along rivers, surfaces rising downstream or below what
/// they flow into, lake shore mismatches.
pub fn water_stats(world: &World) -> WaterStats {
    let reaches = &world.terrain.carve.reaches;
    let levels = &world.levels.reach_levels;
    let mut s = WaterStats::default();
    for (reach, profile) in reaches.iter().zip(levels) {
        if profile.windows(2).any(|w| w[1] > w[0]) {
            s.rising += 1;
        }
        let downstream = match reach.ends_in {
            ReachEnd::Lake => world.terrain.drainage.water_level_m(reach.to.index()),
            ReachEnd::Sea => world.terrain.settings.sea_level_m,
            ReachEnd::River => {
                let next = world
                    .terrain
                    .carve
                    .reaches_at(reach.to.index())
                    .iter()
                    .find(|&&k| reaches[k as usize].from == reach.to);
                next.map_or(f64::NEG_INFINITY, |&k| levels[k as usize][0])
            }
        };
        if profile.last().is_some_and(|&end| end < downstream) {
            s.below_downstream += 1;
        }
    }
    let per_reach: Vec<(usize, f64, usize, f64)> =
        reaches.par_iter().map(|r| reach_water_checks(world, r)).collect();
    for (banks, worst_bank, steps, worst_step) in per_reach {
        s.bank_mismatches += banks;
        s.worst_bank_m = s.worst_bank_m.max(worst_bank);
        s.steps += steps;
        s.worst_step_m = s.worst_step_m.max(worst_step);
    }
    let d = &world.terrain.drainage;
    let shores: Vec<(usize, f64)> = (0..d.kind.len())
        .into_par_iter()
        .filter(|&i| d.kind[i] == NodeKind::Lake)
        .map(|i| lake_shore_checks(world, i))
        .collect();
    for (count, worst) in shores {
        s.lake_shore_mismatches += count;
        s.worst_lake_shore_m = s.worst_lake_shore_m.max(worst);
    }
    s
}

/// Lake shore mismatches from lake node `i`: walking 0.5 m at a time from it towards each
/// neighbour that is not lake and on to [`SHORE_WALK_SPACINGS`] times that distance, the
/// water at the first dry point stands over 0.5 m above the ground: (count, worst m).
fn lake_shore_checks(world: &World, i: usize) -> (usize, f64) {
    let positions = world.terrain.lattice.positions();
    let (mut count, mut worst) = (0, 0.0f64);
    for &j in world.terrain.lattice.neighbor_slice(i) {
        let j = j as usize;
        if world.terrain.drainage.kind[j] == NodeKind::Lake {
            continue;
        }
        let (a, b) = (positions[i], positions[j]);
        let walk_m = SHORE_WALK_SPACINGS * (b - a).length() * world.terrain.settings.radius_m;
        let samples = (walk_m / 0.5).ceil() as usize;
        let walk = (0..=samples)
            .map(|k| sphere::unit(a + (b - a) * (SHORE_WALK_SPACINGS * k as f64 / samples as f64)));
        let over = water_over_edge(world, walk, |body| body != Body::Sea);
        if over > 0.5 {
            count += 1;
            worst = worst.max(over);
        }
    }
    (count, worst)
}

/// How far the water stands above the ground where a walk over `points` first comes out
/// of it, metres: [`over_edge`] on the world's water and carved ground.
fn water_over_edge(world: &World, points: impl Iterator<Item = DVec3>, wet: impl Fn(Body) -> bool) -> f64 {
    let water = world.water();
    over_edge(|p| water.at(p), |p| world.terrain.ground(p), points, wet)
}

/// How far the water (`water` at a unit direction) stands above the `ground` where a walk
/// over `points` first comes out of it, metres: 0 where the walk starts dry, stays in the
/// water or meets water whose body `wet` does not count. The edge is found to
/// [`EDGE_HALVINGS`] halvings of the step that crosses it: a surface that slopes down to
/// meet the ground (beside the head of a fall) or a lake against a cliff ends at the
/// ground, however steep, and only a wall keeps its height.
fn over_edge(
    water: impl Fn(DVec3) -> Option<Water>,
    ground: impl Fn(DVec3) -> f64,
    points: impl Iterator<Item = DVec3>,
    wet: impl Fn(Body) -> bool,
) -> f64 {
    let mut last = None;
    for p in points {
        match water(p) {
            Some(w) if wet(w.body) => last = Some((p, w.level_m)),
            Some(_) => return 0.0,
            None => {
                let Some((mut in_water, mut level)) = last else { return 0.0 };
                let mut dry = p;
                for _ in 0..EDGE_HALVINGS {
                    let middle = sphere::unit((in_water + dry) * 0.5);
                    match water(middle) {
                        Some(w) if wet(w.body) => (in_water, level) = (middle, w.level_m),
                        Some(_) => return 0.0,
                        None => dry = middle,
                    }
                }
                return level - ground(dry);
            }
        }
    }
    0.0
}

/// Halvings of a walk's step that finds where the water ends: a bank walk's 0.2 m to 6 mm,
/// a shore walk's 0.5 m to 16 mm. Water meeting the ground without a break then reads under
/// 0.5 m over it unless the two part by more than 80 m a metre across the edge (32 on a
/// shore walk); a wall keeps its height whatever the halvings.
const EDGE_HALVINGS: usize = 5;

/// Bank mismatches (8 cross-sections, 0.2 m apart) and steps (centre line, 1 m apart,
/// beyond what the reach's bed or the carved ground under it falls there) of one reach:
/// (mismatches, worst m, steps, worst m).
fn reach_water_checks(world: &World, reach: &Reach) -> (usize, f64, usize, f64) {
    let radius = world.terrain.settings.radius_m;
    let (mut banks, mut worst_bank, mut steps, mut worst_step) = (0, 0.0f64, 0, 0.0f64);
    let across = reach.across();
    for k in 0..8 {
        let centre = reach.point_at((k as f64 + 0.5) / 8.0);
        for side in [-1.0, 1.0] {
            let limit = (1.5 * reach.half_width_m / 0.2) as usize + 1;
            let walk = (0..=limit).map(|j| centre + across * (side * j as f64 * 0.2 / radius));
            let over = water_over_edge(world, walk, |body| body == Body::River);
            if over > 0.5 {
                banks += 1;
                worst_bank = worst_bank.max(over);
            }
        }
    }
    let samples = reach.length_m.ceil() as usize;
    let mut previous: Option<(f64, (f64, f64))> = None;
    for k in 0..=samples {
        let t = k as f64 / samples.max(1) as f64;
        let p = reach.point_at(t);
        let floor = (reach.bed_at(t * reach.length_m), world.terrain.ground(p));
        let level = world.water().at(p).filter(|w| w.body == Body::River).map(|w| w.level_m);
        if let (Some((a, floor_a)), Some(b)) = (previous, level) {
            // Down a fall face the water follows the bed, and the carved ground where that
            // falls first (the cut of the face below, or of a channel beside); a step is
            // water that follows neither.
            let fall = (floor_a.0 - floor.0).abs().max((floor_a.1 - floor.1).abs());
            let step = ((a - b).abs() - fall).max(0.0);
            if step > 1.0 {
                steps += 1;
                worst_step = worst_step.max(step);
            }
        }
        previous = level.map(|l| (l, floor));
    }
    (banks, worst_bank, steps, worst_step)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit direction `y` units of chord along from (1, 0, 0).
    fn along(y: f64) -> DVec3 {
        sphere::unit(DVec3::new(1.0, y, 0.0))
    }

    /// How far along (1, 0, 0) a unit direction lies, in the units of [`along`].
    fn y_of(p: DVec3) -> f64 {
        p.y / p.x
    }

    fn walk() -> impl Iterator<Item = DVec3> {
        (0..=10).map(|k| along(0.2 * k as f64))
    }

    fn river(level_m: f64) -> Water {
        Water { level_m, body: Body::River }
    }

    /// A surface falling steeply to meet rising ground: 1.8 m over the ground at the first
    /// dry sample, a few centimetres once the edge is found.
    #[test]
    fn a_steep_surface_meets_the_ground() {
        let ground = |p: DVec3| y_of(p);
        let water = |p: DVec3| Some(river(2.0 - 30.0 * y_of(p))).filter(|w| w.level_m > ground(p));
        let first_dry = 2.0 - ground(along(0.2));
        assert!((first_dry - 1.8).abs() < 1e-9);
        let over = over_edge(water, ground, walk(), |b| b == Body::River);
        assert!((0.0..0.2).contains(&over), "{over}");
    }

    /// Water cut off over low ground keeps its height: a wall.
    #[test]
    fn a_wall_keeps_its_height() {
        let ground = |_: DVec3| 0.0;
        let water = |p: DVec3| (y_of(p) < 0.3).then(|| river(2.0));
        let over = over_edge(water, ground, walk(), |b| b == Body::River);
        assert_eq!(over, 2.0);
    }

    /// A walk that starts dry, or meets water that does not count, reads nothing.
    #[test]
    fn dry_starts_and_other_water_read_zero() {
        let ground = |_: DVec3| 0.0;
        let beyond = |p: DVec3| (y_of(p) > 0.5).then(|| river(2.0));
        assert_eq!(over_edge(beyond, ground, walk(), |b| b == Body::River), 0.0);
        let sea_after =
            |p: DVec3| Some(if y_of(p) < 0.3 { river(2.0) } else { Water { level_m: 1.0, body: Body::Sea } });
        assert_eq!(over_edge(sea_after, ground, walk(), |b| b == Body::River), 0.0);
    }
}
