//! `PlanetScatter`: trees and rocks streamed around a viewer as MultiMesh chunks.

use crate::convert::{to_vector3, viewer_offset};
use crate::drainage_solver::{solved_world, DrainageSolver};
use crate::life_cache::shared_life;
use godot::classes::multi_mesh::TransformFormat;
use godot::classes::{Mesh, MultiMesh, MultiMeshInstance3D};
use godot::prelude::*;
use std::collections::BTreeSet;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, OnceLock};
use watershed::{
    select_chunks, ChunkKey, ChunkStreamer, DVec3, Instance, Life, Scatter, ScatterKind, ScatterRules, World,
};

/// A chunk's scattered things built on a worker thread, on their way to the main thread.
type BuiltChunk = (ChunkKey, Vec<Instance>);

/// Trees and rocks on the solver's world, in square chunks of the cube-sphere within
/// `radius_m` of the viewer: one `MultiMeshInstance3D` per chunk and kind (`tree_mesh` for
/// conifers, `broadleaf_mesh`, `shrub_mesh`, `rock_mesh`; a broadleaf or shrub without its
/// own mesh is drawn with `tree_mesh`, a kind without any mesh is not drawn). Density and
/// the kinds of tree follow the biome; nothing
/// stands in water, on slopes too steep or in the village's clearing. The things in a chunk
/// depend only on the world, so every peer sees the same forest. The world's climate and
/// sites are shared with `PlanetLife` and `PlanetTerrain`; the chunks are built on worker
/// threads once they are ready, the meshes added here, on the main thread. The planet's centre is this node's origin;
/// each mesh stands on its origin with +Y up.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct PlanetScatter {
    /// The solver whose world is scattered.
    #[export]
    solver: Option<Gd<DrainageSolver>>,
    /// The node around which chunks are shown (a player or a camera; in the editor, the 3D
    /// view's camera stands in).
    #[export]
    viewer: Option<Gd<Node3D>>,
    /// Chunks whose centre is within this distance of the viewer are shown, metres.
    #[export(range = (20.0, 5000.0, 1.0))]
    #[init(val = 250.0)]
    radius_m: f64,
    /// Depth of the chunks in the cube-sphere quadtree (a face is `2^level` chunks across).
    #[export(range = (4.0, 14.0, 1.0))]
    #[init(val = 8)]
    chunk_level: i64,
    /// Side of a scatter cell along the ground (at most one thing per cell), metres.
    #[export(range = (1.0, 100.0, 0.5))]
    #[init(val = 6.0)]
    spacing_m: f64,
    /// The mesh drawn for each conifer, and for broadleaves and shrubs that have no mesh of
    /// their own.
    #[export]
    tree_mesh: Option<Gd<Mesh>>,
    /// The mesh drawn for each broadleaf tree (empty: `tree_mesh`).
    #[export]
    broadleaf_mesh: Option<Gd<Mesh>>,
    /// The mesh drawn for each shrub (empty: `tree_mesh`).
    #[export]
    shrub_mesh: Option<Gd<Mesh>>,
    /// The mesh drawn for each rock.
    #[export]
    rock_mesh: Option<Gd<Mesh>>,
    chunks: ChunkStreamer,
    results: Option<(Sender<BuiltChunk>, Receiver<BuiltChunk>)>,
    instances: usize,
    /// The world whose chunks are shown.
    world: Option<Arc<World>>,
    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for PlanetScatter {
    fn ready(&mut self) {
        self.base_mut().set_process(true);
    }

    fn process(&mut self, _delta: f64) {
        let Some(world) = solved_world(self.solver.as_ref(), "PlanetScatter") else { return };
        let Some(life) = self.life_of(&world) else { return };
        let Some(local) = viewer_offset(&self.to_gd().upcast(), self.viewer.as_ref()) else { return };
        let (tx, rx) = self.results.get_or_insert_with(channel);
        let tx = tx.clone();
        let done: Vec<BuiltChunk> = rx.try_iter().collect();
        for (key, things) in done {
            if self.chunks.arrived(key) {
                self.show_chunk(key, &things, world.terrain.settings.radius_m);
            }
        }
        let Some(stale) = self.chunks.stale() else { return };
        for key in stale {
            self.hide_chunk(key);
        }
        let wanted = self.chunks_around(&world, local);
        let rules = ScatterRules { spacing_m: self.spacing_m.clamp(1.0, 100.0), ..ScatterRules::default() };
        for key in self.chunks.want(wanted) {
            let (world, life, tx) = (world.clone(), life.clone(), tx.clone());
            rayon::spawn(move || {
                let life = life.wait();
                let scatter = Scatter::new(&world, &life.climate, &life.sites, rules);
                let _ = tx.send((key, scatter.chunk(key)));
            });
        }
    }
}

