//! Water that fits its ground on a grid. The water table gives every cell a level from the
//! reaches and lakes around it; read cell by cell on steep channels and at lake outlets, a
//! cell's water can stand higher than the bank beside it or step down sharply to the next
//! cell. Here the levels are lowered — never raised, except to lift a river cell to the
//! water it drains into — to the highest water that overtops no dry neighbour by more than
//! [`SHORE_MISMATCH_M`], steps to no wet neighbour by more than [`WATER_STEP_M`] beyond the
//! ground's own drop, and never stands below the cell it drains into. A cell lowered to its
//! ground is dry.

use crate::drainage::Drainage;
use crate::ground::grid::Grid;
use crate::ground::topology::{NodeId, Topology};
use crate::water::heightmap::{Cover, SHORE_MISMATCH_M, WATER_STEP_M};
use std::collections::{BTreeMap, VecDeque};

/// What fitting the water to its ground changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct FitReport {
    /// River cells lifted to the level of the water they drain into.
    pub lifted_cells: usize,
    /// Wet cells whose level was lowered (and stayed wet).
    pub lowered_cells: usize,
    /// Wet cells lowered to their ground, now dry.
    pub dried_cells: usize,
    /// The largest lowering, metres.
    pub worst_lowering_m: f64,
}

/// Share of the water's cells the fit may dry before [`FitReport::warning`] speaks: one in a
/// hundred, where the drying stops being a shoreline trimmed and becomes water the heightmap
/// has no room for.
pub const FIT_DRIED_WARNING: f64 = 0.01;

impl FitReport {
    /// A sentence for the user when the fit had to move a lot, `None` otherwise: it dried
    /// more than [`FIT_DRIED_WARNING`] of the `wet_cells` that stayed wet, or lowered water
    /// by more than [`SHORE_MISMATCH_M`](crate::SHORE_MISMATCH_M), the misfit the checks
    /// count (water that far above its place was visibly wrong before the fit).
    pub fn warning(&self, wet_cells: usize) -> Option<String> {
        let before = (wet_cells + self.dried_cells).max(1);
        let dried = self.dried_cells as f64 / before as f64;
        let limit = crate::water::heightmap::SHORE_MISMATCH_M;
        (dried > FIT_DRIED_WARNING || self.worst_lowering_m > limit).then(|| {
            format!(
                "the water fit dried {} of {before} water cells ({:.1} %) and lowered water by up to \
                 {:.2} m: the heightmap's hollows and channels do not hold the water its drainage \
                 asks for (too coarse a map for its rivers, or a river threshold too small)",
                self.dried_cells,
                100.0 * dried,
                self.worst_lowering_m
            )
        })
    }
}

/// Fits `level` and `cover` (one per cell of `grid`, row-major) to `ground`: river cells
/// lifted to the water they drain into (outlets first), then every level lowered to the
/// highest that keeps the rules of this module; the sea keeps its level.
pub fn fit_to_ground(
    grid: &Grid,
    drainage: &Drainage,
    ground: &[f64],
    level: &mut [f64],
    cover: &mut [Cover],
) -> FitReport {
    let mut report = FitReport::default();
    let receiver = |i: usize| drainage.receivers[i].receiver().map(NodeId::index);
    for i in drainage.order.iter().rev().map(|&i| i as usize) {
        if cover[i] != Cover::River {
            continue;
        }
        if let Some(r) = receiver(i) {
            if cover[r] != Cover::Dry && level[r] > level[i] {
                level[i] = level[r];
                report.lifted_cells += 1;
            }
        }
    }
    // The level of each cell before its first lowering.
    let mut before: BTreeMap<usize, f64> = BTreeMap::new();
    let mut queued: Vec<bool> = cover.iter().map(|&c| c != Cover::Dry && c != Cover::Sea).collect();
    let mut queue: VecDeque<usize> = (0..grid.len()).filter(|&i| queued[i]).collect();
    while let Some(i) = queue.pop_front() {
        queued[i] = false;
        if cover[i] == Cover::Dry {
            continue;
        }
        let mut bound = level[i];
        for j in grid.neighbors(i) {
            let cap = match cover[j] {
                Cover::Dry => within(ground[j] + SHORE_MISMATCH_M, |l| l - ground[j], SHORE_MISMATCH_M),
                _ => {
                    let drop = (ground[i] - ground[j]).abs();
                    within(level[j] + drop + WATER_STEP_M, |l| (l - level[j]).abs() - drop, WATER_STEP_M)
                }
            };
            // Water drained into from a wet river cell stands no higher than it.
            let donor = cover[j] == Cover::River && receiver(j) == Some(i);
            bound = bound.min(if donor { cap.min(level[j]) } else { cap });
        }
        if bound >= level[i] {
            continue;
        }
        before.entry(i).or_insert(level[i]);
        if bound <= ground[i] {
            level[i] = ground[i];
            cover[i] = Cover::Dry;
        } else {
            level[i] = bound;
        }
        for j in grid.neighbors(i) {
            if !queued[j] && cover[j] != Cover::Dry && cover[j] != Cover::Sea {
                queued[j] = true;
                queue.push_back(j);
            }
        }
    }
    for (&i, &was) in &before {
        report.worst_lowering_m = report.worst_lowering_m.max(was - level[i]);
        if cover[i] == Cover::Dry {
            report.dried_cells += 1;
        } else {
            report.lowered_cells += 1;
        }
    }
    report
}

/// `value`, or the next floats below it, until `over(value)` is within `limit`: a cap that
/// holds when the stats measure it, whatever the rounding of the sum that made it.
fn within(mut value: f64, over: impl Fn(f64) -> f64, limit: f64) -> f64 {
    while over(value) > limit {
        value = value.next_down();
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fit_that_moved_little_says_nothing_and_one_that_moved_much_says_how_much() {
        let quiet = FitReport { lifted_cells: 3, lowered_cells: 40, dried_cells: 1, worst_lowering_m: 0.2 };
        assert_eq!(quiet.warning(1000), None);
        let dried = FitReport { dried_cells: 20, ..quiet };
        let said = dried.warning(980).expect("2 % dried");
        assert!(said.starts_with("the water fit dried 20 of 1000 water cells (2.0 %)"), "{said}");
        let lowered = FitReport { worst_lowering_m: 0.8, ..quiet };
        assert!(lowered.warning(1000).is_some_and(|s| s.contains("up to 0.80 m")));
        assert_eq!(FitReport::default().warning(0), None, "no water, nothing to say");
    }
}
