//! Probes: the checks the headless Godot probes run, against the core alone.
//!
//! Each check gives one line: `PASS world/check value` or `FAIL world/check value expected`.
//! `watershed probe` prints them and fails on any FAIL; the Godot probes in `probes/` make
//! the same checks through the add-on's nodes.

use crate::checks::digest::world_digests;
use crate::checks::stats::{river_sample_points, teleport_check, water_stats};
use crate::drainage::NodeKind;
use crate::floating::boat::Boat;
use crate::floating::hull::Hull;
use crate::life::sites::{SiteRules, Sites};
use crate::math::sphere;
use crate::output::voxel::{encode_sdf, Block, BlockFill, SdfDepth};
use crate::settings::{WorldCatalog, WorldSettings};
use crate::water::levels::Body;
use crate::water::waves::GRAVITY_M_S2 as GRAVITY;
use crate::water::world::World;
use glam::DVec3;
use std::fmt;

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The check held.
    Pass,
    /// The check failed; what was expected.
    Fail(String),
    /// The check could not run here; why.
    Skip(String),
}

/// One check's line.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeLine {
    /// `world/check`.
    pub name: String,
    /// What was measured.
    pub value: String,
    /// Pass, fail or skip.
    pub verdict: Verdict,
}

impl fmt::Display for ProbeLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.verdict {
            Verdict::Pass => write!(f, "PASS {} {}", self.name, self.value),
            Verdict::Fail(expected) => write!(f, "FAIL {} {} {}", self.name, self.value, expected),
            Verdict::Skip(why) => write!(f, "SKIP {} {}", self.name, why),
        }
    }
}

fn line(name: String, value: impl fmt::Display, ok: bool, expected: impl fmt::Display) -> ProbeLine {
    let verdict = if ok { Verdict::Pass } else { Verdict::Fail(format!("expected {expected}")) };
    ProbeLine { name, value: value.to_string(), verdict }
}

/// The config probe: `worlds_json` loads, and a copy with a misspelt key is rejected with
/// the suggestion.
pub fn config_probe(worlds_json: &str) -> Vec<ProbeLine> {
    let loaded = WorldCatalog::from_json(worlds_json);
    let count = loaded.as_ref().map_or(0, |c| c.worlds.len());
    let mut out = vec![line("config/load".into(), format!("{count} worlds"), loaded.is_ok(), "a valid file")];
    let misspelt = worlds_json.replacen("\"sea_level_m\"", "\"sea_levle_m\"", 1);
    let message = match WorldCatalog::from_json(&misspelt) {
        Ok(_) => String::from("accepted"),
        Err(e) => e.0.first().map_or_else(String::new, |e| e.message.clone()),
    };
    let ok = message.contains("unknown key 'sea_levle_m'; did you mean 'sea_level_m'?");
    out.push(line("config/misspelt_key".into(), format!("\"{message}\""), ok, "the key and the suggestion"));
    out
}

