//! `ReachCarver`: river water meshes streamed around a viewer, falls and mouths.

use crate::convert::{array_mesh, emit_deferred, to_vector3, viewer_offset};
use crate::drainage_solver::{solved_world, DrainageSolver};
use godot::classes::{Material, MeshInstance3D};
use godot::prelude::*;
use std::sync::Arc;
use watershed::{ReachEnd, ReachId, ReachStreamer, World};

/// Streams the river reaches around a viewer: each loaded reach gets a water surface mesh as
/// a child (`Reach<id>`), built from the water table; `reach_loaded` / `reach_unloaded`
/// tell a voxel terrain which reach volumes to apply. Which reaches are loaded depends only
/// on where the viewer is. The planet's centre is this node's origin.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct ReachCarver {
    /// The solver whose channels and water this streams.
    #[export]
    solver: Option<Gd<DrainageSolver>>,
    /// The node whose position decides what is loaded (a player or a camera; in the editor,
    /// the 3D view's camera stands in).
    #[export]
    viewer: Option<Gd<Node3D>>,
    /// Reaches closer than this to the viewer are loaded.
    #[export(range = (10.0, 100000.0, 1.0, exp, suffix = "m"))]
    #[init(val = 600.0)]
    stream_radius_m: f64,
    /// Whether loaded reaches get a water mesh child.
    #[export]
    #[init(val = true)]
    build_water_meshes: bool,
    /// Material of the water meshes.
    #[export]
    water_material: Option<Gd<Material>>,
    streamer: Option<ReachStreamer>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for ReachCarver {
    fn ready(&mut self) {
        self.base_mut().set_process(true);
    }

    fn process(&mut self, _delta: f64) {
        let Some(world) = self.world() else { return };
        let Some(local) = viewer_offset(&self.to_gd().upcast(), self.viewer.as_ref()) else { return };
        let radius = self.stream_radius_m;
        let streamer = self.streamer.get_or_insert_with(|| ReachStreamer::new(radius));
        streamer.radius_m = radius;
        let update = streamer.update(&world.terrain.carve.reaches, world.terrain.settings.radius_m, local);
        for id in update.unload {
            let name = format!("Reach{}", id.0);
            if let Some(mut child) = self.base().get_node_or_null(&name) {
                child.queue_free();
            }
            emit_deferred(self.to_gd().upcast(), "reach_unloaded", &[i64::from(id.0).to_variant()]);
        }
        for id in update.load {
            if self.build_water_meshes {
                self.add_water_mesh(&world, id);
            }
            emit_deferred(self.to_gd().upcast(), "reach_loaded", &[i64::from(id.0).to_variant()]);
        }
    }
}

#[godot_api]
impl ReachCarver {
    /// A reach came within the stream radius (its id indexes `falls()`, `mouths()` and the
    /// solver's reaches).
    #[signal]
    fn reach_loaded(id: i64);

    /// A reach left the stream radius.
    #[signal]
    fn reach_unloaded(id: i64);

    /// Reaches loaded now, ascending.
    #[func]
    fn loaded_reaches(&self) -> PackedInt32Array {
        let ids = self.streamer.iter().flat_map(|s| s.loaded().iter().map(|id| id.0 as i32));
        PackedInt32Array::from(ids.collect::<Vec<_>>())
    }

    /// Ids of the reaches that are waterfalls (a drop over 8 m, never into the sea).
    #[func]
    fn falls(&self) -> PackedInt32Array {
        self.reach_ids(|r| r.fall)
    }

    /// Ids of the reaches that are river mouths (each with a beach collar).
    #[func]
    fn mouths(&self) -> PackedInt32Array {
        self.reach_ids(|r| r.ends_in == ReachEnd::Sea)
    }

    /// Start and end of reach `id` on the ground, relative to the planet's centre (empty
    /// before the first solve; empty with an error for an unknown id).
    #[func]
    fn reach_points(&self, id: i64) -> PackedVector3Array {
        let Some(world) = self.world() else { return PackedVector3Array::new() };
        let Some(reach) = usize::try_from(id).ok().and_then(|i| world.terrain.carve.reaches.get(i)) else {
            godot_error!(
                "ReachCarver.reach_points: no reach {id} (0 to {})",
                world.terrain.carve.reaches.len()
            );
            return PackedVector3Array::new();
        };
        let ends = [reach.start, reach.end]
            .map(|d| to_vector3(d * (world.terrain.settings.radius_m + world.terrain.ground(d))));
        PackedVector3Array::from(ends.to_vec())
    }
}

impl ReachCarver {
    fn world(&self) -> Option<Arc<World>> {
        solved_world(self.solver.as_ref(), "ReachCarver")
    }

    fn reach_ids(&self, keep: impl Fn(&watershed::Reach) -> bool) -> PackedInt32Array {
        let Some(world) = self.world() else { return PackedInt32Array::new() };
        let ids =
            world.terrain.carve.reaches.iter().enumerate().filter(|(_, r)| keep(r)).map(|(i, _)| i as i32);
        PackedInt32Array::from(ids.collect::<Vec<_>>())
    }

    fn add_water_mesh(&mut self, world: &World, id: ReachId) {
        let arrays = watershed::reach_water_mesh(world, id);
        if arrays.indices.is_empty() {
            return;
        }
        let mesh = array_mesh(&arrays);
        let mut instance = MeshInstance3D::new_alloc();
        instance.set_name(&format!("Reach{}", id.0));
        instance.set_mesh(&mesh);
        if let Some(material) = self.water_material.as_ref() {
            instance.set_material_override(material);
        }
        self.base_mut().add_child(&instance);
    }
}
