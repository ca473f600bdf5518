//! `PlanetTerrain`: the built-in planet mesh terrain for projects without godot_voxel.

use crate::convert::{array_mesh, collision_faces, viewer_offset};
use crate::drainage_solver::{solved_world, DrainageSolver};
use crate::life_cache::shared_life;
use godot::classes::{CollisionShape3D, ConcavePolygonShape3D, Material, MeshInstance3D, StaticBody3D};
use godot::prelude::*;
use std::collections::BTreeSet;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use watershed::{select_chunks, ChunkKey, ChunkStreamer, MeshArrays, World};

/// A chunk's ground and river-and-lake water meshes built on a worker thread, on their way
/// to the main thread.
type BuiltChunk = (ChunkKey, MeshArrays, MeshArrays);

/// A chunked cube-sphere mesh of the carved ground around a viewer: chunks split while the
/// viewer is within `split_factor` chunk widths, meshes built on worker threads and applied
/// here on the main thread, collision on the finest chunks, vertex colours from the world's
/// look and biomes (the world's climate shared with `PlanetLife` and `PlanetScatter`), and
/// the rivers' and lakes' surfaces with each chunk when `water_material` is set.
/// Reads the solved world of `solver`; the planet's centre is this node's origin.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct PlanetTerrain {
    /// The solver whose carved ground is meshed.
    #[export]
    solver: Option<Gd<DrainageSolver>>,
    /// The node whose position decides the detail (a player or a camera; in the editor, the
    /// 3D view's camera stands in).
    #[export]
    viewer: Option<Gd<Node3D>>,
    /// Quads along each chunk's edge.
    #[export(range = (2.0, 128.0, 1.0))]
    #[init(val = 24)]
    chunk_resolution: i64,
    /// Deepest level of detail (a face is `2^level` chunks across).
    #[export(range = (0.0, 16.0, 1.0))]
    #[init(val = 9)]
    max_level: i64,
    /// A chunk splits while the viewer is closer than this many chunk widths.
    #[export(range = (0.5, 8.0, 0.1))]
    #[init(val = 1.6)]
    split_factor: f64,
    /// Chunks this deep or deeper get collision.
    #[export(range = (0.0, 16.0, 1.0))]
    #[init(val = 8)]
    collision_level: i64,
    /// Material of the chunks (vertex colours carry the look).
    #[export]
    material: Option<Gd<Material>>,
    /// Material of the rivers' and lakes' surfaces drawn with each chunk, at the water
    /// table's levels (the sea is drawn apart); none: no water is drawn. Each vertex carries
    /// the water's flow in `CUSTOM0` (velocity m/s in xyz, foam 0..=1 in w) for a shader.
    #[export]
    water_material: Option<Gd<Material>>,
    chunks: ChunkStreamer,
    results: Option<(Sender<BuiltChunk>, Receiver<BuiltChunk>)>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for PlanetTerrain {
    fn ready(&mut self) {
        self.base_mut().set_process(true);
    }

    fn process(&mut self, _delta: f64) {
        let Some(world) = self.world() else { return };
        let Some(local) = viewer_offset(&self.to_gd().upcast(), self.viewer.as_ref()) else { return };
        let (tx, rx) = self.results.get_or_insert_with(channel);
        let tx = tx.clone();
        let done: Vec<BuiltChunk> = rx.try_iter().collect();
        for (key, ground, water) in done {
            if self.chunks.arrived(key) {
                self.show_chunk(key, &ground, &water);
            }
        }
        // Everything asked for is in: drop what is no longer wanted, then look again.
        let Some(stale) = self.chunks.stale() else { return };
        for key in stale {
            self.hide_chunk(key);
        }
        let level = u8::try_from(self.max_level.clamp(0, 16)).unwrap_or(9);
        let wanted: BTreeSet<ChunkKey> =
            select_chunks(world.terrain.settings.radius_m, local, self.split_factor, level)
                .into_iter()
                .collect();
        let res = usize::try_from(self.chunk_resolution.clamp(2, 128)).unwrap_or(24);
        let with_water = self.water_material.is_some();
        let life = shared_life(&world);
        for key in self.chunks.want(wanted) {
            let (world, tx, life) = (world.clone(), tx.clone(), life.clone());
            rayon::spawn(move || {
                let skirt = world.terrain.settings.relief_m * 0.02 + 2.0;
                let water = if with_water {
                    watershed::water_chunk_mesh(&world, key, res)
                } else {
                    MeshArrays::default()
                };
                // The life is worked out on a thread of its own, never on a rayon worker, so
                // waiting for it here cannot hold up the work it waits on.
                let climate = &life.wait().climate;
                let _ = tx.send((key, world.terrain.chunk_mesh(climate, key, res, skirt), water));
            });
        }
    }
}

#[godot_api]
impl PlanetTerrain {
    /// Chunks shown now.
    #[func]
    fn chunk_count(&self) -> i64 {
        self.chunks.shown_count() as i64
    }

    /// Whether the chunks around the viewer are all built and shown, and nothing else is:
    /// false while any is on its way (after a teleport, for a few frames).
    #[func]
    fn is_settled(&self) -> bool {
        self.chunks.is_settled()
    }

    /// Drops every chunk; they are rebuilt around the viewer from the current solve.
    #[func]
    fn rebuild(&mut self) {
        for key in self.chunks.forget() {
            self.hide_chunk(key);
        }
    }
}

impl PlanetTerrain {
    fn world(&self) -> Option<Arc<World>> {
        solved_world(self.solver.as_ref(), "PlanetTerrain")
    }

    fn name(key: ChunkKey) -> String {
        format!("Chunk_{}_{}_{}_{}", key.face, key.level, key.x, key.y)
    }

    fn show_chunk(&mut self, key: ChunkKey, arrays: &MeshArrays, water: &MeshArrays) {
        let mut instance = Self::instance(arrays, self.material.as_ref());
        instance.set_name(&Self::name(key));
        if !water.indices.is_empty() {
            let mut surface = Self::instance(water, self.water_material.as_ref());
            surface.set_name("Water");
            instance.add_child(&surface);
        }
        if i64::from(key.level) >= self.collision_level {
            let mut shape = ConcavePolygonShape3D::new_gd();
            shape.set_faces(&collision_faces(arrays));
            let mut collision = CollisionShape3D::new_alloc();
            collision.set_shape(&shape);
            let mut body = StaticBody3D::new_alloc();
            body.add_child(&collision);
            instance.add_child(&body);
        }
        self.base_mut().add_child(&instance);
        self.chunks.shown(key);
    }

    fn instance(arrays: &MeshArrays, material: Option<&Gd<Material>>) -> Gd<MeshInstance3D> {
        let mesh = array_mesh(arrays);
        let mut instance = MeshInstance3D::new_alloc();
        instance.set_mesh(&mesh);
        if let Some(material) = material {
            instance.set_material_override(material);
        }
        instance
    }

    fn hide_chunk(&mut self, key: ChunkKey) {
        if let Some(mut node) = self.base().get_node_or_null(&Self::name(key)) {
            node.queue_free();
        }
        self.chunks.hidden(key);
    }
}