/// Every probe of one world (determinism, drainage, water, mill, buoyancy, voxel, capture).
pub fn world_probes(settings: &WorldSettings) -> Vec<ProbeLine> {
    let world = World::build(settings);
    let w = &settings.name;
    let mut out = Vec::new();

    // determinism: the four digests, again from a second build on one thread.
    let sample = world_digests(settings, &world.terrain.planet);
    let digests = [
        sample.directions.clone(),
        sample.heights.clone(),
        world.terrain.network_digest(),
        world.terrain.sets_digest(),
    ];
    let again = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool.install(|| {
            let w2 = World::build(settings);
            let s2 = world_digests(settings, &w2.terrain.planet);
            [s2.directions, s2.heights, w2.terrain.network_digest(), w2.terrain.sets_digest()]
        }),
        Err(_) => digests.clone(),
    };
    let short: Vec<&str> = digests.iter().map(|d| &d[..12]).collect();
    out.push(line(
        format!("{w}/determinism"),
        short.join(","),
        digests == again,
        "the same digests on one thread",
    ));

    // drainage
    let s = &world.terrain.drainage.stats;
    out.push(line(format!("{w}/uphill_receivers"), s.uphill, s.uphill == 0, 0));
    out.push(line(format!("{w}/no_path_to_outlet"), s.no_path, s.no_path == 0, 0));
    out.push(line(format!("{w}/underwater_rivers"), s.underwater_rivers, s.underwater_rivers == 0, 0));
    out.push(line(
        format!("{w}/dry_ground_falls"),
        s.ground_uphill,
        s.ground_uphill == 0 || !settings.lakes,
        "0 dry nodes without a lower receiver (a world with lakes)",
    ));
    let km2 = s.largest_catchment_m2 / 1e6;
    out.push(line(
        format!("{w}/largest_catchment"),
        format!("{} nodes {km2:.2} km2", s.largest_catchment_nodes),
        s.largest_catchment_m2 > 0.0,
        "a catchment",
    ));
    out.push(line(
        format!("{w}/lakes"),
        s.lakes,
        !settings.lakes || settings.lake_at.is_none() || s.lakes > 0,
        "a lake",
    ));
    let rivers_ok =
        if settings.rivers && settings.sea { s.mouths > 0 } else { s.mouths == 0 || !settings.sea };
    out.push(line(format!("{w}/mouths"), s.mouths, rivers_ok, "mouths where rivers reach a sea"));

    // life: a world with dry land and fresh water has a village; one without says why.
    let sites = Sites::of(&world, &SiteRules::default());
    let fresh = world.terrain.drainage.kind.iter().any(|k| matches!(k, NodeKind::River | NodeKind::Lake));
    let has_land = world.terrain.drainage.kind.contains(&NodeKind::Land);
    let village = match (&sites.village, &sites.why_not) {
        (Some(v), _) => format!(
            "{} hamlets, slope {:.1} deg, {:.0} m walk to water",
            sites.hamlets.len(),
            v.slope_deg,
            v.walk_to_water_m
        ),
        (None, why) => format!("none: {}", why.as_deref().unwrap_or("no reason given")),
    };
    let village_ok = sites.village.is_some() == (fresh && has_land)
        && (sites.village.is_some() || sites.why_not.is_some());
    out.push(line(
        format!("{w}/village"),
        village,
        village_ok,
        "a village where there is land and fresh water",
    ));
    out.push(line(
        format!("{w}/spawn"),
        sites.spawn.map_or("none".to_string(), |s| {
            if s.to_coast_m.is_finite() {
                format!("{:.0} m from the coast", s.to_coast_m)
            } else {
                "no water to walk to".to_string()
            }
        }),
        sites.spawn.is_some_and(|s| world.water().at(s.dir).is_none()) || !has_land,
        "on dry land",
    ));

    // water
    let points = river_sample_points(&world, 7);
    let changed = teleport_check(&world, &points);
    out.push(line(
        format!("{w}/teleport_shift"),
        format!("{changed} of {} points", points.len()),
        changed == 0,
        0,
    ));
    let ws = water_stats(&world);
    out.push(line(
        format!("{w}/water_surfaces"),
        format!("rising {} below_downstream {}", ws.rising, ws.below_downstream),
        ws.rising == 0 && ws.below_downstream == 0,
        "0 and 0",
    ));
    out.push(line(
        format!("{w}/bank_mismatches"),
        format!(
            "{} worst {:.2} m; steps {} worst {:.2} m",
            ws.bank_mismatches, ws.worst_bank_m, ws.steps, ws.worst_step_m
        ),
        ws.bank_mismatches == 0 && ws.steps == 0,
        "0 over 0.5 m and 0 steps over 1 m",
    ));
    out.push(ProbeLine {
        name: format!("{w}/lake_shores"),
        value: format!("{} worst {:.2} m", ws.lake_shore_mismatches, ws.worst_lake_shore_m),
        verdict: Verdict::Pass,
    });

    out.push(mill_probe(&world));
    out.push(buoyancy_probe(&world));
    out.push(boat_probe(&world));
    out.push(voxel_probe(&world));
    out.push(ProbeLine {
        name: format!("{w}/capture"),
        value: String::new(),
        verdict: Verdict::Skip("no renderer outside Godot".into()),
    });
    out
}

/// The mill at [`crate::Mills::site`]: the rule's rate, and twice the flow turns it twice as fast.
fn mill_probe(world: &World) -> ProbeLine {
    let name = format!("{}/mill", world.terrain.settings.name);
    let Some(site) = world.mills().site() else {
        return ProbeLine { name, value: String::new(), verdict: Verdict::Skip("no rivers".into()) };
    };
    let (radius_m, dip_m) = (1.5, 0.35);
    let (Some(flow), Some(omega)) =
        (world.water().reach_flow_at(site), world.mills().rate_rad_s(site, radius_m, dip_m))
    else {
        return line(name, "no flow", false, "a river at the largest reach");
    };
    let rule = flow.speed_at_depth_m_s(dip_m) / radius_m;
    let doubled = flow.scaled(2.0).mill_rate_rad_s(radius_m, dip_m);
    let ok = (omega - rule).abs() < 1e-12 && (doubled - 2.0 * omega).abs() < 1e-9 * omega.max(1.0);
    line(
        name,
        format!("{omega:.4} rad/s rule {rule:.4} doubled {doubled:.4}"),
        ok,
        "rule equal, doubled twice",
    )
}

/// The world whose boat drifts down its main river in the probes: a drift takes seconds
/// of computing per hour afloat, so one world carries it.
pub const BOAT_WORLD: &str = "home";

