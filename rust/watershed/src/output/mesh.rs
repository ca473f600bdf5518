//! Triangle meshes an engine can upload as they are: the built-in terrain's chunks on a
//! cube-sphere, and river water surfaces for streamed reaches.
//!
//! Positions are metres from the planet's centre (f32, as engines store them); triangles
//! wind counter-clockwise seen from outside the planet.

use crate::carve::terrain::Terrain;
use crate::carve::{profile_at, ReachId};
use crate::life::climate::Climate;
use crate::math::cube::ChunkKey;
use crate::math::sphere;
use crate::output::look;
use crate::water::levels::SEA_CLEARANCE_M;
use crate::water::world::World;
use glam::DVec3;

/// Vertex and index arrays of one mesh.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshArrays {
    /// Vertex positions, metres from the planet's centre.
    pub positions: Vec<[f32; 3]>,
    /// Unit vertex normals.
    pub normals: Vec<[f32; 3]>,
    /// Vertex colours, RGB in 0..=1.
    pub colors: Vec<[f32; 3]>,
    /// Triangles, three vertex indices each.
    pub indices: Vec<u32>,
}

/// The widest sea depth map [`sea_depth_map`] draws, pixels (8192 × 4096 floats:
/// 128 MiB).
pub const MAX_DEPTH_MAP_WIDTH: usize = 8192;

impl Terrain {
    /// The mesh of terrain chunk `key`: `res` × `res` quads of carved ground coloured by the
    /// world's look under `climate` (the biome rules of [`look::ground_color`]), with a skirt hanging `skirt_m` down its edges to hide seams between
    /// levels of detail.
    pub fn chunk_mesh(&self, climate: &Climate, key: ChunkKey, res: usize, skirt_m: f64) -> MeshArrays {
        let res = res.max(1);
        let radius = self.settings.radius_m;
        let side = res + 1;
        let dirs = key.grid_dirs(res);
        let heights: Vec<f64> = dirs.iter().map(|&d| self.ground(d)).collect();
        let points: Vec<DVec3> = dirs.iter().zip(&heights).map(|(&d, &h)| d * (radius + h)).collect();
        let mut mesh = MeshArrays::default();
        for k in 0..side * side {
            let (i, j) = (k % side, k / side);
            let at = |a: usize, b: usize| points[b.min(res) * side + a.min(res)];
            let du = at(i + 1, j) - at(i.saturating_sub(1), j);
            let dv = at(i, j + 1) - at(i, j.saturating_sub(1));
            let normal = sphere::unit(du.cross(dv));
            let normal = if normal.dot(dirs[k]) < 0.0 { -normal } else { normal };
            let slope_deg = libm::acos(normal.dot(dirs[k]).clamp(-1.0, 1.0)).to_degrees();
            let (lat, _) = sphere::lat_lon_rad(dirs[k]);
            let moisture = climate.moisture_at(&self.lattice, dirs[k]);
            let colour = look::ground_color(&self.settings, heights[k], slope_deg, lat, moisture);
            mesh.positions.push(points[k].as_vec3().to_array());
            mesh.normals.push(normal.as_vec3().to_array());
            mesh.colors.push(colour.map(|c| c as f32));
        }
        for j in 0..res {
            for i in 0..res {
                let a = (j * side + i) as u32;
                let (b, c, d) = (a + 1, a + side as u32, a + side as u32 + 1);
                mesh.indices.extend_from_slice(&[a, c, b, b, c, d]);
            }
        }
        orient_outward(&mut mesh, key.centre());
        // Skirts: every edge vertex again, dropped, joined to its edge.
        let edges: [Vec<usize>; 4] = [
            (0..side).collect(),
            (0..side).map(|i| res * side + i).collect(),
            (0..side).map(|j| j * side).collect(),
            (0..side).map(|j| j * side + res).collect(),
        ];
        for edge in edges {
            let base = mesh.positions.len() as u32;
            for &k in &edge {
                let dropped = dirs[k] * (radius + heights[k] - skirt_m);
                mesh.positions.push(dropped.as_vec3().to_array());
                mesh.normals.push(mesh.normals[k]);
                mesh.colors.push(mesh.colors[k]);
            }
            for w in 0..edge.len() - 1 {
                let (top0, top1) = (edge[w] as u32, edge[w + 1] as u32);
                let (low0, low1) = (base + w as u32, base + w as u32 + 1);
                mesh.indices.extend_from_slice(&[top0, low0, top1, top1, low0, low1]);
            }
        }
        mesh
    }
}

/// The water surface of reach `id`: a strip along the channel at the river's level,
/// held just under the sea where the sea covers the ground. Empty for an unknown reach.
pub fn reach_water_mesh(world: &World, id: ReachId) -> MeshArrays {
    let (Some(reach), Some(levels)) =
        (world.terrain.carve.reaches.get(id.0 as usize), world.levels.reach_levels.get(id.0 as usize))
    else {
        return MeshArrays::default();
    };
    let radius = world.terrain.settings.radius_m;
    let steps = ((reach.length_m / 4.0).ceil() as usize).max(2);
    let across = reach.across();
    let colour = inland_water_colour(world);
    let mut mesh = MeshArrays::default();
    for k in 0..=steps {
        let t = k as f64 / steps as f64;
        let centre = reach.point_at(t);
        let mut level = profile_at(levels, t);
        if world.terrain.settings.sea && world.terrain.ground(centre) < world.terrain.settings.sea_level_m {
            level = level.min(world.terrain.settings.sea_level_m - SEA_CLEARANCE_M);
        }
        for side in [-1.0, 1.0] {
            let dir = sphere::unit(centre + across * (side * reach.half_width_m / radius));
            mesh.positions.push((dir * (radius + level)).as_vec3().to_array());
            mesh.normals.push(dir.as_vec3().to_array());
            mesh.colors.push(colour);
        }
    }
    for k in 0..steps as u32 {
        let (a, b, c, d) = (2 * k, 2 * k + 1, 2 * k + 2, 2 * k + 3);
        mesh.indices.extend_from_slice(&[a, b, c, c, b, d]);
    }
    orient_outward(&mut mesh, reach.middle());
    mesh
}

