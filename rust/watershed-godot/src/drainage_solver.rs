//! `DrainageSolver`: solves the planet's drainage (and its channels and water) off the main
//! thread and offers the result as packed arrays.

use crate::convert::{checked_direction, emit_deferred, emit_progress, record_to_dictionary, to_vector3};
use crate::planet_height::PlanetHeight;
use crate::registry;
use crate::worker::{Report, Worker};
use godot::prelude::*;
use std::sync::Arc;
use watershed::{Pipeline, World};

/// Solves where every point of the planet drains: the lattice, receivers, lakes, catchments
/// and rivers, then the channels and the water table, on a worker thread. Points at a
/// `PlanetHeight` for its settings. `solve()` returns at once; `progress` reports each stage
/// and `solved` fires on the main thread when the result is in.
#[derive(GodotClass)]
#[class(tool, init, base = Node)]
pub struct DrainageSolver {
    /// The ground field whose settings are solved.
    #[export]
    planet: Option<Gd<PlanetHeight>>,
    /// Solve when entering the tree (and again whenever the planet regenerates).
    #[export]
    #[init(val = true)]
    auto_solve: bool,
    world: Option<Arc<World>>,
    /// The settings of the solve running or finished last (an unchanged planet is not
    /// solved twice).
    solving: Option<watershed::WorldSettings>,
    handle: i64,
    worker: Worker<Arc<World>>,
    base: Base<Node>,
}

#[godot_api]
impl INode for DrainageSolver {
    fn ready(&mut self) {
        if let Some(mut planet) = self.planet.clone() {
            let callable = Callable::from_object_method(&self.to_gd(), "on_planet_regenerated");
            if !planet.is_connected("regenerated", &callable) {
                planet.connect("regenerated", &callable);
            }
        }
        self.base_mut().set_process(true);
        if self.auto_solve {
            self.solve();
        }
    }

    fn process(&mut self, _delta: f64) {
        for report in self.worker.reports() {
            match report {
                Report::Progress(stage, fraction) => emit_progress(self.to_gd().upcast(), stage, fraction),
                Report::Done(world) => {
                    registry::release(self.handle);
                    self.handle = registry::register(world.clone());
                    self.world = Some(world);
                    let stats = self.stats();
                    emit_deferred(self.to_gd().upcast(), "solved", &[stats.to_variant()]);
                }
            }
        }
    }
}

/// The world `solver` has solved, for the nodes that read it (`who` names the reader in
/// the error); `None` before its first solve, and with one error when it was freed.
pub fn solved_world(solver: Option<&Gd<DrainageSolver>>, who: &str) -> Option<Arc<World>> {
    let solver = solver?;
    if !solver.is_instance_valid() {
        godot_error!("{who}: its solver was freed; point `solver` at a live DrainageSolver");
        return None;
    }
    solver.bind().world()
}

impl Drop for DrainageSolver {
    fn drop(&mut self) {
        registry::release(self.handle);
    }
}

#[godot_api]
impl DrainageSolver {
    /// Emitted on the main thread as each stage finishes (`lattice`, `heights`, `drainage`,
    /// `carve`, `water`), with the fraction of the work done.
    #[signal]
    fn progress(stage: GString, fraction: f64);

    /// Emitted on the main thread when a solve starts: its estimated peak memory in bytes
    /// and its rough time in seconds (release build, two cores). A world whose estimate
    /// exceeds the memory this machine has available is refused instead, with the estimate
    /// in the error.
    #[signal]
    fn estimated(bytes: i64, seconds: f64);

    /// Emitted on the main thread when a solve is in; `stats` as from `stats()`.
    #[signal]
    fn solved(stats: VarDictionary);

