//! The water table: every water level computed once, globally, at load.
//!
//! River surfaces stand `river_fill` of the carve depth above the bed at each node, ease
//! into the level of the lake or sea they enter over the last stretch before it, and are raised mouth-first so none
//! is below what it flows into (backwater). At any point the river level is a weighted
//! average of the nearby reaches' level lines, weighted by the carve's own bell, so it is
//! smooth across bends and joins and exact on a straight reach with an even fall. Lakes are
//! flat at their spill level; where the sea covers the ground the sea's surface is the water.
//! Nothing here depends on what is streamed in or where a viewer stands.

use crate::carve::terrain::Terrain;
use crate::carve::{profile_at, Carve, Reach, ReachEnd};
use crate::drainage::Drainage;
use crate::ground::surface::Surface;
use crate::math::geometry::{bell, chord_fraction, segment_projection, smoothstep};
use crate::settings::WorldSettings;
use crate::water::waves::SeaState;
use glam::DVec3;
use rayon::prelude::*;

/// River and lake water where the sea also covers the ground is held this far under the sea
/// surface, so the two surfaces never draw the same pixel, metres.
pub const SEA_CLEARANCE_M: f64 = 0.02;
/// A river's surface eases into the level of the lake or sea it enters over this distance,
/// metres.
pub const LAKE_BLEND_M: f64 = 300.0;
/// Runoff of a world with climate 0, metres of water per second over the catchment (a wet
/// game world's rate, about 86 mm a day; climate -1 gives a quarter of it, +1 four times).
pub const BASE_RUNOFF_M_S: f64 = 1.0e-6;
/// A river surface stays at least this far under the lower bank, metres.
const BANK_FREEBOARD_M: f64 = 0.2;
/// Downstream a river surface loses at most this much of its depth over its bed per metre
/// along it, metres per metre: one that loses its depth faster steps down over its bed.
const MAX_DEPTH_LOSS: f64 = 0.5;
/// Water at least this deep stays in a channel even where the blend into a lake would drop
/// the surface under its bed, metres.
const MIN_WATER_M: f64 = 0.1;

/// Which body of water a point is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// A river channel (every wet point that is not lake or sea).
    River,
    /// A lake at its spill level.
    Lake,
    /// The sea.
    Sea,
}

/// The still water over a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Water {
    /// Surface level, metres above the datum.
    pub level_m: f64,
    /// The body it belongs to.
    pub body: Body,
}

/// The flow in one reach.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReachFlow {
    /// Discharge, m³/s.
    pub discharge_m3_s: f64,
    /// Wetted cross-section at the reach's middle, m².
    pub area_m2: f64,
    /// Water depth on the centre line at the reach's middle, metres.
    pub depth_m: f64,
}

impl ReachFlow {
    /// Mean speed over the cross-section, m/s.
    pub fn mean_speed_m_s(&self) -> f64 {
        self.discharge_m3_s / self.area_m2.max(1e-9)
    }

    /// The same channel carrying `factor` times the discharge (levels unchanged).
    pub fn scaled(&self, factor: f64) -> Self {
        ReachFlow { discharge_m3_s: self.discharge_m3_s * factor, ..*self }
    }

    /// Flow speed `dip_m` under the surface, m/s: a 1/7 power-law profile whose mean is the
    /// mean speed (zero at the bed).
    pub fn speed_at_depth_m_s(&self, dip_m: f64) -> f64 {
        let h = self.depth_m.max(1e-9);
        let above_bed = ((h - dip_m) / h).clamp(0.0, 1.0);
        self.mean_speed_m_s() * 8.0 / 7.0 * libm::pow(above_bed, 1.0 / 7.0)
    }

    /// A mill wheel of radius `radius_m` whose lowest paddle dips `dip_m` under the live
    /// surface turns at the rim speed of the flow there: ω = v / r, radians per second.
    pub fn mill_rate_rad_s(&self, radius_m: f64, dip_m: f64) -> f64 {
        self.speed_at_depth_m_s(dip_m) / radius_m.max(1e-9)
    }
}

