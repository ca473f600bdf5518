//! `PlanetHeight`: the planet's ground field as a node.

use crate::convert::{
    checked_direction, checked_directions, emit_deferred, emit_progress, to_dvec3, to_vector3,
};
use crate::worker::{Report, Worker};
use crate::world_settings::WorldSettings;
use godot::prelude::*;
use std::sync::Arc;
use watershed::{Block, BlockFill, Pipeline};

/// The planet's ground: metres above the datum for any direction. Holds a `WorldSettings`;
/// editing it rebuilds the ground once, on a worker thread: the natural field on the
/// drainage lattice, eroded when the settings say so and settled (hollows that hold no
/// water filled). `progress` reports each stage and `regenerated` fires on the main thread
/// when the new ground is in; a query made while it is being built waits for it. The
/// planet's centre is this node's origin.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct PlanetHeight {
    /// The planet's settings.
    #[export]
    #[var(set = set_settings)]
    settings: Option<Gd<WorldSettings>>,
    field: Option<Arc<watershed::PlanetHeight>>,
    snapshot: Option<watershed::WorldSettings>,
    dirty: bool,
    worker: Worker<Arc<watershed::PlanetHeight>>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for PlanetHeight {
    fn ready(&mut self) {
        self.base_mut().set_process(true);
    }

    fn process(&mut self, _delta: f64) {
        for report in self.worker.reports() {
            self.take(report);
        }
    }
}

#[godot_api]
impl PlanetHeight {
    /// Emitted (on the main thread) after the ground was rebuilt from the settings.
    #[signal]
    fn regenerated();

    /// Emitted on the main thread as each stage of a rebuild finishes (`lattice`,
    /// `heights`, `erosion` after every step, `sediment`, `ground`), with the share done.
    #[signal]
    fn progress(stage: GString, fraction: f64);

    /// Replaces the settings and schedules one rebuild.
    #[func]
    fn set_settings(&mut self, settings: Option<Gd<WorldSettings>>) {
        let callable = Callable::from_object_method(&self.to_gd(), "mark_dirty");
        if let Some(old) = self.settings.as_mut() {
            if old.is_connected("changed", &callable) {
                old.disconnect("changed", &callable);
            }
        }
        if let Some(new) = settings.clone().as_mut() {
            new.connect("changed", &callable);
        }
        self.settings = settings;
        self.mark_dirty();
    }

    /// Schedules one rebuild at the end of the frame (many edits, one rebuild).
    #[func]
    fn mark_dirty(&mut self) {
        if !self.dirty {
            self.dirty = true;
            self.base_mut().call_deferred("regenerate_if_dirty", &[]);
        }
    }

    /// Rebuilds when an edit is still pending (a query since the edit may have rebuilt
    /// already: one edit, one rebuild, at most one error).
    #[func]
    fn regenerate_if_dirty(&mut self) {
        if self.dirty {
            self.regenerate();
        }
    }

    /// Starts rebuilding the ground from the settings on a worker thread (a running rebuild
    /// is cancelled). Returns false (and pushes the errors) when the settings are missing or
    /// invalid.
    #[func]
    fn regenerate(&mut self) -> bool {
        self.dirty = false;
        self.worker.cancel();
        self.field = None;
        let Some(settings) = self.settings.clone() else {
            godot_error!("PlanetHeight: no WorldSettings");
            self.snapshot = None;
            return false;
        };
        let snapshot = settings.bind().snapshot();
        match snapshot {
            Ok(core) => {
                self.snapshot = Some(core.clone());
                self.worker.start(move |progress, cancel| {
                    Pipeline::new(&core)
                        .progress(progress)
                        .cancel(cancel)
                        .ground()
                        .map(|g| Arc::new(g.planet))
                });
                true
            }
            Err(e) => {
                godot_error!("PlanetHeight: {e}");
                self.snapshot = None;
                false
            }
        }
    }

    /// Whether a rebuild is running.
    #[func]
    fn is_building(&self) -> bool {
        self.worker.is_running()
    }

    /// Metres above the datum of the ground in `direction` (NaN before a valid rebuild, or
    /// with an error for a zero, NaN or infinite direction).
    #[func]
    fn height_at(&mut self, direction: Vector3) -> f64 {
        let Some(dir) = checked_direction(direction, "PlanetHeight.height_at") else { return f64::NAN };
        self.field().map_or(f64::NAN, |f| f.height(dir))
    }

    /// The point on the ground in `direction`, relative to the planet's centre (NaN with an
    /// error for a zero, NaN or infinite direction; zero before a valid rebuild).
    #[func]
    fn surface_point(&mut self, direction: Vector3) -> Vector3 {
        let Some(dir) = checked_direction(direction, "PlanetHeight.surface_point") else {
            return Vector3::splat(f32::NAN);
        };
        self.field().map_or(Vector3::ZERO, |f| to_vector3(f.surface_point(dir)))
    }