/// A small boat ([`Boat::default`]) let go at the middle of the main stem's source reach
/// ([`crate::Carve::main_stem_source`]) reaches the sea or a lake within 48 simulated hours,
/// stepped at 10 Hz, without grounding or leaving the water; on [`BOAT_WORLD`] only.
fn boat_probe(world: &World) -> ProbeLine {
    let name = format!("{}/boat", world.terrain.settings.name);
    if world.terrain.settings.name != BOAT_WORLD {
        return ProbeLine {
            name,
            value: String::new(),
            verdict: Verdict::Skip(format!("drifts on {BOAT_WORLD}")),
        };
    }
    let Some(k) = world.terrain.carve.main_stem_source() else {
        return line(name, "no rivers", false, "a river to drift down");
    };
    let reach = &world.terrain.carve.reaches[k];
    let drift = Boat::default().drift(world, reach.start + reach.end, 0.1, 48.0 * 3600.0);
    let value = format!(
        "{} after {:.1} h, {:.0} m from the source, least clearance {:.2} m{}{}",
        drift.reached.map_or("nowhere", |b| if b == Body::Sea { "the sea" } else { "a lake" }),
        drift.seconds / 3600.0,
        drift.distance_m,
        drift.least_clearance_m,
        if drift.grounded { ", grounded" } else { "" },
        if drift.left_water { ", left the water" } else { "" },
    );
    let ok = drift.reached.is_some() && !drift.grounded && !drift.left_water;
    line(name, value, ok, "the sea or a lake, afloat all the way")
}

/// A 1 m crate of 500 kg dropped on the sea (the demo's crate, through [`crate::Hull::forces`]):
/// after 40 s its centre rides the wave surface.
fn buoyancy_probe(world: &World) -> ProbeLine {
    let name = format!("{}/buoyancy", world.terrain.settings.name);
    let Some(sea) = world.levels.sea.as_ref() else {
        return ProbeLine { name, value: String::new(), verdict: Verdict::Skip("no sea".into()) };
    };
    let d = &world.terrain.drainage;
    let Some(deep) = (0..d.kind.len())
        .find(|&i| d.kind[i] == NodeKind::Sea && d.water_level_m(i) - world.terrain.heights[i] > 20.0)
    else {
        return ProbeLine { name, value: String::new(), verdict: Verdict::Skip("no open sea".into()) };
    };
    let r = world.terrain.settings.radius_m;
    let up = world.terrain.lattice.positions()[deep];
    let (e1, e2) = (sphere::unit(DVec3::Y.cross(up)), up.cross(sphere::unit(DVec3::Y.cross(up))));
    // The demo's crate: 1 m, 500 kg, sampled as the demo samples it.
    let hull = Hull::cuboid(DVec3::ONE, 900.0);
    let corners = Hull::cuboid_samples(DVec3::ONE).map(|s| e1 * s.x + up * s.y + e2 * s.z);
    let (mass, dt) = (500.0, 1.0 / 60.0);
    let (mut height, mut speed) = (world.terrain.settings.sea_level_m + 3.0, 0.0);
    let mut worst: f64 = 0.0;
    for step in 0..(60 * 60) {
        let t = step as f64 * dt;
        let centre = up * (r + height);
        let points: Vec<DVec3> = corners.iter().map(|&c| centre + c).collect();
        let lift: f64 = hull.forces(world, &points, up * speed, t).iter().map(|f| f.dot(up)).sum();
        speed += (lift - mass * GRAVITY) / mass * dt;
        height += speed * dt;
        if t > 40.0 {
            // Floating half under: the centre sits at the surface.
            worst = worst.max((height - sea.surface_height_m(up, t)).abs());
        }
    }
    line(name, format!("worst {worst:.2} m off the surface over the last 20 s"), worst < 0.5, "under 0.5 m")
}

/// A block through the bridge's fill: inside below the ground, outside above it, in both
/// encodings.
fn voxel_probe(world: &World) -> ProbeLine {
    let name = format!("{}/voxel", world.terrain.settings.name);
    let r = world.terrain.settings.radius_m;
    let dir = sphere::direction(5.0, 5.0);
    let ground = world.terrain.ground(dir);
    let block = Block { origin: dir * (r + ground) - DVec3::splat(8.0), size: [17; 3], step_m: 1.0 };
    let mut out = vec![0f32; 17 * 17 * 17];
    let centre = 8 + 17 * (8 + 17 * 8);
    let filled = world.terrain.fill_block(&block, &mut out);
    let probe_at = |h: f64| world.terrain.sdf(dir * (r + ground + h));
    let signs_ok = probe_at(-4.0) < 0.0 && probe_at(4.0) > 0.0;
    let bytes16 = encode_sdf(&out, SdfDepth::Bits16);
    let bytes32 = encode_sdf(&out, SdfDepth::Bits32);
    let ok = matches!(filled, Ok(BlockFill::Mixed))
        && signs_ok
        && out[centre].abs() < 1.5
        && bytes16.len() * 2 == bytes32.len();
    line(
        name,
        format!("{filled:?} centre {:.2} m, {} + {} bytes", out[centre], bytes16.len(), bytes32.len()),
        ok,
        "a mixed block, inside below, outside above",
    )
}
