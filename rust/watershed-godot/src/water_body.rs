//! `WaterBody3D`: a rigid body that floats on the planet's water.

use crate::convert::{checked_direction, to_dvec3, to_vector3};
use crate::water_table::{checked_size, valid_size, WaterTable};
use godot::classes::{IRigidBody3D, RigidBody3D};
use godot::prelude::*;
use watershed::{Boat, Hull};

/// A rigid body with a box hull that floats on the water of a `WaterTable`'s world: every
/// physics frame its hull's eight sample points (the centres of its octants) are lifted by
/// the live water over them — the sea's waves on the table's clock, river and lake levels —
/// and dragged against the water's flow, so it rides the waves on the sea and drifts
/// downstream in a river. With a helm it is steered towards the river channel's centre line.
/// Gravity pulls it towards the planet's centre, the world origin (the body's own
/// `gravity_scale` is set to 0 when it enters the tree; `planet_gravity` 0 leaves gravity
/// to the physics engine). The same model steps `watershed probe`'s boat.
#[derive(GodotClass)]
#[class(init, base = RigidBody3D)]
pub struct WaterBody3D {
    /// The water it floats on.
    #[export]
    water_table: Option<Gd<WaterTable>>,
    /// The hull's box: width, height and length, metres (0.001 to 1000 on every side).
    #[export]
    #[init(val = Vector3::ONE)]
    hull_size: Vector3,
    /// Drag of the whole hull fully under water, newtons per m/s through the water.
    #[export(range = (0.0, 100000.0, 1.0, or_greater))]
    #[init(val = 900.0)]
    drag: f64,
    /// The helm on a river: newtons per metre off the channel's centre line (0: it only
    /// drifts).
    #[export(range = (0.0, 10000.0, 1.0, or_greater))]
    helm: f64,
    /// Gravity towards the planet's centre, m/s² (0: the physics engine's gravity).
    #[export(range = (0.0, 50.0, 0.01))]
    #[init(val = 9.81)]
    planet_gravity: f64,
    /// The bad `hull_size` last reported (once, not every frame).
    reported: Option<Vector3>,
    base: Base<RigidBody3D>,
}

#[godot_api]
impl IRigidBody3D for WaterBody3D {
    fn ready(&mut self) {
        if self.planet_gravity > 0.0 {
            self.base_mut().set_gravity_scale(0.0);
        }
    }

    fn physics_process(&mut self, _delta: f64) {
        let position = self.base().get_global_position();
        let mass = f64::from(self.base().get_mass());
        let up = to_dvec3(position).normalize_or_zero();
        let pull = -up * self.planet_gravity * mass;
        self.base_mut().apply_central_force(to_vector3(pull));
        let Some(table) = self.water_table.clone() else { return };
        let (Some(world), time) = ({
            let table = table.bind();
            (table.world(), table.time)
        }) else {
            return; // no water yet: the world is still solving
        };
        let Some(size) = self.size() else { return };
        let transform = self.base().get_global_transform();
        let points: Vec<_> =
            Hull::cuboid_samples(size).iter().map(|&s| to_dvec3(transform * to_vector3(s))).collect();
        let velocity = to_dvec3(self.base().get_linear_velocity());
        let forces = Hull::cuboid(size, self.drag.max(0.0)).forces(&world, &points, velocity, time);
        for (force, point) in forces.into_iter().zip(&points) {
            let offset = to_vector3(*point) - position;
            self.base_mut().apply_force_ex(to_vector3(force)).position(offset).done();
        }
        let helm = self.helm;
        if helm > 0.0 {
            if let Some(offset) = world.water().channel_offset(to_dvec3(position)) {
                self.base_mut().apply_central_force(to_vector3(offset * helm));
            }
        }
    }
}

#[godot_api]
impl WaterBody3D {
    /// Puts the body upright and at rest where it floats on the still water over
    /// `direction` (at its displacement depth; on dry ground, on the ground), then `above_m`
    /// metres higher. Does nothing before the table's world is solved.
    #[func]
    fn place_on_water(&mut self, direction: Vector3, above_m: f64) {
        let Some(dir) = checked_direction(direction, "WaterBody3D.place_on_water") else { return };
        if !above_m.is_finite() {
            godot_error!("WaterBody3D.place_on_water: above_m must be finite, got {above_m}");
            return;
        }
        let Some(world) = self.water_table.as_ref().and_then(|t| t.bind().world()) else { return };
        let Some(size) = self.size() else { return };
        let boat = Boat {
            size_m: size,
            mass_kg: f64::from(self.base().get_mass()),
            drag_n_s_per_m: self.drag,
            helm_n_per_m: self.helm,
        };
        let centre = boat.afloat_at(&world, dir);
        let up = to_vector3(centre.normalize());
        let mut side = up.cross(Vector3::UP).normalized();
        if !side.is_finite() || side.length() < 0.5 {
            side = Vector3::RIGHT;
        }
        let basis = Basis::from_cols(side, up, side.cross(up));
        let origin = to_vector3(centre) + up * above_m as f32;
        let mut body = self.base_mut();
        body.set_global_transform(Transform3D::new(basis, origin));
        body.set_linear_velocity(Vector3::ZERO);
        body.set_angular_velocity(Vector3::ZERO);
    }
}

impl WaterBody3D {
    /// The hull's size, metres; `None` when a side is out of range (reported once per bad
    /// size).
    fn size(&mut self) -> Option<watershed::DVec3> {
        let size = valid_size(self.hull_size);
        if size.is_none() && self.reported != Some(self.hull_size) {
            self.reported = Some(self.hull_size);
            checked_size(self.hull_size, "WaterBody3D.hull_size");
        }
        size
    }
}