    /// Starts solving the planet's current settings on a worker thread (unless those very
    /// settings are already solved or being solved). A running solve of other settings is
    /// cancelled: it stops at its next stage and this one starts when it has, so a slider
    /// dragged through many values runs one solve at a time and emits one `solved`. Returns
    /// false (with an error) when there is no planet, its settings are invalid, or the
    /// solve's estimated memory exceeds what the machine has available.
    #[func]
    fn solve(&mut self) -> bool {
        let Some(mut planet) = self.planet.clone() else {
            godot_error!("DrainageSolver: no PlanetHeight set");
            return false;
        };
        let Some(settings) = planet.bind_mut().snapshot().cloned() else { return false };
        if self.solving.as_ref() == Some(&settings) {
            return true;
        }
        let estimate = match watershed::check_solve_memory(&settings) {
            Ok(estimate) => estimate,
            Err(e) => {
                godot_error!("DrainageSolver: {e}");
                return false;
            }
        };
        let args = [(estimate.bytes as i64).to_variant(), estimate.seconds.to_variant()];
        emit_deferred(self.to_gd().upcast(), "estimated", &args);
        self.solving = Some(settings.clone());
        // A new solve supersedes the running one: the worker flags it to stop at its next
        // stage and starts this one only once it has, so at most one solve of this solver
        // runs at a time.
        self.worker.start(move |progress, cancel| {
            Pipeline::new(&settings).progress(progress).cancel(cancel).world().map(Arc::new)
        });
        true
    }

    /// Solves the planet's current settings again, even when they are the ones solved last
    /// (the editor panel's Regenerate); otherwise as `solve()`.
    #[func]
    fn solve_again(&mut self) -> bool {
        self.solving = None;
        self.solve()
    }

    /// Re-solves after the planet was rebuilt, when `auto_solve` is on.
    #[func]
    fn on_planet_regenerated(&mut self) {
        if self.auto_solve && self.base().is_inside_tree() {
            self.solve();
        }
    }

    /// Whether a solve has finished.
    #[func]
    fn is_solved(&self) -> bool {
        self.world.is_some()
    }

    /// Whether a solve is running.
    #[func]
    fn is_solving(&self) -> bool {
        self.worker.is_running()
    }

    /// The handle of the solved world for `WatershedVoxel` (0 before the first solve).
    #[func]
    fn world_handle(&self) -> i64 {
        self.handle
    }

    /// Unit position of every lattice node.
    #[func]
    fn positions(&self) -> PackedVector3Array {
        let v: Vec<Vector3> = self
            .world
            .iter()
            .flat_map(|w| w.terrain.lattice.positions().iter().map(|&p| to_vector3(p)))
            .collect();
        PackedVector3Array::from(v)
    }

    /// Ground height at every node, metres.
    #[func]
    fn heights(&self) -> PackedFloat32Array {
        PackedFloat32Array::from(
            self.world.iter().flat_map(|w| w.terrain.heights.iter().map(|&h| h as f32)).collect::<Vec<_>>(),
        )
    }

    /// Receiver of every node; -1 where the water stops (sea, sink).
    #[func]
    fn receivers(&self) -> PackedInt32Array {
        let r = self.world.iter().flat_map(|w| w.terrain.drainage.receiver_indices()).map(|r| r as i32);
        PackedInt32Array::from(r.collect::<Vec<_>>())
    }

    /// Catchment area of every node, m².
    #[func]
    fn catchment(&self) -> PackedFloat32Array {
        let c = self.world.iter().flat_map(|w| w.terrain.drainage.catchment_m2.iter().map(|&c| c as f32));
        PackedFloat32Array::from(c.collect::<Vec<_>>())
    }

    /// `kinds()`: land above the sea that carries no river.
    #[constant]
    const KIND_LAND: i64 = watershed::NodeKind::Land as i64;
    /// `kinds()`: under the sea.
    #[constant]
    const KIND_SEA: i64 = watershed::NodeKind::Sea as i64;
    /// `kinds()`: standing water at a lake's level.
    #[constant]
    const KIND_LAKE: i64 = watershed::NodeKind::Lake as i64;
    /// `kinds()`: land whose catchment passes the river threshold.
    #[constant]
    const KIND_RIVER: i64 = watershed::NodeKind::River as i64;

