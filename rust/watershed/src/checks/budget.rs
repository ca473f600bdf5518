//! What a solve will cost, known before it starts: memory and time from the settings alone,
//! and the check that refuses a world this machine cannot hold.
//!
//! Two things grow with a world. The lattice: every node carries its position, neighbour
//! list, height, fill, routing level, receiver, catchment, kind, levels and the solve's
//! scratch arrays — measured at 156–167 bytes a node at 1.6–16 million nodes, 170 used here.
//! The river beds: each reach is cut into pieces at most [`BED_STEP_M`] long, with its
//! natural ground, bed, bank and water level per piece — measured at 24 bytes a piece. Reach
//! count is estimated from the land fraction (4,096 sampled heights) and the catchment
//! threshold in nodes `k`: the share of land nodes that carry a river is
//! `min(1, 0.4 / sqrt(k))`, an upper fit to measured worlds (`k` 0.16, 4.8, 43 and 764 gave
//! 0.93, 0.19, 0.044 and 0.0095). The total bed length then stays put as the lattice is
//! refined, as the measured rivers do, so the estimate grows with `lattice_nodes`.
//!
//! Times are for a release build on two cores (the reference machine), fitted to
//! `watershed bench drainage` on an idle machine: 0.425 µs a node, 0.235 µs a bed piece (the
//! carve) and, when the world erodes, 15.5 ns a node per erosion step at 90,000 nodes. A
//! node costs more on a larger lattice, whose arrays outgrow the caches: the node cost grows
//! as `(n / 90,000)^0.02` (measured 0.40 µs at 90,000 nodes, 0.43 at 16 million, the carve's
//! 25 ns aside) and the erosion step's as `(n / 90,000)^0.22` (measured a node-step: 15.5 ns
//! at 90,000 nodes, 23 at one million, 36 at four million, 49 at 16 million). The estimate
//! then came within 11 % of home's build from 90,000 nodes to 16 million (0.14, 1.2, 6.1 and
//! 30.8 s measured), and of pebble's and highlands'; 21 % over dry_moon's and 1.9 times
//! ocean_world's, whose open sea costs less than land. Archipelago, whose small islands keep
//! their rivers short, has far fewer reaches than its land fraction says (538 where it says
//! 1,787). A debug build is several times slower. Erosion's arrays are gone before the
//! drainage's peak, which stays the peak.

use crate::carve::{BED_STEP_M, MIN_BED_PIECES};
use crate::ground::height::PlanetHeight;
use crate::math::sphere;
use crate::output::look::under_sea;
use crate::settings::WorldSettings;
use std::fmt;

/// Peak bytes a lattice node costs through the whole build (lattice to water table).
pub const SOLVE_BYTES_PER_NODE: u64 = 170;
/// Peak bytes one river bed piece costs (natural ground, bed, bank, water level).
pub const SOLVE_BYTES_PER_BED_PIECE: u64 = 24;
/// Bytes one reach costs beyond its pieces (the reach itself and its vectors' headers).
const BYTES_PER_REACH: u64 = 256;
/// Peak bytes one heightmap cell costs in `drain_grid` and the `.npy` files around it
/// (measured: 83 at one and nine million cells of an f8 heightmap).
pub const GRID_BYTES_PER_CELL: u64 = 100;
/// Seconds a node costs on the reference machine (release, two cores) at
/// [`REFERENCE_NODES`].
const SECONDS_PER_NODE: f64 = 0.425e-6;
/// Seconds a node costs per erosion step on the reference machine (release, two cores) at
/// [`REFERENCE_NODES`].
const SECONDS_PER_NODE_STEP: f64 = 15.5e-9;
/// The lattice size the per-node costs are given at.
const REFERENCE_NODES: f64 = 90_000.0;
/// How a node's cost grows with the lattice: `(n / REFERENCE_NODES)^NODE_GROWTH`.
const NODE_GROWTH: f64 = 0.02;
/// How a node's cost per erosion step grows with the lattice.
const NODE_STEP_GROWTH: f64 = 0.22;
/// Seconds a bed piece costs on the reference machine (release, two cores).
const SECONDS_PER_BED_PIECE: f64 = 0.235e-6;
/// Share of land nodes carrying a river where the threshold is one node's area (`k` = 1).
const RIVER_SHARE: f64 = 0.4;
/// Directions sampled for the land fraction.
const LAND_SAMPLES: usize = 4096;
/// Mean distance from a node to its receiver, in lattice spacings (measured: 1.09).
const REACH_SPACINGS: f64 = 1.1;

