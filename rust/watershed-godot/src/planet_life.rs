//! `PlanetLife`: the climate, biomes and sites of a solved world.

use crate::convert::{checked_direction, checked_number, image_from_bytes, record_to_dictionary, to_vector3};
use crate::drainage_solver::{solved_world, DrainageSolver};
use crate::life_cache::shared_life;
use godot::classes::image::Format;
use godot::classes::Image;
use godot::prelude::*;
use std::sync::{Arc, OnceLock};
use watershed::{biome_at, render_ground_map, render_map, Biome, Figures, Life, Places, World};

/// What lives on the solver's world: the biome under any point, the village and its hamlets
/// (flat dry ground a short walk from a river or lake, above its flood), the mill beside the
/// village and the spawn (gentle dry ground nearest the coast in sight of the village). It
/// is worked out once per solve, shared with `PlanetTerrain` and `PlanetScatter`; a query
/// before it is ready waits for it (a few hundred milliseconds on a 90,000-node world). Directions are from the planet's centre; `Vector3.ZERO` or an empty
/// result before a solve or where a world has no such place.
#[derive(GodotClass)]
#[class(tool, init, base = Node)]
pub struct PlanetLife {
    /// The solver whose world this reads.
    #[export]
    solver: Option<Gd<DrainageSolver>>,
    base: Base<Node>,
}

#[godot_api]
impl PlanetLife {
    /// The biome at `direction` (`"forest"`, `"snow"`, …); `""` where water stands or before
    /// a solve.
    #[func]
    fn biome_at(&self, direction: Vector3) -> GString {
        let Some(dir) = checked_direction(direction, "PlanetLife.biome_at") else { return GString::new() };
        let Some((world, life)) = self.life() else { return GString::new() };
        biome_at(&world, &life.climate, dir).map_or_else(GString::new, |b| b.name().into())
    }

    /// Unit direction of the lattice node of biome `biome` (`"forest"`, `"snow"`, …) nearest
    /// `near` on which a walker stands in that biome (slope under `max_slope_deg` across 3 m);
    /// `Vector3.ZERO` when there is none, and an error for an unknown name.
    #[func]
    fn find_biome(&self, biome: GString, near: Vector3, max_slope_deg: f64) -> Vector3 {
        let Some(dir) = checked_direction(near, "PlanetLife.find_biome") else { return Vector3::ZERO };
        let name = biome.to_string();
        let Some(wanted) = Biome::from_name(&name) else {
            godot_error!("PlanetLife.find_biome: no biome '{name}'");
            return Vector3::ZERO;
        };
        let Some((world, life)) = self.life() else { return Vector3::ZERO };
        let slope = if max_slope_deg.is_finite() { max_slope_deg.clamp(1.0, 89.0) } else { 25.0 };
        life.biomes
            .nearest(&world, &life.climate, wanted, watershed::unit(dir), slope)
            .map_or(Vector3::ZERO, |i| to_vector3(world.terrain.lattice.positions()[i]))
    }

    /// Unit direction of the village's centre.
    #[func]
    fn village_site(&self) -> Vector3 {
        self.life().and_then(|(_, l)| l.sites.village).map_or(Vector3::ZERO, |s| to_vector3(s.dir))
    }

    /// Unit directions of the hamlets, best first.
    #[func]
    fn hamlet_sites(&self) -> PackedVector3Array {
        let Some((_, life)) = self.life() else { return PackedVector3Array::new() };
        life.sites.hamlets.iter().map(|s| to_vector3(s.dir)).collect()
    }

    /// Unit direction of the middle of the mill's reach beside the village.
    #[func]
    fn village_mill_site(&self) -> Vector3 {
        self.life().and_then(|(_, l)| l.sites.mill).map_or(Vector3::ZERO, |(dir, _)| to_vector3(dir))
    }

    /// Unit direction of the spawn.
    #[func]
    fn spawn_site(&self) -> Vector3 {
        self.life().and_then(|(_, l)| l.sites.spawn).map_or(Vector3::ZERO, |s| to_vector3(s.dir))
    }

    /// The named places around the village, name → unit direction, in a fixed order:
    /// `spawn` always, then `village`, `mill`, `downstream` (the river just below the mill),
    /// `boat` (on the largest river), `sea` (open water), `lake`, `mouth`, `forest` and `snow`
    /// where the world has them. Empty before a solve.
    #[func]
    fn places(&self) -> VarDictionary {
        let mut d = VarDictionary::new();
        let Some((world, life)) = self.life() else { return d };
        for (name, dir) in Places::of(&world, &life).named {
            d.set(name, to_vector3(dir));
        }
        d
    }

    /// Unit direction where a boat is let go on the largest river, a little above the
    /// `boat` place.
    #[func]
    fn boat_launch(&self) -> Vector3 {
        let Some((world, life)) = self.life() else { return Vector3::ZERO };
        Places::of(&world, &life).boat_launch.map_or(Vector3::ZERO, to_vector3)
    }

