//! Life on the quick world: the scatter's digest is pinned and the same on one thread, the
//! digest's chunks hold both trees and rocks, and the village's clearing is kept.

use watershed::testkit::{self, QUICK_WORLD};
use watershed::{
    scatter_digest_chunks, Climate, Life, Scatter, ScatterKind, ScatterRules, SiteRules, Sites, World,
};

const QUICK_SCATTER: &str = "7bfb3223dd8a8b4efcb112790f2ba11320efe698687605e12ade73408d21ecda";

#[test]
fn quick_world_scatter_is_pinned_and_the_same_on_one_thread() {
    let world = testkit::built(QUICK_WORLD);
    assert_eq!(world.scatter_digest(), QUICK_SCATTER);
    let settings = testkit::world(QUICK_WORLD);
    assert_eq!(testkit::with_threads(1, || World::build(&settings).scatter_digest()), QUICK_SCATTER);
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
    let trees = things.iter().filter(|t| t.kind == ScatterKind::Tree).count();
    assert!(trees > 0 && trees < things.len(), "{trees} trees of {}", things.len());
    let village = sites.village.expect("a village").dir;
    let radius = world.settings.radius_m;
    assert!(things.iter().all(|t| (t.dir - village).length() * radius >= rules.clearing_m));
    assert!(things.iter().all(|t| world.water_at(t.dir).is_none()));
}