/// Counts for reports and the water tests. Its serde form is the one schema of these names:
/// `WaterTable.water_stats()`'s keys, `report.json`'s `water` and the probes' reads.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct WaterStats {
    /// Places where water stands more than 0.5 m above the dry ground beside it.
    pub bank_mismatches: usize,
    /// The worst such difference, metres.
    pub worst_bank_m: f64,
    /// Steps of more than 1 m between neighbouring water samples (1 m apart) along a river,
    /// beyond what the bed or the carved ground under it drops there (down a fall face the
    /// water follows the bed).
    pub steps: usize,
    /// The worst step, metres.
    pub worst_step_m: f64,
    /// Invariant (0): reaches whose surface rises downstream.
    pub rising: usize,
    /// Invariant (0): reaches whose surface ends below what they flow into.
    pub below_downstream: usize,
    /// Lake shores where the water stands more than 0.5 m above the dry ground beside it,
    /// walking from every lake node towards each neighbour that is not lake and on.
    pub lake_shore_mismatches: usize,
    /// The worst such difference, metres.
    pub worst_lake_shore_m: f64,
}

/// Every river level, reach flow and the sea's waves of one world, computed once from its
/// terrain (the store behind [`World`](crate::World)'s water queries and the Godot
/// `WaterTable` node).
#[derive(Debug, Clone, Default)]
pub struct WaterLevels {
    /// Surface level at each bed point of each reach, metres (same order as the reaches).
    pub reach_levels: Vec<Vec<f64>>,
    /// Per reach, the level of the lake that holds its water up (metres), when it flows
    /// into a lake or its surface ends at the level of the lake ahead (backwater): the lake
    /// covers the ground beside it that lies under that level and is not cut off from the
    /// channel by higher ground.
    pub lake_held: Vec<Option<f64>>,
    /// Flow in each reach.
    pub reach_flows: Vec<ReachFlow>,
    /// The sea's waves, when the world has a sea.
    pub sea: Option<SeaState>,
    /// Runoff over every catchment, metres per second.
    pub runoff_m_s: f64,
}

/// What a water table needs of its world besides the ground, drainage and channels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterParams {
    /// A river's surface stands this fraction of its carve depth above its bed (0..=1).
    pub river_fill: f64,
    /// The sea's level, metres above the datum; `None` without a sea.
    pub sea_level_m: Option<f64>,
    /// Runoff over every catchment, metres per second.
    pub runoff_m_s: f64,
}

impl WaterParams {
    /// A planet's water parameters, from its settings.
    pub fn for_world(settings: &WorldSettings) -> Self {
        WaterParams {
            river_fill: settings.river_fill,
            sea_level_m: settings.sea.then_some(settings.sea_level_m),
            runoff_m_s: BASE_RUNOFF_M_S * libm::exp2(2.0 * settings.climate),
        }
    }
}

impl WaterLevels {
    /// Computes every level from the solved drainage and channels of `terrain`, with the
    /// sea's waves `sea` (`None` on a world without a sea).
    pub fn build(terrain: &Terrain, sea: Option<SeaState>) -> Self {
        let settings = &terrain.settings;
        let levels = Self::build_on(
            &WaterParams::for_world(settings),
            &terrain.surface(),
            &terrain.drainage,
            &terrain.carve,
        );
        WaterLevels { sea, ..levels }
    }

    /// Computes every level on `surface` from its solved `drainage` and channels `carve`
    /// (without sea waves: [`WaterLevels::sea`] is `None`).
    pub fn build_on<S: Surface>(params: &WaterParams, surface: &S, d: &Drainage, carve: &Carve) -> Self {
        let reaches = &carve.reaches;
        // The levels walk the network one reach after another; beside them the ground across
        // every reach's middle is read, which the discharge needs and the levels do not change.
        let ((reach_levels, lake_held), grounds) = rayon::join(
            || walk_levels(params, d, carve),
            || reaches.par_iter().map(|r| cross_section(surface, carve, r)).collect::<Vec<_>>(),
        );
        let runoff_m_s = params.runoff_m_s;
        let reach_flows = reaches
            .iter()
            .zip(&reach_levels)
            .zip(&grounds)
            .map(|((r, levels), ground)| flow(r, ground, profile_at(levels, 0.5), runoff_m_s))
            .collect();
        WaterLevels { reach_levels, lake_held, reach_flows, sea: None, runoff_m_s }
    }
}