    /// Unit direction where the `mouth` place's river runs into the sea: what a walker at
    /// the mouth looks towards. `Vector3.ZERO` without a mouth.
    #[func]
    fn mouth_out(&self) -> Vector3 {
        let Some((world, life)) = self.life() else { return Vector3::ZERO };
        Places::of(&world, &life).mouth_out.map_or(Vector3::ZERO, to_vector3)
    }

    /// The headline figures of the solve, as `report.json`'s `figures` (the same names and
    /// values): `river_nodes`, `reaches`, `lakes`, `mouths`, `largest_catchment_km2`,
    /// `max_strahler`, `bank_mismatches`, `lake_shore_mismatches`, `water_steps`, `uphill`,
    /// `village` (`{lat_deg, lon_deg}` or null), `hamlets`, `why_no_village`. Empty before a
    /// solve.
    #[func]
    fn figures(&self) -> VarDictionary {
        let Some((world, life)) = self.life() else { return VarDictionary::new() };
        record_to_dictionary(&Figures::of(&world, &life))
    }

    /// The shaded-relief map `watershed generate` writes as `map.png` (lakes, rivers, falls
    /// and mouths drawn, the ground in its biome's colours), `width` × `width / 2` RGB8
    /// pixels (16 to 8192 wide), longitude -180° at the left, north up. Null before a solve.
    #[func]
    fn map(&self, width: i64) -> Option<Gd<Image>> {
        let width = checked_number(width as f64, 16.0..=8192.0, "PlanetLife.map", "width")?;
        let (world, life) = self.life()?;
        rgb_image(render_map(&world, &life.climate, width as usize, &|_| {}))
    }

    /// The unit direction under a point of `map()` (or `ground_map()`), given as fractions of
    /// its width and height from the top-left corner (0..1 each).
    #[func]
    fn map_direction(uv: Vector2) -> Vector3 {
        to_vector3(watershed::map_direction(f64::from(uv.x), f64::from(uv.y)))
    }

    /// Where `direction` lies on `map()`, as fractions of its width and height from the
    /// top-left corner (the inverse of `map_direction`).
    #[func]
    fn map_uv(direction: Vector3) -> Vector2 {
        let Some(dir) = checked_direction(direction, "PlanetLife.map_uv") else { return Vector2::ZERO };
        let (u, v) = watershed::map_fractions(dir);
        Vector2::new(u as f32, v as f32)
    }

    /// The bare ground's colour by the biome rules as an equirectangular RGB8 image,
    /// `width` × `width / 2` pixels (16 to 8192 wide), north up, longitude -180° at the left
    /// (`atan2(x, z)`), latitude `asin(y)`: unshaded, the sea floor and lake beds included,
    /// for a terrain material to sample by direction (the voxel planet's
    /// `planet_ground.gdshader`). Null before a solve.
    #[func]
    fn ground_map(&self, width: i64) -> Option<Gd<Image>> {
        let width = checked_number(width as f64, 16.0..=8192.0, "PlanetLife.ground_map", "width")?;
        let (world, life) = self.life()?;
        rgb_image(render_ground_map(&world, &life.climate, width as usize, &|_| {}))
    }

    /// The playability figures: `walkable_land` and `impassable_land` (shares of the dry
    /// land), `village_sites_found`, `hamlets`, `why_no_village` (`""` with a village),
    /// `spawn_to_coast_m` and `spawn_to_village_m` (NaN without one).
    #[func]
    fn playability(&self) -> VarDictionary {
        let mut d = VarDictionary::new();
        let Some((_, life)) = self.life() else { return d };
        let sites = &life.sites;
        d.set("walkable_land", sites.walkable);
        d.set("impassable_land", sites.impassable);
        d.set("village_sites_found", sites.candidates as i64);
        d.set("hamlets", sites.hamlets.len() as i64);
        d.set("why_no_village", sites.why_not.clone().unwrap_or_default());
        d.set("spawn_to_coast_m", sites.spawn.map_or(f64::NAN, |s| s.to_coast_m));
        d.set("spawn_to_village_m", sites.spawn.and_then(|s| s.to_village_m).unwrap_or(f64::NAN));
        d
    }
}

impl PlanetLife {
    /// The solved world and its life.
    fn life(&self) -> Option<(Arc<World>, Ready)> {
        let world = solved_world(self.solver.as_ref(), "PlanetLife")?;
        let life = Ready(shared_life(&world));
        Some((world, life))
    }
}

/// A core picture as a Godot RGB8 image.
fn rgb_image(picture: watershed::Image) -> Option<Gd<Image>> {
    image_from_bytes(picture.width, picture.height, Format::RGB8, picture.rgb)
}

/// A world's shared life, read once it is worked out: a read waits for it.
struct Ready(Arc<OnceLock<Life>>);

impl std::ops::Deref for Ready {
    type Target = Life;

    fn deref(&self) -> &Life {
        self.0.wait()
    }
}
