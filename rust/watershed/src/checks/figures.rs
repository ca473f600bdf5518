//! The handful of figures a designer reads first about a solved world — its rivers, lakes,
//! largest catchment, branching, how well the water fits the ground and where the village
//! stands — as one record: `report.json`'s `figures` and the editor panel's table are both
//! this record, field for field.

use crate::checks::stats::water_stats;
use crate::life::Life;
use crate::math::sphere;
use crate::water::world::World;
use serde::Serialize;

/// The headline figures of one solved world.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    /// Lattice nodes whose catchment passes the river threshold.
    pub river_nodes: usize,
    /// River reaches (node → receiver edges) carved as channels.
    pub reaches: usize,
    /// Lakes.
    pub lakes: usize,
    /// River nodes that drain into the sea.
    pub mouths: usize,
    /// The largest catchment that reaches an outlet, km².
    pub largest_catchment_km2: f64,
    /// The highest Strahler order of any river node.
    pub max_strahler: u8,
    /// River surfaces standing over 0.5 m above the dry ground at their edge (0 when the
    /// water fits).
    pub bank_mismatches: usize,
    /// Lake shores that end in a wall instead of meeting the ground (0 when the water fits).
    pub lake_shore_mismatches: usize,
    /// Steps of over 1 m in a river's surface (0 when the water fits).
    pub water_steps: usize,
    /// Land nodes draining to a receiver that is not strictly lower (an invariant: 0).
    pub uphill: usize,
    /// The village's centre, or `None` (then `why_no_village` says why).
    pub village: Option<LatLonDeg>,
    /// Hamlets beside the village.
    pub hamlets: usize,
    /// Why the world has no village (`None` when it has one).
    pub why_no_village: Option<String>,
}

/// A place as latitude and longitude, degrees (north and east positive).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LatLonDeg {
    /// Latitude, −90..=90 °.
    pub lat_deg: f64,
    /// Longitude, −180..=180 °.
    pub lon_deg: f64,
}

impl Figures {
    /// The figures of `world` and its `life`.
    pub fn of(world: &World, life: &Life) -> Self {
        let d = &world.terrain.drainage.stats;
        let water = water_stats(world);
        let sites = &life.sites;
        Figures {
            river_nodes: d.river,
            reaches: world.terrain.carve.reaches.len(),
            lakes: d.lakes,
            mouths: d.mouths,
            largest_catchment_km2: d.largest_catchment_m2 / 1e6,
            max_strahler: d.max_strahler,
            bank_mismatches: water.bank_mismatches,
            lake_shore_mismatches: water.lake_shore_mismatches,
            water_steps: water.steps,
            uphill: d.uphill,
            village: sites.village.map(|v| {
                let (lat, lon) = sphere::lat_lon_rad(v.dir);
                LatLonDeg { lat_deg: lat.to_degrees(), lon_deg: lon.to_degrees() }
            }),
            hamlets: sites.hamlets.len(),
            why_no_village: sites.why_not.clone(),
        }
    }
}