/// The river and lake surface over terrain chunk `key` (the sea is drawn apart): the
/// chunk's `res` × `res` grid at [`WorldWater::inland_surface_at`](crate::WorldWater::inland_surface_at) wherever water stands,
/// each triangle with a wet corner drawn, its dry corners carried on at the highest
/// level of their wet neighbours so the surface runs into the bank instead of stopping
/// short of it. Empty where the chunk holds no river or lake.
pub fn water_chunk_mesh(world: &World, key: ChunkKey, res: usize) -> MeshArrays {
    let res = res.max(1);
    let side = res + 1;
    let dirs = key.grid_dirs(res);
    let wet: Vec<Option<f64>> = dirs.iter().map(|&d| world.water().inland_surface_at(d)).collect();
    let mut mesh = MeshArrays::default();
    if wet.iter().all(Option::is_none) {
        return mesh;
    }
    let level: Vec<Option<f64>> = (0..side * side)
        .map(|k| {
            let (i, j) = ((k % side) as isize, (k / side) as isize);
            wet[k].or_else(|| {
                let around = (-1..=1).flat_map(|dj| (-1..=1).map(move |di| (i + di, j + dj)));
                around
                    .filter(|&(a, b)| (0..side as isize).contains(&a) && (0..side as isize).contains(&b))
                    .filter_map(|(a, b)| wet[b as usize * side + a as usize])
                    .reduce(f64::max)
            })
        })
        .collect();
    let colour = inland_water_colour(world);
    let radius = world.terrain.settings.radius_m;
    let mut vertex = vec![u32::MAX; side * side];
    let mut corner = |k: usize, mesh: &mut MeshArrays| -> Option<u32> {
        let surface = level[k]?;
        if vertex[k] == u32::MAX {
            vertex[k] = mesh.positions.len() as u32;
            mesh.positions.push((dirs[k] * (radius + surface)).as_vec3().to_array());
            mesh.normals.push(dirs[k].as_vec3().to_array());
            mesh.colors.push(colour);
        }
        Some(vertex[k])
    };
    for j in 0..res {
        for i in 0..res {
            let a = j * side + i;
            for tri in [[a, a + side, a + 1], [a + 1, a + side, a + side + 1]] {
                if tri.iter().all(|&k| wet[k].is_none()) {
                    continue;
                }
                // Every corner of such a triangle has a level: it is wet or beside one.
                if let [Some(x), Some(y), Some(z)] = tri.map(|k| corner(k, &mut mesh)) {
                    mesh.indices.extend_from_slice(&[x, y, z]);
                }
            }
        }
    }
    orient_outward(&mut mesh, key.centre());
    mesh
}

/// The vertex colour of river and lake surfaces: the world's shallows, a little towards
/// its sea colour.
fn inland_water_colour(world: &World) -> [f32; 3] {
    let look = &world.terrain.settings.look;
    look::mix(look.shallows_color.to_f64(), look.sea_color.to_f64(), 0.3).map(|c| c as f32)
}

/// Sea depth over the whole planet as an equirectangular map `width` × `width / 2`
/// (north at the top, longitude -180° at the left): metres of water between the sea
/// surface and the carved ground, 0 on land — the depth the swimmer reads, for the
/// ocean shader's shallows and surf line. Row-major f32.
///
/// # Errors
/// A `width` outside 2..=[`MAX_DEPTH_MAP_WIDTH`], checked before anything is allocated;
/// the message names the limit and the value.
pub fn sea_depth_map(world: &World, width: i64) -> Result<(usize, usize, Vec<f32>), String> {
    use rayon::prelude::*;
    let Some(width) = usize::try_from(width).ok().filter(|w| (2..=MAX_DEPTH_MAP_WIDTH).contains(w)) else {
        return Err(format!("width must be 2 to {MAX_DEPTH_MAP_WIDTH} pixels, got {width}"));
    };
    let height = width / 2;
    let sea = world.terrain.settings.sea_level_m;
    let data = (0..width * height)
        .into_par_iter()
        .map(|k| {
            let (x, y) = (k % width, k / width);
            let lat = std::f64::consts::FRAC_PI_2 - (y as f64 + 0.5) / height as f64 * std::f64::consts::PI;
            let lon = -std::f64::consts::PI + (x as f64 + 0.5) / width as f64 * std::f64::consts::TAU;
            let dir = sphere::direction(lat.to_degrees(), lon.to_degrees());
            if world.terrain.settings.sea {
                (sea - world.terrain.ground(dir)).max(0.0) as f32
            } else {
                0.0
            }
        })
        .collect();
    Ok((width, height, data))
}

/// Flips every triangle whose face points into the planet (seen from `up`).
fn orient_outward(mesh: &mut MeshArrays, up: DVec3) {
    let p = |i: u32| DVec3::from(mesh.positions[i as usize].map(f64::from));
    for tri in mesh.indices.chunks_exact_mut(3) {
        let normal = (p(tri[1]) - p(tri[0])).cross(p(tri[2]) - p(tri[0]));
        if normal.dot(up) < 0.0 {
            tri.swap(1, 2);
        }
    }
}