#[godot_api]
impl PlanetScatter {
    /// Chunks shown now.
    #[func]
    fn chunk_count(&self) -> i64 {
        self.chunks.shown_count() as i64
    }

    /// Trees and rocks shown now.
    #[func]
    fn instance_count(&self) -> i64 {
        self.instances as i64
    }

    /// Whether the chunks around the viewer are all built and shown, and nothing else is.
    #[func]
    fn is_settled(&self) -> bool {
        self.chunks.is_settled()
    }
}

impl PlanetScatter {
    /// The life of `world` once it is worked out ([`shared_life`]); `None` until then. A new
    /// world drops the old world's chunks.
    fn life_of(&mut self, world: &Arc<World>) -> Option<Arc<OnceLock<Life>>> {
        if !self.world.as_ref().is_some_and(|seen| Arc::ptr_eq(seen, world)) {
            for key in self.chunks.forget() {
                self.hide_chunk(key);
            }
            self.world = Some(world.clone());
        }
        let life = shared_life(world);
        life.get().is_some().then_some(life)
    }

    /// The chunks at `chunk_level` whose centres are within `radius_m` of `viewer`.
    fn chunks_around(&self, world: &World, viewer: DVec3) -> BTreeSet<ChunkKey> {
        let radius = world.terrain.settings.radius_m;
        let level = u8::try_from(self.chunk_level.clamp(4, 14)).unwrap_or(8);
        let width = radius * std::f64::consts::FRAC_PI_2 / f64::from(1u32 << level);
        let split = self.radius_m / width + 2.0;
        let up = watershed::unit(viewer);
        select_chunks(radius, up * radius, split, level)
            .into_iter()
            .filter(|k| k.level == level && (k.centre() - up).length() * radius <= self.radius_m)
            .collect()
    }

    fn name(key: ChunkKey) -> String {
        format!("Scatter_{}_{}_{}_{}", key.face, key.level, key.x, key.y)
    }

    fn show_chunk(&mut self, key: ChunkKey, things: &[Instance], radius: f64) {
        let mut holder = Node3D::new_alloc();
        holder.set_name(&Self::name(key));
        let or_tree = |mesh: &Option<Gd<Mesh>>| mesh.clone().or_else(|| self.tree_mesh.clone());
        for (kind, mesh, name) in [
            (ScatterKind::Conifer, self.tree_mesh.clone(), "Conifers"),
            (ScatterKind::Broadleaf, or_tree(&self.broadleaf_mesh), "Broadleaves"),
            (ScatterKind::Shrub, or_tree(&self.shrub_mesh), "Shrubs"),
            (ScatterKind::Rock, self.rock_mesh.clone(), "Rocks"),
        ] {
            let Some(mesh) = mesh else { continue };
            let mine: Vec<&Instance> = things.iter().filter(|t| t.kind == kind).collect();
            if mine.is_empty() {
                continue;
            }
            let mut multimesh = MultiMesh::new_gd();
            multimesh.set_transform_format(TransformFormat::TRANSFORM_3D);
            multimesh.set_mesh(&mesh);
            multimesh.set_instance_count(i32::try_from(mine.len()).unwrap_or(i32::MAX));
            for (k, thing) in mine.iter().enumerate() {
                multimesh
                    .set_instance_transform(i32::try_from(k).unwrap_or(i32::MAX), placement(thing, radius));
            }
            let mut instance = MultiMeshInstance3D::new_alloc();
            instance.set_name(name);
            instance.set_multimesh(&multimesh);
            holder.add_child(&instance);
            self.instances += mine.len();
        }
        holder.set_meta("instances", &(things.len() as i64).to_variant());
        self.base_mut().add_child(&holder);
        self.chunks.shown(key);
    }

    fn hide_chunk(&mut self, key: ChunkKey) {
        if let Some(mut node) = self.base().get_node_or_null(&Self::name(key)) {
            let count = node.get_meta("instances").try_to::<i64>().unwrap_or(0);
            self.instances = self.instances.saturating_sub(usize::try_from(count).unwrap_or(0));
            node.queue_free();
        }
        self.chunks.hidden(key);
    }
}

/// Where a thing stands: at its foot on the ground, +Y along the local up, turned by its
/// yaw about it and scaled ([`Instance::axes`]).
fn placement(thing: &Instance, radius_m: f64) -> Transform3D {
    let [x, y, z] = thing.axes().map(to_vector3);
    Transform3D::new(Basis::from_cols(x, y, z), to_vector3(thing.dir * (radius_m + thing.height_m)))
}
