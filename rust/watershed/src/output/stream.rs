//! Streaming reaches around a viewer: which per-reach work (SDF volumes, water meshes) to
//! load and unload. The loaded set is a function of the viewer's position alone, so the
//! answer is the same whatever path the viewer took to get there.

use crate::carve::{Reach, ReachId};
use crate::math::geometry::segment_projection;
use crate::math::sphere;
use glam::DVec3;

/// The reaches loaded around a viewer.
#[derive(Debug, Clone, PartialEq)]
pub struct ReachStreamer {
    /// Reaches closer than this to the viewer are loaded, metres.
    pub radius_m: f64,
    loaded: Vec<ReachId>,
}

/// What changed in one [`ReachStreamer::update`], each list ascending.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamUpdate {
    /// Reaches to load now.
    pub load: Vec<ReachId>,
    /// Reaches to unload now.
    pub unload: Vec<ReachId>,
}

impl ReachStreamer {
    /// A streamer with nothing loaded, loading reaches within `radius_m` of the viewer.
    pub fn new(radius_m: f64) -> Self {
        ReachStreamer { radius_m, loaded: Vec::new() }
    }

    /// The reaches loaded now, ascending.
    pub fn loaded(&self) -> &[ReachId] {
        &self.loaded
    }

    /// Moves the viewer to `viewer` (metres from the centre of a planet of `planet_radius_m`)
    /// and returns which of `reaches` to load and unload.
    pub fn update(&mut self, reaches: &[Reach], planet_radius_m: f64, viewer: DVec3) -> StreamUpdate {
        let wanted = reaches_within(reaches, planet_radius_m, viewer, self.radius_m);
        let load = wanted.iter().filter(|id| self.loaded.binary_search(id).is_err()).copied().collect();
        let unload = self.loaded.iter().filter(|id| wanted.binary_search(id).is_err()).copied().collect();
        self.loaded = wanted;
        StreamUpdate { load, unload }
    }
}

/// Every one of `reaches` (on a planet of `planet_radius_m`) whose centre line passes within
/// `radius_m` of the point under `viewer` (metres from the planet's centre) on the datum
/// sphere, ascending.
pub fn reaches_within(reaches: &[Reach], planet_radius_m: f64, viewer: DVec3, radius_m: f64) -> Vec<ReachId> {
    reaches
        .iter()
        .enumerate()
        .filter(|(_, reach)| distance_to(reach, viewer, planet_radius_m) <= radius_m)
        .map(|(i, _)| ReachId(i as u32))
        .collect()
}

/// Distance along the datum sphere from the point under `p` to the reach's centre line,
/// metres: a viewer high on a mountain is as near a river as one at the datum below it.
fn distance_to(reach: &Reach, p: DVec3, radius_m: f64) -> f64 {
    segment_projection(reach.start * radius_m, reach.end * radius_m, sphere::unit(p) * radius_m).1
}