/// What building one world ([`crate::World::build`]) is expected to cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolveEstimate {
    /// Lattice nodes solved.
    pub lattice_nodes: usize,
    /// Estimated river reaches (one per river node).
    pub reaches: u64,
    /// Estimated river bed pieces over all reaches.
    pub bed_pieces: u64,
    /// Estimated peak memory of the build, bytes.
    pub bytes: u64,
    /// Rough wall-clock seconds on two cores in a release build.
    pub seconds: f64,
}

/// Estimates the peak memory and time of building `settings`' world.
///
/// Samples the ground at 4,096 directions for the land fraction (a valid world only; an
/// invalid one counts as all land), so it costs about a millisecond.
///
/// # Invariants
/// Never decreases as `lattice_nodes` grows with everything else fixed; within a factor of
/// two of the measured peak (measured: 1.0 to 1.6 times it on the shipped worlds and on
/// worlds whose river beds dominate).
pub fn estimate_solve(settings: &WorldSettings) -> SolveEstimate {
    let n = settings.lattice_nodes.max(16);
    let nf = n as f64;
    let radius = if settings.radius_m.is_finite() { settings.radius_m.abs() } else { 0.0 };
    let node_area_m2 = 4.0 * std::f64::consts::PI * radius * radius / nf;
    let spacing_m = radius * (4.0 * std::f64::consts::PI / nf).sqrt();
    let reaches = if settings.rivers {
        let k = settings.river_catchment_m2 / node_area_m2;
        let share = if k.is_nan() { 1.0 } else { (RIVER_SHARE / k.sqrt()).min(1.0) };
        (nf * land_fraction(settings) * share).ceil()
    } else {
        0.0
    };
    let erosion_steps = if settings.erosion { settings.erosion_steps as f64 } else { 0.0 };
    let per_reach = (REACH_SPACINGS * spacing_m / BED_STEP_M).ceil().max(MIN_BED_PIECES as f64);
    let pieces = reaches * per_reach;
    let scale = nf / REFERENCE_NODES;
    let bytes = nf * SOLVE_BYTES_PER_NODE as f64
        + reaches * BYTES_PER_REACH as f64
        + pieces * SOLVE_BYTES_PER_BED_PIECE as f64;
    SolveEstimate {
        lattice_nodes: n,
        reaches: reaches as u64,
        bed_pieces: pieces as u64,
        bytes: bytes as u64,
        seconds: nf * SECONDS_PER_NODE * scale.powf(NODE_GROWTH)
            + pieces * SECONDS_PER_BED_PIECE
            + nf * erosion_steps * SECONDS_PER_NODE_STEP * scale.powf(NODE_STEP_GROWTH),
    }
}

/// Estimated peak bytes of building `settings`' world ([`estimate_solve`]'s `bytes`).
pub fn estimated_solve_bytes(settings: &WorldSettings) -> u64 {
    estimate_solve(settings).bytes
}

/// Estimated peak bytes of draining a heightmap of `cells` cells and writing its arrays.
pub fn estimated_grid_bytes(cells: usize) -> u64 {
    (cells as u64).saturating_mul(GRID_BYTES_PER_CELL)
}

/// Fraction of 4,096 equal-area directions above the sea (1 without a sea or when the
/// settings do not validate).
fn land_fraction(settings: &WorldSettings) -> f64 {
    if !settings.sea || !settings.validate().is_empty() {
        return 1.0;
    }
    let planet = PlanetHeight::new(settings);
    let dirs: Vec<_> = (0..LAND_SAMPLES).map(|i| sphere::fibonacci(i, LAND_SAMPLES)).collect();
    let land = planet.heights(&dirs).iter().filter(|&&h| !under_sea(settings, h)).count();
    land as f64 / LAND_SAMPLES as f64
}

