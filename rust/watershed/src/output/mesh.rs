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
use crate::output::grid_maps::{foam, FOAM_FALL, SHORE_FOAM};
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
    /// Per vertex, the water's velocity in m/s in the same frame as `positions` (xyz) and
    /// its foam 0..=1 (w); empty for meshes without water flow.
    pub flows: Vec<[f32; 4]>,
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
/// held just under the sea where the sea covers the ground, each vertex flowing downstream
/// at the reach's mean speed, foaming as fast water does and all foam on a fall. Empty for
/// an unknown reach.
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
    let speed = world.levels.reach_flows.get(id.0 as usize).map_or(0.0, |f| f.mean_speed_m_s());
    let fall = if reach.fall { FOAM_FALL } else { 0.0 };
    let foam = foam(speed, fall, false) as f32;
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
            let [x, y, z] = (reach.along_at(dir) * speed).as_vec3().to_array();
            mesh.flows.push([x, y, z, foam]);
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
/// short of it. Each vertex's flow is the water table's velocity there
/// ([`WorldWater::flow_at`](crate::WorldWater::flow_at): zero on lakes and on the bank) with
/// its foam (fast water, falls and shores, as the heightmap maps foam). Empty where the
/// chunk holds no river or lake.
pub fn water_chunk_mesh(world: &World, key: ChunkKey, res: usize) -> MeshArrays {
    let res = res.max(1);
    let side = res + 1;
    let dirs = key.grid_dirs(res);
    let wet: Vec<Option<f64>> = dirs.iter().map(|&d| world.water().inland_surface_at(d)).collect();
    let mut mesh = MeshArrays::default();
    if wet.iter().all(Option::is_none) {
        return mesh;
    }
    let radius = world.terrain.settings.radius_m;
    let grid = WaterGrid { dirs: &dirs, wet: &wet, side, radius_m: radius };
    let level: Vec<Option<f64>> = (0..side * side)
        .map(|k| wet[k].or_else(|| grid.neighbours(k).filter_map(|n| wet[n]).reduce(f64::max)))
        .collect();
    let colour = inland_water_colour(world);
    let mut vertex = vec![u32::MAX; side * side];
    let mut corner = |k: usize, mesh: &mut MeshArrays| -> Option<u32> {
        let surface = level[k]?;
        if vertex[k] == u32::MAX {
            vertex[k] = mesh.positions.len() as u32;
            let point = dirs[k] * (radius + surface);
            mesh.positions.push(point.as_vec3().to_array());
            mesh.normals.push(dirs[k].as_vec3().to_array());
            mesh.colors.push(colour);
            let velocity = world.water().flow_at(point);
            let foam = grid.foam(k, velocity.length()) as f32;
            let [x, y, z] = velocity.as_vec3().to_array();
            mesh.flows.push([x, y, z, foam]);
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

/// A chunk's water grid: `side` × `side` points, row-major, each with its unit direction
/// and its river or lake surface (metres above the datum; `None` where dry).
struct WaterGrid<'a> {
    dirs: &'a [DVec3],
    wet: &'a [Option<f64>],
    side: usize,
    radius_m: f64,
}

impl WaterGrid<'_> {
    /// The points around point `k`, at most eight, those off the grid left out.
    fn neighbours(&self, k: usize) -> impl Iterator<Item = usize> {
        let side = self.side as isize;
        let (i, j) = (k as isize % side, k as isize / side);
        let around = (-1..=1).flat_map(move |dj| (-1..=1).map(move |di| (i + di, j + dj)));
        let on_grid = move |&(a, b): &(isize, isize)| {
            (a, b) != (i, j) && (0..side).contains(&a) && (0..side).contains(&b)
        };
        around.filter(on_grid).map(move |(a, b)| (b * side + a) as usize)
    }

    /// Foam at point `k`, 0..=1, by the heightmap maps' rule ([`foam`]): shores are a wet
    /// point beside a dry one, and the dry points the surface is carried onto (always
    /// [`SHORE_FOAM`]). `speed_m_s` is the water's speed there.
    fn foam(&self, k: usize, speed_m_s: f64) -> f64 {
        let Some(here) = self.wet[k] else { return SHORE_FOAM };
        let (mut at_shore, mut fall) = (false, 0.0f64);
        for n in self.neighbours(k) {
            let Some(there) = self.wet[n] else {
                at_shore = true;
                continue;
            };
            let apart_m = (self.dirs[k] - self.dirs[n]).length() * self.radius_m;
            fall = fall.max((here - there) / apart_m.max(1e-9));
        }
        foam(speed_m_s, fall, at_shore)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::ReachEnd;
    use crate::math::cube::select_chunks;
    use crate::testkit::{self, QUICK_WORLD};
    use crate::NodeKind;

    /// The water vertices of every chunk selected around `dir` (deepest level 7, 16 quads a
    /// chunk): (point, flow) pairs, after checking each mesh has one flow per vertex with
    /// foam in 0..=1.
    fn water_vertices(world: &World, dir: DVec3) -> Vec<(DVec3, [f32; 4])> {
        let r = world.terrain.settings.radius_m;
        let mut out = Vec::new();
        for key in select_chunks(r, dir * (r + 5.0), 1.5, 7) {
            let mesh = water_chunk_mesh(world, key, 16);
            assert_eq!(mesh.flows.len(), mesh.positions.len(), "one flow per water vertex");
            assert!(mesh
                .flows
                .iter()
                .all(|f| f.iter().all(|x| x.is_finite()) && (0.0..=1.0).contains(&f[3])));
            let points = mesh.positions.iter().map(|p| DVec3::from(p.map(f64::from)));
            out.extend(points.zip(mesh.flows.iter().copied()));
        }
        out
    }

    /// River water runs downstream along its reach at a speed, lake water stands still: a
    /// flow field that lost its sign or its reach would draw rivers running uphill.
    #[test]
    fn chunk_water_flows_downstream_and_lakes_stand_still() {
        let world = testkit::built(QUICK_WORLD);
        let r = world.terrain.settings.radius_m;
        let reaches = &world.terrain.carve.reaches;
        // The biggest river reach running into another river, away from falls and the sea.
        let reach = reaches
            .iter()
            .filter(|c| c.ends_in == ReachEnd::River && !c.fall && c.leaves_lake_m.is_none())
            .filter(|c| world.terrain.ground(c.middle()) > world.terrain.settings.sea_level_m)
            .max_by(|a, b| a.catchment_m2.total_cmp(&b.catchment_m2))
            .expect("the quick world has a river");
        let downstream = reach.along_at(reach.middle());
        let mut running = 0;
        for (p, flow) in water_vertices(world, reach.middle()) {
            let dir = p.normalize();
            let across_m = (dir - reach.middle()).dot(reach.across()).abs() * r;
            let along_m = (dir - reach.middle()).dot(downstream).abs() * r;
            if across_m > reach.half_width_m * 0.5 || along_m > reach.length_m * 0.25 {
                continue;
            }
            let velocity = DVec3::new(f64::from(flow[0]), f64::from(flow[1]), f64::from(flow[2]));
            assert!(velocity.dot(downstream) > 0.05, "water at the reach's middle flows {velocity}");
            assert!(velocity.dot(dir).abs() < 1e-3 * velocity.length().max(1.0), "flow leaves the surface");
            running += 1;
        }
        assert!(running > 0, "no water vertex in the reach's middle");

        let lake = world.terrain.drainage.kind.iter().position(|&k| k == NodeKind::Lake);
        let lake = world.terrain.lattice.positions()[lake.expect("the quick world has a lake")];
        let mut still = 0;
        for (p, flow) in water_vertices(world, lake) {
            let node = world.terrain.lattice.nearest_node(p.normalize()).index();
            if world.terrain.drainage.kind[node] == NodeKind::Lake {
                assert!(flow[..3].iter().all(|v| v.abs() < 0.01), "lake water flows {flow:?}");
                still += 1;
            }
        }
        assert!(still > 0, "no lake vertex");
    }
}