    /// What every node is: `KIND_LAND`, `KIND_SEA`, `KIND_LAKE` or `KIND_RIVER` (0 to 3).
    #[func]
    fn kinds(&self) -> PackedByteArray {
        PackedByteArray::from(
            self.world
                .iter()
                .flat_map(|w| w.terrain.drainage.kind.iter().map(|&k| k as u8))
                .collect::<Vec<_>>(),
        )
    }

    /// Standing water level of every node (sea or lake level), NaN elsewhere.
    #[func]
    fn levels(&self) -> PackedFloat32Array {
        let l = self.world.iter().flat_map(|w| w.terrain.drainage.water_levels_m().map(|l| l as f32));
        PackedFloat32Array::from(l.collect::<Vec<_>>())
    }

    /// The node nearest to `direction` (-1 before the first solve, or with an error for a
    /// zero, NaN or infinite direction).
    #[func]
    fn nearest_node(&self, direction: Vector3) -> i64 {
        let Some(dir) = checked_direction(direction, "DrainageSolver.nearest_node") else { return -1 };
        self.world.as_ref().map_or(-1, |w| i64::from(w.terrain.lattice.nearest_node(dir).0))
    }

    /// Metres above the datum of the carved ground (channels cut) in `direction`: what a
    /// walker stands on and the voxel SDF meshes (NaN before the first solve).
    #[func]
    fn ground_at(&self, direction: Vector3) -> f64 {
        let Some(dir) = checked_direction(direction, "DrainageSolver.ground_at") else { return f64::NAN };
        self.world.as_ref().map_or(f64::NAN, |w| w.terrain.ground(dir))
    }

    /// Lines over the solve's water, `lift_m` metres above it, relative to the planet's
    /// centre: `rivers` (a segment per reach, on its surface) and `lakes` (a segment per
    /// lattice edge inside a lake, at its level), each a PackedVector3Array of point pairs
    /// for a `PRIMITIVE_LINES` mesh. Empty arrays before the first solve.
    #[func]
    fn water_lines(&self, lift_m: f64) -> VarDictionary {
        let lift = if lift_m.is_finite() { lift_m } else { 0.0 };
        let overlay = self.world.as_ref().map(|w| watershed::Overlay::of(w, lift)).unwrap_or_default();
        let points =
            |p: &[watershed::DVec3]| p.iter().map(|&v| to_vector3(v)).collect::<PackedVector3Array>();
        let mut d = VarDictionary::new();
        d.set("rivers", &points(&overlay.rivers));
        d.set("lakes", &points(&overlay.lakes));
        d
    }

    /// Counts and invariants of the solve, the core's `DrainageStats` field for field: node
    /// counts `nodes`, `sea`, `land`, `lake`, `river`; `lakes`, `bays`, `mouths`,
    /// `max_strahler`, `largest_catchment_m2` (m²), `largest_catchment_nodes`; the
    /// invariants (0) `uphill`, `no_path`, `underwater_rivers`; and `ground_uphill`. Empty
    /// before the first solve.
    #[func]
    fn stats(&self) -> VarDictionary {
        self.world.as_ref().map(|w| record_to_dictionary(&w.terrain.drainage.stats)).unwrap_or_default()
    }

    /// The four determinism digests (hex SHA-256): `directions`, `heights` (4,096 seeded
    /// directions), `network` and `sets` (the whole solve). Empty before the first solve.
    #[func]
    fn digests(&self) -> VarDictionary {
        let mut d = VarDictionary::new();
        let Some(world) = self.world.as_ref() else { return d };
        let sample = watershed::world_digests(&world.terrain.settings, &world.terrain.planet);
        d.set("directions", &GString::from(sample.directions.as_str()).to_variant());
        d.set("heights", &GString::from(sample.heights.as_str()).to_variant());
        d.set("network", &GString::from(world.terrain.network_digest().as_str()).to_variant());
        d.set("sets", &GString::from(world.terrain.sets_digest().as_str()).to_variant());
        d
    }
}

impl DrainageSolver {
    /// The solved world, if a solve has finished.
    pub fn world(&self) -> Option<Arc<World>> {
        self.world.clone()
    }
}
