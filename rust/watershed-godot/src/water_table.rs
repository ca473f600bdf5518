//! `WaterTable`: every water level, flow, wave and float of a solved world.

use crate::convert::{
    checked_direction, checked_directions, checked_number, float_image, or_nan, record_to_dictionary,
    to_dvec3, to_vector3,
};
use crate::drainage_solver::{solved_world, DrainageSolver};
use godot::classes::{Image, ShaderMaterial};
use godot::prelude::*;
use std::sync::Arc;
use watershed::{DVec3, Hull, World};

/// Every water level of the planet, computed once when the solver finishes: rivers, lakes
/// and the sea, flow, the sea's waves on the same clock as the ocean shader, buoyancy and
/// mill rates. Positions are relative to the planet's centre, in metres. Queries before the
/// first solve return NaN, false or empty arrays; a zero, NaN or infinite position or
/// direction, or a number out of range, returns the same with one error.
#[derive(GodotClass)]
#[class(tool, init, base = Node)]
pub struct WaterTable {
    /// The solver whose world this reads.
    #[export]
    solver: Option<Gd<DrainageSolver>>,
    /// The ocean's material: gets the wave uniforms once and `wave_time` every frame.
    #[export]
    ocean_material: Option<Gd<ShaderMaterial>>,
    /// The wave clock, seconds; advances with the frame and is the shader's `wave_time`.
    #[export]
    pub(crate) time: f64,
    base: Base<Node>,
}

#[godot_api]
impl INode for WaterTable {
    fn ready(&mut self) {
        self.base_mut().set_process(true);
    }

    fn process(&mut self, delta: f64) {
        self.time += delta;
        if let Some(mut material) = self.ocean_material.clone() {
            material.set_shader_parameter("wave_time", &(self.time as f32).to_variant());
        }
    }
}

#[godot_api]
impl WaterTable {
    /// Still water level over `direction`, metres above the datum; NaN when dry.
    #[func]
    fn level_at(&self, direction: Vector3) -> f64 {
        let Some(dir) = checked_direction(direction, "WaterTable.level_at") else { return f64::NAN };
        self.world().map_or(f64::NAN, |w| or_nan(w.water().level_at(dir)))
    }

    /// Levels for many directions, in parallel (NaN where dry).
    #[func]
    fn levels_at(&self, directions: PackedVector3Array) -> PackedFloat32Array {
        let Some(dirs) = checked_directions(&directions, "WaterTable.levels_at") else {
            return PackedFloat32Array::new();
        };
        let Some(w) = self.world() else { return PackedFloat32Array::new() };
        PackedFloat32Array::from(
            w.water()
                .each(&dirs, |w, d| w.level_at(d))
                .into_iter()
                .map(|l| or_nan(l) as f32)
                .collect::<Vec<_>>(),
        )
    }

    /// How far `position` is under the still surface, metres (negative above); NaN when dry.
    #[func]
    fn depth_at(&self, position: Vector3) -> f64 {
        let Some(p) = checked_direction(position, "WaterTable.depth_at") else { return f64::NAN };
        self.world().map_or(f64::NAN, |w| or_nan(w.water().depth_at(p)))
    }

    /// Whether `position` is under still water.
    #[func]
    fn is_underwater(&self, position: Vector3) -> bool {
        let Some(p) = checked_direction(position, "WaterTable.is_underwater") else { return false };
        self.world().is_some_and(|w| w.water().is_underwater(p))
    }

    /// Water velocity at `position`, m/s along the river (zero outside rivers).
    #[func]
    fn flow_at(&self, position: Vector3) -> Vector3 {
        let Some(p) = checked_direction(position, "WaterTable.flow_at") else {
            return Vector3::splat(f32::NAN);
        };
        self.world().map_or(Vector3::ZERO, |w| to_vector3(w.water().flow_at(p)))
    }

    /// Height of the moving sea surface over `position` at `time` seconds, metres above the
    /// datum (NaN on a world without a sea).
    #[func]
    fn wave_height_at(&self, position: Vector3, time: f64) -> f64 {
        let Some(p) = checked_direction(position, "WaterTable.wave_height_at") else { return f64::NAN };
        let Some(time) = checked_number(time, -1e9..=1e9, "WaterTable.wave_height_at", "time") else {
            return f64::NAN;
        };
        let sea = self.world().and_then(|w| w.levels.sea.clone());
        sea.map_or(f64::NAN, |s| s.surface_height_m(p, time))
    }