/// The lake or sea ahead of a reach: its level and how far away it is, metres, and whether
/// it is a lake.
type StillWater = (f64, f64, bool);

/// Each reach's water levels at its bed points, and the level of the lake it is held by (see
/// [`WaterLevels::lake_held`]), metres above the datum: a walk over the network of `d`, one
/// reach after another.
fn walk_levels(params: &WaterParams, d: &Drainage, carve: &Carve) -> (Vec<Vec<f64>>, Vec<Option<f64>>) {
    let reaches = &carve.reaches;
    let sea_level = params.sea_level_m;
    let order = &d.order;
    let reach_at = |i: usize| carve.reach_from(i).map(|id| id.0 as usize);
    // Mouth first: the still water ahead of every river node (a lake or the sea), how
    // far away it is and whether it is a lake.
    let still = |reach: &Reach| match reach.ends_in {
        ReachEnd::Lake => Some((d.water_level_m(reach.to.index()), 0.0, true)),
        ReachEnd::Sea => sea_level.map(|sea| (sea, 0.0, false)),
        ReachEnd::River => None,
    };
    // Held per reach (by the reach starting at the node), not per node.
    let mut still_ahead: Vec<Option<StillWater>> = vec![None; reaches.len()];
    let still_after =
        |still_ahead: &[Option<StillWater>], node: usize| reach_at(node).and_then(|next| still_ahead[next]);
    for i in order.iter().rev().map(|&i| i as usize) {
        let Some(k) = reach_at(i) else { continue };
        let reach = &reaches[k];
        let ahead = still(reach).or(still_after(&still_ahead, reach.to.index()));
        still_ahead[k] = ahead.map(|(level, dist, lake)| (level, dist + reach.length_m, lake));
    }
    // Upstream first: each surface stands `river_fill` of the carve depth (no more than a
    // normal channel's) above its bed, under its lower bank, eased into the lake or sea
    // ahead, a thin film at least; and no higher than what runs into it, so a surface capped
    // by a low bank upstream is not lifted over it again by backwater from below.
    let mut inflow = vec![f64::INFINITY; reaches.len()];
    let mut reach_levels: Vec<Vec<f64>> = vec![Vec::new(); reaches.len()];
    for i in order.iter().map(|&i| i as usize) {
        let Some(k) = reach_at(i) else { continue };
        let reach = &reaches[k];
        let pieces = reach.pieces();
        let ahead = still(reach).or(still_after(&still_ahead, reach.to.index()));
        let mut cap = inflow[k];
        let mut levels: Vec<f64> = (0..=pieces)
            .map(|p| {
                let (bed, bank) = (reach.beds[p], reach.banks[p]);
                let carve_depth = (bank - bed).clamp(0.0, reach.depth_m);
                let low_bank = reach.low_banks[p];
                let mut level = (bed + params.river_fill * carve_depth).min(low_bank - BANK_FREEBOARD_M);
                if let Some((still, dist, _)) = ahead.filter(|(still, _, _)| level > *still) {
                    let to_still = dist + (pieces - p) as f64 * reach.step_m();
                    level = still + (level - still) * smoothstep(0.0, LAKE_BLEND_M, to_still);
                }
                cap = level.min(cap).max(bed + MIN_WATER_M);
                cap
            })
            .collect();
        // Where a low bank caps the water much nearer its bed than just upstream (the ground
        // beside falling away from a sill, a cliff band), the water upstream comes down to
        // it gradually rather than stepping down over the bed.
        let fade = MAX_DEPTH_LOSS * reach.step_m();
        for p in (0..pieces).rev() {
            let depth_after = levels[p + 1] - reach.beds[p + 1];
            levels[p] = levels[p].min(reach.beds[p] + depth_after + fade);
        }
        if let Some(next) = reach_at(reach.to.index()) {
            inflow[next] = inflow[next].min(levels[pieces]);
        }
        reach_levels[k] = levels;
    }
    // Mouth first: backwater — no surface below what it flows into.
    for i in order.iter().rev().map(|&i| i as usize) {
        let Some(k) = reach_at(i) else { continue };
        let reach = &reaches[k];
        let r = reach.to.index();
        let mut floor = match reach.ends_in {
            ReachEnd::Lake => d.water_level_m(r),
            ReachEnd::Sea => sea_level.unwrap_or(f64::NEG_INFINITY),
            ReachEnd::River => reach_at(r).map_or(f64::NEG_INFINITY, |next| reach_levels[next][0]),
        };
        for v in reach_levels[k].iter_mut().rev() {
            *v = v.max(floor);
            floor = *v;
        }
    }
    let lake_held = reaches
        .iter()
        .zip(&reach_levels)
        .map(|(reach, levels)| {
            let to = reach.to.index();
            match reach.ends_in {
                ReachEnd::Lake => Some(d.water_level_m(to)),
                ReachEnd::Sea => None,
                ReachEnd::River => still_after(&still_ahead, to)
                    .filter(|&(_, _, lake)| lake)
                    .map(|(lake, _, _)| lake)
                    .filter(|&lake| levels.last().is_some_and(|&end| end <= lake)),
            }
        })
        .collect();
    (reach_levels, lake_held)
}

