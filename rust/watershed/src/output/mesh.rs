//! Triangle meshes an engine can upload as they are: the built-in terrain's chunks on a
//! cube-sphere, and river water surfaces for streamed reaches.
//!
//! Positions are metres from the planet's centre (f32, as engines store them); triangles
//! wind counter-clockwise seen from outside the planet.

use crate::carve::terrain::Terrain;
use crate::carve::{profile_at, ReachId};
use crate::life::climate::Climate;
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

/// The widest sea depth map [`World::sea_depth_map`] draws, pixels (8192 × 4096 floats:
/// 128 MiB).
pub const MAX_DEPTH_MAP_WIDTH: usize = 8192;

/// One square of the cube-sphere quadtree: cube face, depth, and position on its face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChunkKey {
    /// Cube face 0..6 (+X, -X, +Y, -Y, +Z, -Z).
    pub face: u8,
    /// Depth in the quadtree; a face is `2^level` chunks across.
    pub level: u8,
    /// Column on the face, `0..2^level`.
    pub x: u32,
    /// Row on the face, `0..2^level`.
    pub y: u32,
}

/// Unit direction at face coordinates `(u, v)` in `-1..=1` of cube face `face`.
fn cube_to_sphere(face: u8, u: f64, v: f64) -> DVec3 {
    let p = match face {
        0 => DVec3::new(1.0, v, -u),
        1 => DVec3::new(-1.0, v, u),
        2 => DVec3::new(u, 1.0, -v),
        3 => DVec3::new(u, -1.0, v),
        4 => DVec3::new(u, v, 1.0),
        _ => DVec3::new(-u, v, -1.0),
    };
    sphere::unit(p)
}

impl ChunkKey {
    /// Face coordinates of the chunk's corner `(i, j)` of a `res`-square grid, `-1..=1`.
    fn face_uv(self, i: usize, j: usize, res: usize) -> (f64, f64) {
        let n = f64::from(1u32 << self.level);
        let u = -1.0 + 2.0 * (f64::from(self.x) + i as f64 / res as f64) / n;
        let v = -1.0 + 2.0 * (f64::from(self.y) + j as f64 / res as f64) / n;
        (u, v)
    }

    /// Unit directions of the `(res + 1)²` corners of the chunk's `res`-square grid, row by
    /// row.
    fn grid_dirs(self, res: usize) -> Vec<DVec3> {
        let side = res + 1;
        (0..side * side)
            .map(|k| {
                let (u, v) = self.face_uv(k % side, k / side, res);
                cube_to_sphere(self.face, u, v)
            })
            .collect()
    }

    /// Unit direction of the chunk's centre.
    pub fn centre(self) -> DVec3 {
        let (u, v) = self.face_uv(1, 1, 2);
        cube_to_sphere(self.face, u, v)
    }

    /// The four children one level deeper.
    pub fn children(self) -> [ChunkKey; 4] {
        let (x, y, level) = (self.x * 2, self.y * 2, self.level + 1);
        [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| ChunkKey {
            face: self.face,
            level,
            x: x + dx,
            y: y + dy,
        })
    }
}

/// The chunks to draw around a viewer at `viewer` (metres from the planet's centre): each
/// chunk is split while the viewer is closer than `split_factor` chunk widths to its centre,
/// down to `max_level`. The centre is taken at the viewer's own distance from the planet's
/// centre (at least `radius_m`), so a viewer standing on high ground gets the detail of one
/// standing at the datum. Ascending; a pure function of its inputs.
pub fn select_chunks(radius_m: f64, viewer: DVec3, split_factor: f64, max_level: u8) -> Vec<ChunkKey> {
    let mut out = Vec::new();
    let mut stack: Vec<ChunkKey> = (0..6).map(|face| ChunkKey { face, level: 0, x: 0, y: 0 }).collect();
    let lifted = viewer.length().max(radius_m);
    while let Some(chunk) = stack.pop() {
        let width = radius_m * std::f64::consts::FRAC_PI_2 / f64::from(1u32 << chunk.level);
        let distance = (chunk.centre() * lifted).distance(viewer);
        if chunk.level < max_level && distance < split_factor * width {
            stack.extend(chunk.children());
        } else {
            out.push(chunk);
        }
    }
    out.sort_unstable();
    out
}

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

