//! Life on the quick world: the scatter's digest is pinned and the same on one thread, the
//! digest's chunks hold both trees and rocks, the village's clearing is kept, and the ground
//! map a terrain material reads is laid out as documented.

use glam::DVec3;
use watershed::testkit::{self, QUICK_WORLD};
use watershed::{
    ground_color, render_ground_map, scatter_digest_chunks, to_rgb8, Climate, Life, Scatter, ScatterKind,
    ScatterRules, SiteRules, Sites, World,
};

const QUICK_SCATTER: &str = "78149a064fd0540f892991315bef726a32a6e0382907860f21260aadd06853d1";

#[test]
fn quick_world_scatter_is_pinned_and_the_same_on_one_thread() {
    let world = testkit::built(QUICK_WORLD);
    assert_eq!(watershed::scatter_digest(world), QUICK_SCATTER);
    let settings = testkit::world(QUICK_WORLD);
    assert_eq!(
        testkit::with_threads(1, || watershed::scatter_digest(&World::build(&settings))),
        QUICK_SCATTER
    );
}

#[test]
fn the_digest_chunks_hold_trees_and_rocks_clear_of_the_village() {
    let world = testkit::built(QUICK_WORLD);
    let climate = Climate::of(world);
    let sites = Sites::of(world, &SiteRules::default());
    let life = Life::of(world);
    assert!(life.climate == climate && life.sites == sites, "Life holds the same parts");
    let rules = ScatterRules::default();
    let scatter = Scatter::new(world, &climate, &sites, rules);
    let chunks = scatter_digest_chunks(&sites);
    assert_eq!(chunks.len(), 7, "six face centres and the village's chunk");
    let things: Vec<_> = chunks.iter().flat_map(|&key| scatter.chunk(key)).collect();
    let trees = things.iter().filter(|t| t.kind.is_tree()).count();
    assert!(trees > 0 && trees < things.len(), "{trees} trees of {}", things.len());
    let kinds: std::collections::BTreeSet<ScatterKind> = things.iter().map(|t| t.kind).collect();
    let tree_kinds = kinds.iter().filter(|k| k.is_tree()).count();
    assert!(tree_kinds >= 2 && kinds.contains(&ScatterKind::Rock), "more than one kind of tree: {kinds:?}");
    let village = sites.village.expect("a village").dir;
    let radius = world.terrain.settings.radius_m;
    assert!(things.iter().all(|t| (t.dir - village).length() * radius >= rules.clearing_m));
    assert!(things.iter().all(|t| world.water().at(t.dir).is_none()));
}

/// The ground map's pixel (x, y) is the ground colour at longitude `atan2(x, z)` =
/// -180° + (x + ½)·360°/w and latitude `asin(y)` = 90° - (y + ½)·180°/h, the slope from the
/// neighbouring pixels' heights: the layout the voxel terrain's shader samples by direction.
#[test]
fn the_ground_map_is_the_ground_colour_by_latitude_and_longitude() {
    let world = testkit::built(QUICK_WORLD);
    let climate = Climate::of(world);
    let (w, h) = (64usize, 32usize);
    let map = render_ground_map(world, &climate, w, &|_| {});
    assert_eq!((map.width, map.height, map.rgb.len()), (w, h, w * h * 3));
    let dir = |x: usize, y: usize| {
        let lon = -std::f64::consts::PI + (x as f64 + 0.5) * std::f64::consts::TAU / w as f64;
        let lat = std::f64::consts::FRAC_PI_2 - (y as f64 + 0.5) * std::f64::consts::PI / h as f64;
        (DVec3::new(libm::cos(lat) * libm::sin(lon), libm::sin(lat), libm::cos(lat) * libm::cos(lon)), lat)
    };
    let ground = |x: usize, y: usize| world.terrain.planet.height_unit(dir(x, y).0);
    let radius = world.terrain.settings.radius_m;
    let mut differing = Vec::new();
    for (x, y) in [(5, 9), (20, 16), (40, 12), (60, 22), (33, 27)] {
        let (d, lat) = dir(x, y);
        let dx_m = radius * libm::cos(lat) * std::f64::consts::TAU / w as f64;
        let dy_m = 2.0 * radius * std::f64::consts::PI / h as f64;
        let gx = (ground(x + 1, y) - ground(x - 1, y)) / (2.0 * dx_m);
        let gy = (ground(x, y - 1) - ground(x, y + 1)) / dy_m;
        let slope = libm::atan(gx.hypot(gy)).to_degrees();
        let moisture = climate.moisture_at(&world.terrain.lattice, d);
        let want = to_rgb8(ground_color(&world.terrain.settings, ground(x, y), slope, lat, moisture));
        let k = (y * w + x) * 3;
        if map.rgb[k..k + 3] != want {
            differing.push((x, y, map.rgb[k..k + 3].to_vec(), want));
        }
    }
    assert!(differing.is_empty(), "{differing:?}");
}