    /// How deep each hull point is under the live water at `time` seconds (negative above;
    /// NaN over dry ground), for a physics body to turn into forces.
    #[func]
    fn submersion(&self, points: PackedVector3Array, time: f64) -> PackedFloat32Array {
        let Some(p) = checked_directions(&points, "WaterTable.submersion") else {
            return PackedFloat32Array::new();
        };
        let Some(time) = checked_number(time, -1e9..=1e9, "WaterTable.submersion", "time") else {
            return PackedFloat32Array::new();
        };
        let Some(w) = self.world() else { return PackedFloat32Array::new() };
        PackedFloat32Array::from(
            w.water()
                .each(&p, |w, d| w.submersion_at(d, time))
                .into_iter()
                .map(|d| or_nan(d) as f32)
                .collect::<Vec<_>>(),
        )
    }

    /// The force on each sample point of a floating box, newtons in the planet's frame: lift
    /// from the water over it at `time` and drag against `velocity` relative to the water's
    /// flow, each scaled by how wet the point is (zero over dry ground). `points` are the
    /// box's `cuboid_samples(size)` placed in the planet's frame (from its centre);
    /// `drag` is newtons per m/s for the whole box under water. Apply each force at its
    /// point, as the demo's crate does.
    #[func]
    fn hull_forces(
        &self,
        points: PackedVector3Array,
        velocity: Vector3,
        size: Vector3,
        drag: f64,
        time: f64,
    ) -> PackedVector3Array {
        const FUNC: &str = "WaterTable.hull_forces";
        let none = PackedVector3Array::new;
        let Some(p) = checked_directions(&points, FUNC) else { return none() };
        let Some(size) = checked_size(size, FUNC) else { return none() };
        let v = to_dvec3(velocity);
        if !v.is_finite() {
            godot_error!("{FUNC}: velocity must be finite, got {velocity}");
            return none();
        }
        let Some(drag) = checked_number(drag, 0.0..=1e9, FUNC, "drag") else { return none() };
        let Some(time) = checked_number(time, -1e9..=1e9, FUNC, "time") else { return none() };
        let Some(w) = self.world() else { return none() };
        let hull = Hull::cuboid(size, drag);
        PackedVector3Array::from(hull.forces(&w, &p, v, time).into_iter().map(to_vector3).collect::<Vec<_>>())
    }

    /// From `position` (or a direction) to the centre line of the river channel that holds
    /// it, along the ground, metres: what a boat's helm steers by. `Vector3.ZERO` off the
    /// rivers and before a solve.
    #[func]
    fn channel_offset(&self, position: Vector3) -> Vector3 {
        let Some(p) = checked_direction(position, "WaterTable.channel_offset") else { return Vector3::ZERO };
        self.world().and_then(|w| w.water().channel_offset(p)).map_or(Vector3::ZERO, to_vector3)
    }

    /// Where a box of `size` (metres) is sampled for `hull_forces`: the centres of its eight
    /// octants, in the box's own frame.
    #[func]
    fn cuboid_samples(&self, size: Vector3) -> PackedVector3Array {
        let Some(size) = checked_size(size, "WaterTable.cuboid_samples") else {
            return PackedVector3Array::new();
        };
        PackedVector3Array::from(Hull::cuboid_samples(size).map(to_vector3).as_slice())
    }

    /// Turning rate of a mill wheel of `radius_m` at `position` whose lowest paddle dips
    /// `dip_m` under the surface, rad/s (NaN off rivers).
    #[func]
    fn mill_rate(&self, position: Vector3, radius_m: f64, dip_m: f64) -> f64 {
        const FUNC: &str = "WaterTable.mill_rate";
        let Some(p) = checked_direction(position, FUNC) else { return f64::NAN };
        let Some(radius_m) = checked_number(radius_m, 0.01..=1000.0, FUNC, "radius_m") else {
            return f64::NAN;
        };
        let Some(dip_m) = checked_number(dip_m, 0.0..=radius_m, FUNC, "dip_m") else { return f64::NAN };
        self.world().map_or(f64::NAN, |w| or_nan(w.mills().rate_rad_s(p, radius_m, dip_m)))
    }