/// Samples of the ground across a reach's middle, bank to bank.
const SAMPLES: usize = 24;

/// The carved ground at [`SAMPLES`] points evenly across `reach`'s middle from one bank to
/// the other, metres above the datum.
fn cross_section<S: Surface>(surface: &S, carve: &Carve, reach: &Reach) -> [f64; SAMPLES] {
    let (mid, across) = surface.middle_across(reach.start, reach.end);
    let width = 2.0 * reach.half_width_m;
    // Each sample's nearest node is searched from the last one's.
    let mut near = reach.from.index();
    std::array::from_fn(|k| {
        let x = -reach.half_width_m + width * (k as f64 + 0.5) / SAMPLES as f64;
        let p = surface.onto(mid + across * (x / surface.metres_per_unit()));
        near = surface.nearest_node_from(p, near);
        carve.ground_near(surface, p, near).0
    })
}

/// Discharge and wetted cross-section of a reach at its middle, level `level_m`, over the
/// ground across it (`ground`, from [`cross_section`]).
fn flow(reach: &Reach, ground: &[f64; SAMPLES], level_m: f64, runoff_m_s: f64) -> ReachFlow {
    let width = 2.0 * reach.half_width_m;
    let area = ground.iter().fold(0.0, |area, g| area + (level_m - g).max(0.0) * width / SAMPLES as f64);
    let depth_m = (level_m - reach.bed_at(reach.length_m / 2.0)).max(0.0);
    ReachFlow { discharge_m3_s: runoff_m_s * reach.catchment_m2, area_m2: area.max(1e-6), depth_m }
}