impl World {
    /// The water surface of reach `id`: a strip along the channel at the river's level,
    /// held just under the sea where the sea covers the ground. Empty for an unknown reach.
    pub fn water_mesh(&self, id: ReachId) -> MeshArrays {
        let (Some(reach), Some(levels)) =
            (self.carve.reaches.get(id.0 as usize), self.water.reach_levels.get(id.0 as usize))
        else {
            return MeshArrays::default();
        };
        let radius = self.settings.radius_m;
        let steps = ((reach.length_m / 4.0).ceil() as usize).max(2);
        let across = sphere::unit((reach.end - reach.start).cross(reach.start + reach.end));
        let colour = self.inland_water_colour();
        let mut mesh = MeshArrays::default();
        for k in 0..=steps {
            let t = k as f64 / steps as f64;
            let centre = sphere::unit(reach.start + (reach.end - reach.start) * t);
            let mut level = profile_at(levels, t);
            if self.settings.sea && self.ground(centre) < self.settings.sea_level_m {
                level = level.min(self.settings.sea_level_m - SEA_CLEARANCE_M);
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
        orient_outward(&mut mesh, sphere::unit(reach.start + reach.end));
        mesh
    }

    /// The river and lake surface over terrain chunk `key` (the sea is drawn apart): the
    /// chunk's `res` × `res` grid at [`World::inland_surface_at`] wherever water stands,
    /// each triangle with a wet corner drawn, its dry corners carried on at the highest
    /// level of their wet neighbours so the surface runs into the bank instead of stopping
    /// short of it. Empty where the chunk holds no river or lake.
    pub fn water_chunk_mesh(&self, key: ChunkKey, res: usize) -> MeshArrays {
        let res = res.max(1);
        let side = res + 1;
        let dirs = key.grid_dirs(res);
        let wet: Vec<Option<f64>> = dirs.iter().map(|&d| self.inland_surface_at(d)).collect();
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
        let colour = self.inland_water_colour();
        let radius = self.settings.radius_m;
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
    fn inland_water_colour(&self) -> [f32; 3] {
        let look = &self.settings.look;
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
    pub fn sea_depth_map(&self, width: i64) -> Result<(usize, usize, Vec<f32>), String> {
        use rayon::prelude::*;
        let Some(width) = usize::try_from(width).ok().filter(|w| (2..=MAX_DEPTH_MAP_WIDTH).contains(w))
        else {
            return Err(format!("width must be 2 to {MAX_DEPTH_MAP_WIDTH} pixels, got {width}"));
        };
        let height = width / 2;
        let sea = self.settings.sea_level_m;
        let data = (0..width * height)
            .into_par_iter()
            .map(|k| {
                let (x, y) = (k % width, k / width);
                let lat =
                    std::f64::consts::FRAC_PI_2 - (y as f64 + 0.5) / height as f64 * std::f64::consts::PI;
                let lon = -std::f64::consts::PI + (x as f64 + 0.5) / width as f64 * std::f64::consts::TAU;
                let dir = sphere::direction(lat.to_degrees(), lon.to_degrees());
                if self.settings.sea {
                    (sea - self.ground(dir)).max(0.0) as f32
                } else {
                    0.0
                }
            })
            .collect();
        Ok((width, height, data))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_sphere_once_and_refine_near_the_viewer() {
        let radius = 2_000.0;
        let viewer = sphere::direction(10.0, 20.0) * (radius + 50.0);
        let chunks = select_chunks(radius, viewer, 1.5, 6);
        // Area check: the chunks' shares of their faces add up to six faces.
        let total: f64 = chunks.iter().map(|c| 1.0 / f64::from(1u32 << (2 * c.level))).sum();
        assert!((total - 6.0).abs() < 1e-12);
        let deepest = chunks.iter().max_by_key(|c| c.level).expect("chunks");
        assert_eq!(deepest.level, 6);
        assert!(deepest.centre().dot(sphere::unit(viewer)) > 0.99, "detail where the viewer is");
        assert_eq!(chunks, select_chunks(radius, viewer, 1.5, 6));
    }

    #[test]
    fn a_viewer_on_high_ground_gets_the_finest_chunks() {
        // 500 m above the datum of a 10 km planet: deeper than its finest chunk's width.
        let radius = 10_000.0;
        let viewer = sphere::direction(85.0, -20.0) * (radius + 500.0);
        let chunks = select_chunks(radius, viewer, 1.6, 9);
        assert_eq!(chunks.iter().map(|c| c.level).max(), Some(9));
    }

    #[test]
    fn every_face_maps_onto_its_own_sixth() {
        for face in 0..6 {
            let c = cube_to_sphere(face, 0.0, 0.0);
            let corner = cube_to_sphere(face, 1.0, 1.0);
            assert!((c.length() - 1.0).abs() < 1e-12 && corner.dot(c) > 0.5);
        }
    }
}