    /// Where a mill stands: the unit direction of the middle of the largest river reach
    /// that holds river water (not the sea or a lake); `Vector3.ZERO` before a solve or on a
    /// world without rivers.
    #[func]
    fn mill_site(&self) -> Vector3 {
        self.world().and_then(|w| w.mills().site()).map_or(Vector3::ZERO, to_vector3)
    }

    /// The wave parameters as shader uniforms: `wave_dir_0..3` (Vector3), `wave_0..3`
    /// (Vector4: wavelength m, amplitude m, steepness, speed m/s), `sea_level_m`,
    /// `radius_m`, `gravity`. Empty on a world without a sea.
    #[func]
    fn shader_uniforms(&self) -> VarDictionary {
        let mut d = VarDictionary::new();
        let Some(sea) = self.world().and_then(|w| w.levels.sea.clone()) else { return d };
        for (name, values) in sea.shader_uniforms() {
            let f = |i: usize| values.get(i).copied().unwrap_or(0.0) as f32;
            let value = match values.len() {
                1 => f(0).to_variant(),
                3 => Vector3::new(f(0), f(1), f(2)).to_variant(),
                _ => Vector4::new(f(0), f(1), f(2), f(3)).to_variant(),
            };
            d.set(name.as_str(), &value);
        }
        d
    }

    /// Sea depth (metres of water over the carved ground, 0 on land) as an equirectangular
    /// `width` × `width / 2` single-channel float image, north up, longitude -180° at the
    /// left: the depth the swimmer reads, for the ocean shader's shallows and surf line.
    #[func]
    fn depth_map(&self, width: i64) -> Option<Gd<Image>> {
        let world = self.world()?;
        let (w, h, data) = watershed::sea_depth_map(&world, width)
            .map_err(|e| godot_error!("WaterTable.depth_map: {e}"))
            .ok()?;
        float_image(w, h, &data)
    }

    /// Flow speed `dip_m` under the surface of the river at `position`, m/s (NaN off rivers):
    /// what a mill paddle dipped that deep meets.
    #[func]
    fn flow_speed_at_depth(&self, position: Vector3, dip_m: f64) -> f64 {
        const FUNC: &str = "WaterTable.flow_speed_at_depth";
        let Some(p) = checked_direction(position, FUNC) else { return f64::NAN };
        let Some(dip_m) = checked_number(dip_m, 0.0..=1e4, FUNC, "dip_m") else { return f64::NAN };
        let flow = self.world().and_then(|w| w.water().reach_flow_at(p));
        flow.map_or(f64::NAN, |f| f.speed_at_depth_m_s(dip_m))
    }

    /// The water table's counts, the core's `WaterStats` field for field: `bank_mismatches`,
    /// `worst_bank_m`, `steps`, `worst_step_m`, `rising`, `below_downstream`,
    /// `lake_shore_mismatches`, `worst_lake_shore_m` (empty before the first solve).
    #[func]
    fn water_stats(&self) -> VarDictionary {
        self.world().map(|w| record_to_dictionary(&watershed::water_stats(&w))).unwrap_or_default()
    }

    /// Sets every uniform of `shader_uniforms()` on `material`.
    #[func]
    fn apply_uniforms(&self, mut material: Gd<ShaderMaterial>) {
        for (name, value) in self.shader_uniforms().iter_shared() {
            material.set_shader_parameter(&name.to_string(), &value);
        }
    }
}

impl WaterTable {
    /// The solved world; `None` (with one error naming the table) before a solve.
    pub(crate) fn world(&self) -> Option<Arc<World>> {
        solved_world(self.solver.as_ref(), "WaterTable")
    }
}

/// A box size with every side finite and within 1 mm to 1 km; `None` after one error naming
/// `func`.
pub(crate) fn checked_size(size: Vector3, func: &str) -> Option<DVec3> {
    let s = valid_size(size);
    if s.is_none() {
        godot_error!("{func}: size must be within 0.001 to 1000 m on every side, got {size}");
    }
    s
}

/// A box size with every side finite and within 1 mm to 1 km, metres.
pub(crate) fn valid_size(size: Vector3) -> Option<DVec3> {
    let s = to_dvec3(size);
    s.to_array().iter().all(|x| x.is_finite() && (0.001..=1000.0).contains(x)).then_some(s)
}