/// A reach's weight and level at unit direction `p` on a planet of `radius_m`, when its
/// banks reach `p`: the level profile (`levels`, evenly spaced from start to end) at the
/// point's position along the reach. Past its lower end it falls as the reach it runs into
/// does (what `next` gives: that reach, with its levels, asked only there) at the point's
/// position along that reach, from its own end level; before its upper end it rises as the
/// reach running into it does (what `prev` gives: the main stream there, asked only there)
/// up from its own start level, and stays at its start level where nothing runs into it.
/// Otherwise (past the end of a reach that runs into a lake or the sea) it continues at its
/// mean slope.
///
/// Never its own mean slope upstream: on a short, steep reach (a fall, or a tributary's
/// settling face, at a fine lattice) that slope lifts the level metres above the reach
/// upstream within a half-width of the join, and the bell-weighted average there steps up
/// and back down along the river.
pub fn reach_contribution<'a>(
    reach: &Reach,
    levels: &[f64],
    next: impl FnOnce() -> Option<(&'a Reach, &'a [f64])>,
    prev: impl FnOnce() -> Option<(&'a Reach, &'a [f64])>,
    p: DVec3,
    radius_m: f64,
) -> Option<(f64, f64)> {
    let t = chord_fraction(reach.start, reach.end, p);
    let across = (p - reach.chord_point(t)).length() * radius_m;
    let beyond = (-t).max(t - 1.0).max(0.0) * reach.length_m;
    let w = reach_weight(across, beyond, reach.half_width_m);
    (w > 0.0).then(|| {
        let past_end = levels.last().filter(|_| t > 1.0).and_then(|&end| {
            let (next, next_levels) = next().filter(|(_, next_levels)| !next_levels.is_empty())?;
            // Read where the point lies along the next reach, not how far it lies past this
            // one's end: round a bend the two differ by metres, and where the next reach's
            // bed falls within them the two reaches' water, blended, fell twice.
            let along = chord_fraction(next.start, next.end, p).max(0.0);
            Some(end + profile_at(next_levels, along) - next_levels[0])
        });
        let before_start = levels.first().filter(|_| t < 0.0).map(|&start| {
            match prev().and_then(|(prev, prev_levels)| Some((prev, prev_levels, *prev_levels.last()?))) {
                Some((prev, prev_levels, prev_end)) => {
                    start + profile_at(prev_levels, 1.0 - beyond / prev.length_m.max(1e-9)) - prev_end
                }
                None => start,
            }
        });
        (w, past_end.or(before_start).unwrap_or_else(|| profile_at(levels, t)))
    })
}

/// Flow velocity at `p` (a point on a surface of `metres_per_unit`) from the reaches `ids`
/// of `reaches`: the bell-weighted average, over those whose banks reach `p`, of each one's
/// mean speed (`flows`) along the direction `along` gives it; zero when none reaches `p`.
pub(crate) fn mean_flow(
    reaches: &[Reach],
    flows: &[ReachFlow],
    ids: &[u32],
    p: DVec3,
    metres_per_unit: f64,
    along: impl Fn(&Reach) -> DVec3,
) -> DVec3 {
    let (mut sum, mut weights) = (DVec3::ZERO, 0.0);
    for &id in ids {
        let reach = &reaches[id as usize];
        let across = segment_projection(reach.start, reach.end, p).1 * metres_per_unit;
        let w = reach_weight(across, 0.0, reach.half_width_m);
        if w > 0.0 {
            sum += along(reach) * (w * flows[id as usize].mean_speed_m_s());
            weights += w;
        }
    }
    if weights > 0.0 {
        sum / weights
    } else {
        DVec3::ZERO
    }
}

