//! Erosion: landforms that water made. Stream power on any topology (the sphere lattice or
//! a grid, through the same code), and for heightmaps droplets and the water + sediment
//! grid model, whose dials have names, ranges and presets ([`dials`]), chosen by name for a
//! heightmap ([`grid_erosion`]); what settles in hollows ([`sediment`]) and the pools of
//! a heightmap's rivers cut through ([`pools`]). Every model is deterministic: the same
//! bytes with any thread count.

pub mod dials;
pub mod droplets;
pub mod grid_erosion;
pub mod planet;
pub mod pools;
pub mod sediment;
pub mod stream_power;
pub mod water_sediment;
pub mod worked;

use crate::ground::topology::Topology;

/// Where a run shows its frames: called with the step (droplets: droplets so far), the
/// ground's heights and the water depth per node (empty when the model keeps no water).
pub type FrameSink<'a> = &'a mut dyn FnMut(usize, &[f64], &[f64]);

/// What a run of erosion did to the ground.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErosionReport {
    /// Steps (or, for droplets, droplets) run.
    pub steps: usize,
    /// Rock taken away where the ground fell, m³.
    pub eroded_m3: f64,
    /// Material laid down where the ground rose, m³.
    pub deposited_m3: f64,
    /// The deepest cut: the largest fall of any node, metres.
    pub deepest_cut_m: f64,
}

impl ErosionReport {
    /// The report for ground that went from `before` to `after` in `steps` steps.
    pub fn between<T: Topology>(topo: &T, before: &[f64], after: &[f64], steps: usize) -> Self {
        let mut report = ErosionReport { steps, eroded_m3: 0.0, deposited_m3: 0.0, deepest_cut_m: 0.0 };
        for (i, (b, a)) in before.iter().zip(after).enumerate() {
            let change = (a - b) * topo.area_m2(i);
            if change < 0.0 {
                report.eroded_m3 -= change;
                report.deepest_cut_m = report.deepest_cut_m.max(b - a);
            } else {
                report.deposited_m3 += change;
            }
        }
        report
    }
}