/// A solve refused because it would not fit in this machine's memory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SolveMemoryError {
    /// What was to be solved, e.g. `world 'home': lattice_nodes 90000`.
    pub subject: String,
    /// The estimate, bytes.
    pub needed_bytes: u64,
    /// What the machine has available, bytes.
    pub available_bytes: u64,
}

impl fmt::Display for SolveMemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} needs about {} to solve; this machine has {} available",
            self.subject,
            human_bytes(self.needed_bytes),
            human_bytes(self.available_bytes)
        )
    }
}

/// Bytes as `9.1 GiB`, `310 MiB` or `12 KiB`.
pub fn human_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b >= KIB * KIB * KIB {
        format!("{:.1} GiB", b / (KIB * KIB * KIB))
    } else if b >= KIB * KIB {
        format!("{:.0} MiB", b / (KIB * KIB))
    } else {
        format!("{:.0} KiB", (b / KIB).ceil())
    }
}

/// Memory this machine can give a new solve, bytes: `MemAvailable` from `/proc/meminfo`
/// (Linux); `None` where that is unknown.
pub fn available_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

/// `MemAvailable` of a `/proc/meminfo` text, bytes.
fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let kib: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// Refuses `settings`' world when its estimate exceeds the memory available now
/// ([`available_memory_bytes`]); the estimate when it fits or the memory is unknown.
///
/// # Errors
/// [`SolveMemoryError`] naming the world, its `lattice_nodes`, the estimate and what is
/// available.
pub fn check_solve_memory(settings: &WorldSettings) -> Result<SolveEstimate, SolveMemoryError> {
    check_solve_memory_with(settings, available_memory_bytes())
}

/// [`check_solve_memory`] against `available_bytes` (`None`: unknown, never refuses).
///
/// # Errors
/// [`SolveMemoryError`] when the estimate exceeds `available_bytes`.
pub fn check_solve_memory_with(
    settings: &WorldSettings,
    available_bytes: Option<u64>,
) -> Result<SolveEstimate, SolveMemoryError> {
    let estimate = estimate_solve(settings);
    match available_bytes {
        Some(available) if estimate.bytes > available => {
            let node_bytes = estimate.lattice_nodes as u64 * SOLVE_BYTES_PER_NODE;
            let beds = if estimate.bed_pieces * SOLVE_BYTES_PER_BED_PIECE > node_bytes {
                format!(" with about {} river bed pieces", estimate.bed_pieces)
            } else {
                String::new()
            };
            Err(SolveMemoryError {
                subject: format!("world '{}': lattice_nodes {}{beds}", settings.name, settings.lattice_nodes),
                needed_bytes: estimate.bytes,
                available_bytes: available,
            })
        }
        _ => Ok(estimate),
    }
}

/// Refuses draining a `rows` × `cols` heightmap when its estimate ([`estimated_grid_bytes`])
/// exceeds `available_bytes` (`None`: unknown, never refuses); the estimate otherwise.
///
/// # Errors
/// [`SolveMemoryError`] naming the grid, the estimate and what is available.
pub fn check_grid_memory(
    rows: usize,
    cols: usize,
    available_bytes: Option<u64>,
) -> Result<u64, SolveMemoryError> {
    let needed = estimated_grid_bytes(rows.saturating_mul(cols));
    match available_bytes {
        Some(available) if needed > available => Err(SolveMemoryError {
            subject: format!("a {rows} x {cols} heightmap"),
            needed_bytes: needed,
            available_bytes: available,
        }),
        _ => Ok(needed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_available_is_read_in_bytes() {
        let text = "MemTotal:       24684084 kB\nMemFree:  1 kB\nMemAvailable:   22006024 kB\n";
        assert_eq!(parse_mem_available(text), Some(22_006_024 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: lots\n"), None);
    }

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(human_bytes(9_771_050_598), "9.1 GiB");
        assert_eq!(human_bytes(310 * 1024 * 1024), "310 MiB");
        assert_eq!(human_bytes(1), "1 KiB");
    }
}