    /// Heights for many directions, evaluated in parallel (empty, with an error, when any
    /// direction is zero, NaN or infinite).
    #[func]
    fn heights(&mut self, directions: PackedVector3Array) -> PackedFloat32Array {
        let Some(dirs) = checked_directions(&directions, "PlanetHeight.heights") else {
            return PackedFloat32Array::new();
        };
        let Some(field) = self.field() else { return PackedFloat32Array::new() };
        PackedFloat32Array::from(field.heights(&dirs).into_iter().map(|h| h as f32).collect::<Vec<_>>())
    }

    /// The unit direction at `lat_deg` north and `lon_deg` east (longitude 0 faces +Z, +90°
    /// faces +X: the axes of `worlds.json`'s places).
    #[func]
    fn direction(lat_deg: f64, lon_deg: f64) -> Vector3 {
        to_vector3(watershed::direction(lat_deg, lon_deg))
    }

    /// Direction `index` of `count` spread evenly over the sphere: the Fibonacci lattice the
    /// drainage solve places its nodes on (equal area per point, no seam at the poles). A
    /// unit vector; a NaN vector, with an error, when `count` is below 1 or `index` is
    /// outside 0 to `count` - 1.
    #[func]
    fn fibonacci_direction(index: i64, count: i64) -> Vector3 {
        const FUNC: &str = "PlanetHeight.fibonacci_direction";
        let Some(n) = usize::try_from(count).ok().filter(|&n| n > 0) else {
            godot_error!("{FUNC}: count must be at least 1, got {count}");
            return Vector3::splat(f32::NAN);
        };
        let Some(i) = usize::try_from(index).ok().filter(|&i| i < n) else {
            godot_error!("{FUNC}: index must be within 0 to {}, got {index}", n - 1);
            return Vector3::splat(f32::NAN);
        };
        to_vector3(watershed::fibonacci(i, n))
    }

    /// Latitude and longitude of `direction`, degrees (x north, y east; zero with an error
    /// for a zero, NaN or infinite direction).
    #[func]
    fn lat_lon(direction: Vector3) -> Vector2 {
        let Some(dir) = checked_direction(direction, "PlanetHeight.lat_lon") else { return Vector2::ZERO };
        let (lat, lon) = watershed::lat_lon_rad(dir);
        Vector2::new(lat.to_degrees() as f32, lon.to_degrees() as f32)
    }

    /// Where the ray from `origin` along `ray` first meets the sphere of `radius_m` about the
    /// planet's centre, both relative to it (`Vector3.INF` when it misses).
    #[func]
    fn ray_sphere(origin: Vector3, ray: Vector3, radius_m: f64) -> Vector3 {
        watershed::ray_sphere(to_dvec3(origin), to_dvec3(ray), radius_m).map_or(Vector3::INF, to_vector3)
    }

    /// Radius of the datum sphere, metres.
    #[func]
    fn radius_m(&mut self) -> f64 {
        self.snapshot().map_or(0.0, |s| s.radius_m)
    }

    /// SDF of the natural ground (no channels; use `WatershedVoxel` with a solver's handle
    /// for the carved ground) for `size` voxels from `origin`, `2^lod` metres apart, in
    /// godot_voxel's Z-X-Y order. Empty (with an error) for a bad request.
    #[func]
    fn sdf_block(&mut self, origin: Vector3, size: Vector3i, lod: i64) -> PackedFloat32Array {
        let size = [size.x, size.y, size.z].map(i64::from);
        let block = match Block::checked(to_dvec3(origin), size, lod) {
            Ok(block) => block,
            Err(e) => {
                godot_error!("PlanetHeight.sdf_block: {e}");
                return PackedFloat32Array::new();
            }
        };
        let Some(field) = self.field() else { return PackedFloat32Array::new() };
        let mut out = vec![0f32; block.voxels()];
        match watershed::fill_natural_block(&field, &block, &mut out) {
            Ok(BlockFill::Mixed) => PackedFloat32Array::from(out),
            Ok(BlockFill::Uniform(v)) => PackedFloat32Array::from(vec![v; out.len()]),
            Err(e) => {
                godot_error!("PlanetHeight.sdf_block: {e}");
                PackedFloat32Array::new()
            }
        }
    }
}

impl PlanetHeight {
    /// The validated settings the ground is built from, starting a rebuild first if an edit
    /// is pending.
    pub fn snapshot(&mut self) -> Option<&watershed::WorldSettings> {
        if self.dirty || (self.field.is_none() && !self.worker.is_running()) {
            self.regenerate();
        }
        self.snapshot.as_ref()
    }

    /// The ground, rebuilding first if an edit is pending and waiting for a running rebuild.
    fn field(&mut self) -> Option<Arc<watershed::PlanetHeight>> {
        if self.dirty || (self.field.is_none() && !self.worker.is_running()) {
            self.regenerate();
        }
        while self.field.is_none() {
            let report = self.worker.wait()?;
            self.take(report);
        }
        self.field.clone()
    }

    /// Acts on one report from the rebuild.
    fn take(&mut self, report: Report<Arc<watershed::PlanetHeight>>) {
        match report {
            Report::Progress(stage, fraction) => emit_progress(self.to_gd().upcast(), stage, fraction),
            Report::Done(field) => {
                self.field = Some(field);
                emit_deferred(self.to_gd().upcast(), "regenerated", &[]);
            }
        }
    }
}