/// Weight of a reach at a point `across_m` from its line and `beyond_m` past its nearer end,
/// for a channel of half-width `half_width_m`: the carve's bell across, faded past the ends.
pub(crate) fn reach_weight(across_m: f64, beyond_m: f64, half_width_m: f64) -> f64 {
    // Zero across the bank is zero whatever lies past the ends (the bell is never negative).
    let across = bell(across_m / half_width_m);
    if across == 0.0 {
        0.0
    } else {
        across * bell(beyond_m / half_width_m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::ReachEnd;
    use crate::ground::topology::NodeId;
    use crate::math::sphere;

    fn straight(start: DVec3, end: DVec3, length_m: f64) -> Reach {
        Reach {
            from: NodeId(0),
            to: NodeId(1),
            start,
            end,
            length_m,
            catchment_m2: 1.0e6,
            depth_m: 4.0,
            half_width_m: 6.0,
            beds: vec![0.0; 17],
            banks: vec![4.0; 17],
            low_banks: vec![4.0; 17],
            settle_m: 0.0,
            leaves_lake_m: None,
            ends_in: ReachEnd::River,
            drop_m: 0.0,
            fall: false,
        }
    }

    /// Pebble at 60,000 nodes: a reach crosses a trough about 9 m deep and 5 m wide between
    /// two mesa cliff bands. The ground beside it read every 4 m and interpolated put the bank
    /// at 7.75 m where the trough's floor is 5.00 m, and the water stood 1.06 m over it; read
    /// beside every bed point there, the water is capped under the trough's floor.
    #[test]
    fn trough_between_cliff_bands_pebble_60k() {
        let mut settings = crate::testkit::world("pebble");
        settings.lattice_nodes = 60_000;
        let world = crate::World::build(&settings);
        let stats = crate::water_stats(&world);
        assert_eq!((stats.bank_mismatches, stats.steps), (0, 0), "worst {:?}", stats.worst_bank_m);
    }

    /// Downstream no surface comes nearer its bed than `MAX_DEPTH_LOSS` per metre: where a
    /// low bank caps it (pebble at 60,000 nodes, past the trough between its cliff bands), it
    /// comes down before, not in a step over its bed. On the quick world, on redmesa, whose
    /// lake outlets fall off cliffs, and on pebble at 60,000 nodes.
    #[test]
    fn no_surface_loses_its_depth_in_a_step() {
        let mut settings = crate::testkit::world("pebble");
        settings.lattice_nodes = 60_000;
        let pebble_60k = crate::World::build(&settings);
        let worlds = [crate::testkit::built(crate::testkit::QUICK_WORLD), crate::testkit::built("redmesa")];
        for world in worlds.into_iter().chain([&pebble_60k]) {
            let (name, lattice) = (&world.terrain.settings.name, world.terrain.settings.lattice_nodes);
            let reaches = &world.terrain.carve.reaches;
            for (k, (reach, levels)) in reaches.iter().zip(&world.levels.reach_levels).enumerate() {
                let fade = MAX_DEPTH_LOSS * reach.step_m() + 1e-9;
                for p in 0..reach.pieces() {
                    let lost = (levels[p] - reach.beds[p]) - (levels[p + 1] - reach.beds[p + 1]);
                    assert!(lost <= fade, "{name} at {lattice}: reach {k} point {p} loses {lost} m");
                }
            }
        }
    }

    #[test]
    fn on_a_straight_reach_with_an_even_fall_the_average_is_the_line() {
        // Three collinear reaches along the equator of a 10 km planet, the surface falling
        // 1 m every 100 m; points anywhere near them, including beside the joins.
        let radius = 10_000.0;
        let at = |s: f64| sphere::direction(0.0, (s / radius).to_degrees());
        let line = |s: f64| 50.0 - s / 100.0;
        let reaches: Vec<(Reach, Vec<f64>)> = (0..3)
            .map(|k| {
                let (s0, s1) = (k as f64 * 100.0, (k + 1) as f64 * 100.0);
                let levels = (0..=16).map(|j| line(s0 + (s1 - s0) * j as f64 / 16.0)).collect();
                (straight(at(s0), at(s1), at(s0).distance(at(s1)) * radius), levels)
            })
            .collect();
        for s in [20.0, 99.0, 100.0, 101.5, 150.0, 199.9, 204.0, 260.0] {
            for off_deg in [0.0, 0.00002, -0.00003] {
                let p = sphere::unit(at(s) + DVec3::Y * off_deg);
                let (mut sum, mut weights) = (0.0, 0.0);
                for (k, (reach, levels)) in reaches.iter().enumerate() {
                    let next = || reaches.get(k + 1).map(|(r, l)| (r, l.as_slice()));
                    let prev = || k.checked_sub(1).map(|j| (&reaches[j].0, reaches[j].1.as_slice()));
                    if let Some((w, level)) = reach_contribution(reach, levels, next, prev, p, radius) {
                        sum += w * level;
                        weights += w;
                    }
                }
                assert!(weights > 0.0);
                // The chord is a hair shorter than the arc: allow a micrometre.
                assert!((sum / weights - line(s)).abs() < 1e-5, "s {s}: {} vs {}", sum / weights, line(s));
            }
        }
    }

    #[test]
    fn a_steep_reach_below_does_not_lift_the_water_of_the_reach_above_it() {
        // A flat reach at 10 m running into a 12 m reach that falls 8 m (a fall, or a
        // tributary's settling face, at a fine lattice), along the equator of a 10 km planet.
        // Within a half-width above the join the steep reach weighs in; continued upstream
        // at its own mean slope it stood up to 4 m over the flat water there, and the surface
        // stepped up and back down along the river.
        let radius = 10_000.0;
        let at = |s: f64| sphere::direction(0.0, (s / radius).to_degrees());
        let reach = |s0: f64, s1: f64| straight(at(s0), at(s1), at(s0).distance(at(s1)) * radius);
        let flat = (reach(0.0, 40.0), vec![10.0; 17]);
        let steep = (reach(40.0, 52.0), (0..=16).map(|j| 10.0 - 8.0 * j as f64 / 16.0).collect::<Vec<_>>());
        let level_at = |s: f64| {
            let p = at(s);
            let next = || Some((&steep.0, steep.1.as_slice()));
            let prev = || Some((&flat.0, flat.1.as_slice()));
            let (mut sum, mut weights) = (0.0, 0.0);
            for (w, level) in [
                reach_contribution(&flat.0, &flat.1, next, || None, p, radius),
                reach_contribution(&steep.0, &steep.1, || None, prev, p, radius),
            ]
            .into_iter()
            .flatten()
            {
                sum += w * level;
                weights += w;
            }
            sum / weights
        };
        let mut last = f64::INFINITY;
        for k in 0..=80 {
            let s = 30.0 + k as f64 * 0.125;
            let level = level_at(s);
            if s < 40.0 {
                assert!(
                    (level - 10.0).abs() < 1e-9,
                    "above the join the flat water stays flat: {level} at {s} m"
                );
            }
            assert!(level <= last + 1e-9, "the surface rises downstream at {s} m: {last} then {level}");
            last = level;
        }
    }

    #[test]
    fn past_a_bend_the_water_falls_where_the_next_reach_falls() {
        // A flat reach at 10 m along the equator of a 10 km planet, then one turning 45° to
        // the north whose water falls to 6 m over a step 3 m along it. Past the bend, the
        // first reach's water read as far past its end as the point lies along its own line
        // stood over the step a metre and a half short of where the second reach's fell, and
        // the blended surface fell twice down a step in the bed.
        let radius = 10_000.0;
        let at = |east: f64, north: f64| {
            sphere::direction((north / radius).to_degrees(), (east / radius).to_degrees())
        };
        let diagonal = std::f64::consts::FRAC_1_SQRT_2;
        let (a0, a1) = (at(0.0, 0.0), at(40.0, 0.0));
        let b1 = at(40.0 + 12.0 * diagonal, 12.0 * diagonal);
        let first = (straight(a0, a1, a0.distance(a1) * radius), vec![10.0; 17]);
        let second = (
            straight(a1, b1, a1.distance(b1) * radius),
            (0..=16).map(|j| if j <= 4 { 10.0 } else { 6.0 }).collect::<Vec<_>>(),
        );
        for k in 0..=8 {
            let along_m = 4.0 + 0.5 * k as f64;
            let p = at(40.0 + along_m * diagonal, along_m * diagonal);
            let next = || Some((&second.0, second.1.as_slice()));
            let prev = || Some((&first.0, first.1.as_slice()));
            let (mut sum, mut weights) = (0.0, 0.0);
            for (w, level) in [
                reach_contribution(&first.0, &first.1, next, || None, p, radius),
                reach_contribution(&second.0, &second.1, || None, prev, p, radius),
            ]
            .into_iter()
            .flatten()
            {
                sum += w * level;
                weights += w;
            }
            assert!((sum / weights - 6.0).abs() < 1e-6, "{along_m} m past the bend: {}", sum / weights);
        }
    }

    #[test]
    fn mill_turns_with_the_flow() {
        let flow = ReachFlow { discharge_m3_s: 6.0, area_m2: 4.0, depth_m: 2.0 };
        let omega = flow.mill_rate_rad_s(1.5, 0.35);
        // ω = v / r with v from the 1/7 power-law profile 0.35 m under the surface.
        let v = 1.5 * 8.0 / 7.0 * libm::pow((2.0 - 0.35) / 2.0, 1.0 / 7.0);
        assert!((omega - v / 1.5).abs() < 1e-12);
        assert!((flow.scaled(2.0).mill_rate_rad_s(1.5, 0.35) - 2.0 * omega).abs() < 1e-12);
        assert_eq!(flow.speed_at_depth_m_s(2.5), 0.0, "below the bed the water is still");
    }
}
